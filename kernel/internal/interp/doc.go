// Package interp is the instant engine: it runs cells with yaegi, the Go
// interpreter, and keeps what every cell declares and computes for the
// cells after it, as a Python notebook does. tensor, display and the
// standard library are compiled in (package symbols), so only the cells'
// own code is interpreted, and a cell answers in milliseconds.
//
// A [Session] runs cells one after another, in the process that [Open]s
// it. [Session.Run] takes a cell in these steps:
//
//  1. package check splits it into units (package cells), type-checks
//     them with go/types against what earlier cells declared, so that an
//     error is Go's, at the cell's line, and refuses what yaegi v0.16.1
//     would run differently from Go and no rewrite mends;
//  2. package rewrite rewrites the rest to run as Go does, marks it for a
//     panic's frames and cuts it into the steps yaegi evaluates;
//  3. the session runs the steps (session.go), and what they declare is
//     kept for the next cells' checks. A runtime error that yaegi words
//     as package reflect does is worded as Go words it (runtimeerr.go), a
//     panic's traceback names its frames (frames.go), and a refused
//     tensor operation becomes PyTorch's exception (package explain).
//
// Where a session runs, its [Host] says what it has: a server's
// (worker.Host) has yaegi's whole standard library and the go command
// for the types of what cells import, and runs the session in a worker
// process (package worker); a browser's (kernel/internal/browser) has a
// few standard packages and export data it fetches, and runs the session
// in the page's Web Worker through a [Local]. Completion and inspection
// are package complete's; what every engine has compiled in, package
// compiled's. Where yaegi's tables of the standard library are wrong, the
// session mends them (stdfixes.go: fmt sees the cells' Error methods;
// logfix.go: log's Logger).
package interp
