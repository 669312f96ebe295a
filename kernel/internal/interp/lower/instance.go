package lower

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"sort"
	"strings"

	"github.com/tensornb/tensornb/kernel/internal/interp/check"
)

// An instance is a generic function or type with concrete type
// arguments, and the name its declaration gets.
type instance struct {
	obj  types.Object // the generic *types.Func or *types.TypeName
	args []types.Type
	name string
	at   token.Pos // where the cell asks for it, if it names it
}

// instanceOf returns the name of the declaration of obj instantiated with
// args, and asks for the declaration if the cell has not yet: at pos, or,
// if pos is not in the cell, where the cell asked for the instance being
// written.
func (cl *cellLowering) instanceOf(obj types.Object, args []types.Type, pos token.Pos) (string, error) {
	key := []string{obj.Pkg().Path(), obj.Name()}
	display := make([]string, len(args))
	for i, a := range args {
		key = append(key, keyString(a))
		display[i] = goString(a, cl.cc.Pkg)
	}
	name := cl.l.names.name(strings.Join(key, "\x00"), obj.Name()+"["+strings.Join(display, ", ")+"]")
	if !cl.asked[name] {
		if len(cl.asked) >= maxInstances {
			return "", fmt.Errorf("more than %d instances of generic declarations in one cell", maxInstances)
		}
		cl.asked[name] = true
		if _, ok := cl.cc.File.LineOf(pos); !ok {
			pos = cl.at
		}
		cl.queue = append(cl.queue, instance{obj: obj, args: args, name: name, at: pos})
	}
	return name, nil
}

// maxInstances bounds the instances one cell may need, which a generic
// declaration that instantiates itself with ever larger types would make
// without end.
const maxInstances = 2000

// writeInstance writes the declarations of inst: a function's, or a
// type's and its methods'.
func (cl *cellLowering) writeInstance(inst instance) error {
	switch obj := inst.obj.(type) {
	case *types.Func:
		fd, ok := cl.funcs[obj]
		if !ok {
			return fmt.Errorf("the declaration of %s is not at hand", obj.Name())
		}
		env := bind(obj.Type().(*types.Signature).TypeParams(), inst.args)
		text, err := cl.funcText(fd, env, inst.name)
		if err != nil {
			return err
		}
		cl.add(inst.name, text)
	case *types.TypeName:
		spec, ok := cl.types[obj]
		if !ok {
			return fmt.Errorf("the declaration of %s is not at hand", obj.Name())
		}
		env := bind(obj.Type().(*types.Named).TypeParams(), inst.args)
		edits, err := cl.substEdits(spec.Type, env)
		if err != nil {
			return err
		}
		edits = append(edits, check.Edit{From: cl.offset(spec.Name.Pos()), To: cl.offset(spec.Name.End()), Text: inst.name})
		if spec.TypeParams != nil {
			edits = append(edits, check.Edit{From: cl.offset(spec.TypeParams.Opening), To: cl.offset(spec.TypeParams.Closing) + 1})
		}
		cl.add(inst.name, "type "+cl.applied(spec, edits))
		for _, m := range cl.methods[obj] {
			sig := cl.info.Defs[m.Name].Type().(*types.Signature)
			text, err := cl.funcText(m, bind(sig.RecvTypeParams(), inst.args), inst.name)
			if err != nil {
				return err
			}
			recv := inst.name
			if _, ok := unparen(m.Recv.List[0].Type).(*ast.StarExpr); ok {
				recv = "*" + recv
			}
			cl.add(recv+"."+m.Name.Name, text)
		}
	}
	return nil
}

// bind maps type parameters to their arguments.
func bind(params *types.TypeParamList, args []types.Type) map[*types.TypeParam]types.Type {
	env := map[*types.TypeParam]types.Type{}
	for i := 0; i < params.Len() && i < len(args); i++ {
		env[params.At(i)] = args[i]
	}
	return env
}

// funcText writes a generic function, or a method of a generic type,
// with its type parameters replaced by env's types: a function under
// name, a method with name as its receiver's type.
func (cl *cellLowering) funcText(fd *ast.FuncDecl, env map[*types.TypeParam]types.Type, name string) (string, error) {
	var edits []check.Edit
	for _, n := range []ast.Node{fd.Type, fd.Body} {
		if n == nil || n == (*ast.BlockStmt)(nil) {
			continue
		}
		e, err := cl.substEdits(n, env)
		if err != nil {
			return "", err
		}
		edits = append(edits, e...)
	}
	if fd.Recv != nil {
		recv := unparen(fd.Recv.List[0].Type)
		if star, ok := recv.(*ast.StarExpr); ok {
			recv = unparen(star.X)
		}
		edits = append(edits, check.Edit{From: cl.offset(recv.Pos()), To: cl.offset(recv.End()), Text: name})
	} else {
		edits = append(edits, check.Edit{From: cl.offset(fd.Name.Pos()), To: cl.offset(fd.Name.End()), Text: name})
	}
	if tp := fd.Type.TypeParams; tp != nil {
		edits = append(edits, check.Edit{From: cl.offset(tp.Opening), To: cl.offset(tp.Closing) + 1})
	}
	return cl.applied(fd, edits), nil
}

// substEdits returns the edits that make the code of n concrete: each
// instantiation of a generic declaration becomes the name of its
// instance, each of env's type parameters its type.
func (cl *cellLowering) substEdits(n ast.Node, env map[*types.TypeParam]types.Type) ([]check.Edit, error) {
	var edits []check.Edit
	var err error
	replace := func(at ast.Node, text string, e error) {
		if e != nil && err == nil {
			err = e
		}
		edits = append(edits, check.Edit{From: cl.offset(at.Pos()), To: cl.offset(at.End()), Text: text})
	}
	ast.Inspect(n, func(n ast.Node) bool {
		if err != nil {
			return false
		}
		if id, whole, ok := cl.instantiation(n); ok {
			name, e := cl.instanceAt(id, env)
			replace(whole, name, e)
			return false
		}
		id, ok := n.(*ast.Ident)
		if !ok {
			return true
		}
		if tn, ok := cl.info.Uses[id].(*types.TypeName); ok {
			if tp, ok := tn.Type().(*types.TypeParam); ok {
				if t, ok := env[tp]; ok {
					text, e := cl.w.write(t)
					replace(id, parenthesized(text), e)
				}
			}
		}
		return true
	})
	return edits, err
}

// instantiation reports whether n instantiates a generic declaration
// that the lowering writes instances of, and returns the identifier that
// names it and the expression to replace: F[int] or F in F(x), T[int].
func (cl *cellLowering) instantiation(n ast.Node) (*ast.Ident, ast.Node, bool) {
	var id *ast.Ident
	switch x := n.(type) {
	case *ast.IndexExpr:
		id = nameOf(x.X)
	case *ast.IndexListExpr:
		id = nameOf(x.X)
	case *ast.Ident:
		id = x
	case *ast.SelectorExpr:
		id = x.Sel
	}
	if id == nil {
		return nil, nil, false
	}
	if _, ok := cl.info.Instances[id]; !ok || !cl.lowers(cl.info.Uses[id]) {
		return nil, nil, false
	}
	return id, n, true
}

// nameOf returns the identifier an index expression's operand names: F
// or pkg.F.
func nameOf(x ast.Expr) *ast.Ident {
	switch x := x.(type) {
	case *ast.Ident:
		return x
	case *ast.SelectorExpr:
		return x.Sel
	}
	return nil
}

// instanceAt returns the name of the instance the identifier id
// instantiates, its type arguments made concrete by env.
func (cl *cellLowering) instanceAt(id *ast.Ident, env map[*types.TypeParam]types.Type) (string, error) {
	inst := cl.info.Instances[id]
	args := make([]types.Type, inst.TypeArgs.Len())
	for i := range args {
		args[i] = subst(inst.TypeArgs.At(i), env)
	}
	obj := cl.info.Uses[id]
	if f, ok := obj.(*types.Func); ok {
		obj = f.Origin()
	}
	return cl.instanceOf(obj, args, id.Pos())
}

// parenthesized puts a type that would bind otherwise in an expression
// (a conversion (*T)(x), (func())(f)) in parentheses.
func parenthesized(t string) string {
	for _, p := range []string{"*", "func", "chan", "<-"} {
		if strings.HasPrefix(t, p) {
			return "(" + t + ")"
		}
	}
	return t
}

// unparen strips the parentheses around x.
func unparen(x ast.Expr) ast.Expr {
	for {
		p, ok := x.(*ast.ParenExpr)
		if !ok {
			return x
		}
		x = p.X
	}
}

// applied returns the text of n with edits made, which are inside it.
func (cl *cellLowering) applied(n ast.Node, edits []check.Edit) string {
	sort.Slice(edits, func(i, j int) bool { return edits[i].From < edits[j].From })
	from, to := cl.offset(n.Pos()), cl.offset(n.End())
	var b strings.Builder
	at := from
	for _, e := range edits {
		if e.From < at {
			continue // inside one made
		}
		b.WriteString(cl.src[at:e.From])
		b.WriteString(e.Text)
		at = e.To
	}
	b.WriteString(cl.src[at:to])
	return b.String()
}
