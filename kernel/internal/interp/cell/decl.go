package cell

// A Decl is what a cell declared, as Go source for checking later cells:
// a type or func as written, a variable or constant by its type.
type Decl struct {
	Name string
	Src  string
	Doc  string // the doc comment of a type or func, for inspection
}
