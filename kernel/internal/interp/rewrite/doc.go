// Package rewrite turns a cell that package check passed into the steps
// yaegi runs (cell.Step): it rewrites, as text edits of the checked file,
// what yaegi v0.16.1 would run differently from Go (rewrite.go), marks the
// code for a panic's frames (instrument.go), guards constant indexes
// (bounds.go), and cuts the cell into the pieces yaegi evaluates
// (steps.go): the value of a last expression becomes the cell's result.
//
// Declarations run before the statements: the cell's types and constants
// as one source, then its variables, by their types, then its functions
// and methods as one source, then its init functions, each on its own,
// which run as they are declared and may call the functions, after the
// values of the cell's var declarations. yaegi finds a name only if an
// earlier evaluation declared it or the same source does, so each source
// lets its declarations refer to one another in any order, as a Go file
// does; it is written with each declaration on its own cell lines, so
// that an error of yaegi's in it is at the cell's line. If yaegi cannot
// compile one, none of that source's declarations is kept for later
// cells. A func main is declared under another name, which yaegi does not
// run by itself (mainfunc.go), and the cell that declares it calls it
// last; later cells' main() calls it by that name. A variable's type is
// written without the names of its function types' parameters, or
// declared first as an alias if it names struct fields or interface
// methods (vartypes.go): yaegi takes those names for variables.
//
// A call of errors.As becomes a function literal that walks the error's
// tree in interpreted code (errors.go): yaegi's compiled errors.As sees
// none of the methods of the cells' types but Error, nor their values
// through a pointer to a target. A method expression, T.M, becomes a
// function literal that calls the method (methodexpr.go): yaegi's are
// wrong. Builtins that yaegi lacks or gets wrong (clear, new of a value,
// print and println, recover's value) become compiled helpers' calls or
// function literals (builtins.go). A value of the cells' types passed to
// a compiled ...error parameter is wrapped as one (variadic.go). A call's
// result passed to an interpreted function's parameter of an interface
// type goes in parentheses (callargs.go): yaegi wraps it wrongly. A
// comma-ok value assigned to a variable of an interface type comes from
// a function literal that returns it as one (commaok.go).
// log.Lshortfile and log.Llongfile are refused (logflags.go).
//
// # Range over a function
//
// yaegi v0.16.1 runs Go 1.21 and has no range over functions. The
// rewrite lowers such a loop as the Go spec defines it (rangefunc.go):
// the function is called once with the loop's body made a function
// literal, whose parameters are the loop variables; continue returns
// true, break false; a return, or a break or continue of a statement
// outside the loop, through any number of such loops, sets a variable of
// each loop it leaves and returns false, and the code after the call
// takes that exit. A return's values go to the function's results first
// (named by the rewrite if they have no names), and a defer's call to a
// list that the function runs, last first, when it returns, as Go runs
// deferred calls. A state per loop makes an iterator that calls yield
// after it returned false, after the loop, or after a panic of the body
// fail with Go's runtime error. The code it adds is on the lines of the
// for and of the closing brace. Refused: a goto out of the body, a defer
// in one at a cell's top level, and a deferred call there whose function
// may call recover (it would not stop a panic from the list).
//
// # A panic's frames
//
// A panic's traceback names the interpreted frames it went through,
// innermost first, as Go's stack trace does, each with Go's name of its
// function (third, (*Grid).First, third.func1, func1 for a literal at a
// cell's top level, third-range1 for the body of a range-over-func loop,
// range1 at a cell's top level) and the line it had reached: "cell line
// 3, in third: return s[2]" in the running cell, "Cell In[2], line 3, in
// third: …" in an earlier one (by the execution count the front gave it,
// or by its first line if it had none), and "cell line 1: third(xs)" for
// the running cell's top level. A frame that called another is at the
// line of its call, as in Go.
//
// yaegi v0.16.1 names the frames as they unwind ("1:47: panic:
// main.third(...)" on its standard error, which the session keeps, not
// shows: package interp's frameRecorder), but not the statement that
// failed: the position it gives is that of the function's first statement.
// So the rewrite marks the code (instrument.go): before each statement
// that can fail (one that calls a function, indexes, slices, dereferences,
// divides an integer, asserts a type, sends, compares interfaces), in the
// cells' functions, function literals and top-level compound statements,
// an assignment of the statement's site, a number a cell.Sites keeps the
// place of, to a package-level int of the frame's function, on the
// statement's own line: tensornbLine_third = 17; return s[2]. At a panic
// the session reads the variable of each frame named (package interp's
// frames.go). A statement that cannot fail writes nothing; a loop whose
// statements hold one that can fail and none that calls writes that one's
// site once, before the loop; a for loop whose condition can fail writes
// its site again at the end of its body. What it costs, measured with
// BenchmarkMarks on a shared machine of two cores (the median, over twelve
// runs of go test -run '^$' -bench Marks -benchtime 20x -count 1
// ./kernel/internal/interp/, of each run's marked time over its plain one,
// with the range): a loop of 100000 iterations of total += s[i], 0.98
// (0.85–1.26; the write is made once, before the loop); the same loop with
// two such statements, 1.36 (0.96–1.71; a write before each, each
// iteration); fib(20), one write per call that recurses, 1.06 (0.70–1.24);
// a loop of t += r[0], 1.56 (1.42–1.76; the guard below). A deferred
// closure per call, which could find the lines without marks, made fib(20)
// 4.8 times as slow (measured once, in yaegi alone, not by the benchmark).
//
// Code that goroutines run is not marked, so that two goroutines never
// write one variable: a function literal started with go, and the
// functions that go statements reach through calls by name or of methods;
// a function of an earlier cell that a go statement comes to reach is
// declared again without its marks before the cell runs, with the others
// that go statements reach, as one source, so that those that call each
// other call each other's new declarations. Its frames are named with no
// line. A method of an earlier cell cannot be declared again (yaegi keeps
// the first definition), and a function value started with go (f := func()
// {…}; go f()) is not known for one: these may still write their variables
// from goroutines, which the race detector reports, and which can make no
// worse than a wrong line in a panic's frames.
//
// Where one function is on the stack more than once (recursion), the
// variable holds the innermost frame's site; the others are placed at
// their function's one statement that calls the frame inside them, or
// named with no line if it has several. A frame reads a site written by a
// call of its own function that returned in the same statement (x :=
// f(n-1) + s[9] inside f) as its own. The line is the statement's first,
// where Go names the line of the failing expression in a statement of
// several lines; a failing case expression of a switch is at the switch's
// line.
//
// Inside a function the values an index read are gone once it failed, so a
// runtime error there has no numbers unless the rewrite guarded the
// expression (bounds.go): an index of a slice or string by a constant, and
// a slice expression of one with constant bounds, is checked before its
// statement and fails with Go's message and numbers ("index out of range
// [2] with length 2"), where the check cannot fail when Go would not: it
// runs whenever the statement does (not after && or ||), nothing before it
// in the statement calls, receives or can fail, and what it indexes is
// read again without effect. Still without numbers: indexes by a variable
// inside functions (s[i]), of arrays, and those the rule leaves out; at a
// cell's top level the session's values give them (interp's goWords),
// except for variables local to a block or loop.
package rewrite
