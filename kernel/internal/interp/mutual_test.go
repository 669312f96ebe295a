package interp_test

import "testing"

// Struct types that refer to each other, one to itself too (a list and
// its elements, each pointing to the list), run as in Go: their fields
// that point to the other type keep their values, nil among them, and
// the structs compare as in Go. (yaegi v0.16.1 built the element's next
// as a pointer to the list: reflect.Set: value of type *struct {…} is not
// assignable.)
func TestStructsThatReferToEachOther(t *testing.T) {
	checkPrinted(t, "1 true; 4 true; 9 true; true 3\nfalse 3 false\n",
		"type E struct {\n\tnext, prev *E\n\tlist       *L\n\tValue      int\n}\n\ntype L struct {\n\troot E\n\tlen  int\n}\n\nfunc (l *L) Init() *L {\n\tl.root.next = &l.root\n\tl.root.prev = &l.root\n\tl.len = 0\n\treturn l\n}\n\nfunc (l *L) PushBack(v int) *E {\n\tat := l.root.prev\n\te := &E{Value: v, list: l}\n\te.prev = at\n\te.next = at.next\n\te.prev.next = e\n\te.next.prev = e\n\tl.len++\n\treturn e\n}\n\nfunc (e *E) Next() *E {\n\tif p := e.next; e.list != nil && p != &e.list.root {\n\t\treturn p\n\t}\n\treturn nil\n}",
		"l := new(L).Init()\nfor i := 1; i <= 3; i++ {\n\tl.PushBack(i * i)\n}\nfor e := l.root.next; e != nil; e = e.Next() {\n\tfmt.Print(e.Value, \" \", e.list == l, \"; \")\n}\nvar a, b E\nb.list = nil\nfmt.Println(a == b, l.len)\nb.list = l\na.Value = 2\nfmt.Println(a == b, b.list.len, E{list: nil} == a)")
}

// A select's case that receives into such a field puts the value in as
// an assignment does, a nil pointer as a nil field. (The rewrite put the
// receive itself in, and yaegi refused the case: receive from non-chan
// type.)
func TestSelectIntoAFieldOfStructsThatReferToEachOther(t *testing.T) {
	checkPrinted(t, "true 7\ntrue\n",
		"type E struct{ next *E; list *L }\ntype L struct{ root E; n int }",
		"ch := make(chan *L, 2)\nch <- &L{n: 7}\nch <- nil\nvar e E\nselect {\ncase e.list = <-ch:\n\tfmt.Println(e.list != nil, e.list.n)\n}\nselect {\ncase e.list = <-ch:\n}\nfmt.Println(e == E{})")
}
