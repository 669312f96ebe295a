package interp

import (
	"context"
	"fmt"
	"io"
	"reflect"
	"regexp"
	"strings"
	"sync"
	"unicode/utf8"
)

// A panic in interpreted code is reported with its frames, innermost
// first, as Go's stack trace lists them: the function, as Go names it,
// and the cell and line it had reached. yaegi v0.16.1 knows neither at a
// panic: as each interpreted frame unwinds it writes a line naming the
// frame's function ("1:47: panic: main.third(...)"), but the position is
// that of the function's first statement, whatever statement failed. So
// the rewrite marks the cells' code (instrument.go): before each
// statement that can fail, an assignment of the statement's site, a
// number the checker keeps the place of, to a package-level variable of
// the function's own (tensornbLine_third = 17; return s[2]). At a panic
// the session reads, for each frame the unwinding named, that variable
// (Session.frames).

// A cellRecord is a cell that ran, for naming its lines in frames.
type cellRecord struct {
	// label names the cell among others: In[3], as IPython does, or, for
	// a cell run without an execution count, its first line, quoted.
	label string
	lines []string
}

// newCellRecord records code, run under execution count count (0: none).
func newCellRecord(code string, count int) *cellRecord {
	c := &cellRecord{lines: strings.Split(code, "\n")}
	if count > 0 {
		c.label = fmt.Sprintf("In[%d]", count)
		return c
	}
	first := ""
	for _, l := range c.lines {
		if first = strings.TrimSpace(l); first != "" {
			break
		}
	}
	const most = 40 // runes
	if utf8.RuneCountInString(first) > most {
		first = string([]rune(first)[:most-1]) + "…"
	}
	c.label = `"` + first + `"`
	return c
}

// line returns line n (from 1) of the cell, trimmed, or "".
func (c *cellRecord) line(n int) string {
	if n < 1 || n > len(c.lines) {
		return ""
	}
	return strings.TrimSpace(c.lines[n-1])
}

// A codeFunc is a function of the cells' code, as frames name it.
type codeFunc struct {
	// name is Go's: third, (*Grid).First, third.func1, func1 (a literal
	// at a cell's top level, main's in a program), init.func1 (one in a
	// package-level variable's value).
	name string
	// key is yaegi's name of its frames, without "main.": third, First
	// (a method by its name alone), third.func (every literal of third),
	// func (every literal at the cells' top level).
	key string
	// sites are the sites of its statements.
	sites []int
}

// A siteTable holds the sites of the cells' code, numbered from 1. The
// sites of a cell's top level (fn nil) are read only while the cell
// runs: its statements, and the units they are in, run once. Once it
// has run, release gives their numbers to the sites of later cells, so
// that a session does not keep, for every cell it ran, sites and the
// cell's text they name. The sites of functions stay: the functions
// may run, and fail, in any later cell.
type siteTable struct {
	sites []*codeSite
	free  []int // numbers released, for add to give again
	top   []int // the numbers of top-level sites added since release
}

// add records s and returns its number.
func (t *siteTable) add(s codeSite) int {
	if len(t.sites) == 0 {
		t.sites = append(t.sites, nil) // 0 is no site
	}
	id := len(t.sites)
	if n := len(t.free); n > 0 {
		id, t.free = t.free[n-1], t.free[:n-1]
		t.sites[id] = &s
	} else {
		t.sites = append(t.sites, &s)
	}
	if s.fn == nil {
		t.top = append(t.top, id)
	}
	return id
}

// release forgets the top-level sites added since it was last called,
// and frees their numbers.
func (t *siteTable) release() {
	for _, id := range t.top {
		t.sites[id] = nil
		t.free = append(t.free, id)
	}
	t.top = t.top[:0]
}

// site returns the site numbered id, or nil.
func (c *checker) site(id int) *codeSite {
	if id <= 0 || id >= len(c.sites.sites) {
		return nil
	}
	return c.sites.sites[id]
}

// A codeSite is a statement of the cells' code that the rewrite marked,
// or a unit at a cell's top level.
type codeSite struct {
	cell *cellRecord
	line int       // the cell line the statement starts on
	fn   *codeFunc // nil at a cell's top level
	// calls are the calls of the statement's own expressions (not those
	// of its blocks), which name the line of a frame that called another.
	calls []siteCall
}

// A siteCall is a call in a site's statement: of a named function or
// method (name, as yaegi names its frames), or of a function literal
// called in place (lit); line is the cell line of its parenthesis, the
// line Go gives a frame that made the call.
type siteCall struct {
	name string
	lit  *codeFunc
	line int
}

// callee reports whether c calls the function of a frame of key that
// ran fn (nil if not known).
func (c siteCall) callee(key string, fn *codeFunc) bool {
	if c.lit != nil {
		return c.lit == fn
	}
	return c.name != "" && c.name == key
}

// lineVar returns the name of the variable that holds the site that the
// frames of key last reached; key "" is a cell's top level.
func lineVar(key string) string {
	if key == "" {
		return "tensornbLine"
	}
	return "tensornbLine_" + strings.ReplaceAll(key, ".", "_")
}

// frameRecorder passes writes on to w, except the lines yaegi v0.16.1
// writes by itself as interpreted frames unwind in a panic ("1:46:
// panic: main.third(...)"): the panic is the cell's error already. It
// keeps the functions they name, innermost first.
type frameRecorder struct {
	w      io.Writer
	mu     sync.Mutex
	frames []string
	// dropped counts the frames left out of frames past recordedFrames.
	dropped int
}

// recordedFrames is the most frames a recorder keeps: the innermost
// half and the outermost half.
const recordedFrames = 2000

var yaegiPanicLine = regexp.MustCompile(`^\d+:\d+: panic: (.*)\(\.\.\.\)\n$`)

func (f *frameRecorder) Write(p []byte) (int, error) {
	m := yaegiPanicLine.FindSubmatch(p)
	if m == nil {
		return f.w.Write(p)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.frames) == recordedFrames {
		// Keep the innermost half; the outermost half rolls.
		copy(f.frames[recordedFrames/2:], f.frames[recordedFrames/2+1:])
		f.frames = f.frames[:recordedFrames-1]
		f.dropped++
	}
	f.frames = append(f.frames, string(m[1]))
	return len(p), nil
}

// reset forgets the frames recorded: a new step runs, or interpreted
// code recovers from a panic whose frames were recorded.
func (f *frameRecorder) reset() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.frames, f.dropped = nil, 0
}

// take returns the frames recorded since the last reset, and how many
// between them were left out.
func (f *frameRecorder) take() ([]string, int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.frames...), f.dropped
}

// runtimePath is the import path under which a session gives yaegi the
// compiled functions that the rewrite's additions call, and runtimeName
// the name it imports them under.
const (
	runtimePath = "github.com/tensornb/tensornb/kernel/internal/interp/tensornbruntime"
	runtimeName = "tensornbRuntime"
)

// runtimeSymbols returns the table of those functions for yaegi:
// Bounds (see bounds.go), and Recovering, which the rewrite calls before
// a statement that calls recover, so that the frames a recovered panic
// unwound are not taken for those of a later one.
func runtimeSymbols(rec *frameRecorder) map[string]map[string]reflect.Value {
	return map[string]map[string]reflect.Value{runtimePath + "/tensornbruntime": {
		"Bounds":     reflect.ValueOf(panicBounds),
		"Recovering": reflect.ValueOf(rec.reset),
	}}
}

// A frame is one interpreted frame of a panic, as traced: its function,
// and the site and line it had reached (nil and 0 if not known); or, if
// elided is set, that many frames left out.
type frame struct {
	key    string
	fn     *codeFunc
	site   *codeSite
	line   int
	elided int
}

// frames returns the interpreted frames of the panic that ended the step
// st, innermost first, the outermost the step's own. A frame's site is
// read from its function's variable (see lineVar) the first time its key
// appears; a frame whose key appeared closer in (recursion) is placed by
// its call of the frame inside it, if its function has a single site
// that makes that call. Each frame but the innermost is at the line of
// its call of the frame inside, if the site's calls say it.
func (s *Session) frames(st step) []frame {
	names, elided := s.recorder.take()
	read := map[string]bool{}
	var frames []frame
	top := frame{site: s.check.site(st.site)}
	for i, name := range names {
		if elided > 0 && i == recordedFrames/2 {
			frames = append(frames, frame{elided: elided})
		}
		key, ok := strings.CutPrefix(name, "main.")
		if !ok {
			continue // main itself, the evaluation, or a package's frame
		}
		if rest, ok := strings.CutPrefix(key, statementFunc); ok {
			// tensornbStatementN, the step's own, or a literal in it
			_, key, _ = strings.Cut(rest, ".")
			if key == "" {
				top.site = s.siteOf("")
				break
			}
		}
		f := frame{key: key}
		if !read[key] {
			read[key] = true
			f.site = s.siteOf(key)
			if f.site != nil {
				f.fn = f.site.fn
			}
		} else if n := len(frames); n > 0 {
			f.site, f.fn = s.callerSite(key, frames[n-1])
		}
		frames = append(frames, f)
	}
	frames = append(frames, top)
	for i := range frames {
		f := &frames[i]
		if f.site == nil {
			continue
		}
		f.line = f.site.line
		if i == 0 || frames[i-1].elided > 0 {
			continue
		}
		// The line of the call of the frame inside, if one line has it.
		line := 0
		for _, c := range f.site.calls {
			if c.callee(frames[i-1].key, frames[i-1].fn) {
				if line != 0 && line != c.line {
					line = 0
					break
				}
				line = c.line
			}
		}
		if line > 0 {
			f.line = line
		}
	}
	return frames
}

// siteOf reads the site that the variable of key holds, or nil.
func (s *Session) siteOf(key string) *codeSite {
	v, err := s.evalOnce(context.Background(), lineVar(key))
	if err != nil || !v.IsValid() || !v.CanInt() {
		return nil
	}
	return s.check.site(int(v.Int()))
}

// callerSite returns where a frame of key, which called the frame inside
// it, was: the one site of its function that calls inner's function. The
// function is the one that the innermost frame of key ran.
func (s *Session) callerSite(key string, inner frame) (*codeSite, *codeFunc) {
	first := s.siteOf(key)
	if first == nil || first.fn == nil {
		return nil, nil
	}
	fn := first.fn
	var found *codeSite
	for _, id := range fn.sites {
		site := s.check.site(id)
		for _, c := range site.calls {
			if c.callee(inner.key, inner.fn) {
				if found != nil && found != site {
					return nil, fn
				}
				found = site
			}
		}
	}
	return found, fn
}

// traceback writes frames, innermost first, as lines of a traceback:
// "cell line 3: text" at the running cell's top level, with ", in f"
// inside a function f, and "Cell In[2], line 3, in f: text" in an
// earlier cell. A run of more than three equal lines (recursion) is
// shortened.
func (s *Session) traceback(frames []frame) []string {
	var lines []string
	for _, f := range frames {
		lines = append(lines, s.frameLine(f))
	}
	var out []string
	for i := 0; i < len(lines); {
		j := i + 1
		for j < len(lines) && lines[j] == lines[i] {
			j++
		}
		if n := j - i; n > 3 {
			out = append(out, lines[i], lines[i], fmt.Sprintf("[... the line above %d more times ...]", n-2))
		} else {
			out = append(out, lines[i:j]...)
		}
		i = j
	}
	return out
}

// frameLine writes one frame; see traceback.
func (s *Session) frameLine(f frame) string {
	if f.elided > 0 {
		return fmt.Sprintf("...%d frames elided...", f.elided)
	}
	name := ""
	if f.fn != nil {
		name = f.fn.name
	} else if parent, _, _ := strings.Cut(f.key, "."); parent == "func" || strings.HasSuffix(f.key, ".func") {
		// A literal's, known by its yaegi name only.
		name = "a func literal"
		if parent != "func" {
			name += " in " + parent
		}
	} else {
		name = f.key
	}
	if f.site == nil || f.line == 0 {
		return "in " + name + " (its line is not known)"
	}
	in := ""
	if name != "" {
		in = ", in " + name
	}
	text := f.site.cell.line(f.line)
	if f.site.cell == s.check.cell {
		return fmt.Sprintf("cell line %d%s: %s", f.line, in, text)
	}
	return fmt.Sprintf("Cell %s, line %d%s: %s", f.site.cell.label, f.line, in, text)
}
