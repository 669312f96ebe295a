package lower

import (
	"errors"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"sort"
	"strings"

	"github.com/tensornb/tensornb/kernel/internal/interp/cell"
	"github.com/tensornb/tensornb/kernel/internal/interp/check"
)

// An instance is a declaration the lowering writes: a generic function or
// type with concrete type arguments, or, of a standard package read from
// source, a declaration its instances use. name is the name it gets.
type instance struct {
	obj  types.Object
	args []types.Type
	name string
	at   token.Pos // where the cell asks for it, if it names it
	root string    // the name of the instance the cell asked for that needs it
}

// A from is where the declarations an instance is written from are: the
// checked file of the cell, or a standard package's source.
type from struct {
	fset *token.FileSet
	info *types.Info
	pkg  *types.Package
	text func(token.Pos) string // the text of the file that holds a position
	std  *stdPackage            // nil for the cell's
}

// offset is the byte offset of p in its file.
func (f *from) offset(p token.Pos) int { return f.fset.Position(p).Offset }

// keepingLines returns the edit that replaces n with text, which is on
// one line: where n spans lines (T[struct {\n\tx int\n}]), the line
// breaks it had come first, so that the lines after it stay where they
// were, if the token before n lets a line end after it without a
// semicolon; if not, the lowered file will not compile, which refuses
// the cell.
func (f *from) keepingLines(n ast.Node, text string) check.Edit {
	from, to := f.offset(n.Pos()), f.offset(n.End())
	src := f.text(n.Pos())
	breaks := strings.Count(src[from:to], "\n") - strings.Count(text, "\n")
	before := strings.TrimRight(src[:from], " \t\r\n")
	if breaks > 0 && strings.ContainsAny(before[max(len(before)-1, 0):], ",([{=:;+-*/%&|^<>!") && !strings.HasSuffix(before, "++") && !strings.HasSuffix(before, "--") {
		text = strings.Repeat("\n", breaks) + text
	}
	return check.Edit{From: from, To: to, Text: text}
}

// instanceOf returns the name of the declaration of obj instantiated with
// args, and asks for the declaration if the cell has not yet: at pos, or,
// if pos is not in the cell, where the cell asked for the instance being
// written.
func (cl *cellLowering) instanceOf(obj types.Object, args []types.Type, pos token.Pos) (string, error) {
	key := []string{obj.Pkg().Path(), obj.Name()}
	goName := obj.Name()
	if obj.Pkg() != cl.cc.Pkg {
		goName = obj.Pkg().Name() + "." + goName
	}
	if len(args) > 0 {
		display := make([]string, len(args))
		for i, a := range args {
			key = append(key, keyString(a))
			display[i] = goString(a, cl.cc.Pkg)
		}
		goName += "[" + strings.Join(display, ", ") + "]"
	}
	name := cl.l.names.name(strings.Join(key, "\x00"), goName)
	if !cl.asked[name] {
		if len(cl.asked) >= maxInstances {
			return "", fmt.Errorf("more than %d instances of generic declarations in one cell", maxInstances)
		}
		cl.asked[name] = true
		if _, ok := cl.cc.File.LineOf(pos); !ok {
			pos = cl.at
		}
		root := name
		if cl.writing != nil {
			root = cl.writing.root
		}
		cl.queue = append(cl.queue, instance{obj: obj, args: args, name: name, at: pos, root: root})
	}
	return name, nil
}

// maxInstances bounds the instances one cell may need, which a generic
// declaration that instantiates itself with ever larger types would make
// without end.
const maxInstances = 2000

// writeInstance writes the declarations of inst: a function's, a type's
// and its methods', a variable's or a constant's.
func (cl *cellLowering) writeInstance(inst instance) error {
	obj, fr := cl.source(inst.obj)
	if obj == nil && fr.std != nil && fr.std.err != nil {
		return fr.std.err
	}
	if obj == nil {
		return fmt.Errorf("the declaration of %s is not at hand", inst.obj.Name())
	}
	ds := &cl.cellDecls
	if fr.std != nil {
		ds = &fr.std.decls
		if fr.std.err != nil {
			return fr.std.err
		}
		if err := cl.askInit(fr); err != nil {
			return err
		}
	}
	switch obj := obj.(type) {
	case *types.Func:
		fd, ok := ds.funcs[obj]
		if !ok {
			return fmt.Errorf("the declaration of %s is not at hand", obj.Name())
		}
		text, err := cl.funcText(fr, fd, bind(obj.Type().(*types.Signature).TypeParams(), inst.args), inst.name)
		if err != nil {
			return err
		}
		cl.add(inst.name, text)
	case *types.TypeName:
		return cl.writeType(fr, ds, obj, inst)
	case *types.Const:
		cl.add(inst.name, fmt.Sprintf("const %s = %s", inst.name, cell.ConstLiteral(obj.Val(), obj.Type())))
		if b, ok := obj.Type().(*types.Basic); !ok || b.Info()&types.IsUntyped == 0 {
			t, err := cl.w.write(obj.Type())
			if err != nil {
				return err
			}
			cl.added[len(cl.added)-1].Text = fmt.Sprintf("const %s %s = %s", inst.name, t, cell.ConstLiteral(obj.Val(), obj.Type()))
		}
	case *types.Var:
		return cl.writeVar(fr, ds, obj, inst)
	}
	return nil
}

// writeType writes a type's declaration and its methods'.
func (cl *cellLowering) writeType(fr *from, ds *decls, obj *types.TypeName, inst instance) error {
	spec, ok := ds.types[obj]
	if !ok {
		return fmt.Errorf("the declaration of %s is not at hand", obj.Name())
	}
	var env map[*types.TypeParam]types.Type
	if n, ok := obj.Type().(*types.Named); ok {
		env = bind(n.TypeParams(), inst.args)
	}
	edits, err := cl.substEdits(fr, spec.Type, env)
	if err != nil {
		return err
	}
	edits = append(edits, check.Edit{From: fr.offset(spec.Name.Pos()), To: fr.offset(spec.Name.End()), Text: inst.name})
	if spec.TypeParams != nil {
		edits = append(edits, check.Edit{From: fr.offset(spec.TypeParams.Opening), To: fr.offset(spec.TypeParams.Closing) + 1})
	}
	cl.add(inst.name, "type "+applied(fr, spec, edits))
	for _, m := range ds.methods[obj] {
		sig := fr.info.Defs[m.Name].Type().(*types.Signature)
		text, err := cl.funcText(fr, m, bind(sig.RecvTypeParams(), inst.args), inst.name)
		if err != nil {
			return err
		}
		recv := inst.name
		if _, ok := unparen(m.Recv.List[0].Type).(*ast.StarExpr); ok {
			recv = "*" + recv
		}
		cl.add(recv+"."+m.Name.Name, text)
	}
	return nil
}

// writeVar writes the declaration of a standard package's variable.
func (cl *cellLowering) writeVar(fr *from, ds *decls, obj *types.Var, inst instance) error {
	spec, ok := ds.values[obj]
	if !ok || len(spec.Names) != 1 || len(spec.Values) > 1 {
		return fmt.Errorf("the variable %s is not declared on its own", obj.Name())
	}
	edits, err := cl.substEdits(fr, spec, nil)
	if err != nil {
		return err
	}
	edits = append(edits, check.Edit{From: fr.offset(spec.Names[0].Pos()), To: fr.offset(spec.Names[0].End()), Text: inst.name})
	cl.add(inst.name, "var "+applied(fr, spec, edits))
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

// funcText writes a function, or a method, with the type parameters env
// maps replaced by their types: a function under name, a method with
// name as its receiver's type.
func (cl *cellLowering) funcText(fr *from, fd *ast.FuncDecl, env map[*types.TypeParam]types.Type, name string) (string, error) {
	if fd.Body == nil {
		return "", fmt.Errorf("%s has no Go body: the runtime implements it", fd.Name.Name)
	}
	var edits []check.Edit
	for _, n := range []ast.Node{fd.Type, fd.Body} {
		e, err := cl.substEdits(fr, n, env)
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
		edits = append(edits, check.Edit{From: fr.offset(recv.Pos()), To: fr.offset(recv.End()), Text: name})
	} else {
		edits = append(edits, check.Edit{From: fr.offset(fd.Name.Pos()), To: fr.offset(fd.Name.End()), Text: name})
	}
	if tp := fd.Type.TypeParams; tp != nil {
		edits = append(edits, check.Edit{From: fr.offset(tp.Opening), To: fr.offset(tp.Closing) + 1})
	}
	return applied(fr, fd, edits), nil
}

// substEdits returns the edits that make the code of n concrete: each
// instantiation of a generic declaration becomes the name of its
// instance, each of env's type parameters its type; in a standard
// package's source, each name of the package the name of its
// declaration in the session, and each other package the name the
// session imports it under.
func (cl *cellLowering) substEdits(fr *from, n ast.Node, env map[*types.TypeParam]types.Type) ([]check.Edit, error) {
	var edits []check.Edit
	var err error
	replace := func(at ast.Node, text string, e error) {
		if e != nil && err == nil {
			err = e
		}
		edits = append(edits, fr.keepingLines(at, text))
	}
	ast.Inspect(n, func(n ast.Node) bool {
		if err != nil || cl.skip[n] {
			return false
		}
		if id, whole, ok := cl.instantiation(fr, n); ok {
			name, e := cl.instanceAt(fr, id, env)
			replace(whole, name, e)
			return false
		}
		switch x := n.(type) {
		case *ast.CallExpr:
			if value, ok := unsafeValue(fr, x, env); ok {
				replace(x, value, nil)
				return false
			}
			if text, ok, e := cl.variableConversion(fr, x, env); ok {
				replace(x, text, e)
				return false
			}
			if inner, ok := addressOf(fr, x); ok {
				reflect, e := cl.packageName("reflect")
				edits = append(edits, check.Edit{From: fr.offset(x.Pos()), To: fr.offset(inner.Pos()), Text: reflect + ".ValueOf("},
					check.Edit{From: fr.offset(inner.End()), To: fr.offset(x.End()), Text: ").Pointer()"})
				inside, e2 := cl.substEdits(fr, inner, env)
				edits = append(edits, inside...)
				if e = errors.Join(e, e2); e != nil && err == nil {
					err = e
				}
				return false
			}
		case *ast.SelectorExpr:
			if text, ok, e := cl.qualified(fr, x); ok {
				replace(x, text, e)
				return false
			}
			if sel := fr.info.Selections[x]; sel != nil && sel.Kind() == types.FieldVal {
				if text, ok, e := cl.embeddedName(sel.Obj(), env); ok {
					replace(x.Sel, text, e)
				}
			}
		case *ast.CaseClause, *ast.CompositeLit:
			if len(env) > 0 {
				cl.markKeys(fr, x)
			}
		case *ast.TypeSwitchStmt:
			if len(env) > 0 {
				edits = append(edits, cl.duplicateCases(fr, x, env)...)
			}
			switch a := x.Assign.(type) {
			case *ast.AssignStmt:
				cl.guards[a.Rhs[0].(*ast.TypeAssertExpr)] = x
			case *ast.ExprStmt:
				cl.guards[a.X.(*ast.TypeAssertExpr)] = x
			}
		case *ast.TypeAssertExpr:
			// x.(S) where S lacks methods of x's interface once
			// instantiated: Go refuses such an assertion in concrete
			// code, where it cannot succeed; of any, it fails at run
			// time, as the generic one does.
			if len(env) > 0 && cl.impossible(fr, x, env) {
				edits = append(edits, check.Edit{From: fr.offset(x.X.Pos()), To: fr.offset(x.X.Pos()), Text: "any("},
					check.Edit{From: fr.offset(x.X.End()), To: fr.offset(x.X.End()), Text: ")"})
			}
		case *ast.KeyValueExpr:
			if key, ok := x.Key.(*ast.Ident); ok {
				if text, ok, e := cl.embeddedName(fr.info.Uses[key], env); ok {
					replace(key, text, e)
				}
			}
		case *ast.Ident:
			if text, ok, e := cl.named(fr, x, env); ok {
				replace(x, text, e)
			}
		}
		return true
	})
	return edits, err
}

// duplicateCases returns the edits that take away, from a type switch of
// an instance, the types of its cases that an earlier case has after the
// type parameters are replaced (case T: … case int:, with T int), which
// Go's compiler refuses in concrete code and which the generic switch
// never reaches; a clause left with no type goes whole.
func (cl *cellLowering) duplicateCases(fr *from, sw *ast.TypeSwitchStmt, env map[*types.TypeParam]types.Type) []check.Edit {
	var edits []check.Edit
	var seen []types.Type
	for _, st := range sw.Body.List {
		cc := st.(*ast.CaseClause)
		var kept []ast.Expr
		for _, e := range cc.List {
			t := subst(fr.info.TypeOf(e), env)
			if slices.ContainsFunc(seen, func(s types.Type) bool { return types.Identical(s, t) }) {
				continue
			}
			seen = append(seen, t)
			kept = append(kept, e)
		}
		switch {
		case len(kept) == len(cc.List):
		case len(kept) == 0:
			from, to := fr.offset(cc.Pos()), fr.offset(cc.End())
			edits = append(edits, check.Edit{From: from, To: to, Text: strings.Repeat("\n", strings.Count(fr.text(cc.Pos())[from:to], "\n"))})
		default:
			// A type that goes before the last kept goes with the comma
			// after it; those after the last kept, from its end on.
			last := slices.Index(cc.List, kept[len(kept)-1])
			remove := func(from, to int) {
				edits = append(edits, check.Edit{From: from, To: to, Text: strings.Repeat("\n", strings.Count(fr.text(cc.Pos())[from:to], "\n"))})
			}
			for i, e := range cc.List[:last] {
				if !slices.Contains(kept, e) {
					remove(fr.offset(e.Pos()), fr.offset(cc.List[i+1].Pos()))
				}
			}
			if last < len(cc.List)-1 {
				remove(fr.offset(cc.List[last].End()), fr.offset(cc.List[len(cc.List)-1].End()))
			}
		}
	}
	return edits
}

// embeddedName returns the name a field embedded by an instance's type
// has once lowered: Go names a field that embeds B[T] B, the lowered
// struct embeds Bᐸintᐳ, and so names it.
func (cl *cellLowering) embeddedName(obj types.Object, env map[*types.TypeParam]types.Type) (string, bool, error) {
	field, ok := obj.(*types.Var)
	if !ok || !field.Embedded() {
		return "", false, nil
	}
	t := field.Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	if _, ok := t.(*types.Alias); ok {
		return "", false, nil // the field has the alias's name, which stays
	}
	n, ok := subst(t, env).(*types.Named)
	if !ok || (n.TypeArgs().Len() == 0 && !cl.l.std.LowersObject(n.Obj())) {
		return "", false, nil
	}
	text, err := cl.w.write(n)
	return text, true, err
}

// addressOf reports whether call, in a standard package's source, is
// uintptr(unsafe.Pointer(p)), the address p points at, and returns p: the
// interpreter has no unsafe.Pointer, but reflect gives the address.
func addressOf(fr *from, call *ast.CallExpr) (ast.Expr, bool) {
	if fr.std == nil || len(call.Args) != 1 || types.Unalias(fr.info.TypeOf(call.Fun)) != types.Typ[types.Uintptr] {
		return nil, false
	}
	inner, ok := call.Args[0].(*ast.CallExpr)
	if !ok || len(inner.Args) != 1 || types.Unalias(fr.info.TypeOf(inner.Fun)) != types.Typ[types.UnsafePointer] {
		return nil, false
	}
	if _, ok := fr.info.TypeOf(inner.Args[0]).Underlying().(*types.Pointer); !ok {
		return nil, false
	}
	return inner.Args[0], true
}

// packageName returns the name lowered code names a compiled package by.
func (cl *cellLowering) packageName(path string) (string, error) {
	p, err := cl.l.std.imp.Import(path)
	if err != nil {
		return "", err
	}
	return cl.w.qualifier(p), nil
}

// named returns what an identifier becomes: a type parameter its type;
// in a standard package's source, a package-level name of the package
// the name of its declaration, which it asks for.
func (cl *cellLowering) named(fr *from, id *ast.Ident, env map[*types.TypeParam]types.Type) (string, bool, error) {
	obj := fr.info.Uses[id]
	if tn, ok := obj.(*types.TypeName); ok {
		if name := cl.locals[tn]; fr == cl.cell && name != "" && name != "?" {
			return name, true, nil
		}
		if tp, ok := tn.Type().(*types.TypeParam); ok {
			t, ok := env[tp]
			if !ok {
				return "", false, nil
			}
			text, err := cl.w.write(t)
			return parenthesized(text), true, err
		}
	}
	if fr.std == nil || obj == nil || obj.Pkg() != fr.pkg || obj.Parent() != fr.pkg.Scope() {
		return "", false, nil
	}
	if !cl.l.std.LowersObject(obj) {
		// The interpreter has it compiled in: the code uses that.
		name, err := cl.packageName(obj.Pkg().Path())
		return name + "." + obj.Name(), true, err
	}
	name, err := cl.instanceOf(obj, nil, id.Pos())
	return name, true, err
}

// qualified returns what a name of another package becomes: one the
// lowering writes from source, the name of its declaration in the
// session; in a standard package's source, another, written with the
// name the session imports its package under, if the interpreter has it.
func (cl *cellLowering) qualified(fr *from, x *ast.SelectorExpr) (string, bool, error) {
	pkgID, ok := x.X.(*ast.Ident)
	if !ok {
		return "", false, nil
	}
	pn, ok := fr.info.Uses[pkgID].(*types.PkgName)
	if !ok {
		return "", false, nil
	}
	p := pn.Imported()
	if p.Path() == "unsafe" && fr.std == nil {
		if x.Sel.Name == "Pointer" {
			return "", false, nil // the rewrite writes the type
		}
		return "", true, &unsafeUse{name: x.Sel.Name, pos: x.Pos()}
	}
	if obj := fr.info.Uses[x.Sel]; cl.l.std.LowersObject(obj) {
		name, err := cl.instanceOf(obj, nil, x.Pos())
		return name, true, err
	}
	if fr.std == nil {
		return "", false, nil // the cell names the package as it imports it
	}
	if cl.l.std.wholly(p.Path()) {
		if sp := cl.l.std.load(p.Path()); sp.err != nil {
			return "", true, sp.err // the package's source, which it imports, cannot be lowered
		}
	}
	if !cl.l.std.has(p.Path(), x.Sel.Name) {
		return "", true, fmt.Errorf("it uses %s.%s, which the interpreter does not have", p.Path(), x.Sel.Name)
	}
	return cl.w.qualifier(p) + "." + x.Sel.Name, true, nil
}

// instantiation reports whether n instantiates a generic declaration
// that the lowering writes instances of, and returns the identifier that
// names it and the expression to replace: F[int] or F in F(x), T[int],
// pkg.F.
func (cl *cellLowering) instantiation(fr *from, n ast.Node) (*ast.Ident, ast.Node, bool) {
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
		if _, ok := fr.info.Selections[x]; ok {
			return nil, nil, false // a method or field, not a package's name
		}
	}
	if id == nil {
		return nil, nil, false
	}
	if _, ok := fr.info.Instances[id]; !ok || !cl.lowers(fr.info.Uses[id]) {
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
func (cl *cellLowering) instanceAt(fr *from, id *ast.Ident, env map[*types.TypeParam]types.Type) (string, error) {
	inst := fr.info.Instances[id]
	args := make([]types.Type, inst.TypeArgs.Len())
	for i := range args {
		args[i] = subst(inst.TypeArgs.At(i), env)
	}
	obj := fr.info.Uses[id]
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

// impossible reports whether a type assertion, or a type switch's, has a
// type that x's interface rules out once env makes them concrete.
func (cl *cellLowering) impossible(fr *from, x *ast.TypeAssertExpr, env map[*types.TypeParam]types.Type) bool {
	iface, ok := subst(fr.info.TypeOf(x.X), env).Underlying().(*types.Interface)
	if !ok {
		return false
	}
	var asserted []ast.Expr
	if x.Type != nil {
		asserted = []ast.Expr{x.Type}
	} else if sw := cl.guards[x]; sw != nil {
		for _, st := range sw.Body.List {
			asserted = append(asserted, st.(*ast.CaseClause).List...)
		}
	}
	for _, e := range asserted {
		t := fr.info.TypeOf(e)
		if t != nil && !fr.info.Types[e].IsNil() && !types.AssertableTo(iface, subst(t, env)) {
			return true
		}
	}
	return false
}

// hasTypeParam reports whether t involves a type parameter: it is one,
// or an instance with one among its type arguments, or made of such.
func hasTypeParam(t types.Type) bool {
	found := false
	cell.InspectType(t, func(t types.Type) bool {
		switch t := t.(type) {
		case *types.TypeParam:
			found = true
		case *types.Named:
			for i := 0; i < t.TypeArgs().Len(); i++ {
				found = found || hasTypeParam(t.TypeArgs().At(i))
			}
		case *types.Signature:
			found = found || hasTypeParam(t.Params()) || hasTypeParam(t.Results())
		case *types.Tuple:
			for i := 0; i < t.Len(); i++ {
				found = found || hasTypeParam(t.At(i).Type())
			}
		}
		return !found
	})
	return found
}

// applied returns the text of n with edits made, which are inside it; of
// two that start at one place, an insertion goes first.
func applied(fr *from, n ast.Node, edits []check.Edit) string {
	sort.SliceStable(edits, func(i, j int) bool {
		a, b := edits[i], edits[j]
		if a.From != b.From {
			return a.From < b.From
		}
		return a.From == a.To && b.From != b.To
	})
	src := fr.text(n.Pos())
	from, to := fr.offset(n.Pos()), fr.offset(n.End())
	var b strings.Builder
	at := from
	for _, e := range edits {
		if e.From < at {
			continue // inside one made
		}
		b.WriteString(src[at:e.From])
		b.WriteString(e.Text)
		at = e.To
	}
	b.WriteString(src[at:to])
	return b.String()
}
