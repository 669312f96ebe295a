package cell

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// A panic in interpreted code is reported with its frames, innermost
// first, as Go's stack trace lists them: the function, as Go names it,
// and the cell and line it had reached. yaegi v0.16.1 knows neither at a
// panic: as each interpreted frame unwinds it writes a line naming the
// frame's function ("1:47: panic: main.third(...)"), but the position is
// that of the function's first statement, whatever statement failed. So
// the rewrite marks the cells' code (package rewrite): before each
// statement that can fail, an assignment of the statement's site, a
// number a Sites table keeps the place of, to a package-level variable of
// the function's own (LineVar: tensornbLine_third = 17; return s[2]). At
// a panic the session reads, for each frame the unwinding named, that
// variable.

// A Source is a cell that ran, for naming its lines in frames.
type Source struct {
	// Label names the cell among others: In[3], as IPython does, or, for
	// a cell run without an execution count, its first line, quoted.
	Label string
	lines []string
	// written are the declarations the lowering wrote for the cell, on
	// the lines after its own (package lower).
	written []written
}

// A written declaration is one the lowering wrote: the line it starts
// on, and its lines.
type written struct {
	first int
	lines []string
}

// AddWritten records the text of a declaration the lowering wrote for
// the cell, which starts on line first, after the cell's lines.
func (c *Source) AddWritten(first int, text string) {
	c.written = append(c.written, written{first: first, lines: strings.Split(text, "\n")})
}

// Written reports whether line n is one of a declaration the lowering
// wrote, and which line of it.
func (c *Source) Written(n int) (int, bool) {
	for _, w := range c.written {
		if n >= w.first && n < w.first+len(w.lines) {
			return n - w.first + 1, true
		}
	}
	return 0, false
}

// NewSource records code, run under execution count count (0: none).
func NewSource(code string, count int) *Source {
	c := &Source{lines: strings.Split(code, "\n")}
	if count > 0 {
		c.Label = fmt.Sprintf("In[%d]", count)
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
	c.Label = `"` + first + `"`
	return c
}

// Line returns line n (from 1) of the cell, trimmed, or "": a line of a
// declaration the lowering wrote, after the cell's, too.
func (c *Source) Line(n int) string {
	if l, ok := c.Written(n); ok {
		for _, w := range c.written {
			if n >= w.first && n < w.first+len(w.lines) {
				return strings.TrimSpace(w.lines[l-1])
			}
		}
	}
	if n < 1 || n > len(c.lines) {
		return ""
	}
	return strings.TrimSpace(c.lines[n-1])
}

// A Func is a function of the cells' code, as frames name it.
type Func struct {
	// Name is Go's: third, (*Grid).First, third.func1, func1 (a literal
	// at a cell's top level, main's in a program), init.func1 (one in a
	// package-level variable's value).
	Name string
	// Key is yaegi's name of its frames, without "main.": third, First
	// (a method by its name alone), third.func (every literal of third),
	// func (every literal at the cells' top level).
	Key string
	// Sites are the sites of its statements.
	Sites []int
}

// A Sites table holds the sites of the cells' code, numbered from 1. The
// sites of a cell's top level (Fn nil) are read only while the cell
// runs: its statements, and the units they are in, run once. Once it
// has run, Release gives their numbers to the sites of later cells, so
// that a session does not keep, for every cell it ran, sites and the
// cell's text they name. The sites of functions stay: the functions
// may run, and fail, in any later cell.
type Sites struct {
	sites []*Site
	free  []int // numbers released, for Add to give again
	top   []int // the numbers of top-level sites added since Release
}

// Add records s and returns its number.
func (t *Sites) Add(s Site) int {
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
	if s.Fn == nil {
		t.top = append(t.top, id)
	}
	return id
}

// Release forgets the top-level sites added since it was last called,
// and frees their numbers.
func (t *Sites) Release() {
	for _, id := range t.top {
		t.sites[id] = nil
		t.free = append(t.free, id)
	}
	t.top = t.top[:0]
}

// At returns the site numbered id, or nil.
func (t *Sites) At(id int) *Site {
	if id <= 0 || id >= len(t.sites) {
		return nil
	}
	return t.sites[id]
}

// A Site is a statement of the cells' code that the rewrite marked, or a
// unit at a cell's top level.
type Site struct {
	Cell *Source
	Line int   // the cell line the statement starts on
	Fn   *Func // nil at a cell's top level
	// Calls are the calls of the statement's own expressions (not those
	// of its blocks), which name the line of a frame that called another.
	Calls []Call
}

// A Call is a call in a site's statement: of a named function or method
// (Name, as yaegi names its frames), or of a function literal called in
// place (Lit); Line is the cell line of its parenthesis, the line Go
// gives a frame that made the call.
type Call struct {
	Name string
	Lit  *Func
	Line int
}

// Callee reports whether c calls the function of a frame of key that ran
// fn (nil if not known).
func (c Call) Callee(key string, fn *Func) bool {
	if c.Lit != nil {
		return c.Lit == fn
	}
	return c.Name != "" && c.Name == key
}

// LineVar returns the name of the variable that holds the site that the
// frames of key last reached; key "" is a cell's top level.
func LineVar(key string) string {
	if key == "" {
		return "tensornbLine"
	}
	return "tensornbLine_" + strings.ReplaceAll(key, ".", "_")
}
