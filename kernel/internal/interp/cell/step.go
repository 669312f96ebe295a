package cell

// A Step is a piece of a cell for yaegi, rewritten where needed.
type Step struct {
	Kind Kind
	Text string
	// Texts, if set, are what yaegi runs instead of Text, one after the
	// other (package rewrite's definitions).
	Texts []string
	Line  int // the cell line it starts on
	// Decls are what the step declares for later cells, once it has run.
	Decls []Decl
	// Imports are the imports the step adds, before it runs: path → name;
	// TypeImports those only its variables' types need, path → alias.
	Imports, TypeImports map[string]string
	// Interpreted is set on a result whose type involves types the cells
	// declared.
	Interpreted bool

	// Site is the site of a top-level statement or var declaration
	// (see Sites), which the session writes as it runs a statement;
	// LineVars are the variables of frames that the cell's code writes,
	// to declare first.
	Site     int
	LineVars []string
	// FuncName names the function a step declares, and Unmarked is its
	// text without marks if it has marks; Redeclared names the session's
	// function that the step declares again without its marks.
	FuncName, Unmarked, Redeclared string

	// TextLine is the cell line that the text of a declaration of the
	// cell starts on (0 for an earlier cell's, declared again).
	TextLine int
	// InitOrder places the values of a var declaration in the order Go
	// initializes a package's variables (package rewrite's initorder.go).
	InitOrder int
	// Parts, if set, are the declarations whose texts the step's text
	// joins, each committed as a step of its own once the step has run;
	// Starts are the lines of Text they start on.
	Parts  []Step
	Starts []int
}

// A Kind says what a step is, and so how it runs.
type Kind int

// The kinds of steps.
const (
	ImportStep Kind = iota
	DeclStep
	VarStep // declares a var declaration's variables by type, without values
	StmtStep
	ResultStep // the cell's last expression, which has a value
)

// CellLine returns the cell line of line n of a joined step's text, or 0
// if n is not on a line of the cell's declarations.
func (s Step) CellLine(n int) int {
	for i := len(s.Parts) - 1; i >= 0; i-- {
		if s.Starts[i] <= n {
			if s.Parts[i].TextLine == 0 {
				return 0
			}
			return s.Parts[i].TextLine + n - s.Starts[i]
		}
	}
	return 0
}
