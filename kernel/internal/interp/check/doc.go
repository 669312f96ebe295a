// Package check type-checks each cell of the instant engine with go/types
// against what the cells before it declared, before yaegi runs it, so
// that an error is Go's, at the cell's line (cell.CompileError), and
// refuses what yaegi v0.16.1 would run differently from Go and no
// rewrite can mend (cell.Unsupported). A Checker keeps what the cells
// declared as Go source (cell.Decl), and checks a cell with only the
// declarations that can matter to it (sessionrefs.go); a package a cell
// uses without importing it is imported for it. Check hands a cell that
// passes to the lowering it is given (package rewrite), and At checks a
// cell cut at the cursor for completion (package complete).
//
// A variable that a statement defines with := may be used by the cell's
// functions and package-level variables, wherever in the cell they are
// written: the checker hoists it to package level (typecheck.go's
// hoist), and it is declared before the functions and given its value in
// the cell's order, as a var declaration's variables are.
package check
