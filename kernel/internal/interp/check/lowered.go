package check

import (
	"fmt"
	"go/types"
	"sort"
	"strings"

	"github.com/tensornb/tensornb/kernel/internal/cells"
)

// An Edit replaces the bytes [From, To) of a checked file's text with
// Text, which must hold as many line breaks as what it replaces: the
// lines of a lowered file are those of the file it lowers.
type Edit struct {
	From, To int
	Text     string
}

// An Added is a declaration that a lowering adds to a cell: its text,
// and the name a session declaration of it goes by. Given, it is one the
// interpreter has already, checked with the cell but not run again.
type Added struct {
	Name, Text string
	Given      bool
}

// Lowered returns the cell as a lowering (package lower) rewrites it for
// the interpreter: its checked file with the edits made, which keep
// every line where it was, and then the declarations added, each on
// lines of its own after the cell's; type-checked again. The cell's
// units keep their lines; an added declaration that is not Given becomes
// a declaration unit of the cell, on lines after its last. It returns
// the error of a lowered file that does not type-check.
func (cc *Cell) Lowered(edits []Edit, added []Added) (*Cell, error) {
	old := cc.File
	sort.Slice(edits, func(i, j int) bool { return edits[i].From < edits[j].From })
	w := newFileWriter()
	w.b.Reset()
	at := 0
	moved := make([]int, 0, 3*len(edits)) // for each edit: its end's old offset, and its start's and end's new offsets
	for _, e := range edits {
		if strings.Count(e.Text, "\n") != strings.Count(old.Src[e.From:e.To], "\n") {
			return nil, fmt.Errorf("lowering %q would move the lines after it", old.Src[e.From:e.To])
		}
		w.b.WriteString(old.Src[at:e.From])
		start := w.b.Len()
		w.b.WriteString(e.Text)
		at = e.To
		moved = append(moved, e.To, start, w.b.Len())
	}
	w.b.WriteString(old.Src[at:])
	w.line = 1 + strings.Count(w.b.String(), "\n")
	// newOffset maps an old offset to the new text; one inside an edit
	// maps to where its replacement starts.
	newOffset := func(o int) int {
		i := sort.Search(len(moved)/3, func(i int) bool { return moved[3*i] > o })
		if i < len(moved)/3 && edits[i].From < o {
			return moved[3*i+1]
		}
		if i == 0 {
			return o
		}
		return moved[3*i-1] + o - moved[3*i-3]
	}

	f := &File{fset: old.fset}
	for _, s := range old.SessionSpans {
		f.SessionSpans = append(f.SessionSpans, SessionSpan{LineRange: s.LineRange, Name: s.Name}) // its declaration parsed anew
	}
	for _, s := range old.Spans {
		u := s.Unit
		from, to := newOffset(s.Offset), newOffset(s.Offset+len(u.Text))
		u.CodeStart = newOffset(s.Offset+u.CodeStart) - from
		u.CodeEnd = newOffset(s.Offset+u.CodeEnd) - from
		u.Text = w.b.String()[from:to]
		f.Spans = append(f.Spans, Span{LineRange: s.LineRange, Unit: u, Offset: from})
	}
	cellEnd, offset := 0, 0 // the cell's last line, and a cell offset past its end
	for _, u := range cc.Units {
		cellEnd = max(cellEnd, u.Line+strings.Count(u.Text, "\n"))
		offset = max(offset, u.Offset+len(u.Text)+1)
	}
	for _, a := range added {
		if a.Given {
			first := w.line
			w.write(a.Text + "\n")
			f.SessionSpans = append(f.SessionSpans, SessionSpan{LineRange: LineRange{first, w.line - 1}, Name: a.Name})
		}
	}
	for _, a := range added {
		if !a.Given {
			u := cells.Unit{Text: a.Text, Line: cellEnd + 1, Offset: offset, Declaration: true, CodeEnd: len(a.Text)}
			sp := w.unit(u)
			sp.Added = true
			f.Spans = append(f.Spans, sp)
			cellEnd += strings.Count(a.Text, "\n") + 1
			offset += len(a.Text) + 1
		}
	}
	f.Src = w.b.String()
	cc.c.parse(f, old.fset.Position(old.body.Pos()).Line)
	if f.syntax != nil {
		return nil, fmt.Errorf("the lowered code does not parse: %s", f.syntax)
	}
	lc := *cc
	lc.File = f
	lc.Units = loweredUnits(cc.Units, f.Spans)
	if err := lc.checkAll(); err != nil {
		return nil, err
	}
	return &lc, nil
}

// checkAll type-checks the cell's file with every session declaration it
// holds, keeping what go/types records, and returns the first error that
// counts (see sortErrors), naming the line of the lowered file it is on.
// A variable that is no longer used counts not: the cell was checked as
// written, and a lowering may take a use away (unsafe.Sizeof(v) becomes
// a constant).
func (cc *Cell) checkAll() error {
	file := cc.File.withImports(importDecl(cc.allImports(), cc.c.typeImports), func(string) bool { return true })
	var errs []types.Error
	cc.Pkg, cc.Info, errs = cc.c.checkFile(file)
	topVars, lastExpr := cc.topVars(), cc.lastExpr()
	for _, te := range errs {
		if !ignored(te, topVars, lastExpr) && !(te.Soft && strings.HasPrefix(te.Msg, "declared and not used: ")) {
			return fmt.Errorf("%s: %s", cc.c.fset.Position(te.Pos), te.Msg)
		}
	}
	return nil
}

// loweredUnits returns the units of a lowered cell: first those the
// lowering added, which a program would have initialized before its code
// ran, then those of the cell as its spans now have them, by their
// offsets in the cell, and its imports as they were.
func loweredUnits(units []cells.Unit, spans []Span) []cells.Unit {
	byOffset := map[int]cells.Unit{}
	for _, s := range spans {
		byOffset[s.Unit.Offset] = s.Unit
	}
	out := make([]cells.Unit, 0, len(spans))
	for _, u := range units {
		if l, ok := byOffset[u.Offset]; ok {
			u = l
			delete(byOffset, u.Offset)
		}
		out = append(out, u)
	}
	var added []cells.Unit
	for _, s := range spans {
		if _, ok := byOffset[s.Unit.Offset]; ok {
			added = append(added, s.Unit)
		}
	}
	return append(added, out...)
}
