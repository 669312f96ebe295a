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
//     variables captured by closures, and more.
//  4. The cell is cut into the steps yaegi evaluates (steps.go); the
//     value of a last expression becomes the cell's result.
//  5. What the cell declared is kept, as Go source, for checking the next
//     cells (decls.go).
//
// A runtime error that yaegi words as package reflect does is worded as
// Go words it (runtimeerr.go), and a refused tensor operation becomes
// PyTorch's exception (package explain).
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
