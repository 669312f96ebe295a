// Package interp is the instant engine: it runs cells with yaegi, the Go
// interpreter, and keeps what every cell declares and computes for the
// cells after it, as a Python notebook does. tensor, display and the
// standard library are compiled in (package symbols), so only the cells'
// own code is interpreted, and a cell answers in milliseconds.
//
// # Where cells run
//
// A [Session] runs cells in the process that makes it ([NewSession]). On
// a server, an [Engine] keeps one Session in a worker process, so that a
// panic in a goroutine, memory exhausted or an interrupt ends the worker
// and not the kernel: the kernel's command starts the worker as
// `tensornb worker DIR`, whose main calls [Serve] (worker.go), and the
// Engine talks to it over three pipes (engine.go): requests, events and a
// crash report. These files build everywhere but js.
//
// Built for js/wasm, in a browser's Web Worker, the package is the
// Session and [Local] (local.go), which runs one in the page's own
// process, with the packages' types from export data the page fetches
// ([ExportData], exportdata.go) rather than from the go command
// (importer.go). There, of the standard library, only the packages of
// symbols.BrowserStandard are compiled in (standard_js.go): a cell that
// uses another that the server has is refused ([NotInBrowser]). On a
// server, a [BrowserChecker] (browsercheck.go) checks a notebook's cells
// as that engine would, without running them, for the site's builder.
//
// # A cell's way through a session
//
// [Session.Run] takes a cell in these steps, each in a file of its own:
//
//  1. cells.Split cuts it into units: imports, declarations and
//     statements, in any order (package cells).
//  2. The checker (check.go) parses the units once (cellfile.go,
//     imports.go) and type-checks them with go/types against what earlier
//     cells declared (typecheck.go), so that an error is Go's, at the
//     cell's line ([CompileError]); a package used without an import is
//     imported.
//  3. What yaegi v0.16.1 would run differently from Go is refused with a
//     message that names it ([Unsupported], refuse.go), or rewritten to
//     run as Go does (rewrite.go): range over an int, min and max, loop
//     variables captured by closures, and more. The rewrite also marks
//     the code for a panic's frames (instrument.go) and guards constant
//     indexes (bounds.go); see "A panic's frames" below.
//  4. The cell is cut into the steps yaegi evaluates (steps.go); the
//     value of a last expression becomes the cell's result.
//     Declarations run before the statements: the cell's types and
//     constants as one source, then its variables, by their types,
//     then its functions and methods as one source, then its init
//     functions, each on its own, which run as they are declared and
//     may call the functions. yaegi finds a name only if an earlier
//     evaluation declared it or the same source does, so each source
//     lets its declarations refer to one another in any order, as a Go
//     file does; it is written with each declaration on its own cell
//     lines, so that an error of yaegi's in it is at the cell's line.
//     If yaegi cannot compile one, none of that source's declarations
//     is kept for later cells.
//  5. What the cell declared is kept, as Go source, for checking the next
//     cells (decls.go).
//
// A runtime error that yaegi words as package reflect does is worded as
// Go words it (runtimeerr.go), and a refused tensor operation becomes
// PyTorch's exception (package explain).
//
// A variable that a statement defines with := may be used by the cell's
// functions and package-level variables, wherever in the cell they are
// written: the checker hoists it to package level (typecheck.go's
// hoist), and it is declared before the functions and given its value
// in the cell's order, as a var declaration's variables are.
//
// # A panic's frames
//
// A panic's traceback names the interpreted frames it went through,
// innermost first, as Go's stack trace does, each with Go's name of its
// function (third, (*Grid).First, third.func1, func1 for a literal at a
// cell's top level) and the line it had reached: "cell line 3, in
// third: return s[2]" in the running cell, "Cell In[2], line 3, in
// third: …" in an earlier one (by the execution count the front gave it,
// or by its first line if it had none), and "cell line 1: third(xs)"
// for the running cell's top level. A frame that called another is at
// the line of its call, as in Go.
//
// yaegi v0.16.1 names the frames as they unwind ("1:47: panic:
// main.third(...)" on its standard error, which the session keeps, not
// shows: frameRecorder), but not the statement that failed: the position
// it gives is that of the function's first statement. So the rewrite
// marks the code (instrument.go): before each statement that can fail
// (one that calls a function, indexes, slices, dereferences, divides an
// integer, asserts a type, sends, compares interfaces), in the cells'
// functions, function literals and top-level compound statements, an
// assignment of the statement's site, a number the checker keeps the
// place of, to a package-level int of the frame's function, on the
// statement's own line: tensornbLine_third = 17; return s[2]. At a panic
// the session reads the variable of each frame named (frames.go). A
// statement that cannot fail writes nothing; a loop whose statements
// hold one that can fail and none that calls writes that one's site
// once, before the loop; a for loop whose condition can fail writes its
// site again at the end of its body. What it costs, measured with
// BenchmarkMarks on a shared machine of two cores (the median, over
// twelve runs of go test -run '^$' -bench Marks -benchtime 20x -count 1
// ./kernel/internal/interp/, of each run's marked time over its plain
// one, with the range): a loop of 100000 iterations of total += s[i],
// 0.98 (0.85–1.26; the write is made once, before the loop); the same
// loop with two such statements, 1.36 (0.96–1.71; a write before each,
// each iteration); fib(20), one write per call that recurses, 1.06
// (0.70–1.24); a loop of t += r[0], 1.56 (1.42–1.76; the guard below).
// A deferred closure per call, which could find the lines without
// marks, made fib(20) 4.8 times as slow (measured once, in yaegi alone,
// not by the benchmark).
//
// Code that goroutines run is not marked, so that two goroutines never
// write one variable: a function literal started with go, and the
// functions that go statements reach through calls by name or of methods;
// a function of an earlier cell that a go statement comes to reach is
// declared again without its marks before the cell runs, with the others
// that go statements reach, as one source, so that those that call each
// other call each other's new declarations. Its frames are named with no
// line. A method of an earlier cell cannot be declared again (yaegi keeps
// the first definition), and a function value started with go
// (f := func() {…}; go f()) is not known for one: these may still write
// their variables from goroutines, which the race detector reports, and
// which can make no worse than a wrong line in a panic's frames.
//
// Where one function is on the stack more than once (recursion), the
// variable holds the innermost frame's site; the others are placed at
// their function's one statement that calls the frame inside them, or
// named with no line if it has several. A frame reads a site written by
// a call of its own function that returned in the same statement
// (x := f(n-1) + s[9] inside f) as its own. The line is the statement's
// first, where Go names the line of the failing expression in a
// statement of several lines; a failing case expression of a switch is
// at the switch's line.
//
// Inside a function the values an index read are gone once it failed,
// so a runtime error there has no numbers unless the rewrite guarded the
// expression (bounds.go): an index of a slice or string by a constant,
// and a slice expression of one with constant bounds, is checked before
// its statement and fails with Go's message and numbers ("index out of
// range [2] with length 2"), where the check cannot fail when Go would
// not: it runs whenever the statement does (not after && or ||), nothing
// before it in the statement calls, receives or can fail, and what it
// indexes is read again without effect. Still without numbers: indexes
// by a variable inside functions (s[i]), of arrays, and those the rule
// leaves out; at a cell's top level the session's values give them
// (goWords), except for variables local to a block or loop.
//
// # Replay
//
// The Engine records each cell that ran to its end without an error.
// When a worker is replaced, after an interrupt or a crash, the next cell
// first replays those cells in a new worker, in order and with their
// outputs hidden, so that what they declared is there again, and says on
// stderr which cells it replayed. A replay stops at a cell that fails, at
// an interrupt, and at [DefaultReplayLimit]. A cell that ended the worker
// is never replayed, nor one that started a goroutine whose panic ended
// it: the worker runs each cell under a profiler label (cellLabel) that
// the crash report names.
//
// # Limits
//
// The worker may use half of the machine's memory, or of its control
// group's limit, or TENSORNB_MEMORY_LIMIT bytes (memory.go); a cell that
// takes more ends with a MemoryError, and the next cell replays. What
// cells print is captured from file descriptor 1 and os.Stderr
// (capture_linux.go), so that compiled code's output is caught too.
//
// # Completion and inspection
//
// [Session.Complete] and [Session.Inspect] check the cell cut at the
// cursor as a cell is checked before it runs, and answer from go/types
// (complete.go): the members of the type or package before a dot, or the
// names in scope. Doc comments, which export data does not carry, come
// from the packages' source, or in a browser from an index of them
// (docs.go).
package interp
