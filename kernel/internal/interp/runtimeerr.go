package interp

import (
	"context"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"reflect"
	"regexp"
	"strings"

	"github.com/tensornb/tensornb/kernel/internal/interp/cell"
)

// yaegi v0.16.1 runs an index, a slice expression or a field access
// through reflect, so that a runtime error of interpreted code carries
// reflect's words ("reflect: slice index out of range") where Go's
// runtime.Error would say "runtime error: index out of range [5] with
// length 3". goWords says it as Go does: it finds the expression that
// failed in the step's code, and the numbers in the session's values.

// A runtimeFault is a kind of runtime error that yaegi words as reflect
// does.
type runtimeFault int

const (
	noFault    runtimeFault = iota
	indexFault              // x[i] with i out of range
	sliceFault              // x[lo:hi] or x[lo:hi:max] with bounds out of range
	nilFault                // a nil pointer dereferenced, or a nil function called
)

// faultOf recognizes reflect's words for a runtime error.
func faultOf(msg string) runtimeFault {
	switch {
	case msg == "reflect: slice index out of range", msg == "reflect: array index out of range", msg == "reflect: string index out of range":
		return indexFault
	case strings.HasPrefix(msg, "reflect.Value.Slice") && strings.HasSuffix(msg, "index out of bounds"):
		return sliceFault
	case strings.HasPrefix(msg, "reflect: call of reflect.Value.") && strings.HasSuffix(msg, " on zero Value"),
		msg == "reflect.Value.Call: call of nil function":
		return nilFault
	}
	return noFault
}

// yaegiPosition is the position in its own source that yaegi puts before
// the message of a failed type assertion ("2:5: interface conversion:
// ..."); Go's message has none.
var yaegiPosition = regexp.MustCompile(`^\d+:\d+: (interface conversion: )`)

// goWords returns msg, the message of a panic while st ran, as Go's
// runtime says it, and the cell line of the expression that failed if it
// is known (0 if not). The session's values give the numbers: st ran as
// a statement of its own, so the values its expression read are the
// session's variables, unless they are local to the statement (a loop's
// counter), and then the message has none.
func (s *Session) goWords(msg string, st cell.Step) (string, int) {
	fault := faultOf(msg)
	if fault == noFault || fault == nilFault {
		return GoWords(msg), 0
	}
	found, local := expressions(cell.StripComments(st.Text), fault)
	line := 0
	if len(found) == 1 {
		line = st.Line + found[0].line - 1
	}
	for _, f := range found {
		if detail, ok := s.outOfRange(f.expr, local); ok {
			return "runtime error: " + detail, st.Line + f.line - 1
		}
	}
	return GoWords(msg), line
}

// GoWords returns msg, the message of a panic in interpreted code, in
// Go's words, without the numbers that only the code and the values
// give: how a worker's crash report, which has neither, says it.
func GoWords(msg string) string {
	switch faultOf(msg) {
	case indexFault:
		return "runtime error: index out of range"
	case sliceFault:
		return "runtime error: slice bounds out of range"
	case nilFault:
		return "runtime error: invalid memory address or nil pointer dereference"
	}
	if m := sliceToArray.FindStringSubmatch(msg); m != nil {
		return "runtime error: cannot convert slice with length " + m[1] + " to array or pointer to array with length " + m[2]
	}
	return yaegiPosition.ReplaceAllString(msg, "$1")
}

// sliceToArray matches reflect's words for a failed conversion of a slice
// to an array or a pointer to one ([4]int(s), Go 1.20), which yaegi runs
// with reflect, and its lengths.
var sliceToArray = regexp.MustCompile(`^reflect: cannot convert slice with length (\d+) to (?:pointer to )?array with length (\d+)$`)

// A suspect is an expression that may have failed, and its line in the
// code, from 1.
type suspect struct {
	expr ast.Expr
	line int
}

// expressions parses code, a statement or a declaration, and returns its
// index expressions (for indexFault) or slice expressions (sliceFault), in
// the order written, and the names the code declares, whose values the
// session's variables of the same names are not.
func expressions(code string, fault runtimeFault) ([]suspect, map[string]bool) {
	fset := token.NewFileSet()
	// Either way the code starts on the file's second line.
	var root ast.Node
	if f, err := parser.ParseFile(fset, "", "package p; func _() {\n"+code+"\n}", parser.SkipObjectResolution); err == nil {
		root = f.Decls[0].(*ast.FuncDecl).Body
	} else if f, err := parser.ParseFile(fset, "", "package p\n"+code, parser.SkipObjectResolution); err == nil {
		root = f
	} else {
		return nil, nil
	}
	var found []suspect
	local := map[string]bool{}
	declare := func(ids ...*ast.Ident) {
		for _, id := range ids {
			local[id.Name] = true
		}
	}
	fields := func(l *ast.FieldList) {
		if l != nil {
			for _, f := range l.List {
				declare(f.Names...)
			}
		}
	}
	ast.Inspect(root, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.IndexExpr:
			if fault == indexFault {
				found = append(found, suspect{n, fset.Position(n.Pos()).Line - 1})
			}
		case *ast.SliceExpr:
			if fault == sliceFault {
				found = append(found, suspect{n, fset.Position(n.Pos()).Line - 1})
			}
		case *ast.AssignStmt:
			if n.Tok == token.DEFINE {
				for _, e := range n.Lhs {
					if id, ok := e.(*ast.Ident); ok {
						declare(id)
					}
				}
			}
		case *ast.RangeStmt:
			for _, e := range []ast.Expr{n.Key, n.Value} {
				if id, ok := e.(*ast.Ident); ok && n.Tok == token.DEFINE {
					declare(id)
				}
			}
		case *ast.ValueSpec:
			declare(n.Names...)
		case *ast.FuncType:
			fields(n.Params)
			fields(n.Results)
		case *ast.FuncDecl:
			fields(n.Recv)
		}
		return true
	})
	return found, local
}

// outOfRange evaluates, in the session, the operands of x, an index or a
// slice expression, and returns Go's message for them if they are out of
// range. It evaluates only operands that have no effects and name no
// local names.
func (s *Session) outOfRange(x ast.Expr, local map[string]bool) (string, bool) {
	value := func(e ast.Expr) (reflect.Value, bool) {
		if e == nil || !cell.Pure(e, local) {
			return reflect.Value{}, false
		}
		v, err := s.evalOnce(context.Background(), types.ExprString(e))
		if err != nil || !v.IsValid() {
			return reflect.Value{}, false
		}
		if v.Kind() == reflect.Interface {
			v = v.Elem()
		}
		return v, v.IsValid()
	}
	number := func(e ast.Expr) (int64, bool) {
		v, ok := value(e)
		if !ok {
			return 0, false
		}
		switch {
		case v.CanInt():
			return v.Int(), true
		case v.CanUint() && v.Uint() <= 1<<63-1:
			return int64(v.Uint()), true
		}
		return 0, false
	}
	// sequence is the value of e if it is a slice, an array (or a pointer
	// to one) or a string: what an index or a slice expression reads.
	sequence := func(e ast.Expr) (reflect.Value, bool) {
		v, ok := value(e)
		if ok && v.Kind() == reflect.Pointer && v.Elem().Kind() == reflect.Array {
			v = v.Elem()
		}
		return v, ok && (v.Kind() == reflect.Slice || v.Kind() == reflect.Array || v.Kind() == reflect.String)
	}
	switch x := x.(type) {
	case *ast.IndexExpr:
		v, ok := sequence(x.X)
		if !ok {
			return "", false
		}
		i, ok := number(x.Index)
		if !ok || (i >= 0 && i < int64(v.Len())) {
			return "", false
		}
		return cell.BoundsMessage(cell.BoundsIndex, i, int64(v.Len())), true
	case *ast.SliceExpr:
		v, ok := sequence(x.X)
		if !ok {
			return "", false
		}
		bound := func(e ast.Expr, otherwise int64) (int64, bool) {
			if e == nil {
				return otherwise, true
			}
			return number(e)
		}
		length, capacity := int64(v.Len()), int64(v.Len())
		capCode, cap3Code := cell.BoundsSliceAlen, cell.BoundsSlice3Alen
		if v.Kind() == reflect.Slice {
			capacity, capCode, cap3Code = int64(v.Cap()), cell.BoundsSliceAcap, cell.BoundsSlice3Acap
		}
		lo, ok1 := bound(x.Low, 0)
		hi, ok2 := bound(x.High, length)
		if !ok1 || !ok2 {
			return "", false
		}
		// Go checks the bounds from the last to the first.
		if x.Slice3 {
			max, ok := bound(x.Max, capacity)
			switch {
			case !ok:
				return "", false
			case max < 0 || max > capacity:
				return cell.BoundsMessage(cap3Code, max, capacity), true
			case hi < 0 || hi > max:
				return cell.BoundsMessage(cell.BoundsSlice3B, hi, max), true
			case lo < 0 || lo > hi:
				return cell.BoundsMessage(cell.BoundsSlice3C, lo, hi), true
			}
			return "", false
		}
		switch {
		case hi < 0 || hi > capacity:
			return cell.BoundsMessage(capCode, hi, capacity), true
		case lo < 0 || lo > hi:
			return cell.BoundsMessage(cell.BoundsSliceB, lo, hi), true
		}
	}
	return "", false
}
