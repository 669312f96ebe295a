package widget

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sync"

	"github.com/tensornb/tensornb/internal/widgetcomm"
	"github.com/tensornb/tensornb/tensor"
)

// The messages of the widgets go to a front end, and come from it, as
// widgetcomm.Messages, through the engine that runs cells (package
// internal/widgetcomm): it sets the transport and delivers the front
// end's messages between cells.
func init() { widgetcomm.SetReceiver(deliver) }

// The comm targets of the protocol, and its version.
const (
	widgetTarget    = "jupyter.widget"
	controlTarget   = "jupyter.widget.control"
	protocolVersion = "2.1.0"
)

// reg is everything the widgets of this process share: the open widgets
// by comm id and the open control comms. Its lock is held
// while a widget's state changes and its messages are sent, and never
// while a callback runs.
var reg = struct {
	sync.Mutex
	models  map[string]*model
	control map[string]bool
}{models: map[string]*model{}, control: map[string]bool{}}

// noTransport is the panic of a widget created where no front end listens.
var noTransport = &tensor.Error{Op: "widget", Class: tensor.RuntimeError, Message: "widgets need a kernel that keeps the program alive between cells, " +
	`to run their callbacks when the front end calls: run this cell on the "Go (tensornb)" kernel's instant engine (a cell without %%gonb). ` +
	"A %%gonb cell, or the compiled kernel, ends its program with the cell, so nothing would answer the controls; " +
	"there, show still pictures with package display instead"}

// deliver hands m, a comm message from the front end, to the widgets
// (widgetcomm.Deliver), and runs the callbacks it triggers in the
// caller's goroutine.
//
// It returns an error, and runs nothing, for a message to a comm the
// widgets do not hold, a malformed message, an unknown method or a value
// the widget refuses (a widget refusing a value sends its own back, so
// the front end shows it again); and an error naming the panic for each
// callback that panicked, after running the others. It never panics.
//
// A comm_open to the control target, jupyter.widget.control, opens the
// comm through which a front end asks for every widget's state at once. A
// comm_open to any other target, jupyter.widget included (widgets created
// by the front end are not supported), is refused: deliver closes the
// comm and returns an error. A comm_close forgets the widget.
func deliver(m widgetcomm.Message) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("widget: %s on comm %q: %v", m.Type, m.CommID, r)
		}
	}()
	var calls []func()
	switch m.Type {
	case "comm_open":
		return deliverOpen(m)
	case "comm_msg":
		calls, err = deliverMsg(m)
	case "comm_close":
		return deliverClose(m)
	default:
		return fmt.Errorf("widget: unknown message type %q (want comm_open, comm_msg or comm_close)", m.Type)
	}
	if err != nil {
		return err
	}
	return runCalls(calls)
}

func deliverOpen(m widgetcomm.Message) error {
	reg.Lock()
	defer reg.Unlock()
	if m.Target == controlTarget {
		reg.control[m.CommID] = true
		return nil
	}
	sendLocked(widgetcomm.Message{Type: "comm_close", CommID: m.CommID, Data: json.RawMessage(`{}`)})
	if m.Target == widgetTarget {
		return fmt.Errorf("widget: comm_open %q to %s: widgets created by the front end are not supported; create them in Go", m.CommID, widgetTarget)
	}
	return fmt.Errorf("widget: comm_open %q to unknown target %q", m.CommID, m.Target)
}

func deliverClose(m widgetcomm.Message) error {
	reg.Lock()
	defer reg.Unlock()
	if reg.control[m.CommID] {
		delete(reg.control, m.CommID)
		return nil
	}
	w, ok := reg.models[m.CommID]
	if !ok {
		return fmt.Errorf("widget: comm_close for unknown comm %q", m.CommID)
	}
	w.closed = true
	delete(reg.models, m.CommID)
	return nil
}

// commData is the data of a comm_msg from the front end.
type commData struct {
	Method      string         `json:"method"`
	State       map[string]any `json:"state"`
	BufferPaths [][]any        `json:"buffer_paths"`
	Content     any            `json:"content"`
}

// deliverMsg handles a comm_msg and returns the callbacks it triggers.
func deliverMsg(m widgetcomm.Message) ([]func(), error) {
	var data commData
	if err := json.Unmarshal(m.Data, &data); err != nil {
		return nil, fmt.Errorf("widget: malformed comm_msg on comm %q: %v", m.CommID, err)
	}
	if data.Method == "" {
		return nil, fmt.Errorf("widget: comm_msg on comm %q has no method", m.CommID)
	}
	reg.Lock()
	defer reg.Unlock()
	if reg.control[m.CommID] {
		if data.Method != "request_states" {
			return nil, fmt.Errorf("widget: unknown method %q on the control comm %q (want request_states)", data.Method, m.CommID)
		}
		sendStates(m.CommID)
		return nil, nil
	}
	w, ok := reg.models[m.CommID]
	if !ok {
		return nil, fmt.Errorf("widget: comm_msg for unknown comm %q", m.CommID)
	}
	switch data.Method {
	case "update":
		if data.State == nil {
			return nil, fmt.Errorf("widget: update on comm %q has no state", m.CommID)
		}
		if err := joinBuffers(data.State, data.BufferPaths, m.Buffers); err != nil {
			return nil, fmt.Errorf("widget: update on comm %q: %v", m.CommID, err)
		}
		return w.receive(data.State)
	case "request_state":
		w.sendState("update", w.state())
		return nil, nil
	case "custom":
		return w.w.custom(data.Content)
	}
	return nil, fmt.Errorf("widget: unknown method %q on comm %q (want update, request_state or custom)", data.Method, m.CommID)
}

// sendStates answers request_states on control comm id: every widget's
// state, with each binary buffer's path starting at the widget's id.
func sendStates(id string) {
	states := map[string]any{}
	for wid, w := range reg.models {
		states[wid] = map[string]any{
			"model_name":           w.kind.model,
			"model_module":         w.kind.module,
			"model_module_version": w.kind.version,
			"state":                w.state(),
		}
	}
	states, paths, buffers := splitBuffers(states)
	data := map[string]any{"method": "update_states", "states": states, "buffer_paths": nonNil(paths)}
	sendLocked(widgetcomm.Message{Type: "comm_msg", CommID: id, Data: mustJSON(data), Buffers: buffers})
}

// sendLocked sends m; reg's lock is held. A failing transport loses the
// message, and says so on standard error: the program goes on, as it
// would if the front end had gone.
func sendLocked(m widgetcomm.Message) {
	send := widgetcomm.Transport()
	if send == nil {
		return
	}
	if err := send(m); err != nil {
		fmt.Fprintf(os.Stderr, "widget: sending %s on comm %s: %v\n", m.Type, m.CommID, err)
	}
}

// runCalls runs the callbacks of a message from the front end, each with
// its panic recovered and returned as an error.
func runCalls(calls []func()) error {
	var errs []error
	for _, call := range calls {
		if err := runOne(call); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

func runOne(call func()) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("widget: a callback panicked: %s", panicText(r))
		}
	}()
	call()
	return nil
}

// panicText words a panic value: a *tensor.Error with its class, as the
// kernel shows it.
func panicText(r any) string {
	if e, ok := r.(*tensor.Error); ok {
		return e.Class + ": " + e.Error()
	}
	return fmt.Sprint(r)
}

// newID returns a new comm id: 32 hex digits, random as a version 4 UUID's.
func newID() string {
	var b [16]byte
	rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return hex.EncodeToString(b[:])
}

// mustJSON encodes v, which this package built from JSON-able values.
func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("widget: encoding %T: %v", v, err))
	}
	return b
}

// nonNil returns paths, or an empty list for none: the protocol's
// buffer_paths is a list even when it is empty.
func nonNil(paths [][]any) [][]any {
	if paths == nil {
		return [][]any{}
	}
	return paths
}
