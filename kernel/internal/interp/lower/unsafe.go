package lower

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"runtime"
)

// sizes are the sizes of types on the platform the engine runs on, as
// Go's compiler lays them out.
var sizes = types.SizesFor("gc", runtime.GOARCH)

// unsafeValue returns the value of a call of unsafe.Sizeof, Alignof or
// Offsetof, once env makes its operand's type concrete, written as a
// uintptr constant: the interpreter has no package unsafe, and the
// compiler computes these as constants too, without evaluating the
// operand.
func unsafeValue(fr *from, call *ast.CallExpr, env map[*types.TypeParam]types.Type) (string, bool) {
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok || len(call.Args) != 1 || !isUnsafe(fr, sel) {
		return "", false
	}
	if tv := fr.info.Types[call]; tv.Value != nil && env == nil {
		return "uintptr(" + tv.Value.ExactString() + ")", true
	}
	arg := ast.Unparen(call.Args[0])
	switch sel.Sel.Name {
	case "Sizeof":
		return fmt.Sprintf("uintptr(%d)", sizes.Sizeof(subst(fr.info.TypeOf(arg), env))), true
	case "Alignof":
		return fmt.Sprintf("uintptr(%d)", sizes.Alignof(subst(fr.info.TypeOf(arg), env))), true
	case "Offsetof":
		if field, ok := arg.(*ast.SelectorExpr); ok {
			if s := fr.info.Selections[field]; s != nil {
				return fmt.Sprintf("uintptr(%d)", offsetof(subst(fr.info.TypeOf(field.X), env), s.Index())), true
			}
		}
	}
	return "", false
}

// offsetof returns the offset of the field that path selects in a
// struct of type t, or one t points to, through the structs it embeds
// (never through a pointer: the spec does not allow it).
func offsetof(t types.Type, path []int) int64 {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	var offset int64
	for _, i := range path {
		st := t.Underlying().(*types.Struct)
		fields := make([]*types.Var, st.NumFields())
		for j := range fields {
			fields[j] = st.Field(j)
		}
		offset += sizes.Offsetsof(fields)[i]
		t = st.Field(i).Type()
	}
	return offset
}

// isUnsafe reports whether sel names a declaration of package unsafe.
func isUnsafe(fr *from, sel *ast.SelectorExpr) bool {
	id, ok := sel.X.(*ast.Ident)
	if !ok {
		return false
	}
	pn, ok := fr.info.Uses[id].(*types.PkgName)
	return ok && pn.Imported().Path() == "unsafe"
}

// unsafeUse is the refusal of a name of package unsafe other than
// Sizeof, Alignof and Offsetof, which the lowering makes constants, and
// the type Pointer, which the rewrite writes as a type the interpreter
// has (and refuses conversions to and from it).
type unsafeUse struct {
	name string
	pos  token.Pos
}

func (u *unsafeUse) Error() string {
	return "unsafe." + u.name + ": of package unsafe, it has only Sizeof, Alignof and Offsetof, which it makes constants, and the type Pointer"
}
