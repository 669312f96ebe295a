package rewrite

import (
	"go/ast"
	"go/token"
	"go/types"
)

// yaegi v0.16.1 gives a type the cells declare the reflect type of its
// underlying type: type Celsius float64 is float64 to it, and type A
// struct{} and type B struct{} are one type. A value in an interface
// does not keep which of them it is, so an assertion, a type switch or a
// comparison that tells them apart gets it wrong: a float64 asserted to
// Celsius passes, a B in a type switch matches case A:. Where a value of
// the interface's type may be of another type that is one with the
// asserted or compared type to yaegi, its twin, the cell is refused.
// The twins of a cells' type are the other cells' types with its
// underlying type and that underlying type itself where it is a basic
// type (a constant of it is one an interface may hold anywhere): an
// unnamed struct or slice type is seldom put in an interface, and is
// left out.

// twin returns a type that yaegi cannot tell from t and that a value of
// type holder may hold, or nil if there is none.
func (r *rewriter) twin(t, holder types.Type) types.Type {
	if holder == nil || !types.IsInterface(holder) || t == nil || types.IsInterface(t) {
		return nil
	}
	wrap := func(t types.Type) types.Type { return t }
	if p, ok := t.(*types.Pointer); ok {
		t, wrap = p.Elem(), func(t types.Type) types.Type { return types.NewPointer(t) }
	}
	if !involvesMain(t, r.pkg) && !isBasic(t) {
		return nil
	}
	et := r.erase(t, map[*types.Named]bool{})
	st := r.sessionTypes()
	for i, c := range st.all {
		if types.Identical(c, t) || !types.Identical(st.erased[i], et) {
			continue
		}
		if c := wrap(c); types.AssignableTo(c, holder) {
			return c
		}
	}
	return nil
}

// isBasic reports whether t is a predeclared basic type.
func isBasic(t types.Type) bool {
	_, ok := types.Unalias(t).(*types.Basic)
	return ok
}

// sessionTypes are the session's package-level types that are not
// interfaces, and what the rewrite asks of them.
type sessionTypes struct {
	all    []types.Type // those types, and the basic types underlying them
	erased []types.Type // each of all as yaegi makes it (erase)
	// withFmt are those of all with one of fmtMethods; withMethods those,
	// or pointers to them, with methods (each type before its pointer).
	withFmt, withMethods []types.Type
}

// sessionTypes returns the session's types, found on first use in the
// cell's rewrite.
func (r *rewriter) sessionTypes() *sessionTypes {
	if r.session != nil {
		return r.session
	}
	st := &sessionTypes{}
	scope := r.pkg.Scope()
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || tn.IsAlias() {
			continue
		}
		n, ok := tn.Type().(*types.Named)
		if !ok || n.TypeParams().Len() > 0 || types.IsInterface(n) {
			continue
		}
		st.all = append(st.all, n)
		if b, ok := n.Underlying().(*types.Basic); ok {
			st.all = append(st.all, b)
		}
		if r.hasMethodsFor(n) {
			st.withFmt = append(st.withFmt, n)
		}
		for _, t := range []types.Type{n, types.NewPointer(n)} {
			if types.NewMethodSet(t).Len() > 0 {
				st.withMethods = append(st.withMethods, t)
			}
		}
	}
	for _, t := range st.all {
		st.erased = append(st.erased, r.erase(t, map[*types.Named]bool{}))
	}
	r.session = st
	return st
}

// erase returns t as yaegi makes it: each of the cells' named types is
// its underlying type, within composite types too. A type that contains
// itself stays named where it does.
func (r *rewriter) erase(t types.Type, seen map[*types.Named]bool) types.Type {
	switch t := types.Unalias(t).(type) {
	case *types.Named:
		if t.Obj().Pkg() != r.pkg || types.IsInterface(t) || seen[t] {
			return t
		}
		seen[t] = true
		defer delete(seen, t)
		return r.erase(t.Underlying(), seen)
	case *types.Pointer:
		return types.NewPointer(r.erase(t.Elem(), seen))
	case *types.Slice:
		return types.NewSlice(r.erase(t.Elem(), seen))
	case *types.Array:
		return types.NewArray(r.erase(t.Elem(), seen), t.Len())
	case *types.Map:
		return types.NewMap(r.erase(t.Key(), seen), r.erase(t.Elem(), seen))
	case *types.Chan:
		return types.NewChan(t.Dir(), r.erase(t.Elem(), seen))
	case *types.Struct:
		fields := make([]*types.Var, t.NumFields())
		tags := make([]string, t.NumFields())
		for i := range fields {
			f := t.Field(i)
			fields[i] = types.NewField(f.Pos(), f.Pkg(), f.Name(), r.erase(f.Type(), seen), f.Embedded())
			tags[i] = t.Tag(i)
		}
		return types.NewStruct(fields, tags)
	}
	return t
}

// ambiguousAssertion refuses x.(T) and a type switch's cases where x may
// hold a twin of T.
func (r *rewriter) ambiguousAssertion(x ast.Expr, cases ...ast.Expr) {
	for _, c := range cases {
		if c == nil || r.info.Types[c].IsNil() {
			continue
		}
		t := r.info.TypeOf(c)
		if tw := r.twin(t, r.info.TypeOf(x)); tw != nil {
			r.refuseTwins(c.Pos(), "a type assertion to", t, tw)
			return
		}
	}
}

// ambiguousComparison refuses x == y, or x != y, where one is an
// interface value that may hold a twin of the other's type, or both are
// and may hold twins.
func (r *rewriter) ambiguousComparison(pos token.Pos, x, y ast.Expr) {
	tx, ty := r.info.TypeOf(x), r.info.TypeOf(y)
	if tx == nil || ty == nil || r.info.Types[x].IsNil() || r.info.Types[y].IsNil() {
		return
	}
	if !types.IsInterface(tx) {
		tx, ty = ty, tx
	}
	if !types.IsInterface(tx) {
		return
	}
	if !types.IsInterface(ty) {
		if tw := r.twin(ty, tx); tw != nil {
			r.refuseTwins(pos, "a comparison with a value of type", ty, tw)
		}
		return
	}
	for _, c := range r.sessionTypes().all {
		if !types.AssignableTo(c, tx) || !types.AssignableTo(c, ty) {
			continue
		}
		if tw := r.twin(c, tx); tw != nil && types.AssignableTo(tw, ty) {
			r.refuseTwins(pos, "a comparison of interface values that may hold", c, tw)
			return
		}
	}
}

// refuseTwins refuses what is at pos for the twins t and tw.
func (r *rewriter) refuseTwins(pos token.Pos, what string, t, tw types.Type) {
	r.refuse(pos, what+" "+types.TypeString(t, r.qualifier)+", which the interpreter cannot tell from "+types.TypeString(tw, r.qualifier)+" in an interface value (it gives both one type)")
}

// ambiguousSwitch refuses a type switch with a case whose type the
// switch's value may hold a twin of.
func (r *rewriter) ambiguousSwitch(sw *ast.TypeSwitchStmt) {
	var ta *ast.TypeAssertExpr
	switch a := sw.Assign.(type) {
	case *ast.AssignStmt:
		ta, _ = a.Rhs[0].(*ast.TypeAssertExpr)
	case *ast.ExprStmt:
		ta, _ = a.X.(*ast.TypeAssertExpr)
	}
	if ta == nil {
		return
	}
	for _, st := range sw.Body.List {
		r.ambiguousAssertion(ta.X, st.(*ast.CaseClause).List...)
	}
}

// ambiguousTag refuses an expression switch whose cases compare its
// value with values that one of them may hold a twin of.
func (r *rewriter) ambiguousTag(sw *ast.SwitchStmt) {
	if sw.Tag == nil {
		return
	}
	for _, st := range sw.Body.List {
		for _, c := range st.(*ast.CaseClause).List {
			r.ambiguousComparison(c.Pos(), sw.Tag, c)
		}
	}
}

// ambiguousKeys refuses a key of a map whose key type is an interface,
// in a composite literal or an index, where another key may be its twin:
// yaegi's map finds them one key.
func (r *rewriter) ambiguousKeys(n ast.Node) {
	switch n := n.(type) {
	case *ast.CompositeLit:
		for _, e := range n.Elts {
			if kv, ok := e.(*ast.KeyValueExpr); ok {
				r.ambiguousKey(n, kv.Key)
			}
		}
	case *ast.IndexExpr:
		r.ambiguousKey(n.X, n.Index)
	}
}

// ambiguousKey refuses key, of the map m, where m's keys are interface
// values that may hold a twin of key's type.
func (r *rewriter) ambiguousKey(m ast.Expr, key ast.Expr) {
	mt, ok := types.Unalias(r.info.TypeOf(m)).Underlying().(*types.Map)
	if !ok || !types.IsInterface(mt.Key()) {
		return
	}
	t := r.info.TypeOf(key)
	if tw := r.twin(t, mt.Key()); tw != nil {
		r.refuseTwins(key.Pos(), "a map key of type", t, tw)
	}
}
