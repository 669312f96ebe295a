// Package widgetcomm is the wire between package widget and the kernel's
// engine: the comm messages the widgets send go out through the
// engine's transport (SetTransport), and those of the front end come in
// through Deliver, between cells. It is the kernel's hook, apart from
// what cells call; cells cannot import it (the instant engine has no table
// of it, and a compiled cell's module may not import another module's
// internal packages).
package widgetcomm

import (
	"encoding/json"
	"errors"
	"sync"
)

// A Message is one comm message between the widgets of this process and a
// front end, in either direction.
type Message struct {
	Type     string          `json:"type"`                  // "comm_open", "comm_msg" or "comm_close"
	CommID   string          `json:"comm_id"`               // the comm, which is the widget's model id
	Target   string          `json:"target_name,omitempty"` // comm_open only: "jupyter.widget" for a widget
	Data     json.RawMessage `json:"data,omitempty"`        // the content's data
	Metadata json.RawMessage `json:"metadata,omitempty"`    // the message's metadata: a widget's comm_open carries {"version":"2.1.0"}
	Buffers  [][]byte        `json:"buffers,omitempty"`     // binary buffers, whose places in Data's state its buffer_paths give
}

var wire struct {
	sync.Mutex
	send    func(Message) error
	receive func(Message) error
}

// SetTransport makes send the destination of every message the widgets
// send: the engine that runs cells sets it, as it sets display's sink.
// SetTransport(nil) removes it. The widgets call send with their lock
// held, so it must not call into package widget.
//
// With no transport set, creating a widget panics with a *tensor.Error
// of class RuntimeError: widgets need a kernel that keeps the program
// alive between cells.
func SetTransport(send func(Message) error) {
	wire.Lock()
	wire.send = send
	wire.Unlock()
}

// Transport returns the transport set, or nil: package widget sends its
// messages through it.
func Transport() func(Message) error {
	wire.Lock()
	defer wire.Unlock()
	return wire.send
}

// SetReceiver makes receive the widgets' end of Deliver: package widget
// sets it as it starts.
func SetReceiver(receive func(Message) error) {
	wire.Lock()
	wire.receive = receive
	wire.Unlock()
}

// Deliver hands m, a comm message from the front end, to the widgets,
// and runs the callbacks it triggers in the caller's goroutine: the
// engine calls it between cells, so that callbacks see and change the
// cells' state. The messages the widgets send while Deliver runs answer
// m: a kernel sends them with m's header as their parent header, which is
// how a front end recognizes the echo of its own update. See package
// widget's deliver for what it refuses; it never panics.
func Deliver(m Message) error {
	wire.Lock()
	receive := wire.receive
	wire.Unlock()
	if receive == nil {
		return errors.New("widget: no widgets in this program to deliver a " + m.Type + " to")
	}
	return receive(m)
}
