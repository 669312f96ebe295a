package widget

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/tensornb/tensornb/display"
	"github.com/tensornb/tensornb/internal/widgetcomm"
)

// MIMEWidgetView is the MIME type of a widget's live form: the model id
// that a front end's widget manager draws.
const MIMEWidgetView = "application/vnd.jupyter.widget-view+json"

// A Widget is a control or a container drawn by the front end's widget
// manager and kept in sync with its Go value. It is a display.Renderer,
// so a cell shows it by ending with it or by display.Show.
type Widget interface {
	display.Renderer
	// ModelID returns the widget's model id, which is its comm's id.
	ModelID() string
	// Close closes the widget's comm: the front end removes its views,
	// and the widget changes no more.
	Close()

	base() *model
}

// kind names a widget's model and view for the front end, and the module
// (with its version) that holds both.
type kind struct {
	model, view, module, version string
}

// The modules that hold the models of this package.
const (
	controls = "@jupyter-widgets/controls"
	outputs  = "@jupyter-widgets/output"
)

// A syncer is what each widget type adds to the model they share.
// Its methods are called with reg's lock held.
type syncer interface {
	Widget
	// fields returns a pointer to the widget's synced state.
	fields() any
	// check validates a candidate state (a pointer of fields' type),
	// correcting what ipywidgets corrects, as a slider clamps its value.
	check(next any) error
	// changed returns the callbacks due now that the state moved from old.
	changed(old any) []func()
	// custom handles a custom message's content.
	custom(content any) ([]func(), error)
	// text returns the text/plain form.
	text() string
	// still returns the still picture.
	still() still
}

// model is the part every widget shares: its comm and the kind of its
// model. w is the widget itself.
type model struct {
	id     string
	kind   kind
	w      syncer
	closed bool
}

// open registers w, a new widget whose state is set, and opens its comm.
// It panics with noTransport when no front end listens.
func open(w syncer, k kind) *model {
	reg.Lock()
	defer reg.Unlock()
	if widgetcomm.Transport() == nil {
		panic(noTransport)
	}
	m := &model{id: newID(), kind: k, w: w}
	reg.models[m.id] = m
	state, paths, buffers := splitBuffers(m.state())
	sendLocked(widgetcomm.Message{
		Type:     "comm_open",
		CommID:   m.id,
		Target:   widgetTarget,
		Data:     mustJSON(map[string]any{"state": state, "buffer_paths": nonNil(paths)}),
		Metadata: json.RawMessage(`{"version":"` + protocolVersion + `"}`),
		Buffers:  buffers,
	})
	return m
}

func (m *model) base() *model { return m }

// ModelID returns the widget's model id, which is its comm's id.
func (m *model) ModelID() string { return m.id }

// Close closes the widget's comm: the front end removes its views, and
// the widget sends no more.
func (m *model) Close() {
	reg.Lock()
	defer reg.Unlock()
	if m.closed {
		return
	}
	m.closed = true
	delete(reg.models, m.id)
	sendLocked(widgetcomm.Message{Type: "comm_close", CommID: m.id, Data: json.RawMessage(`{}`)})
}

// Bundle returns the widget's forms: the live view for a front end with a
// widget manager; the text form; and a still picture, as HTML and, where
// every part of it can be drawn so, SVG, for a notebook read without a
// kernel (on GitHub, by nbconvert, untrusted).
func (m *model) Bundle() display.Bundle {
	reg.Lock()
	defer reg.Unlock()
	s := m.w.still()
	b := display.Bundle{
		MIMEWidgetView:    fmt.Sprintf(`{"model_id":%q,"version_major":2,"version_minor":0}`, m.id),
		display.MIMEPlain: m.w.text(),
		display.MIMEHTML:  s.html,
	}
	if s.svg != nil {
		b[display.MIMESVG] = s.svg.document()
	}
	return b
}

// String returns the text form.
func (m *model) String() string {
	reg.Lock()
	defer reg.Unlock()
	return m.w.text()
}

// state returns the widget's full state: its model's and view's names,
// then its own attributes.
func (m *model) state() map[string]any {
	s := stateMap(m.w.fields())
	s["_model_name"] = m.kind.model
	s["_model_module"] = m.kind.module
	s["_model_module_version"] = m.kind.version
	s["_view_name"] = m.kind.view
	s["_view_module"] = m.kind.module
	s["_view_module_version"] = m.kind.version
	return s
}

// sendState sends state with method ("update" or "echo_update").
func (m *model) sendState(method string, state map[string]any) {
	if m.closed || len(state) == 0 {
		return
	}
	state, paths, buffers := splitBuffers(state)
	data := map[string]any{"method": method, "state": state, "buffer_paths": nonNil(paths)}
	sendLocked(widgetcomm.Message{Type: "comm_msg", CommID: m.id, Data: mustJSON(data), Buffers: buffers})
}

// sendAttrs sends an update of the attributes keys.
func (m *model) sendAttrs(method string, keys []string) {
	all := stateMap(m.w.fields())
	state := map[string]any{}
	for _, k := range keys {
		state[k] = all[k]
	}
	m.sendState(method, state)
}

// receive applies an update from the front end, all of it or, if any
// value is refused, none: it echoes the attributes it was sent with the
// values they now hold, sends an update of any other attribute that
// changed with them (a value clamped to a new minimum), and returns the
// callbacks due. A refused update is answered with the current values of
// the attributes it named.
func (m *model) receive(state map[string]any) ([]func(), error) {
	cur := m.w.fields()
	next := cloneState(cur)
	var sent []string // the attributes the update names, that the widget has
	for _, key := range attrs(typeOf(cur)) {
		if _, ok := state[key]; ok {
			sent = append(sent, key)
		}
	}
	for _, key := range sent {
		if err := setAttr(next, key, state[key]); err != nil {
			m.sendAttrs("update", sent)
			return nil, fmt.Errorf("widget: %s %s: %v", m.kind.model, m.id, err)
		}
	}
	if err := m.w.check(next); err != nil {
		m.sendAttrs("update", sent)
		return nil, fmt.Errorf("widget: %s %s: %v", m.kind.model, m.id, err)
	}
	old := cloneState(cur)
	setState(cur, next)
	m.sendAttrs("echo_update", sent)
	var others []string
	for _, k := range changedAttrs(old, cur) {
		if !slices.Contains(sent, k) {
			others = append(others, k)
		}
	}
	m.sendAttrs("update", others)
	return m.w.changed(old), nil
}

// change sets the state of w, a widget's, to what edit makes of a copy of
// it, sends an update of what changed, and runs the callbacks due, as a
// change from the front end does. It panics with a ValueError, changing
// nothing, if the widget refuses the new state.
func change[S any](w syncer, edit func(*S)) {
	reg.Lock()
	cur := w.fields().(*S)
	next := *cur
	edit(&next)
	if err := w.check(&next); err != nil {
		reg.Unlock()
		panic(valueError(strings.TrimSuffix(w.base().kind.model, "Model"), err))
	}
	old := *cur
	*cur = next
	w.base().sendAttrs("update", changedAttrs(&old, cur))
	calls := w.changed(&old)
	reg.Unlock()
	for _, call := range calls {
		call()
	}
}

// read returns f of a widget's state, read under the lock.
func read[S, T any](w syncer, f func(*S) T) T {
	reg.Lock()
	defer reg.Unlock()
	return f(w.fields().(*S))
}

// later returns the calls of fns with v, to run once the lock is released.
func later[T any](fns []func(T), v T) []func() {
	calls := make([]func(), len(fns))
	for i, f := range fns {
		calls[i] = func() { f(v) }
	}
	return calls
}
