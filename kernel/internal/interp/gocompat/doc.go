// Package gocompat measures how much of Go the instant engines run as Go
// does: it runs Go's own test programs, which the toolchain ships in
// $GOROOT/test, each as one cell of a fresh session, and compares what
// each prints with what go run prints, which Go's test runner checks
// against the .out file beside the program (or empty output, if there is
// none). A program is the cell as it is, package clause and func main
// included: the engine drops the clause and runs main once, as GoNB and
// go run do, and a program whose main ran other than once prints other
// than go run.
//
// The programs (Programs) are those of Patterns (the generics tests,
// typeparam/*.go, and the range tests, range*.go) whose recipe, the
// comment on their first line, is "run": the runner builds and runs
// them, and they pass if they exit with status 0 having printed, on
// stdout and stderr together, exactly the .out file. Each does one of
// these (Classify): the same; the same but for the names of its types
// (type-names); refused by the engine, as unsupported or as not
// compiling; a different output; or a crash (a panic, the interpreter's
// failure, the engine's end, or a timeout).
//
// Two engines run them: the server's (Server: a worker process for each
// program, package worker) and the browser's (Node: the engine built for
// js/wasm, run under Node.js by runcell.js). RunAll makes a Report, which
// it writes as Markdown; the test, TestGoPrograms, is the check that
// scripts/gocompat runs (see there for how to run it).
package gocompat
