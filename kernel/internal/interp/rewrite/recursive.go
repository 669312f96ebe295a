package rewrite

import (
	"go/ast"
	"go/token"
	"go/types"
)

// A function or channel type that names itself (type Bar func() Bar,
// type Chan chan Chan) is one yaegi v0.16.1 cannot build: reflect makes
// no type that holds itself, and yaegi failed with "reflect.Type is nil"
// at its first use. Where the type names itself as its function's only
// result or as its channel's element, the rewrite writes any there
// instead (type Bar func() any, type Chan chan any), which yaegi builds,
// and keeps the value's type at both ends:
//
//   - every function or channel type written in the cell that has the
//     self-naming result or element (func() Bar, chan Chan, <-chan Chan;
//     the type's own declaration, function literals, declarations,
//     methods and interface methods among them) gets any there too, so
//     that the types that Go finds identical stay identical;
//   - what goes in, a returned result or a sent value, is converted to
//     the named type (Bar(x)), so that the interface holds a Bar and not
//     the unnamed func() Bar a literal has;
//   - what comes out, the result of a call or a received value, is taken
//     back out of the interface (func(v any) Bar { return v.(Bar) }(b())).
//
// What the rewrite cannot take back out — a receive with its ok, into
// the variables of a select case or of a range loop; a named result;
// a type that names itself elsewhere (as a parameter, in a slice) — is
// refused.

// recursiveType refuses the declaration of a function or channel type
// that names itself other than as its function's only result or its
// channel's element, which the rewrite cannot give yaegi in a form it
// builds.
func (r *rewriter) recursiveType(spec *ast.TypeSpec) {
	tn, ok := r.info.Defs[spec.Name].(*types.TypeName)
	if !ok {
		return
	}
	named, ok := tn.Type().(*types.Named)
	if !ok {
		return
	}
	switch u := named.Underlying().(type) {
	case *types.Signature:
		if mentions(u, named) && (selfResult(u) != named || mentionsAny(u.Params(), named)) {
			r.refuse(spec.Pos(), "the type "+spec.Name.Name+", a function type that names itself other than as its only result, which the interpreter cannot build")
		}
	case *types.Chan:
		if mentions(u, named) && selfElem(u) != named {
			r.refuse(spec.Pos(), "the type "+spec.Name.Name+", a channel type that names itself other than as its element, which the interpreter cannot build")
		}
	}
}

// selfResult returns the named function type that sig, a signature of
// one result, returns, if that type's underlying type is sig (func()
// Bar, with type Bar func() Bar), or nil.
func selfResult(sig *types.Signature) *types.Named {
	if sig.Results().Len() != 1 {
		return nil
	}
	n, ok := types.Unalias(sig.Results().At(0).Type()).(*types.Named)
	if !ok || !types.Identical(n.Underlying(), sig) {
		return nil
	}
	return n
}

// selfElem returns the named channel type that ch, a channel type in
// any direction, carries, if that type is a channel of itself (chan
// Chan, <-chan Chan, with type Chan chan Chan), or nil.
func selfElem(ch *types.Chan) *types.Named {
	n, ok := types.Unalias(ch.Elem()).(*types.Named)
	if !ok {
		return nil
	}
	if u, ok := n.Underlying().(*types.Chan); !ok || !types.Identical(u.Elem(), n) {
		return nil
	}
	return n
}

// mentions reports whether t, read up to the named types in it, holds
// the named type n.
func mentions(t types.Type, n *types.Named) bool {
	switch t := t.(type) {
	case *types.Named:
		return t == n || t.Origin() == n.Origin() && n.TypeArgs().Len() == 0
	case *types.Pointer:
		return mentions(t.Elem(), n)
	case *types.Slice:
		return mentions(t.Elem(), n)
	case *types.Array:
		return mentions(t.Elem(), n)
	case *types.Map:
		return mentions(t.Key(), n) || mentions(t.Elem(), n)
	case *types.Chan:
		return mentions(t.Elem(), n)
	case *types.Signature:
		return mentionsAny(t.Params(), n) || mentionsAny(t.Results(), n)
	}
	return false
}

// mentionsAny reports whether a type of the tuple mentions n.
func mentionsAny(tuple *types.Tuple, n *types.Named) bool {
	for i := 0; i < tuple.Len(); i++ {
		if mentions(tuple.At(i).Type(), n) {
			return true
		}
	}
	return false
}

// selfFuncType writes any for the self-naming result of ft, written as
// sig, and converts the results its body returns to the named type.
func (r *rewriter) selfFuncType(ft *ast.FuncType, sig *types.Signature, body *ast.BlockStmt) {
	if r.selfTyped[ft] {
		return
	}
	r.selfTyped[ft] = true
	n := selfResult(sig)
	if n == nil || ft.Results == nil || len(ft.Results.List) != 1 {
		return
	}
	res := ft.Results.List[0]
	if len(res.Names) > 0 {
		r.refuse(ft.Pos(), "the named result "+res.Names[0].Name+" of the type "+types.TypeString(n, r.qualifier)+", a function type that names itself")
		return
	}
	r.late = append(r.late, edit{r.offset(res.Type.Pos()), r.offset(res.Type.End()), "any", false})
	if body == nil {
		return
	}
	typ := types.TypeString(n, r.qualifier)
	ast.Inspect(body, func(x ast.Node) bool {
		switch x := x.(type) {
		case *ast.FuncLit:
			return false // its returns are its own
		case *ast.ReturnStmt:
			if len(x.Results) == 1 {
				r.convertTo(x.Results[0], typ)
			}
		}
		return true
	})
}

// selfChanType writes any for the self-naming element of ct.
func (r *rewriter) selfChanType(ct *ast.ChanType) {
	ch, ok := r.info.TypeOf(ct).(*types.Chan)
	if !ok || selfElem(ch) == nil {
		return
	}
	r.late = append(r.late, edit{r.offset(ct.Value.Pos()), r.offset(ct.Value.End()), "any", false})
}

// convertTo converts the value e to the type typ, so that the any it
// goes to holds a typ.
func (r *rewriter) convertTo(e ast.Expr, typ string) {
	r.late = append(r.late, edit{r.offset(e.Pos()), r.offset(e.Pos()), typ + "(", false},
		edit{r.offset(e.End()), r.offset(e.End()), ")", false})
}

// takeOut takes the value e, an any that holds a value of the named type
// n, back out of it.
func (r *rewriter) takeOut(e ast.Expr, n *types.Named) {
	typ := types.TypeString(n, r.qualifier)
	r.late = append(r.late, edit{r.offset(e.Pos()), r.offset(e.Pos()), "func(v any) " + typ + " { return v.(" + typ + ") }(", false},
		edit{r.offset(e.End()), r.offset(e.End()), ")", false})
}

// selfCall takes the result of call back out of its any, if the callee
// returns a function type that names itself; the calls of go and defer
// statements, whose results are dropped, are left as they are.
func (r *rewriter) selfCall(call *ast.CallExpr) {
	if r.dropped[call] {
		return
	}
	tv, ok := r.info.Types[call.Fun]
	if !ok || tv.IsType() || tv.Type == nil {
		return
	}
	if sig, ok := tv.Type.Underlying().(*types.Signature); ok {
		if n := selfResult(sig); n != nil {
			r.takeOut(call, n)
		}
	}
}

// selfChan returns the named type of the elements of the channel ch, if
// it is a channel type that names itself, or nil.
func (r *rewriter) selfChan(ch ast.Expr) *types.Named {
	t := r.info.TypeOf(ch)
	if t == nil {
		return nil
	}
	if c, ok := t.Underlying().(*types.Chan); ok {
		return selfElem(c)
	}
	return nil
}

// selfReceive takes the value a receive gets back out of its any, and
// refuses the receives whose value cannot be: with ok, in a select case
// or into the variables of a range loop.
func (r *rewriter) selfReceive(n ast.Node) {
	switch n := n.(type) {
	case *ast.UnaryExpr:
		if n.Op != token.ARROW || r.dropped[n] {
			return
		}
		if el := r.selfChan(n.X); el != nil {
			r.takeOut(n, el)
		}
	case *ast.SendStmt:
		if el := r.selfChan(n.Chan); el != nil {
			r.convertTo(n.Value, types.TypeString(el, r.qualifier))
		}
	case *ast.CommClause:
		if n.Comm == nil {
			return
		}
		var recv ast.Expr
		switch c := n.Comm.(type) {
		case *ast.ExprStmt:
			recv = c.X
			r.dropped[ast.Unparen(recv)] = true
		case *ast.AssignStmt:
			recv = c.Rhs[0]
			r.dropped[ast.Unparen(recv)] = true
			if u, ok := ast.Unparen(recv).(*ast.UnaryExpr); ok && r.selfChan(u.X) != nil {
				r.refuse(n.Pos(), "a select case that receives a value of a channel type that names itself")
			}
		}
	case *ast.AssignStmt:
		if len(n.Lhs) == 2 && len(n.Rhs) == 1 {
			r.selfCommaOk(n.Rhs[0])
		}
	case *ast.ValueSpec:
		if len(n.Names) == 2 && len(n.Values) == 1 {
			r.selfCommaOk(n.Values[0])
		}
	case *ast.RangeStmt:
		if el := r.selfChan(n.X); el != nil && n.Key != nil {
			if id, ok := n.Key.(*ast.Ident); !ok || id.Name != "_" {
				r.refuse(n.Pos(), "a range loop over a channel of the type "+types.TypeString(el, r.qualifier)+", which names itself, into variables")
			}
		}
	}
}

// selfCommaOk refuses the receive with its ok, x, from a channel type that
// names itself.
func (r *rewriter) selfCommaOk(x ast.Expr) {
	if u, ok := ast.Unparen(x).(*ast.UnaryExpr); ok && u.Op == token.ARROW && r.selfChan(u.X) != nil {
		r.refuse(u.Pos(), "a receive with its ok from a channel type that names itself")
	}
}

// selfTypes rewrites, in n, the types that name themselves as a function
// type's result or a channel type's element, and what goes in and out of
// them, but for the function literals and declarations and the calls,
// which walk hands to selfFuncType and selfCall.
func (r *rewriter) selfTypes(n ast.Node) {
	switch n := n.(type) {
	case *ast.FuncType:
		if sig, ok := r.info.TypeOf(n).(*types.Signature); ok {
			r.selfFuncType(n, sig, nil)
		}
	case *ast.ChanType:
		r.selfChanType(n)
	case *ast.GoStmt:
		r.dropped[n.Call] = true
	case *ast.DeferStmt:
		r.dropped[n.Call] = true
	default:
		r.selfReceive(n)
	}
}

// anyForSelf returns t with any for the self-naming result of each
// function type and the self-naming element of each channel type in it,
// as the rewrite writes them, for the types written from go/types.
func anyForSelf(t types.Type) types.Type {
	anyType := types.Universe.Lookup("any").Type()
	switch t := t.(type) {
	case *types.Signature:
		results := anyForSelfTuple(t.Results())
		if selfResult(t) != nil {
			results = types.NewTuple(types.NewParam(token.NoPos, nil, "", anyType))
		}
		return types.NewSignatureType(nil, nil, nil, anyForSelfTuple(t.Params()), results, t.Variadic())
	case *types.Chan:
		if selfElem(t) != nil {
			return types.NewChan(t.Dir(), anyType)
		}
		return types.NewChan(t.Dir(), anyForSelf(t.Elem()))
	case *types.Pointer:
		return types.NewPointer(anyForSelf(t.Elem()))
	case *types.Slice:
		return types.NewSlice(anyForSelf(t.Elem()))
	case *types.Array:
		return types.NewArray(anyForSelf(t.Elem()), t.Len())
	case *types.Map:
		return types.NewMap(anyForSelf(t.Key()), anyForSelf(t.Elem()))
	}
	return t
}

// anyForSelfTuple is anyForSelf of each of the tuple's types.
func anyForSelfTuple(tuple *types.Tuple) *types.Tuple {
	vars := make([]*types.Var, tuple.Len())
	for i := range vars {
		v := tuple.At(i)
		vars[i] = types.NewParam(v.Pos(), v.Pkg(), v.Name(), anyForSelf(v.Type()))
	}
	return types.NewTuple(vars...)
}
