package widget

import (
	"fmt"
	"strings"
)

// A Box lays its children out in a row (an HBox) or a column (a VBox).
type Box struct {
	*model
	st     boxState
	across bool // a row
}

type boxState struct {
	dom
	BoxStyle string   `json:"box_style"`
	Children []string `json:"children"` // references: "IPY_MODEL_" and a model id
}

// ref is the prefix of a reference to a widget in another's state.
const ref = "IPY_MODEL_"

// NewHBox returns a box that lays children out side by side. It panics
// with a ValueError if one of them is nil or closed.
func NewHBox(children ...Widget) *Box { return newBox(true, children) }

// NewVBox returns a box that lays children out one under another. It
// panics with a ValueError if one of them is nil or closed.
func NewVBox(children ...Widget) *Box { return newBox(false, children) }

func newBox(across bool, children []Widget) *Box {
	b := &Box{st: boxState{dom: dom{Classes: []string{}}, Children: refs(children)}, across: across}
	k := kind{"VBoxModel", "VBoxView", controls, "2.0.0"}
	if across {
		k = kind{"HBoxModel", "HBoxView", controls, "2.0.0"}
	}
	mustCheck(b, strings.TrimSuffix(k.model, "Model"))
	b.model = open(b, k)
	return b
}

// refs returns the references to children; a nil child's is "", which
// check refuses.
func refs(children []Widget) []string {
	r := make([]string, len(children))
	for i, c := range children {
		if c != nil {
			r[i] = ref + c.ModelID()
		}
	}
	return r
}

// Children returns the widgets in the box, leaving out any closed since.
func (b *Box) Children() []Widget {
	reg.Lock()
	defer reg.Unlock()
	var out []Widget
	for _, w := range b.children() {
		out = append(out, w)
	}
	return out
}

// SetChildren replaces the widgets in the box. It panics with a
// ValueError if one of them is nil or closed, or contains the box.
func (b *Box) SetChildren(children ...Widget) {
	change(b, func(st *boxState) { st.Children = refs(children) })
}

// children returns the open widgets the box holds; reg's lock is held.
func (b *Box) children() []syncer {
	var out []syncer
	for _, r := range b.st.Children {
		if m, ok := reg.models[strings.TrimPrefix(r, ref)]; ok {
			out = append(out, m.w)
		}
	}
	return out
}

func (b *Box) fields() any { return &b.st }

// check wants every child to be an open widget, and none to hold the box.
func (b *Box) check(next any) error {
	for i, r := range next.(*boxState).Children {
		m, ok := reg.models[strings.TrimPrefix(r, ref)]
		if !strings.HasPrefix(r, ref) || !ok {
			return fmt.Errorf("child %d is not an open widget (%q)", i, r)
		}
		if b.model != nil && holds(m.w, b.id) {
			return fmt.Errorf("child %d holds the box itself", i)
		}
	}
	return nil
}

// holds reports whether w is the widget id or a box that holds it.
func holds(w syncer, id string) bool {
	if w.ModelID() == id {
		return true
	}
	if box, ok := w.(*Box); ok {
		for _, c := range box.children() {
			if holds(c, id) {
				return true
			}
		}
	}
	return false
}

func (b *Box) changed(any) []func() { return nil }

func (b *Box) custom(any) ([]func(), error) { return nil, nil }

func (b *Box) text() string {
	var s strings.Builder
	s.WriteString(strings.TrimSuffix(b.kind.model, "Model") + "(\n")
	for _, c := range b.children() {
		s.WriteString(indent(c.text()) + "\n")
	}
	s.WriteString(")")
	return s.String()
}

func (b *Box) still() still {
	var parts []still
	for _, c := range b.children() {
		parts = append(parts, c.still())
	}
	return stacked(parts, b.across, b.text())
}
