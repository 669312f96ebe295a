package lower

import (
	"cmp"
	"errors"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"github.com/tensornb/tensornb/kernel/internal/interp/cell"
	"github.com/tensornb/tensornb/kernel/internal/interp/check"
)

// A Lowering lowers the cells of one session: it keeps the names it gave
// instances, for the interpreter's messages.
type Lowering struct {
	names *Names
	std   *Std
}

// New returns the lowering of a new session, which writes the instances
// of std's packages from their source; std may be nil, and then a cell
// instantiating their generic declarations is left to be refused.
func New(std *Std) *Lowering { return &Lowering{names: newNames(), std: std} }

// GoNames writes the names msg gives instances as Go writes them:
// Map[int, string] for Mapᐸintˏstringᐳ.
func (l *Lowering) GoNames(msg string) string { return l.names.GoNames(msg) }

// Std returns the standard packages the lowering reads from source, nil
// if none.
func (l *Lowering) Std() *Std { return l.std }

// Lowers reports whether the lowering writes the declarations of the
// standard package at path from source: the interpreter need not import
// it.
func (l *Lowering) Lowers(path string) bool { return l.std.Lowers(path) }

// A cellLowering is the lowering of one cell.
type cellLowering struct {
	l  *Lowering
	cc *check.Cell
	w  typeWriter

	// cell is where the cell's declarations are, and cellDecls indexes
	// them; generic are those that go: generic functions, methods of
	// generic types, and the declarations of generic types. froms are
	// the standard packages' sources.
	cell      *from
	cellDecls decls
	generic   []ast.Node
	froms     map[*stdPackage]*from

	// locals are the names of the types declared inside functions that
	// the lowering declares at package level, hoisted those in order, and
	// skip the nodes of the file the lowering takes out.
	locals  map[*types.TypeName]string
	hoisted []*types.TypeName
	skip    map[ast.Node]bool
	// guards are the type switches by their guards' assertions.
	guards map[*ast.TypeAssertExpr]*ast.TypeSwitchStmt
	// keys are the cases and map keys of generic code (markKeys).
	keys map[ast.Expr]bool

	asked map[string]bool
	queue []instance
	at    token.Pos // where the cell asked for the instance being written
	// writing is the instance being written, nil while the cell's own
	// code is; rootOf and atOf say, of each declaration written, which
	// instance the cell asked for needs it, and where.
	writing *instance
	rootOf  map[string]string
	atOf    map[string]token.Pos
	added   []check.Added
	// imports are the packages the lowered code names that neither the
	// session nor the cell imports, path → the name it names them by.
	imports map[string]string
	// given says whether the session has declared name with text, in the
	// interpreter.
	given func(name, text string) bool
}

// A Lowered is a cell as the lowering made it for the interpreter.
type Lowered struct {
	// Cell is the lowered cell: the cell itself if it had nothing to
	// lower.
	Cell *check.Cell
	// Imports are the packages the lowered code names that the
	// interpreter must import first, path → name.
	Imports map[string]string
	// written are the instances the cell's lines are followed by, in
	// their order, each with the lines it takes.
	written []written
	names   *Names
}

// A written instance is one the lowering added to a cell: the lines it
// takes, the instance the cell asked for that needs it, and where.
type written struct {
	first, last int
	root        string
	at          int
	text        string
}

// EachWritten calls f with each declaration the lowering wrote after the
// cell's lines, the line it starts on and its text (which
// cell.Source.AddWritten records, for a panic's frames).
func (lo *Lowered) EachWritten(f func(first int, text string)) {
	for _, w := range lo.written {
		f(w.first, w.text)
	}
}

// blankModuleImport refuses a cell that imports a module's package for
// its side effects alone (import _ "pkg"): the lowering runs a module's
// package's init functions when a cell first uses the package, and a
// blank import uses nothing.
func (l *Lowering) blankModuleImport(cc *check.Cell) error {
	for _, u := range cc.Imports.Units {
		for _, is := range u.Specs {
			if is.Name == "_" && l.std.module(is.Path) != nil {
				return &cell.Unsupported{Line: is.Line, What: fmt.Sprintf("import _ %q: the engine runs the init functions of a module's package when a cell first uses one of its names, and a blank import uses none", is.Path)}
			}
		}
	}
	return nil
}

// Refusal makes an error of package rewrite's about the lowered cell one
// about the cell: a refusal on the lines of a written instance is at the
// line that asked for it, and names it.
func (lo *Lowered) Refusal(err error) error {
	u, ok := err.(*cell.Unsupported)
	if !ok {
		return err
	}
	for _, w := range lo.written {
		if u.Line >= w.first && u.Line <= w.last {
			what := lo.names.GoNames(u.What)
			if w.root != "" {
				what += ", in " + lo.names.GoNames(w.root)
			}
			return &cell.Unsupported{Line: w.at, What: what}
		}
	}
	return err
}

// Cell returns the cell lowered for the interpreter. given reports
// whether the session has the declaration name with text already. A cell
// whose lowering fails is refused, at the line that could not be
// lowered.
func (l *Lowering) Cell(cc *check.Cell, given func(name, text string) bool) (*Lowered, error) {
	if err := l.blankModuleImport(cc); err != nil {
		return nil, err
	}
	cl := &cellLowering{l: l, cc: cc, given: given, cellDecls: newDecls(), froms: map[*stdPackage]*from{}, asked: map[string]bool{}, imports: map[string]string{}, locals: map[*types.TypeName]string{}, skip: map[ast.Node]bool{},
		guards: map[*ast.TypeAssertExpr]*ast.TypeSwitchStmt{}, keys: map[ast.Expr]bool{},
		rootOf: map[string]string{}, atOf: map[string]token.Pos{}}
	cl.cell = &from{fset: cc.FileSet(), info: cc.Info, pkg: cc.Pkg, text: func(token.Pos) string { return cc.File.Src }}
	q := cc.Qualifier()
	cl.w = typeWriter{main: cc.Pkg, std: l.std, locals: cl.locals, qualifier: func(p *types.Package) string {
		if name, ok := cc.CellImports[p.Path()]; ok && name != "." && name != "_" {
			return cmp.Or(name, p.Name())
		}
		name := q(p)
		if !cc.SessionImports(p.Path()) {
			cl.imports[p.Path()] = name
		}
		return name
	}}
	cl.w.instance = func(t *types.Named) (string, error) { return cl.instanceOf(t.Origin().Obj(), typeArgs(t), cl.at) }
	cl.index()
	if len(cl.generic) == 0 && !cl.instantiates() {
		return &Lowered{Cell: cc}, nil
	}
	hoisting, err := cl.hoistLocals()
	if err != nil {
		return nil, cl.refusal(instance{at: cl.at}, err)
	}
	edits, err := cl.fileEdits()
	if err != nil {
		return nil, cl.refusal(instance{at: cl.at}, err)
	}
	edits = append(edits, hoisting...)
	if err := cl.writeLocals(); err != nil {
		return nil, cl.refusal(instance{at: cl.at}, err)
	}
	for len(cl.queue) > 0 {
		inst := cl.queue[0]
		cl.queue = cl.queue[1:]
		cl.at, cl.writing = inst.at, &inst
		if err := cl.writeInstance(inst); err != nil {
			return nil, cl.refusal(inst, err)
		}
	}
	cl.initOrder()
	lc, err := cc.Lowered(edits, cl.added)
	if err != nil {
		return nil, &cell.Unsupported{Line: 1, What: "this cell's generic code, whose lowering the interpreter cannot run (" + l.GoNames(err.Error()) + ")"}
	}
	return &Lowered{Cell: lc, Imports: cl.imports, written: cl.written(lc), names: l.names}, nil
}

// initOrder puts the variables written first, in the reverse of the
// order they were asked for: one whose value uses another asked for it,
// and a program would have initialized that one first.
func (cl *cellLowering) initOrder() {
	var vars, others []check.Added
	for _, a := range cl.added {
		if strings.HasPrefix(a.Text, "var ") {
			vars = append(vars, a)
		} else {
			others = append(others, a)
		}
	}
	slices.Reverse(vars)
	cl.added = append(vars, others...)
}

// written returns where in lc the instances the cell did not have are,
// the units after the cell's own.
func (cl *cellLowering) written(lc *check.Cell) []written {
	var out []written
	i := len(cl.cc.File.Spans) // the spans of the units the lowering added come after the cell's
	for _, a := range cl.added {
		if a.Given {
			continue
		}
		for ; i < len(lc.File.Spans); i++ {
			sp := lc.File.Spans[i]
			if sp.Unit.Text == a.Text {
				u := sp.Unit
				at, _ := cl.cc.File.LineOf(cl.atOf[a.Name])
				out = append(out, written{first: u.Line, last: u.Line + strings.Count(u.Text, "\n"), root: cl.rootOf[a.Name], at: max(at, 1), text: u.Text})
				i++
				break
			}
		}
	}
	return out
}

// source returns the declaration of obj the lowering writes from, and
// where it is: the cell's, or a standard package's source.
func (cl *cellLowering) source(obj types.Object) (types.Object, *from) {
	if obj.Pkg() == cl.cc.Pkg {
		return obj, cl.cell
	}
	src, sp := cl.l.std.lookup(obj)
	fr, ok := cl.froms[sp]
	if !ok {
		std := cl.l.std
		fr = &from{fset: std.fset, info: sp.info, pkg: sp.pkg, std: sp, text: func(p token.Pos) string { return sp.texts[std.fset.File(p)] }}
		cl.froms[sp] = fr
	}
	return src, fr
}

// refusal refuses the cell for an instance that cannot be written, at
// the line that asks for it.
func (cl *cellLowering) refusal(inst instance, err error) error {
	var unsafe *unsafeUse
	if errors.As(err, &unsafe) {
		if line, ok := cl.cc.File.LineOf(unsafe.pos); ok {
			return &cell.Unsupported{Line: line, What: unsafe.Error()}
		}
	}
	line, ok := cl.cc.File.LineOf(inst.at)
	if !ok && inst.obj != nil {
		line, _ = cl.cc.File.LineOf(inst.obj.Pos())
	}
	if inst.obj == nil {
		return &cell.Unsupported{Line: max(line, 1), What: "this cell's generic code (" + cl.l.GoNames(err.Error()) + ")"}
	}
	why := err.Error()
	if inst.name != inst.root {
		why = "it uses " + short(cl.l.GoNames(inst.name)) + ": " + why
	}
	return &cell.Unsupported{Line: max(line, 1), What: short(cl.l.GoNames(inst.root)) + " (" + cl.l.GoNames(why) + ")"}
}

// short cuts a name of an instance to at most 80 characters: one that
// instantiates itself with ever larger types has thousands.
func short(name string) string {
	if r := []rune(name); len(r) > 80 {
		return string(r[:79]) + "…"
	}
	return name
}

// typeArgs returns the type arguments of an instantiated type.
func typeArgs(t *types.Named) []types.Type {
	args := make([]types.Type, t.TypeArgs().Len())
	for i := range args {
		args[i] = t.TypeArgs().At(i)
	}
	return args
}

// lowers reports whether obj is a declaration the lowering writes
// instances of: the cells', and those of the standard packages it reads
// from source.
func (cl *cellLowering) lowers(obj types.Object) bool {
	return obj != nil && obj.Pkg() != nil && (obj.Pkg() == cl.cc.Pkg || cl.l.std.LowersObject(obj))
}

// index finds the declarations of the checked file, and those that go.
func (cl *cellLowering) index() {
	for _, d := range cl.cc.File.Parsed.Decls {
		cl.cellDecls.add(d, cl.cc.Info)
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Type.TypeParams != nil || (d.Recv != nil && len(d.Recv.List) > 0 && isGenericReceiver(d.Recv.List[0].Type)) {
				cl.generic = append(cl.generic, d)
			}
		case *ast.GenDecl:
			for _, s := range d.Specs {
				if spec, ok := s.(*ast.TypeSpec); ok && spec.TypeParams != nil {
					if len(d.Specs) == 1 {
						cl.generic = append(cl.generic, d)
					} else {
						cl.generic = append(cl.generic, spec)
					}
				}
			}
		}
	}
}

// isGenericReceiver reports whether a method's receiver type is a
// generic type's, with its type parameters: T[K], *T[K, V].
func isGenericReceiver(x ast.Expr) bool {
	x = unparen(x)
	if star, ok := x.(*ast.StarExpr); ok {
		x = unparen(star.X)
	}
	switch x.(type) {
	case *ast.IndexExpr, *ast.IndexListExpr:
		return true
	}
	return false
}

// receiverType returns the generic type a method's receiver is of.
func receiverType(sig *types.Signature) *types.TypeName {
	t := sig.Recv().Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := t.(*types.Named); ok {
		return n.Origin().Obj()
	}
	return nil
}

// instantiates reports whether the checked file instantiates a generic
// declaration the lowering writes instances of, or uses a name of a
// standard package that the lowering writes from source, or of package
// unsafe.
func (cl *cellLowering) instantiates() bool {
	for id := range cl.cc.Info.Instances {
		if cl.lowers(cl.cc.Info.Uses[id]) {
			return true
		}
	}
	for _, obj := range cl.cc.Info.Uses {
		if obj != nil && obj.Pkg() != nil && obj.Pkg().Path() == "unsafe" {
			return true
		}
		if obj != nil && obj.Pkg() != cl.cc.Pkg && cl.l.std.LowersObject(obj) {
			return true
		}
	}
	return false
}

// fileEdits returns the edits of the checked file: its generic
// declarations go, each line left empty, and its instantiations become
// the names of the instances, which it asks for.
func (cl *cellLowering) fileEdits() ([]check.Edit, error) {
	var edits []check.Edit
	skip := map[ast.Node]bool{}
	for _, n := range cl.generic {
		skip[n] = true
		edits = append(edits, cl.blank(n))
	}
	for _, d := range cl.cc.File.Parsed.Decls {
		if name, ok := cl.cc.File.SessionName(d); ok && Given(name) {
			// An instance the session has: the cell asks for it again if
			// it needs it.
			skip[d] = true
			edits = append(edits, cl.blank(d))
		}
		if skip[d] {
			continue
		}
		if gd, ok := d.(*ast.GenDecl); ok {
			for _, s := range gd.Specs {
				if skip[s] {
					continue
				}
				e, err := cl.substEdits(cl.cell, s, nil)
				if err != nil {
					return nil, err
				}
				edits = append(edits, e...)
			}
			continue
		}
		e, err := cl.substEdits(cl.cell, d, nil)
		if err != nil {
			return nil, err
		}
		edits = append(edits, e...)
	}
	return edits, nil
}

// blank returns the edit that takes n away, leaving its lines empty. A
// semicolon after n on its line goes too: a declaration of a cell such
// as "func f[T any]() {}; f[int]()" would leave one at the top level,
// where Go allows none.
func (cl *cellLowering) blank(n ast.Node) check.Edit {
	src := cl.cc.File.Src
	from, to := cl.offset(n.Pos()), cl.offset(n.End())
	if rest := strings.TrimLeft(src[to:], " \t"); strings.HasPrefix(rest, ";") {
		to = len(src) - len(rest) + 1
	}
	return check.Edit{From: from, To: to, Text: strings.Repeat("\n", strings.Count(src[from:to], "\n"))}
}

// add adds the declaration name, with text, to those of the cell's
// instances: one the session has with that text is given.
func (cl *cellLowering) add(name, text string) {
	cl.added = append(cl.added, check.Added{Name: name, Text: text, Given: cl.given(name, text)})
	if cl.writing != nil {
		cl.rootOf[name], cl.atOf[name] = cl.writing.root, cl.writing.at
	}
}

// offset is the byte offset of p in the checked file.
func (cl *cellLowering) offset(p token.Pos) int { return cl.cell.offset(p) }

// UserDecls gives the steps of a lowered cell the declarations of the
// cell as it was written, which later cells are checked with: their
// generic declarations and instantiations, not the lowering's. What the
// lowering took away, the cell's generic declarations, a step that runs
// nothing declares first. The declarations of instances stay as the
// lowering wrote them, for the session to know which it has.
func UserDecls(steps []cell.Step, cc *check.Cell) []cell.Step {
	written := map[string]cell.Decl{}
	var order []string
	for _, sp := range cc.File.Spans {
		decls := cc.VarsOf(sp)
		if sp.Unit.Declaration {
			decls = cc.DeclsOf(sp)
		}
		for _, d := range decls {
			written[d.Name] = d
			order = append(order, d.Name)
		}
	}
	used := map[string]bool{}
	var fix func(st *cell.Step)
	fix = func(st *cell.Step) {
		for i, d := range st.Decls {
			if w, ok := written[d.Name]; ok {
				st.Decls[i] = w
				used[d.Name] = true
			}
		}
		for i := range st.Parts {
			fix(&st.Parts[i])
		}
	}
	for i := range steps {
		fix(&steps[i])
	}
	var gone []cell.Decl
	for _, name := range order {
		if !used[name] {
			gone = append(gone, written[name])
		}
	}
	if len(gone) == 0 {
		return steps
	}
	return append([]cell.Step{{Kind: cell.DeclStep, Texts: []string{}, Decls: gone}}, steps...)
}

// Given reports whether a declaration's name is one the lowering gave an
// instance: not one to show as the cells'.
func Given(name string) bool { return strings.ContainsFunc(name, isSign) }
