// Package cell holds what the instant engine's stages share about a
// cell: the errors that refuse one (CompileError, Unsupported,
// NotInBrowser, NotInSandbox), what a cell declares for the cells after
// it (Decl), the steps yaegi runs (Step), the sites of the cells' code
// that a panic's frames name (Sites), and the compiled functions that
// rewritten code calls (runtime.go). Package check makes the Decls,
// package rewrite the Steps and the Sites, and package interp runs them.
package cell
