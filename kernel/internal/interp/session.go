package interp

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"go/token"
	"go/types"
	"io"
	"io/fs"
	"os"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/traefik/yaegi/interp"

	"github.com/tensornb/tensornb/display"
	"github.com/tensornb/tensornb/kernel/internal/explain"
	"github.com/tensornb/tensornb/kernel/internal/front"
	"github.com/tensornb/tensornb/kernel/internal/interp/cell"
	"github.com/tensornb/tensornb/kernel/internal/interp/cellcmd"
	"github.com/tensornb/tensornb/kernel/internal/interp/check"
	"github.com/tensornb/tensornb/kernel/internal/interp/compiled"
	"github.com/tensornb/tensornb/kernel/internal/interp/complete"
	"github.com/tensornb/tensornb/kernel/internal/interp/lower"
	"github.com/tensornb/tensornb/kernel/internal/interp/rewrite"
	"github.com/tensornb/tensornb/kernel/internal/interp/symbols"
	"github.com/tensornb/tensornb/tensor"
)

// statementFunc is the name of the function that a cell's statements
// run as, each declared anew (see run); frames.go knows it, and the
// names that start with it.
const statementFunc = "tensornbStatement"

// A Session interprets cells one after another in one yaegi interpreter,
// each first type-checked (package check) and rewritten (package
// rewrite).
type Session struct {
	in        *interp.Interpreter
	lib       *compiled.Library
	check     *check.Checker
	docs      *complete.Docs
	warmDocs  bool   // whether Warm reads tensor's doc comments (not fetched ones)
	otherwise string // how to run a refused cell otherwise (Host.Otherwise)
	// genericDone is whether the interpreter has compiled the library's
	// generic packages (compiled.Tables.Generic).
	genericDone bool
	// usedLazy are the packages whose lazy tables the interpreter has.
	usedLazy map[string]bool
	// imported are the imports yaegi has made, as evaluated: a cell
	// that imports a package again needs no new evaluation.
	imported map[string]bool
	stderr   io.Writer // where notes for the person go
	stdin    *prompter // the cells' standard input
	// ready is closed once what Warm does is done.
	ready chan struct{}
	// recorder keeps the frames a panic unwinds (frames.go), and
	// lineVars are the variables of frames declared so far; sites are
	// the sites the rewrite marked in the cells' code, and source the
	// cell that runs.
	recorder *frameRecorder
	lineVars map[string]bool
	// lower lowers the cells' generic code for the interpreter.
	lower  *lower.Lowering
	sites  cell.Sites
	source *cell.Source
	// stdout is where the cells' standard output goes; shell runs a
	// shell line (Host.Shell). args are the program's arguments (%args,
	// %%), and program its name, os.Args[0]; flagsBefore is the flag set
	// of the cells before the one that runs (startProgram).
	stdout      io.Writer
	shell       func(ctx context.Context, line string, stdout, stderr io.Writer) error
	args        []string
	program     string
	flagsBefore *flag.FlagSet
	// programs is what runs cells as GoNB's programs (program.go).
	programs programs
	// sandboxed is set by Sandbox: commands that reach the process are
	// refused.
	sandboxed bool
	// fset is yaegi's, from which eval drops the files it no longer
	// needs (dropScratchFiles); nil if it could not be found.
	fset *token.FileSet
}

// warmPackages are the packages Warm imports.
var warmPackages = []string{"fmt", "github.com/tensornb/tensornb/tensor", "github.com/tensornb/tensornb/display"}

// Packages give the checker the types of the packages cells import, and
// the docs their doc comments, which the types lack.
type Packages interface {
	types.Importer
	// DocIndex returns the doc comments of the package at path, as
	// complete.PackageDocs indexes them, or nil if there are none.
	DocIndex(path string) map[string]string
	// DocsAtHand reports whether DocIndex reads files at hand, rather
	// than fetching them, so that Warm may read tensor's before anyone
	// asks.
	DocsAtHand() bool
}

// A lister finds several packages' export data at once, as cheaply as
// one's: a golist.Importer, which runs the go command for it.
type lister interface {
	List(paths ...string) error
}

// A Host is what the place a session runs in gives it: a server's
// worker process (package worker), or a browser's Web Worker.
type Host struct {
	// Library is what the interpreter has compiled in.
	Library *compiled.Library
	// Packages returns where the checker finds the types and doc
	// comments of the packages cells import, adding their positions to
	// the file set it is given.
	Packages func(*token.FileSet) Packages
	// Otherwise ends the message of a cell the engine cannot run
	// (cell.Unsupported): how to run it another way.
	Otherwise string
	// StdSource returns the source of the standard library, the src
	// directory of a Go installation, from which the lowering writes the
	// instances of the generic packages (lower.StdPackages); nil if the
	// host has none, and then cells that use them are refused.
	StdSource func() (fs.FS, error)
	// Shell runs a shell line of a cell (!ls), its output going to
	// stdout and stderr as it comes; nil if the host has no shell, and
	// then such a cell is refused.
	Shell func(ctx context.Context, line string, stdout, stderr io.Writer) error
}

// Open returns a session of host, with the standard library, tensor and
// display importable. Interpreted code's fmt.Print and friends write to
// stdout, or to os.Stdout if it is nil; its os.Stderr, and yaegi's own
// messages but those of a panic's frames, go to stderr. Its os.Stdin,
// and what fmt.Scan and its kin read, asks for each line with ask (see
// prompter; nil: it has none, and a read fails); os.Stdin is an
// io.Reader there, not an *os.File.
func Open(host Host, stdout, stderr io.Writer, ask func() (string, error)) (*Session, error) {
	rec := &frameRecorder{w: stderr}
	if stdout == nil {
		stdout = os.Stdout
	}
	if ask == nil {
		ask = func() (string, error) { return "", errNoStdin }
	}
	stdin := &prompter{ask: ask}
	var stdinReader io.Reader = stdin
	in := interp.New(interp.Options{Stdin: stdin, Stdout: stdout, Stderr: rec})
	tables := []interp.Exports{fixedStandard(host.Library.Standard()), symbols.Symbols, runtimeSymbols(rec), {"os/os": {"Stdin": reflect.ValueOf(&stdinReader).Elem()}}}
	if _, ok := host.Library.Standard()["log/log"]; ok {
		tables = append(tables, logTable(rec))
	}
	for _, table := range tables {
		if err := in.Use(table); err != nil {
			return nil, err
		}
	}
	// The session's own names for what showing results and tracing
	// panics need, which no cell is likely to use.
	for _, src := range []string{`import tensornbFmt "fmt"`, `import tensornbDisplay "github.com/tensornb/tensornb/display"`,
		"import " + cell.RuntimeName + " " + strconv.Quote(cell.RuntimePath), "var " + cell.LineVar("") + " int"} {
		if _, err := in.Eval(src); err != nil {
			return nil, err
		}
	}
	fset := token.NewFileSet()
	pkgs := host.Packages(fset)
	ready := make(chan struct{})
	close(ready)
	std := stdOf(host, pkgs)
	return &Session{in: in, lib: host.Library, check: check.New(fset, pkgs, lowered{host.Library, std}), lower: lower.New(std), docs: complete.NewDocs(pkgs.DocIndex), warmDocs: pkgs.DocsAtHand(),
		otherwise: host.Otherwise, stderr: stderr, stdout: stdout, shell: host.Shell, program: os.Args[0], stdin: stdin, ready: ready,
		recorder: rec, lineVars: map[string]bool{cell.LineVar(""): true}, fset: yaegiFileSet(in), imported: map[string]bool{}}, nil
}

// Warm imports, in the background, the packages cells use most for
// checking, and reads tensor's doc comments, so that the first completion
// finds them at hand: the session's next cell, completion or inspection
// waits for it. Call it before anything else.
func (s *Session) Warm() {
	ready := make(chan struct{})
	s.ready = ready
	go func() {
		defer close(ready)
		imp := s.check.Importer()
		if l, ok := imp.(lister); ok {
			_ = l.List(warmPackages...) // a failure is the cell's to report
		}
		for _, p := range warmPackages {
			_, _ = imp.Import(p) // a failure is the cell's to report
		}
		if s.warmDocs {
			s.docs.Lookup(warmPackages[1], "")
		}
	}()
}

// Ready returns once what Warm started is done: the session's next cell
// starts at once.
func (s *Session) Ready() { <-s.ready }

// Complete returns the completions at cursor, a rune offset in code (its
// commands of GoNB's cell language left out): the
// members after a dot (of a package, of a value's or a type's type), or
// the names in scope that start with the name before the cursor.
func (s *Session) Complete(code string, cursor int) front.Completion {
	<-s.ready
	return complete.Complete(s.check, s.lib, cellcmd.Masked(code), cursor)
}

// Inspect returns the declaration and doc comment of the name at cursor,
// a rune offset in code, as text/plain and text/markdown, or found =
// false.
func (s *Session) Inspect(code string, cursor int) (data map[string]any, found bool) {
	<-s.ready
	return complete.Inspect(s.check, s.docs, cellcmd.Masked(code), cursor)
}

// Run type-checks a cell against the session, then interprets it: its
// pieces in the order written, what they declare kept for later cells. If
// the cell ends with an expression that has a value, the value is shown
// with display.Result, as Out[n]. A failure is a *front.CellError naming
// the cell's line; a panic's names the frames it went through, and the
// cells they are in, by the execution count ctx carries for each
// (front.WithExecutionCount), or by their first lines.
//
// The cell may hold GoNB's commands (package cellcmd), which run first:
// see commands.go.
func (s *Session) Run(ctx context.Context, code string) error {
	err := s.runGoNBCell(ctx, code)
	if ctx.Err() == nil {
		// An interrupted evaluation may still be compiling, on yaegi's
		// goroutine: the lists are its until it ends.
		forgetRetained(s.in)
	}
	var ce *front.CellError
	if errors.As(err, &ce) {
		ce.Value = s.lower.GoNames(userNames(ce.Value))
		for i, l := range ce.Traceback {
			ce.Traceback[i] = s.lower.GoNames(userNames(l))
		}
	}
	return err
}

// Names returns the names the cells have declared so far: variables,
// constants, types and functions.
func (s *Session) Names() []string {
	var names []string
	for _, d := range s.check.Decls() {
		if !strings.Contains(d.Name, ".") && !lower.Given(d.Name) { // not a method, nor an instance
			names = append(names, d.Name)
		}
	}
	return names
}

// userNames writes the names in messages as the person knows them:
// iter.Seq, not the name the session imports iter under for a type only;
// main, not the name yaegi knows the cells' func main by.
func userNames(msg string) string {
	return strings.NewReplacer(cell.TypeAliasPrefix, "", rewrite.MainFunc, "main", initFunc, "init").Replace(msg)
}

// runGoNBCell runs a cell's commands, then its Go code, if it has any.
func (s *Session) runGoNBCell(ctx context.Context, code string) error {
	c := cellcmd.Parse(code)
	g := goCell{code: code}
	if len(c.Commands) > 0 {
		<-s.ready
		var err error
		if g, err = s.runCommands(ctx, c); err != nil {
			return err
		}
	}
	if !hasGo(g.code) {
		return nil
	}
	g.program = !s.programs.over && programCell(g.code)
	s.startProgram(g)
	defer s.keepFlags()
	if g.hasMain {
		// GoNB keeps no func main from cell to cell.
		defer s.check.Forget("main")
	}
	return s.runCell(ctx, g)
}

// runCell does the work of Run for the cell's Go code.
func (s *Session) runCell(ctx context.Context, g goCell) error {
	code := g.code
	<-s.ready
	s.stdin.reset()
	count, _ := front.ExecutionCount(ctx)
	s.source = cell.NewSource(code, count)
	defer s.sites.Release()
	steps, notes, err := s.check.Check(code, s.steps)
	for _, note := range notes {
		fmt.Fprint(s.stderr, userNames(note))
	}
	if err != nil {
		return s.checkError(err, code)
	}
	switch {
	case g.program:
		steps = s.asProgram(steps)
	case !s.programs.over:
		s.endPrograms()
	}
	initsRan := false
	for _, st := range steps {
		if !initsRan && (st.Kind == cell.StmtStep || st.Kind == cell.ResultStep) {
			initsRan = true
			if err := s.start(ctx, st.Line); err != nil {
				return exited(err)
			}
		}
		if st.Kind == cell.StmtStep && st.Text == rewrite.MainFunc+"()" {
			s.programs.ranMain = s.programs.ranMain || g.program
		}
		if g.hasMain && st.Kind == cell.StmtStep && st.Text == rewrite.MainFunc+"()" {
			if stop, err := s.parseFlags(); stop {
				return err
			}
		}
		declared, err := s.run(ctx, st)
		if err == nil || declared {
			// A definition's variables exist in the interpreter, with
			// their types, even if assigning their values failed.
			s.check.Commit(st)
		}
		if code, ok := exitCode(err); ok {
			if code == 0 {
				return nil // os.Exit(0) ends the cell, as it ends a program
			}
			return front.Exit(code)
		}
		if err != nil {
			return s.runError(err, st)
		}
	}
	if !initsRan {
		return exited(s.start(ctx, strings.Count(code, "\n")+1))
	}
	return nil
}

// stdOf returns the standard packages a session's lowering reads from
// host's source, nil if it has none; and, if imp finds the source of
// packages (a server's go command, in the tensornb module), the packages
// of modules that the interpreter does not have compiled in.
func stdOf(host Host, imp types.Importer) *lower.Std {
	if host.StdSource == nil {
		return nil
	}
	std := lower.NewStd(host.StdSource, imp, host.Library.HasSymbol)
	if src, ok := imp.(sourceFinder); ok {
		std.ReadModules(func(path string) (string, []string, error) {
			if !moduleImport(path) || host.Library.Has(path) || host.Library.Elsewhere(path) {
				return "", nil, nil
			}
			return src.Source(path)
		}, src.Named)
	}
	return std
}

// moduleImport reports whether the package at path may be a module's
// that the lowering reads from source: one outside the standard library
// and outside tensornb's own module, whose packages a cell imports
// compiled in or not at all.
func moduleImport(path string) bool {
	return !lower.StandardPath(path) && !ownPackage(path)
}

// A sourceFinder finds the directory and Go files of a package, and the
// one package of a name.
type sourceFinder interface {
	Source(path string) (dir string, files []string, err error)
	Named(name string) string
}

// steps lowers a cell the checker passed, if it has generic code, and
// rewrites it into the steps that run it.
func (s *Session) steps(cc *check.Cell) ([]cell.Step, error) {
	lo, err := s.lower.Cell(cc, func(name, text string) bool {
		d, ok := s.check.Decl(name)
		return ok && d.Src == text
	})
	if err != nil {
		return nil, err
	}
	lo.EachWritten(s.source.AddWritten)
	steps, err := rewrite.Steps(lo.Cell, &s.sites, s.source)
	if err != nil || lo.Cell == cc {
		return steps, lo.Refusal(err)
	}
	steps = lower.UserDecls(steps, cc)
	if len(lo.Imports) > 0 {
		steps = append([]cell.Step{{Kind: cell.ImportStep, Line: 1, TypeImports: lo.Imports}}, steps...)
	}
	return steps, nil
}

// exitCode reports whether err is yaegi's report of os.Exit, and its code.
func exitCode(err error) (int, bool) {
	var p interp.Panic
	if !errors.As(err, &p) {
		return 0, false
	}
	m := osExit.FindStringSubmatch(fmt.Sprint(p.Value))
	if m == nil {
		return 0, false
	}
	code, _ := strconv.Atoi(m[1])
	return code, true
}

var osExit = regexp.MustCompile(`^os\.Exit\((-?\d+)\)$`)

// run interprets one step. declared reports whether a definition
// declared its variables, even if it then failed.
func (s *Session) run(ctx context.Context, st cell.Step) (declared bool, err error) {
	for _, imports := range []map[string]string{st.Imports, st.TypeImports} {
		paths := make([]string, 0, len(imports))
		for p := range imports {
			paths = append(paths, p)
		}
		sort.Strings(paths)
		for _, p := range paths {
			if s.lower.Lowers(p) {
				continue // the lowering declares what the cells use of it
			}
			if err := s.useLazy(p); err != nil {
				return false, err
			}
			if err := s.compileGeneric(p); err != nil {
				return false, err
			}
			src := "import " + imports[p] + " " + strconv.Quote(p)
			if s.imported[src] {
				continue // yaegi has it already, under that name
			}
			if _, err := s.evalOnce(ctx, src); err != nil {
				return false, err
			}
			s.imported[src] = true
		}
	}
	if st.Kind == cell.ImportStep {
		return false, nil
	}
	var undeclared []string
	for _, v := range st.LineVars {
		if !s.lineVars[v] {
			undeclared = append(undeclared, v)
		}
	}
	if len(undeclared) > 0 {
		if _, err := s.evalOnce(ctx, "var "+strings.Join(undeclared, ", ")+" int"); err != nil {
			return false, err
		}
		for _, v := range undeclared {
			s.lineVars[v] = true
		}
	}
	s.recorder.reset()
	switch st.Kind {
	case cell.ResultStep:
		value := "(" + st.Text + ")"
		if st.Interpreted {
			// A value of a type the cells declared reaches compiled code
			// as yaegi's internals; the interpreter prints it, as Go would.
			value = `tensornbDisplay.Bundle{"text/plain": tensornbFmt.Sprint` + value + `}`
		}
		// The statement function returns the value, which the call's
		// evaluation gives back: no session variable holds it.
		v, err := s.runStatement(ctx, fmt.Sprintf("func %s() interface{} { %s = %d; return %s\n}", statementFunc, cell.LineVar(""), st.Site, value), value)
		if err != nil {
			return false, err
		}
		if v.IsValid() && v.Kind() == reflect.Interface {
			v = v.Elem()
		}
		if v.IsValid() {
			display.Result(v.Interface())
		}
		return false, nil
	}
	if st.Texts != nil {
		for _, text := range st.Texts {
			var err error
			if zero, ok := s.declaredAlike(st, text); ok {
				err = s.evalInFunc(ctx, st.Site, zero)
			} else if strings.HasPrefix(text, "var ") || strings.HasPrefix(text, "type ") || plainDefine.MatchString(text) {
				if mayLiveOn(text) {
					_, err = s.eval(ctx, text)
				} else {
					_, err = s.evalOnce(ctx, text)
				}
			} else {
				err = s.evalInFunc(ctx, st.Site, text) // x = e
			}
			if err != nil {
				return declared, err
			}
			declared = declared || strings.HasPrefix(text, "var ")
		}
		return declared, nil
	}
	if st.Kind == cell.StmtStep {
		// A statement runs as the body of a function of its own, declared
		// then called: yaegi v0.16.1 loses variables defined inside a
		// top-level compound statement (a, err := f() in a for loop reads
		// "undefined: err"), and runs a top-level func(){…}() again at
		// every later evaluation.
		//
		// The statement's site is written first (frames.go), on the
		// function's first line, so that the statement's lines stay
		// where they were.
		_, err := s.runStatement(ctx, fmt.Sprintf("func %s() { %s = %d\n%s\n}", statementFunc, cell.LineVar(""), st.Site, st.Text), st.Text)
		return false, err
	}
	_, err = s.eval(ctx, st.Text)
	return false, err
}

// declaredAlike reports whether text declares a variable (var x T) that
// the session has already, of the same type, and if so returns the
// assignment that gives it its zero value instead (x = *new(T)), as a
// new variable would have. yaegi would give a new variable a slot of its
// package's frame, and leave the old one's value in the old slot,
// unreachable from the cells but never freed: a cell that makes a large
// tensor would keep one more each time it ran again. The functions of
// earlier cells then see the new value, as they would in a Go program of
// all the cells, which GoNB compiles.
func (s *Session) declaredAlike(st cell.Step, text string) (string, bool) {
	rest, ok := strings.CutPrefix(text, "var ")
	if !ok {
		return "", false
	}
	name, typ, _ := strings.Cut(rest, " ")
	old, ok := s.check.Decl(name)
	if !ok || !strings.HasPrefix(old.Src, "var ") || typ == "" {
		return "", false
	}
	for _, d := range st.Decls {
		if d.Name == name && d.Src == old.Src {
			return name + " = *new(" + typ + ")", true
		}
	}
	return "", false
}

// plainDefine matches the text of a definition that yaegi runs as
// written, x := e (see definitions), which declares x at the top level.
var plainDefine = regexp.MustCompile(`^[\pL_][\pL\pN_]*(?:, [\pL_][\pL\pN_]*)* := `)

// evalInFunc runs an assignment at the top level of a cell, x = e, as the
// body of the statement function (see run), on the text's first line, so
// that its lines stay where they were; site is the statement's site
// (frames.go). At yaegi's top level each expression's value would take a
// slot of the package's frame that nothing frees: the tensors a cell
// computes on its way, of every cell, for as long as the session lives.
// In a function they are the function's, and go with its frame.
func (s *Session) evalInFunc(ctx context.Context, site int, text string) error {
	_, err := s.runStatement(ctx, fmt.Sprintf("func %s() { %s = %d; %s\n}", statementFunc, cell.LineVar(""), site, text), text)
	return err
}

// runStatement declares the statement function, src, then calls it. The
// function is declared anew by the next statement: unless text, its
// body, makes functions that may outlive it (mayLiveOn), nothing keeps
// its code, and the file of its positions is dropped once it has run. It
// returns what the call returns.
func (s *Session) runStatement(ctx context.Context, src, text string) (reflect.Value, error) {
	if _, err := s.eval(ctx, src); err != nil {
		return reflect.Value{}, err
	}
	var declared *token.File // the file that eval kept, the last one
	if s.fset != nil && s.fset.Base() > 1 {
		declared = s.fset.File(token.Pos(s.fset.Base() - 1))
	}
	v, err := s.evalOnce(ctx, statementFunc+"()")
	if !mayLiveOn(text) && ctx.Err() == nil && declared != nil && declared.Name() == interp.DefaultSourceName {
		s.fset.RemoveFile(declared)
	}
	return v, err
}

// mayLiveOn reports whether code evaluated may make functions that live
// on after it ran, whose positions yaegi reads when they fail: it has a
// function literal, or may have (the word func).
func mayLiveOn(text string) bool { return strings.Contains(text, "func") }

// evalOnce runs src, which leaves nothing behind that reads its
// positions (an import, a variable declared by its type, a call, a
// value read), and drops the files yaegi added to its file set for it:
// a session would keep one for each, for every cell it ran.
func (s *Session) evalOnce(ctx context.Context, src string) (reflect.Value, error) {
	return s.evalDropping(ctx, src, true)
}

// eval runs src, turning a panic inside yaegi into an error.
func (s *Session) eval(ctx context.Context, src string) (reflect.Value, error) {
	return s.evalDropping(ctx, src, false)
}

// useLazy gives the interpreter, before the first import of the package
// at path, its lazy table, if it has one.
func (s *Session) useLazy(path string) error {
	key, table, ok := s.lib.Lazy(path)
	if !ok || s.usedLazy[path] {
		return nil
	}
	if err := s.in.Use(interp.Exports{key: table}); err != nil {
		return err
	}
	if s.usedLazy == nil {
		s.usedLazy = map[string]bool{}
	}
	s.usedLazy[path] = true
	return nil
}

// compileGeneric compiles, before the first import of one of them, the
// standard packages yaegi interprets from source, if the library defers
// them (compiled.Tables.Generic): all of them at once, in their order, as
// yaegi's Use compiles them.
func (s *Session) compileGeneric(path string) error {
	if s.genericDone || !slices.Contains(compiled.GenericPackages, path) {
		return nil
	}
	s.genericDone = true
	for _, src := range s.lib.Generic() {
		if _, err := s.in.Compile(src); err != nil {
			return fmt.Errorf("compiling package %s's source: %w", path, err)
		}
	}
	return nil
}

// evalDropping runs src, turning a panic inside yaegi into an error,
// and drops from yaegi's file set the scratch files it added, or with
// all set every file it added for src.
func (s *Session) evalDropping(ctx context.Context, src string, all bool) (v reflect.Value, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("the interpreter failed: %v", r)
		}
	}()
	if s.fset != nil {
		base := s.fset.Base()
		defer func() {
			switch {
			case ctx.Err() != nil: // yaegi may still be compiling src
			case all:
				dropEvaluated(s.fset, base)
			default:
				dropScratchFiles(s.fset, base)
			}
		}()
	}
	return s.in.EvalWithContext(ctx, src)
}

// checkError makes a checker's refusal of code the cell's error.
func (s *Session) checkError(err error, code string) *front.CellError {
	var ce *cell.CompileError
	if errors.As(err, &ce) {
		messages := []string{ce.Error()}
		if h := explain.IndexHint(ce.Msg, cellLine(code, ce.Line)); h != "" {
			messages = append(messages, h)
		}
		return front.CompileError(ce.Error(), messages)
	}
	var nb *cell.NotInBrowser
	var ns *cell.NotInSandbox
	var un *cell.Unsupported
	msg := ""
	switch {
	case errors.As(err, &nb):
		msg = nb.Error()
	case errors.As(err, &ns):
		msg = ns.Error()
	case errors.As(err, &un):
		msg = un.Error() + "; " + s.otherwise
	}
	if msg != "" {
		return &front.CellError{Name: "Unsupported", Value: msg, Traceback: []string{"Unsupported: " + msg}}
	}
	return front.EngineError(err)
}

// runError makes what failed while the cell.Step st ran the cell's error: a
// refused tensor operation is PyTorch's exception (see explain); what the
// rewrite refuses where it runs (cell.Stop) is the refusal it is, as one
// found before the cell ran reads, with its frames; another
// panic keeps its value as a GoNB cell reports it (name "panic", value the
// panic's message, a runtime error in Go's words: see goWords); anything
// else is the interpreter's own failure. A panic's traceback names its
// frames, innermost first (see frames).
func (s *Session) runError(err error, st cell.Step) *front.CellError {
	var p interp.Panic
	if errors.As(err, &p) {
		frames := s.frames(st)
		top := &frames[len(frames)-1]
		own := top.site != nil && top.site == s.sites.At(st.Site) // the statement's, not one of its blocks'
		if top.site == nil {
			top.site, top.line = &cell.Site{Cell: s.source, Line: st.Line}, st.Line
			own = true
		}
		pv := cell.PanicValue(p.Value)       // yaegi's reflect.Value of an interpreted panic's, unwrapped
		if nr, ok := pv.(*cell.NotRun); ok { // refused where it ran: the frames say where
			msg := nr.Error() + "; " + s.otherwise
			return &front.CellError{Name: "Unsupported", Value: msg, Traceback: append([]string{"Unsupported: " + msg}, s.traceback(frames)...)}
		}
		value := fmt.Sprint(pv)
		if e, ok := pv.(error); ok {
			var te *tensor.Error
			if errors.As(e, &te) {
				return explain.TensorError(te, s.traceback(frames)...)
			}
			var ce *front.CellError
			if errors.As(e, &ce) { // the cell's standard input's (see prompter)
				return &front.CellError{Name: ce.Name, Value: ce.Value, Traceback: append([]string{ce.Name + ": " + ce.Value}, s.traceback(frames)...)}
			}
			value = e.Error()
		}
		if len(frames) == 1 {
			// It failed in the step's own code: goWords finds the
			// expression, and its numbers in the session's values.
			var at int
			value, at = s.goWords(value, st)
			if at > 0 && own {
				top.line = at
			}
		} else {
			value = GoWords(value)
		}
		return &front.CellError{Name: "panic", Value: value, Traceback: append([]string{"panic: " + value}, s.traceback(frames)...)}
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return front.Interrupted()
	}
	line, text := st.Line, err.Error()
	if m := errorPosition.FindStringSubmatch(text); m != nil {
		// The position is in the step's text: if that joins the cell's
		// declarations, their cell line says it.
		n, _ := strconv.Atoi(m[1])
		if at := st.CellLine(n); at > 0 {
			line, text = at, m[2]
		}
	}
	msg := fmt.Sprintf("cell line %d: the interpreter failed: %s", line, text)
	return &front.CellError{Name: "InterpreterError", Value: msg, Traceback: []string{"InterpreterError: " + msg}}
}

// errorPosition matches an error of yaegi's that starts with a position
// in the text it evaluated: its line, and the rest of the message.
var errorPosition = regexp.MustCompile(`(?s)^(?:` + regexp.QuoteMeta(interp.DefaultSourceName) + `:)?(\d+):\d+: (.*)$`)

// cellLine returns line n (from 1) of code, or "".
func cellLine(code string, n int) string {
	lines := strings.Split(code, "\n")
	if n < 1 || n > len(lines) {
		return ""
	}
	return lines[n-1]
}
