package gonb

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/tensornb/tensornb/internal/displaysink"
	"github.com/tensornb/tensornb/kernel/cellpanic"
	"github.com/tensornb/tensornb/kernel/internal/explain"
	"github.com/tensornb/tensornb/kernel/internal/front"
	"github.com/tensornb/tensornb/kernel/internal/wire"
)

// A translator turns what GoNB publishes while it runs one cell into the
// front's outputs. It holds back what GoNB reports in its own way: a panic
// (stack trace on stderr, then "exit status 2", then status "ok"), a
// compile error (GoNB's error output), a non-zero exit status; outcome
// makes each the cell's single error.
type translator struct {
	out front.Output
	id  int       // GoNB's id of the cell
	ran []ranCell // the cells run so far, this one last (ran[id-1])
	// module is the directory of the tensornb source cells build against;
	// stacks name its files from "tensornb/".
	module string

	mu        sync.Mutex
	panicking bool
	panicText strings.Builder
	// reporting is set once cellpanic.Report's line began: a refused
	// tensor operation, held back in reportText.
	reporting  bool
	reportText strings.Builder
	exit       int    // the program's exit status, if it said one other than 0
	signal     string // the signal that ended the program, as Go names it ("killed")
	compile    *front.CellError
}

// displayContent is the content of a display_data, update_display_data
// or execute_result message.
type displayContent struct {
	Data      map[string]any `json:"data"`
	Metadata  map[string]any `json:"metadata"`
	Transient struct {
		DisplayID string `json:"display_id"`
	} `json:"transient"`
}

func (t *translator) iopub(m *wire.Message) {
	t.mu.Lock()
	defer t.mu.Unlock()
	var c struct {
		Name string `json:"name"`
		Text string `json:"text"`
		displayContent
		Wait      bool     `json:"wait"`
		EValue    string   `json:"evalue"`
		Traceback []string `json:"traceback"`
	}
	if m.Decode(&c) != nil {
		return
	}
	switch m.Type() {
	case "stream":
		if c.Name == "stderr" {
			t.stderr(c.Text)
			return
		}
		t.out.Stream(c.Name, c.Text)
	case "display_data":
		unpackMetadata(c.Metadata)
		if c.Metadata[displaysink.ResultMetadata] == true {
			delete(c.Metadata, displaysink.ResultMetadata)
			t.out.Result(c.Data, c.Metadata)
			return
		}
		t.out.Display(c.Data, c.Metadata, c.Transient.DisplayID, false)
	case "update_display_data":
		unpackMetadata(c.Metadata)
		t.out.Display(c.Data, c.Metadata, c.Transient.DisplayID, true)
	case "execute_result":
		t.out.Result(c.Data, c.Metadata)
	case "clear_output":
		t.out.ClearOutput(c.Wait)
	case "error":
		if m := programEnd.FindStringSubmatch(c.EValue); m != nil {
			t.ended(m)
			return
		}
		t.compile = t.compileError(c.EValue, c.Traceback)
	case "comm_open", "comm_msg", "comm_close":
		t.out.Comm(front.CommMessage{Type: m.Type(), Content: m.Content, Metadata: m.Metadata, Buffers: m.Buffers})
	}
}

// unpackMetadata puts the metadata a display sent as displaysink.JSONMetadata
// in place.
func unpackMetadata(md map[string]any) {
	text, ok := md[displaysink.JSONMetadata].(string)
	if !ok {
		return
	}
	delete(md, displaysink.JSONMetadata)
	var unpacked map[string]any
	if json.Unmarshal([]byte(text), &unpacked) == nil {
		maps.Copy(md, unpacked)
	}
}

var exitStatus = regexp.MustCompile(`^exit status (\d+)\n?$`)

// programEnd is how GoNB says that a cell's program failed, in Go's
// exec package's words: a non-zero exit status, or the signal that ended
// the program. GoNB writes it as a line of standard error and, since
// v0.11.4, sends it as an error too, which is no compile error.
var programEnd = regexp.MustCompile(`^(?:exit status (\d+)|signal: (.+))$`)

// ended notes the program's end that GoNB's error m (of programEnd) says.
func (t *translator) ended(m []string) {
	if m[2] != "" {
		t.signal = m[2]
		return
	}
	if code, _ := strconv.Atoi(m[1]); code != 0 {
		t.exit = code
	}
}

// stderr forwards the program's standard error, except a panic's report,
// cellpanic.Report's line and GoNB's line of how the program ended ("exit
// status 3", "signal: killed"), which become the cell's error.
func (t *translator) stderr(text string) {
	switch {
	case t.panicking:
		t.panicText.WriteString(text)
		return
	case t.reporting:
		t.reportText.WriteString(text)
		return
	}
	if m := programEnd.FindStringSubmatch(strings.TrimSuffix(text, "\n")); m != nil {
		t.ended(m)
		return
	}
	for _, start := range []struct {
		prefix string
		flag   *bool
		held   *strings.Builder
	}{{"panic: ", &t.panicking, &t.panicText}, {cellpanic.Prefix, &t.reporting, &t.reportText}} {
		if at := lineStart(text, start.prefix); at >= 0 {
			if at > 0 {
				t.out.Stream("stderr", text[:at])
			}
			*start.flag = true
			start.held.WriteString(text[at:])
			return
		}
	}
	t.out.Stream("stderr", text)
}

// lineStart returns where a line of text starts with prefix, or -1.
func lineStart(text, prefix string) int {
	at := strings.Index(text, prefix)
	for at > 0 && text[at-1] != '\n' {
		next := strings.Index(text[at+1:], prefix)
		if next < 0 {
			return -1
		}
		at += 1 + next
	}
	return at
}

// outcome returns the cell's error, if it had one.
func (t *translator) outcome(reply *wire.Message) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	switch {
	case t.reporting:
		return t.reportError()
	case t.panicking:
		return t.panicError()
	case t.compile != nil:
		return t.compile
	case t.exit != 0:
		return front.Exit(t.exit)
	case t.signal != "":
		return signalError(t.signal)
	}
	var r struct {
		Status string `json:"status"`
		EName  string `json:"ename"`
		EValue string `json:"evalue"`
	}
	if reply.Decode(&r) == nil && r.Status == "error" {
		return &front.CellError{Name: r.EName, Value: r.EValue, Traceback: []string{r.EName + ": " + r.EValue}}
	}
	return nil
}

// signalError is the error of a cell whose program a signal ended,
// named as Go names it ("killed": the out-of-memory killer, or a kill
// from outside).
func signalError(signal string) *front.CellError {
	value := "signal: " + signal
	return &front.CellError{Name: "Exit", Value: value, Traceback: []string{"Exit: the program was ended by " + value}}
}

var (
	ansi       = regexp.MustCompile("\x1b\\[[0-9;]*m")
	cellMarker = regexp.MustCompile(`\[\[ Cell \[(\d+)\] Line (\d+) \]\]\s*\S*`)
	// mainGo is a position in GoNB's generated program that GoNB did not
	// mark: it maps positions chunk by chunk as the program's standard
	// error reaches it, and misses those split across two reads.
	mainGo = regexp.MustCompile(`(\S*/main\.go):(\d+)`)
	// callArgs are the raw argument words of a stack frame, and pcOffset
	// the program counter after a position: both change from run to run
	// and mean nothing to the reader.
	callArgs = regexp.MustCompile(`\((?:0x[0-9a-f]+|\{[^{}]*\}|\.\.\.)(?:, (?:0x[0-9a-f]+|\{[^{}]*\}|\.\.\.))*\)$`)
	pcOffset = regexp.MustCompile(` \+0x[0-9a-f]+$`)
)

// panicError makes the held-back panic report an error: the panic value,
// and the stack with positions in GoNB's generated main.go replaced by
// lines of the cells, tensornb's files named from "tensornb/", and
// argument words and program counters left out.
func (t *translator) panicError() *front.CellError {
	text := ansi.ReplaceAllString(t.panicText.String(), "")
	value, stack, _ := strings.Cut(strings.TrimPrefix(text, "panic: "), "\n\n")
	// cellpanic.Report panicked again with what it recovered.
	value = strings.TrimSuffix(value, " [recovered, repanicked]")
	var lines []string
	lines = append(lines, "panic: "+value)
	program := map[string][]string{} // the generated programs read, by path
	for _, line := range strings.Split(withoutReport(stack), "\n") {
		if exitStatus.MatchString(line) {
			continue
		}
		line = pcOffset.ReplaceAllString(callArgs.ReplaceAllString(t.cellPositions(line, program), "(...)"), "")
		if t.module != "" {
			line = strings.ReplaceAll(line, t.module+"/", "tensornb/")
		}
		lines = append(lines, line)
	}
	return &front.CellError{Name: "panic", Value: value, Traceback: trimEmpty(lines)}
}

// cellPositions replaces the positions in GoNB's generated main.go that
// line names with lines of the cells; program holds the generated
// programs read so far, by path.
func (t *translator) cellPositions(line string, program map[string][]string) string {
	line = cellMarker.ReplaceAllStringFunc(line, func(marker string) string {
		sub := cellMarker.FindStringSubmatch(marker)
		id, _ := strconv.Atoi(sub[1])
		n, _ := strconv.Atoi(sub[2])
		return t.position(id, n)
	})
	return mainGo.ReplaceAllStringFunc(line, func(pos string) string {
		sub := mainGo.FindStringSubmatch(pos)
		if _, ok := program[sub[1]]; !ok {
			data, _ := os.ReadFile(sub[1])
			program[sub[1]] = strings.Split(string(data), "\n")
		}
		n, _ := strconv.Atoi(sub[2])
		if id, line, ok := t.locate(program[sub[1]], n); ok {
			return t.position(id, line)
		}
		return pos
	})
}

// reportFrame starts the stack frame of cellpanic.Report.
const reportFrame = "github.com/tensornb/tensornb/kernel/cellpanic.Report("

// withoutReport drops from a stack the frames that cellpanic.Report adds
// when it panics again: its own, and the runtime's panic call after it,
// each a line and a position.
func withoutReport(stack string) string {
	at := strings.Index(stack, reportFrame)
	if at < 0 {
		return stack
	}
	p := strings.Index(stack[at:], "\npanic(")
	if p < 0 {
		return stack
	}
	end := at + p + 1
	for range 2 {
		nl := strings.Index(stack[end:], "\n")
		if nl < 0 {
			return stack[:at]
		}
		end += nl + 1
	}
	return stack[:at] + stack[end:]
}

// reportError makes cellpanic.Report's line the cell's error: PyTorch's
// exception, at the cell line of the statement that failed.
func (t *translator) reportError() *front.CellError {
	line, _, _ := strings.Cut(ansi.ReplaceAllString(t.reportText.String(), ""), "\n")
	e, at, ok := cellpanic.Parse(line)
	if !ok {
		ce := front.EngineError(errors.New("an unreadable report of a tensor error"))
		ce.Traceback = []string{line} // the report, for whoever reads it
		return ce
	}
	where := strings.TrimSpace(t.cellPositions(at, map[string][]string{}))
	if !strings.HasPrefix(where, "cell line ") {
		where = ""
	}
	return explain.TensorError(e, where)
}

// position names line n of the code GoNB ran as cell id as a line of the
// cell as written.
func (t *translator) position(id, n int) string {
	if id < 1 || id > len(t.ran) {
		return fmt.Sprintf("(line %d of a cell run before GoNB last started)", n)
	}
	r := t.ran[id-1]
	line := r.cell.cellLine(n)
	if line == 0 {
		return "(a line tensornb added to the cell)"
	}
	where := "cell line"
	if id != t.id {
		where = "earlier cell, line"
	}
	return fmt.Sprintf("%s %d: %s", where, line, strings.TrimSpace(r.sourceLine(line)))
}

// locate finds where line n of a generated program came from: GoNB copies
// the lines of the cells it keeps into main.go as they are, so the line is
// looked for in the cells run, this one first, and among equal lines the
// one whose neighbours match the program's most is taken.
func (t *translator) locate(program []string, n int) (id, line int, ok bool) {
	if n < 1 || n > len(program) {
		return 0, 0, false
	}
	want := strings.TrimSpace(program[n-1])
	if want == "" {
		return 0, 0, false
	}
	best := -1
	for i := len(t.ran); i >= 1; i-- {
		code := strings.Split(t.ran[i-1].cell.code, "\n")
		for l, text := range code {
			if strings.TrimSpace(text) != want || t.ran[i-1].cell.cellLine(l+1) == 0 {
				continue
			}
			score := 0
			for d := 1; d <= 3; d++ {
				score += same(program, n-1-d, code, l-d) + same(program, n-1+d, code, l+d)
			}
			if score > best {
				best, id, line = score, i, l+1
			}
		}
	}
	return id, line, best >= 0
}

// same is 1 if a[i] and b[j] both exist and hold the same code.
func same(a []string, i int, b []string, j int) int {
	if i < 0 || j < 0 || i >= len(a) || j >= len(b) || strings.TrimSpace(a[i]) != strings.TrimSpace(b[j]) {
		return 0
	}
	return 1
}

// sourceLine returns line (from 1) of the cell as written.
func (r ranCell) sourceLine(line int) string {
	if line < 1 || line > len(r.source) {
		return ""
	}
	return r.source[line-1]
}

var gonbCellLine = regexp.MustCompile(`^Cell\[\d+\]: Line (\d+)`)

// compileError makes GoNB's report of a failed build an error naming the
// lines of the cell: GoNB gives, for each error, "Cell[n]: Line l", the
// generated code around it, and the compiler's message last.
func (t *translator) compileError(evalue string, traceback []string) *front.CellError {
	var messages []string
	for _, entry := range traceback {
		m := gonbCellLine.FindStringSubmatch(entry)
		if m == nil {
			continue
		}
		n, _ := strconv.Atoi(m[1])
		lines := trimEmpty(strings.Split(entry, "\n"))
		msg := lines[len(lines)-1]
		r := t.ran[t.id-1]
		line := r.cell.cellLine(n)
		if line == 0 {
			messages = append(messages, msg)
			continue
		}
		src := strings.TrimSpace(r.sourceLine(line))
		text := fmt.Sprintf("cell line %d: %s\n    %s", line, msg, src)
		if h := explain.IndexHint(msg, src); h != "" {
			text += "\n" + h
		}
		messages = append(messages, text)
	}
	if len(messages) == 0 { // an error outside the cell, such as a module problem
		var lines []string
		for _, l := range strings.Split(evalue, "\n") {
			if !strings.HasPrefix(l, "# ") && strings.TrimSpace(l) != "" {
				lines = append(lines, l)
			}
		}
		messages = []string{strings.Join(lines, "\n")}
	}
	value, _, _ := strings.Cut(messages[0], "\n")
	var lines []string
	for _, m := range messages {
		lines = append(lines, strings.Split(m, "\n")...)
	}
	return front.CompileError(value, lines)
}

// trimEmpty drops empty lines at both ends.
func trimEmpty(lines []string) []string {
	for len(lines) > 0 && strings.TrimSpace(lines[0]) == "" {
		lines = lines[1:]
	}
	for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}
