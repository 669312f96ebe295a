package lower

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"github.com/tensornb/tensornb/kernel/internal/interp/cell"
	"github.com/tensornb/tensornb/kernel/internal/interp/check"
)

// A Lowering lowers the cells of one session: it keeps the names it gave
// instances, for the interpreter's messages.
type Lowering struct {
	names *Names
}

// New returns the lowering of a new session.
func New() *Lowering { return &Lowering{names: newNames()} }

// GoNames writes the names msg gives instances as Go writes them:
// Map[int, string] for Mapᐸintˏstringᐳ.
func (l *Lowering) GoNames(msg string) string { return l.names.GoNames(msg) }

// A cellLowering is the lowering of one cell.
type cellLowering struct {
	l    *Lowering
	cc   *check.Cell
	info *types.Info
	fset *token.FileSet
	src  string
	w    typeWriter

	// funcs and types are the generic declarations of the checked file,
	// and methods the methods of its generic types.
	funcs   map[*types.Func]*ast.FuncDecl
	types   map[*types.TypeName]*ast.TypeSpec
	methods map[*types.TypeName][]*ast.FuncDecl
	// generic are the declarations that go: generic functions, methods of
	// generic types, and the declarations of generic types.
	generic []ast.Node

	asked map[string]bool
	queue []instance
	at    token.Pos // where the cell asked for the instance being written
	added []check.Added
	// given says whether the session has declared name with text, in the
	// interpreter.
	given func(name, text string) bool
}

// Cell returns the cell lowered for the interpreter, or cc itself if it
// has nothing to lower. given reports whether the session has the
// declaration name with text already. A cell whose lowering fails is
// refused, at the line that could not be lowered.
func (l *Lowering) Cell(cc *check.Cell, given func(name, text string) bool) (*check.Cell, error) {
	cl := &cellLowering{l: l, cc: cc, info: cc.Info, fset: cc.FileSet(), src: cc.File.Src, given: given,
		funcs: map[*types.Func]*ast.FuncDecl{}, types: map[*types.TypeName]*ast.TypeSpec{}, methods: map[*types.TypeName][]*ast.FuncDecl{},
		asked: map[string]bool{}}
	cl.w = typeWriter{main: cc.Pkg, qualifier: cc.Qualifier(), named: func(*types.TypeName) string { return "" }}
	cl.w.instance = func(t *types.Named) (string, error) { return cl.instanceOf(t.Origin().Obj(), typeArgs(t), cl.at) }
	cl.index()
	if len(cl.generic) == 0 && !cl.instantiates() {
		return cc, nil
	}
	edits, err := cl.fileEdits()
	if err != nil {
		return nil, err
	}
	for len(cl.queue) > 0 {
		inst := cl.queue[0]
		cl.queue = cl.queue[1:]
		cl.at = inst.at
		if err := cl.writeInstance(inst); err != nil {
			return nil, cl.refusal(inst, err)
		}
	}
	lc, err := cc.Lowered(edits, cl.added)
	if err != nil {
		return nil, &cell.Unsupported{Line: 1, What: "this cell's generic code, whose lowering the interpreter cannot run (" + l.GoNames(err.Error()) + ")"}
	}
	return lc, nil
}

// refusal refuses the cell for an instance that cannot be written, at
// the line that asks for it.
func (cl *cellLowering) refusal(inst instance, err error) error {
	line, ok := cl.cc.File.LineOf(inst.at)
	if !ok {
		line, _ = cl.cc.File.LineOf(inst.obj.Pos())
	}
	return &cell.Unsupported{Line: max(line, 1), What: cl.l.GoNames(inst.name) + ", an instance of a generic " + kind(inst.obj) + " (" + cl.l.GoNames(err.Error()) + ")"}
}

// kind names what a generic declaration declares.
func kind(obj types.Object) string {
	if _, ok := obj.(*types.TypeName); ok {
		return "type"
	}
	return "function"
}

// typeArgs returns the type arguments of an instantiated type.
func typeArgs(t *types.Named) []types.Type {
	args := make([]types.Type, t.TypeArgs().Len())
	for i := range args {
		args[i] = t.TypeArgs().At(i)
	}
	return args
}

// lowers reports whether obj is a generic declaration the lowering writes
// instances of: one of the cells'.
func (cl *cellLowering) lowers(obj types.Object) bool {
	return obj != nil && obj.Pkg() == cl.cc.Pkg
}

// index finds the generic declarations of the checked file.
func (cl *cellLowering) index() {
	for _, d := range cl.cc.File.Parsed.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			obj, _ := cl.info.Defs[d.Name].(*types.Func)
			if obj == nil {
				continue
			}
			sig := obj.Type().(*types.Signature)
			switch {
			case sig.TypeParams().Len() > 0:
				cl.funcs[obj] = d
				cl.generic = append(cl.generic, d)
			case sig.RecvTypeParams().Len() > 0:
				if tn := receiverType(sig); tn != nil {
					cl.methods[tn] = append(cl.methods[tn], d)
					cl.generic = append(cl.generic, d)
				}
			}
		case *ast.GenDecl:
			cl.indexTypes(d)
		}
	}
}

// indexTypes finds the generic types a declaration declares.
func (cl *cellLowering) indexTypes(d *ast.GenDecl) {
	for _, s := range d.Specs {
		spec, ok := s.(*ast.TypeSpec)
		if !ok || spec.TypeParams == nil {
			continue
		}
		if tn, ok := cl.info.Defs[spec.Name].(*types.TypeName); ok {
			cl.types[tn] = spec
			if len(d.Specs) == 1 {
				cl.generic = append(cl.generic, d)
			} else {
				cl.generic = append(cl.generic, spec)
			}
		}
	}
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
// declaration the lowering writes instances of.
func (cl *cellLowering) instantiates() bool {
	for id := range cl.info.Instances {
		if cl.lowers(cl.info.Uses[id]) {
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
				e, err := cl.substEdits(s, nil)
				if err != nil {
					return nil, err
				}
				edits = append(edits, e...)
			}
			continue
		}
		e, err := cl.substEdits(d, nil)
		if err != nil {
			return nil, err
		}
		edits = append(edits, e...)
	}
	return edits, nil
}

// blank returns the edit that takes n away, leaving its lines empty.
func (cl *cellLowering) blank(n ast.Node) check.Edit {
	from, to := cl.offset(n.Pos()), cl.offset(n.End())
	return check.Edit{From: from, To: to, Text: strings.Repeat("\n", strings.Count(cl.src[from:to], "\n"))}
}

// add adds the declaration name, with text, to those of the cell's
// instances: one the session has with that text is given.
func (cl *cellLowering) add(name, text string) {
	cl.added = append(cl.added, check.Added{Name: name, Text: text, Given: cl.given(name, text)})
}

// offset is the byte offset of p in the checked file.
func (cl *cellLowering) offset(p token.Pos) int { return cl.fset.Position(p).Offset }

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
