package interp

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"html"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"runtime/debug"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/tensornb/tensornb/display"
	"github.com/tensornb/tensornb/kernel/internal/cells"
	"github.com/tensornb/tensornb/kernel/internal/front"
	"github.com/tensornb/tensornb/kernel/internal/interp/cellcmd"
)

// The session runs GoNB's cell language (package cellcmd) with GoNB's
// meaning: a cell's commands first, in the order written, then its Go
// code. After %% (or %main) the rest of the cell is the body of a func
// main, which runs once, after the cell's declarations, with os.Args the
// program's arguments and flag.Parse called first; it is not kept for
// later cells. The session's functions named init_… run, in the order of
// their names, at every cell that has Go code, before its statements, as
// GoNB makes them init functions of every program it compiles.

// initPrefix starts the names of the functions every cell runs first.
const initPrefix = "init_"

// A goCell is what is left to run of a cell once its commands ran: its
// Go code, and whether it runs a func main that the cell language made
// (%%, %main, %exec).
type goCell struct {
	code    string
	hasMain bool
	// program is set for a cell that runs as GoNB's program (program.go).
	program bool
}

// commandError is the cell's error for a command that failed.
func commandError(cmd cellcmd.Command, msg string) *front.CellError {
	return cellError("CommandError", fmt.Sprintf("cell line %d: %s: %s", cmd.Line, cmd.Written(), msg))
}

// cellError is the cell's error of that name, with msg as its value.
func cellError(name, msg string) *front.CellError {
	return &front.CellError{Name: name, Value: msg, Traceback: []string{name + ": " + msg}}
}

// runCommands runs the commands of c and returns the Go code left to run.
func (s *Session) runCommands(ctx context.Context, c cellcmd.Cell) (goCell, error) {
	g := goCell{code: c.Code, hasMain: c.Main > 0}
	if cmd, why, ok := c.ForGoNB(); ok {
		return g, cellError("Unsupported", fmt.Sprintf("%s is GoNB's (%s): the instant engine does not run it; %s", cmd.Written(), why, s.otherwise))
	}
	if err := s.refuseCommands(c); err != nil {
		return g, err
	}
	var exec string
	for _, cmd := range c.Commands {
		if cmd.Shell {
			if err := s.runShell(ctx, cmd); err != nil {
				return g, err
			}
			continue
		}
		switch cmd.Name {
		case "%", "main", "args":
			s.args = cmd.Args
		case "exec":
			if len(cmd.Args) == 0 {
				return g, commandError(cmd, "name the function to run: %exec f [arguments]")
			}
			exec, s.args = cmd.Args[0], cmd.Args[1:]
		default:
			if err := s.runCommand(cmd); err != nil {
				return g, err
			}
		}
	}
	lines := strings.Split(g.code, "\n")
	if c.Main > 0 {
		// The body's lines stay where they were: func main opens on the
		// line of %%, and closes after the cell's last line.
		lines[c.Main-1] = "func main() {"
		lines = append(lines, "}")
	}
	if exec != "" {
		g.hasMain = true
		lines = append(lines, "func main() { "+exec+"() }")
	}
	g.code = strings.Join(lines, "\n")
	return g, nil
}

// refuseCommands returns the error of the first command of c that the
// session cannot run, before any runs: in a sandbox, one that reaches
// the process; without a shell (in a browser), a shell line.
func (s *Session) refuseCommands(c cellcmd.Cell) error {
	for _, cmd := range c.Commands {
		switch {
		case s.sandboxed && reachesProcess(cmd):
			return cellError("NotInSandbox", fmt.Sprintf("cell line %d: %s: graded code cannot run it, for it reaches the process (shell lines, %%cd and %%env)", cmd.Line, cmd.Written()))
		case cmd.Shell && s.shell == nil:
			return cellError("NotInBrowser", fmt.Sprintf("cell line %d: %s: shell lines run on a server: the tensornb kernel in Jupyter runs them, in the notebook's directory", cmd.Line, cmd.Written()))
		}
	}
	return nil
}

// runCommand runs a % command that changes no Go code.
func (s *Session) runCommand(cmd cellcmd.Command) error {
	switch cmd.Name {
	case "env":
		args := cmd.Args
		if len(args) == 1 {
			if name, value, ok := strings.Cut(args[0], "="); ok && name != "" {
				args = []string{name, value}
			}
		}
		if len(args) != 2 {
			return commandError(cmd, "give a name and a value: %env NAME value, or %env NAME=value")
		}
		if err := os.Setenv(args[0], args[1]); err != nil {
			return commandError(cmd, err.Error())
		}
		// The cells' os.Getenv reads the interpreter's copy of the
		// environment: it is set too.
		if setenv, ok := s.osSymbol("Setenv"); ok {
			setenv.Call([]reflect.Value{reflect.ValueOf(args[0]), reflect.ValueOf(args[1])})
		}
		fmt.Fprintf(s.stdout, "Set: %s=%q\n", args[0], args[1])
	case "cd":
		return s.changeDir(cmd)
	case "rm", "remove":
		s.remove(cmd.Args)
	case "reset":
		if len(cmd.Args) > 0 {
			return commandError(cmd, "%reset takes no arguments on the instant engine (%reset go.mod is GoNB's)")
		}
		s.check.Reset()
		s.programs = programs{}
		fmt.Fprintln(s.stdout, "* The session's declarations and imports are forgotten.")
	case "ls", "list":
		s.list()
	case "help":
		display.Show(display.Bundle{display.MIMEPlain: helpPage, "text/markdown": helpPage})
	case "version":
		fmt.Fprint(s.stdout, versions())
	default:
		return commandError(cmd, "the instant engine has no such command; %help lists those it has")
	}
	return nil
}

// changeDir runs %cd: with no directory it says the current one.
func (s *Session) changeDir(cmd cellcmd.Command) error {
	switch len(cmd.Args) {
	case 0:
		wd, _ := os.Getwd()
		fmt.Fprintf(s.stdout, "Current directory: %q\n", wd)
		return nil
	case 1:
	default:
		return commandError(cmd, "give one directory, or none to see the current one")
	}
	dir := cmd.Args[0]
	if rest, ok := strings.CutPrefix(dir, "~"); ok && (rest == "" || rest[0] == '/') {
		if home, err := os.UserHomeDir(); err == nil {
			dir = filepath.Join(home, rest)
		}
	}
	if err := os.Chdir(dir); err != nil {
		return commandError(cmd, err.Error())
	}
	wd, _ := os.Getwd()
	_ = os.Setenv("GONB_DIR", wd)
	fmt.Fprintf(s.stdout, "Changed directory to %q\n", wd)
	return nil
}

// runShell runs a shell line on the host's shell.
func (s *Session) runShell(ctx context.Context, cmd cellcmd.Command) error {
	if err := s.shell(ctx, cmd.Text, s.stdout, s.stderr); err != nil {
		if ctx.Err() != nil {
			return front.Interrupted()
		}
		return cellError("ShellError", fmt.Sprintf("cell line %d: %s: %v", cmd.Line, cmd.Written(), err))
	}
	return nil
}

// remove runs %rm: it forgets each declaration or import named, saying so
// as GoNB does. A method is named Type~Method, as %list names it.
func (s *Session) remove(keys []string) {
	for _, key := range keys {
		if strings.HasPrefix(key, "_~") && slices.Contains(s.programs.blankKeys(), key) {
			s.programs.forget(key)
			fmt.Fprintf(s.stdout, ". removed var %s\n", key)
			continue
		}
		if kind, ok := s.check.Forget(strings.Replace(key, "~", ".", 1)); ok {
			for _, other := range s.programs.forget(key) {
				s.check.Forget(other) // GoNB writes a tuple only by its first name
			}
			fmt.Fprintf(s.stdout, ". removed %s %s\n", kind, key)
			continue
		}
		if s.check.ForgetImport(key) {
			fmt.Fprintf(s.stdout, ". removed import %s\n", key)
			continue
		}
		fmt.Fprintf(s.stderr, ". key %q not found in any definition, not removed\n", key)
	}
}

// list runs %list: the session's imports and declarations, by kind, each
// kind a display of its own, as GoNB shows them.
func (s *Session) list() {
	groups := map[string][]string{}
	for path := range s.check.Imports() {
		groups["Imports"] = append(groups["Imports"], path)
	}
	groups["Variables"] = s.programs.blankKeys()
	titles := map[string]string{"const": "Constants", "type": "Types", "var": "Variables", "func": "Functions"}
	for _, d := range s.check.Decls() {
		kind, _, _ := strings.Cut(d.Src, " ")
		if title, ok := titles[kind]; ok {
			groups[title] = append(groups[title], strings.Replace(d.Name, ".", "~", 1))
		}
	}
	display.Show(display.Bundle{"text/html": "<h3>Memorized Definitions</h3>\n", display.MIMEPlain: "Memorized Definitions"})
	for _, title := range []string{"Imports", "Constants", "Types", "Variables", "Functions"} {
		names := groups[title]
		if len(names) == 0 {
			continue
		}
		sort.Strings(names)
		items := make([]string, len(names))
		for i, n := range names {
			items[i] = "<li><pre>" + html.EscapeString(n) + "</pre></li>"
		}
		display.Show(display.Bundle{
			"text/html":       "<h4>" + title + "</h4>\n<ul>\n" + strings.Join(items, "\n") + "\n</ul>",
			display.MIMEPlain: "== " + title + "\n" + strings.Join(names, "\n"),
		})
	}
}

// versions is what %version prints: the versions of Go, of tensornb and
// of the modules the engines are built on.
func versions() string {
	var b strings.Builder
	fmt.Fprintf(&b, "Go: %s\n", runtime.Version())
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return b.String()
	}
	if info.Main.Path != "" {
		fmt.Fprintf(&b, "%s: %s\n", info.Main.Path, info.Main.Version)
	}
	for _, d := range info.Deps {
		if d.Path == "github.com/traefik/yaegi" || d.Path == "github.com/janpfeifer/gonb" || d.Path == "github.com/tensornb/tensornb" {
			fmt.Fprintf(&b, "%s: %s\n", d.Path, d.Version)
		}
	}
	return b.String()
}

// hasGo reports whether code has Go to run, not only blank lines and
// comments.
func hasGo(code string) bool {
	return slices.ContainsFunc(cells.Split(code), func(u cells.Unit) bool { return strings.TrimSpace(u.Code()) != "" })
}

// startProgram readies the process for a cell's Go code as GoNB runs a
// program: os.Args is the program's name and the arguments %args, %% or
// %exec gave. A program's flags start anew, as the variables that define
// them are given their values anew (program.go). Once the session keeps
// its variables, the flags go in a new set if the cell may use package
// flag, so that running a cell again does not define its flags twice:
// the set has those of the earlier cells but the ones whose names the
// cell writes, which it may define anew (see keepFlags).
func (s *Session) startProgram(g goCell) {
	os.Args = append([]string{s.program}, s.args...)
	if args, ok := s.osSymbol("Args"); ok { // the interpreter's, which the cells read
		args.Set(reflect.ValueOf(slices.Clone(os.Args)))
	}
	if !g.program && !g.hasMain && !strings.Contains(g.code, "flag") {
		return
	}
	before := flag.CommandLine
	flag.CommandLine = flag.NewFlagSet(s.program, flag.ContinueOnError)
	flag.CommandLine.SetOutput(s.stderr)
	if !g.program {
		before.VisitAll(func(f *flag.Flag) {
			if !strings.Contains(g.code, strconv.Quote(f.Name)) { // not defined again, it seems
				flag.CommandLine.Var(f.Value, f.Name, f.Usage)
			}
		})
		s.flagsBefore = before
	}
	// The cells' flag.CommandLine is the interpreter's: the same set.
	if v, ok := s.in.Symbols("flag")["flag"]["CommandLine"]; ok && v.CanSet() {
		v.Set(reflect.ValueOf(flag.CommandLine))
	}
}

// osSymbol returns the interpreter's symbol name of package os, which may
// differ from the compiled one: yaegi keeps its own os.Args and
// environment.
func (s *Session) osSymbol(name string) (reflect.Value, bool) {
	v, ok := s.in.Symbols("os")["os"][name]
	return v, ok && v.IsValid()
}

// keepFlags adds to the flag set the cell defines its flags in those that
// earlier cells defined and it did not define again, once: before main
// parses them, or at the cell's end.
func (s *Session) keepFlags() {
	if s.flagsBefore == nil || s.flagsBefore == flag.CommandLine {
		return
	}
	s.flagsBefore.VisitAll(func(f *flag.Flag) {
		if flag.CommandLine.Lookup(f.Name) == nil {
			flag.CommandLine.Var(f.Value, f.Name, f.Usage)
		}
	})
	s.flagsBefore = nil
}

// parseFlags parses the program's arguments, as the func main that %%
// makes does first: a wrong flag ends the cell as it ends a program
// (exit status 2), -h with nothing more.
func (s *Session) parseFlags() (stop bool, err error) {
	s.keepFlags()
	err = flag.CommandLine.Parse(os.Args[1:])
	switch {
	case errors.Is(err, flag.ErrHelp):
		return true, nil
	case err != nil:
		return true, front.Exit(2)
	}
	return false, nil
}

// inits returns the calls of the session's functions named init_…,
// without parameters or results, in the order of their names.
func (s *Session) inits() []string {
	var calls []string
	for _, d := range s.check.Decls() {
		if !strings.HasPrefix(d.Name, initPrefix) {
			continue // most: the rest builds a string
		}
		rest, ok := strings.CutPrefix(d.Src, "func "+d.Name+"()")
		if ok && strings.HasPrefix(strings.TrimSpace(rest), "{") {
			calls = append(calls, d.Name+"()")
		}
	}
	sort.Strings(calls)
	return calls
}
