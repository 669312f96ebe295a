package rewrite

import (
	"go/ast"
	"go/token"
	"go/types"
)

// Struct types that refer to each other, one of them to itself too
// (type E struct{ next *E; list *L }, type L struct{ root E }), yaegi
// v0.16.1 builds wrongly: it gives each field that closes a loop of
// types a stand-in type, and then sets all of them to the type of the
// last loop it found, so E's next became a *L ("reflect.Set: value of
// type *struct {…} is not assignable"). It builds them right when, from
// whichever of the types it starts, every loop closes on the one type.
//
// Where that is not so, the rewrite declares each field that points
// straight to another type of the loop (list *L) as an any, which closes
// no loop, and keeps the field's type at both ends: what goes in is put
// in as the pointer, nil as a nil any (so that the structs compare as in
// Go), and what comes out is taken back out as the pointer. Taking the
// field's address, and what still leaves two loops, is refused.

// boxes holds, for each named struct type looked at, which of its
// fields are declared as any (nil if none).
type boxes map[*types.Named][]bool

// boxedField returns the type a field the rewrite declares as any points
// to, for field i of the named struct type owner, or nil if the field
// keeps its type.
func (r *rewriter) boxedField(owner *types.Named, i int) *types.Named {
	if owner.Obj().Pkg() != r.pkg {
		return nil // a compiled package's, which reflect builds
	}
	if r.boxed == nil {
		r.boxed = boxes{}
	}
	b, ok := r.boxed[owner]
	if !ok {
		r.boxLoop(owner)
		b = r.boxed[owner]
	}
	if b == nil || !b[i] {
		return nil
	}
	return namedStruct(owner.Underlying().(*types.Struct).Field(i).Type().(*types.Pointer).Elem())
}

// boxLoop finds which fields of the named struct types in owner's loop
// the rewrite declares as any, and refuses the loop if yaegi still
// cannot build its types then.
func (r *rewriter) boxLoop(owner *types.Named) {
	r.boxed[owner] = nil
	loop := structLoop(owner, r.pkg)
	for _, n := range loop {
		r.boxed[n] = nil
	}
	bad := false
	for _, n := range loop {
		bad = bad || len(standIns(n, r.pkg, everyField)) > 1
	}
	if !bad {
		return
	}
	in := map[*types.Named]bool{}
	for _, n := range loop {
		in[n] = true
	}
	for _, n := range loop {
		st := n.Underlying().(*types.Struct)
		b := make([]bool, st.NumFields())
		for i := range b {
			if p, ok := st.Field(i).Type().(*types.Pointer); ok {
				if to := namedStruct(p.Elem()); to != nil && to != n && in[to] && !st.Field(i).Embedded() {
					b[i] = true
				}
			}
		}
		r.boxed[n] = b
	}
	unboxed := func(n *types.Named, i int) bool { return !r.boxed[n][i] }
	for _, n := range loop {
		if len(standIns(n, r.pkg, unboxed)) > 1 {
			r.refuse(n.Obj().Pos(), "the struct type "+types.TypeString(n, r.qualifier)+", which refers to itself and to other struct types that refer to it, which the interpreter builds wrongly")
			return
		}
	}
}

// namedStruct returns t if it is a named struct type, or nil.
func namedStruct(t types.Type) *types.Named {
	n, ok := types.Unalias(t).(*types.Named)
	if !ok {
		return nil
	}
	if _, ok := n.Underlying().(*types.Struct); !ok {
		return nil
	}
	return n
}

// eachStruct calls f with each named struct type of package pkg that t
// holds, read up to them, as yaegi builds t: through pointers, slices,
// arrays, maps, channels, functions, literal structs and the underlying
// types of other named types of pkg, not through interfaces, which it
// builds as its own, nor through the types of compiled packages, which
// reflect builds.
func eachStruct(t types.Type, pkg *types.Package, f func(*types.Named), seen map[*types.Named]bool) {
	switch t := types.Unalias(t).(type) {
	case *types.Named:
		if t.Obj().Pkg() != pkg {
			return
		}
		if namedStruct(t) != nil {
			f(t)
		} else if !seen[t] {
			seen[t] = true
			eachStruct(t.Underlying(), pkg, f, seen)
		}
	case *types.Pointer:
		eachStruct(t.Elem(), pkg, f, seen)
	case *types.Slice:
		eachStruct(t.Elem(), pkg, f, seen)
	case *types.Array:
		eachStruct(t.Elem(), pkg, f, seen)
	case *types.Map:
		eachStruct(t.Key(), pkg, f, seen)
		eachStruct(t.Elem(), pkg, f, seen)
	case *types.Chan:
		eachStruct(t.Elem(), pkg, f, seen)
	case *types.Signature:
		for _, tuple := range []*types.Tuple{t.Params(), t.Results()} {
			for i := 0; i < tuple.Len(); i++ {
				eachStruct(tuple.At(i).Type(), pkg, f, seen)
			}
		}
	case *types.Struct:
		for i := 0; i < t.NumFields(); i++ {
			eachStruct(t.Field(i).Type(), pkg, f, seen)
		}
	}
}

// fieldStructs calls f with each named struct type of pkg that the
// fields of the named struct type n hold, of the fields keep keeps.
func fieldStructs(n *types.Named, pkg *types.Package, keep func(*types.Named, int) bool, f func(*types.Named)) {
	st := n.Underlying().(*types.Struct)
	for i := 0; i < st.NumFields(); i++ {
		if keep(n, i) {
			eachStruct(st.Field(i).Type(), pkg, f, map[*types.Named]bool{})
		}
	}
}

// everyField keeps every field of every struct (for fieldStructs).
func everyField(*types.Named, int) bool { return true }

// structLoop returns the named struct types of pkg that n holds and that
// hold n, n among them if it holds itself.
func structLoop(n *types.Named, pkg *types.Package) []*types.Named {
	reach := func(from *types.Named) map[*types.Named]bool {
		seen := map[*types.Named]bool{}
		var visit func(*types.Named)
		visit = func(m *types.Named) {
			if !seen[m] {
				seen[m] = true
				fieldStructs(m, pkg, everyField, visit)
			}
		}
		fieldStructs(from, pkg, everyField, visit)
		return seen
	}
	var loop []*types.Named
	for m := range reach(n) {
		if m == n || reach(m)[n] {
			loop = append(loop, m)
		}
	}
	return loop
}

// standIns returns the named struct types of pkg that yaegi, building
// start's type, gives a stand-in type (those it reaches while it builds
// them), through the fields keep keeps.
func standIns(start *types.Named, pkg *types.Package, keep func(*types.Named, int) bool) map[*types.Named]bool {
	building, built, found := map[*types.Named]bool{}, map[*types.Named]bool{}, map[*types.Named]bool{}
	var visit func(*types.Named)
	visit = func(n *types.Named) {
		if building[n] {
			if !built[n] {
				found[n] = true
			}
			return
		}
		building[n] = true
		fieldStructs(n, pkg, keep, visit)
		built[n] = true
	}
	visit(start)
	return found
}

// boxedSelector returns the type the field that sel selects points to, if
// the rewrite declares the field as any, or nil.
func (r *rewriter) boxedSelector(sel *ast.SelectorExpr) *types.Named {
	s, ok := r.info.Selections[sel]
	if !ok || s.Kind() != types.FieldVal {
		return nil
	}
	t := s.Recv()
	idx := s.Index()
	for i, x := range idx {
		if p, ok := t.Underlying().(*types.Pointer); ok {
			t = p.Elem()
		}
		if i == len(idx)-1 {
			if n := namedStruct(t); n != nil {
				return r.boxedField(n, x)
			}
			return nil
		}
		t = t.Underlying().(*types.Struct).Field(x).Type()
	}
	return nil
}

// boxIn puts the value e, a pointer to the named type to, in the any of
// a field the rewrite declares so, a nil pointer as a nil any.
func (r *rewriter) boxIn(e ast.Expr, to *types.Named) {
	r.late = append(r.late, edit{r.offset(e.Pos()), r.offset(e.Pos()), r.boxer(to) + "(", false},
		edit{r.offset(e.End()), r.offset(e.End()), ")", false})
}

// boxer is the function that puts a pointer to the named type to into an
// any: nil as a nil any.
func (r *rewriter) boxer(to *types.Named) string {
	typ := "*" + types.TypeString(to, r.qualifier)
	return "func(p " + typ + ") any { if p == nil { return nil }; return p }"
}

// boxOut takes the pointer to the named type to back out of the any of
// the field sel selects.
func (r *rewriter) boxOut(sel *ast.SelectorExpr, to *types.Named) {
	typ := "*" + types.TypeString(to, r.qualifier)
	r.late = append(r.late, edit{r.offset(sel.Pos()), r.offset(sel.Pos()), "func(v any) " + typ + " { p, _ := v.(" + typ + "); return p }(", false},
		edit{r.offset(sel.End()), r.offset(sel.End()), ")", false})
}

// boxedFields declares as any, in n, the fields of the struct type a
// type declaration declares that the rewrite declares so, and puts in
// and takes out the values of such fields where n writes and reads them.
func (r *rewriter) boxedFields(n ast.Node) {
	switch n := n.(type) {
	case *ast.TypeSpec:
		st, ok := n.Type.(*ast.StructType)
		named := namedStruct(r.info.TypeOf(n.Name))
		if !ok || named == nil {
			return
		}
		i := 0
		for _, f := range st.Fields.List {
			if r.boxedField(named, i) != nil {
				r.late = append(r.late, edit{r.offset(f.Type.Pos()), r.offset(f.Type.End()), "any", false})
			}
			i += max(len(f.Names), 1)
		}
	case *ast.AssignStmt:
		r.boxedAssign(n)
	case *ast.CompositeLit:
		r.boxedLiteral(n)
	case *ast.UnaryExpr:
		if sel, ok := ast.Unparen(n.X).(*ast.SelectorExpr); ok && n.Op == token.AND && r.boxedSelector(sel) != nil {
			r.refuse(n.Pos(), "the address of the field "+sel.Sel.Name+", a pointer between struct types that refer to each other, which the interpreter builds wrongly")
		}
	case *ast.RangeStmt:
		for _, e := range []ast.Expr{n.Key, n.Value} {
			if sel, ok := e.(*ast.SelectorExpr); ok && n.Tok == token.ASSIGN && r.boxedSelector(sel) != nil {
				r.refuse(sel.Pos(), "a range loop into the field "+sel.Sel.Name+", a pointer between struct types that refer to each other, which the interpreter builds wrongly")
			}
		}
	case *ast.SelectorExpr:
		if r.written[n] {
			return
		}
		if to := r.boxedSelector(n); to != nil {
			r.boxOut(n, to)
		}
	}
}

// boxedAssign puts in the values an assignment writes to fields the
// rewrite declares as any.
func (r *rewriter) boxedAssign(as *ast.AssignStmt) {
	if as.Tok != token.ASSIGN || r.comms[as] {
		return // a select's case's: selectAssign puts the value in
	}
	for _, lhs := range as.Lhs {
		sel, ok := ast.Unparen(lhs).(*ast.SelectorExpr)
		if !ok {
			continue
		}
		to := r.boxedSelector(sel)
		if to == nil {
			continue
		}
		if len(as.Lhs) > 1 {
			// yaegi v0.16.1 fails on an any among several values assigned
			// ("value of type interface {} is not assignable to type
			// interp.valueInterface").
			r.refuse(as.Pos(), "an assignment of several values, one to the field "+sel.Sel.Name+", a pointer between struct types that refer to each other, which the interpreter builds wrongly")
			return
		}
		r.written[sel] = true
		r.boxIn(as.Rhs[0], to)
	}
}

// boxedLiteral puts in the values a composite literal of a struct type
// gives fields the rewrite declares as any.
func (r *rewriter) boxedLiteral(lit *ast.CompositeLit) {
	t := r.info.TypeOf(lit)
	if t == nil {
		return
	}
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem() // &T{…} elided in a literal of pointers
	}
	named := namedStruct(t)
	if named == nil {
		return
	}
	st := named.Underlying().(*types.Struct)
	for i, el := range lit.Elts {
		field, value := i, el
		if kv, ok := el.(*ast.KeyValueExpr); ok {
			key, _ := kv.Key.(*ast.Ident)
			field, value = -1, kv.Value
			for j := 0; key != nil && j < st.NumFields(); j++ {
				if st.Field(j).Name() == key.Name {
					field = j
				}
			}
		}
		if field < 0 || field >= st.NumFields() {
			continue
		}
		if to := r.boxedField(named, field); to != nil {
			r.boxIn(value, to)
		}
	}
}
