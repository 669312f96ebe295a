package interp

import (
	"encoding/json"
	"fmt"

	"github.com/tensornb/tensornb/internal/widgetcomm"
	"github.com/tensornb/tensornb/kernel/internal/front"
)

// Comms between the front end and the widgets of a session (package
// widget, through internal/widgetcomm). The widgets live where the cells run, in the worker (package
// worker) or a Local, so that their callbacks see and change the cells' state; a comm
// message from the front end is delivered between cells, as the kernel
// handles shell messages one at a time, and what the callbacks print,
// show and send goes out in reply to it.

// WidgetError is the name of the error of a comm message the widgets
// could not take: an unknown comm, a malformed message, a callback that
// panicked.
const WidgetError = "WidgetError"

// commContent is the content of a comm message on the wire.
type commContent struct {
	CommID string          `json:"comm_id"`
	Target string          `json:"target_name,omitempty"`
	Data   json.RawMessage `json:"data"`
}

// FromWidgets is the front's form of a message the widgets send.
func FromWidgets(m widgetcomm.Message) front.CommMessage {
	data := m.Data
	if len(data) == 0 {
		data = json.RawMessage("{}")
	}
	content, _ := json.Marshal(commContent{CommID: m.CommID, Target: m.Target, Data: data})
	return front.CommMessage{Type: m.Type, Content: content, Metadata: m.Metadata, Buffers: m.Buffers}
}

// toWidgets is the widgets' form of a comm message from the front end.
func toWidgets(m front.CommMessage) (widgetcomm.Message, error) {
	var c commContent
	if err := json.Unmarshal(m.Content, &c); err != nil {
		return widgetcomm.Message{}, fmt.Errorf("a %s whose content is not a comm message's: %w", m.Type, err)
	}
	return widgetcomm.Message{Type: m.Type, CommID: c.CommID, Target: c.Target, Data: c.Data, Metadata: m.Metadata, Buffers: m.Buffers}, nil
}

// DeliverComm hands a comm message from the front end to the widgets.
func DeliverComm(m front.CommMessage) error {
	wm, err := toWidgets(m)
	if err != nil {
		return err
	}
	return widgetcomm.Deliver(wm)
}
