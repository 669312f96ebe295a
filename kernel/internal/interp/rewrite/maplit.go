package rewrite

import (
	"go/ast"
	"go/types"
	"strings"
)

// mapLiteral moves, in a map's composite literal, the entries whose key
// and element are static (constants, or array and struct literals of
// them) before the others, as Go's compiler adds them to the map: first
// the static entries, then the others in their order, so that where
// keys coincide (map[int]string{k: "a", 1: "b"}, k is 1) the later-added
// element stays ("a"); yaegi adds them all in order ("b"). The moved
// entries go on the literal's first line, their lines left empty.
func (r *rewriter) mapLiteral(lit *ast.CompositeLit) {
	if t := r.info.TypeOf(lit); t == nil {
		return
	} else if _, ok := t.Underlying().(*types.Map); !ok {
		return
	}
	var moved []string
	dynamic := false
	for i, e := range lit.Elts {
		kv, ok := e.(*ast.KeyValueExpr)
		if !ok {
			return
		}
		if !r.static(kv.Key) || !r.static(kv.Value) {
			dynamic = true
			continue
		}
		if !dynamic {
			continue // before every dynamic entry already
		}
		text := r.source(kv)
		if strings.Contains(text, "\n") {
			r.refuse(kv.Pos(), "a map literal whose constant entry, after others, spans lines")
			return
		}
		from := r.offset(lit.Elts[i-1].End()) // with the comma before it
		r.edits = append(r.edits, edit{from: from, to: r.offset(kv.End()), text: strings.Repeat("\n", strings.Count(r.src[from:r.offset(kv.End())], "\n"))})
		moved = append(moved, text+", ")
	}
	if len(moved) > 0 {
		at := r.offset(lit.Lbrace) + 1
		r.edits = append(r.edits, edit{from: at, to: at, text: strings.Join(moved, "")})
	}
}

// static reports whether Go's compiler adds an entry with e as its key
// or element to a map before the others: a constant, nil, or an array or
// struct literal of such.
func (r *rewriter) static(e ast.Expr) bool {
	e = ast.Unparen(e)
	if tv := r.info.Types[e]; tv.Value != nil || tv.IsNil() {
		return true
	}
	lit, ok := e.(*ast.CompositeLit)
	if !ok {
		return false
	}
	switch r.info.TypeOf(lit).Underlying().(type) {
	case *types.Array, *types.Struct:
	default:
		return false
	}
	for _, el := range lit.Elts {
		if kv, ok := el.(*ast.KeyValueExpr); ok {
			el = kv.Value
		}
		if !r.static(el) {
			return false
		}
	}
	return true
}
