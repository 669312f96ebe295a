package gonb

import (
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"slices"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/tensornb/tensornb/kernel/internal/cells"
	"github.com/tensornb/tensornb/kernel/internal/interp/cellcmd"
)

// A cell as people write it mixes imports, declarations and statements in
// any order. GoNB wants declarations first and the statements that run,
// if any, after a line "%%". arrange moves the statements below the
// declarations and adds the marker, and remembers, for every line it
// writes, the cell line it came from, so that errors can name the lines
// the person wrote.
type arranged struct {
	code  string
	lines []int // lines[i] is the cell line (from 1) of line i+1 of code; 0 for added lines
	// result is set when the cell ends with an expression, which the
	// arranged code passes to display.Result: resultLine is its cell line
	// and callee, if the expression is a call, the function called.
	result     bool
	resultLine int
	callee     string
	// segments say where each piece of the cell went in code, to carry a
	// cursor position across.
	segments []segment
}

// A segment is a piece of the cell, n bytes long, at byte from in the cell
// and at byte to in the arranged code.
type segment struct{ from, to, n int }

// toArranged maps a byte offset in the cell to the arranged code.
func (a arranged) toArranged(off int) int {
	for _, s := range a.segments {
		if off >= s.from && off <= s.from+s.n {
			return s.to + off - s.from
		}
	}
	return off
}

// toGoNB maps a cursor from the cell, counted in characters (code points)
// as the Jupyter protocol counts it, to the arranged code that GoNB gets,
// counted in UTF-16 units as GoNB and gopls count it: an emoji is one
// character and two units.
func (a arranged) toGoNB(cell string, cursor int) int {
	return utf16Units(a.code[:min(a.toArranged(cells.ByteOffset(cell, cursor)), len(a.code))])
}

// fromGoNB maps a cursor in UTF-16 units of the arranged code back to
// characters of the cell.
func (a arranged) fromGoNB(cell string, units int) int {
	return utf8.RuneCountInString(cell[:min(a.toCell(utf16Offset(a.code, units)), len(cell))])
}

// utf16Units counts the UTF-16 units of s.
func utf16Units(s string) int {
	n := 0
	for _, r := range s {
		n += utf16.RuneLen(r)
	}
	return n
}

// utf16Offset returns the byte offset in s of the first character at or
// after units UTF-16 units, or len(s).
func utf16Offset(s string, units int) int {
	n := 0
	for i, r := range s {
		if n >= units {
			return i
		}
		n += utf16.RuneLen(r)
	}
	return len(s)
}

// toCell maps a byte offset in the arranged code back to the cell.
func (a arranged) toCell(off int) int {
	for _, s := range a.segments {
		if off >= s.to && off <= s.to+s.n {
			return s.from + off - s.to
		}
	}
	return off
}

// resultImport is the name the arranged code imports display under, one
// no cell is likely to use; reportImport the name for cellpanic.
const (
	resultImport = "tensornbdisplay"
	reportImport = "tensornbpanic"
)

// cellLine maps a line of the arranged code back to the cell; 0 if the
// line was added.
func (a arranged) cellLine(line int) int {
	if line < 1 || line > len(a.lines) {
		return 0
	}
	return a.lines[line-1]
}

// arrange prepares a cell for GoNB. Cells that already use GoNB's own
// syntax (a %% line, or special commands starting with % or !) are passed
// through unchanged. With showResult, a cell that ends with an expression
// shows its value (see display.Result); with report, a refused tensor
// operation in the cell's statements is reported by cellpanic.Report.
// Both need the tensornb module.
func arrange(code string, showResult, report bool) arranged {
	a := arrangeFor(code, showResult, report)
	if usesGoNBUI(code) {
		a.syncAtTheEnd()
	}
	return a
}

func arrangeFor(code string, showResult, report bool) arranged {
	if usesGoNBSyntax(code) {
		return identity(code)
	}
	var decls, stmts []cells.Unit
	for _, u := range cells.Split(code) {
		if u.Declaration {
			decls = append(decls, u)
		} else {
			stmts = append(stmts, u)
		}
	}
	if len(stmts) == 0 {
		return identity(code)
	}
	var out arranged
	if last := &stmts[len(stmts)-1]; showResult {
		if expr, err := parser.ParseExpr(last.Code()); err == nil {
			out.result, out.resultLine = true, last.CodeLine()
			if call, ok := expr.(*ast.CallExpr); ok {
				out.callee = last.Code()[call.Fun.Pos()-1 : call.Fun.End()-1]
			}
			// The comments around the expression stay outside the call.
			last.Text = last.Text[:last.CodeStart] + resultImport + ".Result(" + last.Code() + ")" + last.Text[last.CodeEnd:]
			last.Offset = -1 // rewritten: no longer the cell's text
			decls = append([]cells.Unit{{Text: "import " + resultImport + ` "github.com/tensornb/tensornb/display"`, Offset: -1}}, decls...)
		}
	}
	if report {
		decls = append([]cells.Unit{{Text: "import " + reportImport + ` "github.com/tensornb/tensornb/kernel/cellpanic"`, Offset: -1}}, decls...)
	}
	var b strings.Builder
	add := func(text string, firstLine, from int) {
		if from >= 0 {
			out.segments = append(out.segments, segment{from: from, to: b.Len(), n: len(text)})
		}
		for i, line := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
			b.WriteString(line + "\n")
			if firstLine == 0 {
				out.lines = append(out.lines, 0)
			} else {
				out.lines = append(out.lines, firstLine+i)
			}
		}
	}
	for _, u := range decls {
		add(u.Text, u.Line, u.Offset)
	}
	add("%%", 0, -1)
	if report {
		add("defer "+reportImport+".Report()", 0, -1)
	}
	for _, u := range stmts {
		add(u.Text, u.Line, u.Offset)
		// A variable the cell defines and does not use is kept, as a
		// notebook user expects, not refused as "declared and not used".
		if names := defined(u.Code()); len(names) > 0 {
			add(strings.Repeat("_, ", len(names)-1)+"_ = "+strings.Join(names, ", "), 0, -1)
		}
	}
	out.code = b.String()
	return out
}

// usesGoNBUI reports whether the cell's code calls on package gonbui
// (gonbui.DisplayHTML …): a selector on the name gonbui, not in a comment
// or a string.
func usesGoNBUI(code string) bool {
	var s scanner.Scanner
	fset := token.NewFileSet()
	s.Init(fset.AddFile("", -1, len(code)), []byte(code), nil, 0)
	previous := ""
	for {
		_, tok, lit := s.Scan()
		if tok == token.EOF {
			return false
		}
		if tok == token.PERIOD && previous == "gonbui" {
			return true
		}
		previous = ""
		if tok == token.IDENT {
			previous = lit
		}
	}
}

// syncAtTheEnd makes the program's main wait, as its last act, until
// GoNB has read every display gonbui sent: it adds "defer gonbui.Sync()"
// below the line that starts main (%% or %main, bare or with GoNB's
// prefix). GoNB stops reading gonbui's pipe when the program ends, and
// without the wait the displays it had not read yet are lost; gonbui's
// documentation asks every program to defer Sync. Cells that start no
// main (declarations, %exec) are left as they are.
func (a *arranged) syncAtTheEnd() {
	starts := mainStarts(a.code)
	if len(starts) == 0 {
		return
	}
	line := strings.Split(a.code, "\n")[starts[0]-1]
	if c := gonbCommand(line); c != "" {
		line = c
	}
	if !strings.HasPrefix(line, "%exec") {
		a.insertLine(starts[0], "defer gonbui.Sync()")
	}
}

// insertLine adds an added line of text below line n (from 1) of the
// code, keeping lines and segments in step.
func (a *arranged) insertLine(n int, text string) {
	pos := 0
	for range n {
		i := strings.IndexByte(a.code[pos:], '\n')
		if i < 0 {
			pos = len(a.code)
			text = "\n" + text
			break
		}
		pos += i + 1
	}
	if !strings.HasPrefix(text, "\n") {
		text += "\n"
	}
	a.code = a.code[:pos] + text + a.code[pos:]
	a.lines = slices.Insert(a.lines, n, 0)
	var segments []segment
	for _, s := range a.segments {
		switch {
		case s.to >= pos:
			s.to += len(text)
		case s.to+s.n > pos:
			head := pos - s.to
			segments = append(segments, segment{from: s.from, to: s.to, n: head})
			s = segment{from: s.from + head, to: pos + len(text), n: s.n - head}
		}
		segments = append(segments, s)
	}
	a.segments = segments
}

// defined lists the variables a statement defines with := at the top
// level of the cell.
func defined(stmt string) []string {
	f, err := parser.ParseFile(token.NewFileSet(), "", "package p\nfunc _() {\n"+stmt+"\n}", parser.SkipObjectResolution)
	if err != nil || len(f.Decls) != 1 {
		return nil
	}
	var names []string
	for _, st := range f.Decls[0].(*ast.FuncDecl).Body.List {
		if as, ok := st.(*ast.AssignStmt); ok && as.Tok == token.DEFINE {
			for _, e := range as.Lhs {
				if id, ok := e.(*ast.Ident); ok && id.Name != "_" {
					names = append(names, id.Name)
				}
			}
		}
	}
	return names
}

func identity(code string) arranged {
	n := strings.Count(code, "\n") + 1
	lines := make([]int, n)
	for i := range lines {
		lines[i] = i + 1
	}
	return arranged{code: code, lines: lines, segments: []segment{{0, 0, len(code)}}}
}

// usesGoNBSyntax reports whether a line of the cell is a %% marker or a
// GoNB command (%help, !ls, …), bare or written as a comment with GoNB's
// prefix "//gonb:" (//gonb:%%). A cell with either is GoNB's already:
// arranging it would add a second %% to its own.
func usesGoNBSyntax(code string) bool {
	for _, line := range strings.Split(code, "\n") {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "%") || strings.HasPrefix(t, "!") || gonbCommand(line) != "" {
			return true
		}
	}
	return false
}

// gonbCommand returns the command a line gives GoNB written as a comment
// with GoNB's prefix, cellcmd.Prefix ("%%" of "//gonb:%%"), or "" if it
// gives none. GoNB reads the prefix only where it starts the line.
func gonbCommand(line string) string {
	rest, ok := strings.CutPrefix(line, cellcmd.Prefix)
	if !ok || !(strings.HasPrefix(rest, "%") || strings.HasPrefix(rest, "!")) {
		return ""
	}
	return rest
}

// mainStarts lists the lines (from 1) of code from which GoNB writes a
// main function: "%%" (alone or with program arguments), "%main" and
// "%exec", bare or after cellcmd.Prefix, at the start of the line as GoNB
// looks for them. GoNB v0.11.4 makes room for one main function per cell,
// and a cell with more ends GoNB itself (an index out of range in the
// code that composes the program), so such a cell is not sent.
func mainStarts(code string) []int {
	var starts []int
	for i, line := range strings.Split(code, "\n") {
		if c := gonbCommand(line); c != "" {
			line = c
		}
		marker := line == "%%" || strings.HasPrefix(line, "%% ") || strings.HasPrefix(line, "%%\t")
		if marker || strings.HasPrefix(line, "%main") || strings.HasPrefix(line, "%exec") {
			starts = append(starts, i+1)
		}
	}
	return starts
}
