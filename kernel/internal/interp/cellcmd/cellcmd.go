// Package cellcmd reads GoNB's cell language out of a cell: the lines that
// are commands for the kernel (%rm a, !ls, %% -x=1), not Go. Parse finds
// them and leaves the Go code with their lines blank, so that an error in
// the code names the cell's own line. The instant engine's session runs
// the commands (package interp), and the dual engine sends a cell whose
// commands only GoNB can run to GoNB (ForGoNB).
//
// A command is a line that starts, in its first column, with % or !, or
// with //gonb:% or //gonb:!, which a Go editor takes for a comment. A
// command line that ends with a backslash goes on on the next line.
package cellcmd

import (
	"strings"
	"unicode/utf8"
)

// Prefix is what a command line may start with, before its % or !, to be
// a Go comment.
const Prefix = "//gonb:"

// A Command is one command of a cell.
type Command struct {
	// Line is the cell line (from 1) the command starts on, and Last
	// the one it ends on, later if it goes on on the next lines.
	Line, Last int
	// Shell reports a shell line (!), whose text is Text: what follows
	// the ! (and the * of a !* line), its continued lines joined with
	// spaces. InTemp reports a !* line.
	Shell  bool
	InTemp bool
	Text   string
	// Name is a % command's name, without its %: "rm", "env", or "%"
	// for %%; Args are its arguments, split at spaces, where a double
	// quoted part is one argument (in it, \n, \t and \" are a newline, a
	// tab and a quote).
	Name string
	Args []string
}

// A Cell is a cell read: its commands in the order written, and its Go
// code, the cell with the commands' lines blank.
type Cell struct {
	Commands []Command
	Code     string
	// Main is the line of the %% or %main command that makes the rest
	// of the cell the body of func main, 0 if there is none.
	Main int
	// Magic is a cell magic's name (writefile, script, bash, sh) if the
	// cell starts with one: the rest of the cell is not Go, and only GoNB
	// runs it.
	Magic string
}

// cellMagics are the commands that, on a cell's first line, make the rest
// of the cell something other than Go.
var cellMagics = map[string]bool{"%writefile": true, "%script": true, "%bash": true, "%sh": true}

// Parse reads the commands out of code.
func Parse(code string) Cell {
	lines := strings.Split(code, "\n")
	var c Cell
	for i := 0; i < len(lines); i++ {
		line := strings.TrimPrefix(lines[i], Prefix)
		if len(line) < 2 || (line[0] != '%' && line[0] != '!') {
			continue
		}
		first := i
		text := line
		lines[i] = ""
		for strings.HasSuffix(text, "\\") && i+1 < len(lines) {
			i++
			text = text[:len(text)-1] + " " + strings.TrimPrefix(lines[i], Prefix)
			lines[i] = ""
		}
		cmd, ok := command(text, first+1)
		if !ok {
			continue
		}
		cmd.Last = i + 1
		if !cmd.Shell && cellMagics[cmd.Name] && len(c.Commands) == 0 && strings.TrimSpace(strings.Join(lines[:first], "")) == "" {
			c.Magic = cmd.Name[1:]
			c.Commands = append(c.Commands, cmd)
			return c
		}
		if !cmd.Shell && (cmd.Name == "%" || cmd.Name == "main") && c.Main == 0 {
			c.Main = first + 1
		}
		c.Commands = append(c.Commands, cmd)
	}
	c.Code = strings.Join(lines, "\n")
	return c
}

// command reads a command's text: its %, or its ! and the rest. An empty
// command (% or ! and spaces) is none.
func command(text string, line int) (Command, bool) {
	kind, rest := text[0], strings.TrimLeft(text[1:], " \t")
	if kind == '!' {
		cmd := Command{Line: line, Shell: true}
		if r, ok := strings.CutPrefix(text[1:], "*"); ok {
			cmd.InTemp, rest = true, strings.TrimLeft(r, " \t")
		}
		cmd.Text = rest
		return cmd, strings.TrimSpace(rest) != ""
	}
	parts := Split(rest)
	if len(parts) == 0 {
		return Command{}, false
	}
	return Command{Line: line, Name: parts[0], Args: parts[1:]}, true
}

// Split splits a command's text at spaces and tabs; a part in double
// quotes is one argument, spaces and all, and may be empty. In quotes, a
// backslash makes the next character itself, or with n and t a newline
// and a tab.
func Split(text string) []string {
	var parts []string
	var part strings.Builder
	started, quoted := false, false
	for i := 0; i < len(text); i++ {
		ch := text[i]
		switch {
		case !quoted && (ch == ' ' || ch == '\t' || ch == '\n'):
			if started {
				parts = append(parts, part.String())
			}
			part.Reset()
			started = false
			continue
		case ch == '"':
			quoted = !quoted
			started = true
			continue
		case ch == '\\' && quoted && i+1 < len(text):
			i++
			ch = map[byte]byte{'n': '\n', 't': '\t'}[text[i]]
			if ch == 0 {
				ch = text[i]
			}
		}
		part.WriteByte(ch)
		started = true
	}
	if started {
		parts = append(parts, part.String())
	}
	return parts
}

// forGoNB are the commands that only mean something to GoNB's compiler
// or to the directory it compiles in, with why, for the message of an
// engine that cannot send them there.
var forGoNB = map[string]string{
	"goflags":   "it sets the flags of go build",
	"test":      "it compiles the cell with go test",
	"wasm":      "it compiles the cell to WebAssembly",
	"track":     "it tracks files for GoNB's gopls",
	"untrack":   "it tracks files for GoNB's gopls",
	"goworkfix": "it edits the go.mod GoNB compiles with",
	"autoget":   "it sets whether GoNB runs go get",
	"noautoget": "it sets whether GoNB runs go get",
	"capture":   "it copies the output of GoNB's program to a file",
	"writefile": "the cell is a file's content, not Go",
	"script":    "the cell is a script, not Go",
	"bash":      "the cell is a script, not Go",
	"sh":        "the cell is a script, not Go",
}

// ForGoNB returns the first of the cell's commands that only GoNB runs,
// with why: one that means something to its compiler (%goflags, %test,
// %wasm, %track, %untrack, %goworkfix, %autoget, %noautoget, %reset
// go.mod), one that
// captures its program's output (%capture), a cell magic (%%writefile,
// %%script, %%bash, %%sh), or a !* line, which runs in the directory
// where GoNB compiles.
func (c Cell) ForGoNB() (Command, string, bool) {
	for _, cmd := range c.Commands {
		if cmd.Shell && cmd.InTemp {
			return cmd, "it runs in the directory where GoNB compiles", true
		}
		if cmd.Name == "reset" && len(cmd.Args) == 1 && cmd.Args[0] == "go.mod" {
			return cmd, "it makes GoNB's go.mod anew", true
		}
		name := strings.TrimPrefix(cmd.Name, "%")
		if why, ok := forGoNB[name]; ok && !cmd.Shell && (name == cmd.Name || cellMagics[cmd.Name]) {
			return cmd, why, true
		}
	}
	return Command{}, "", false
}

// WithoutShell returns code with the lines of its shell commands blank:
// what a worker that replays the cell runs again, for the shell lines
// acted outside the worker, and what they did (files written, packages
// installed) outlives it.
func WithoutShell(code string) string {
	c := Parse(code)
	if c.Magic != "" {
		return code
	}
	lines := strings.Split(code, "\n")
	for _, cmd := range c.Commands {
		if cmd.Shell {
			for l := cmd.Line; l <= cmd.Last; l++ {
				lines[l-1] = ""
			}
		}
	}
	return strings.Join(lines, "\n")
}

// Masked returns code with each rune of its command lines a space: Go
// code to complete or inspect, whose rune offsets are the cell's.
func Masked(code string) string {
	c := Parse(code)
	if len(c.Commands) == 0 {
		return code
	}
	lines := strings.Split(code, "\n")
	for _, cmd := range c.Commands {
		last := cmd.Last
		if c.Magic != "" {
			last = len(lines)
		}
		for l := cmd.Line; l <= last; l++ {
			lines[l-1] = strings.Repeat(" ", utf8.RuneCountInString(lines[l-1]))
		}
	}
	return strings.Join(lines, "\n")
}

// Written returns how cmd was written, for messages: %rm a, !ls.
func (cmd Command) Written() string {
	switch {
	case cmd.Shell && cmd.InTemp:
		return "!*" + cmd.Text
	case cmd.Shell:
		return "!" + cmd.Text
	}
	return strings.Join(append([]string{"%" + cmd.Name}, cmd.Args...), " ")
}
