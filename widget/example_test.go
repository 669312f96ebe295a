package widget_test

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/tensornb/tensornb/display"
	"github.com/tensornb/tensornb/internal/widgetcomm"
	"github.com/tensornb/tensornb/tensor"
	"github.com/tensornb/tensornb/widget"
)

// printer returns a transport that prints each message it is given,
// naming the comms w1, w2, … in the order they open (a model id is
// random). A kernel's transport sends them to the front end instead.
func printer() func(widgetcomm.Message) error {
	names := map[string]string{}
	var ids []string
	return func(m widgetcomm.Message) error {
		if _, ok := names[m.CommID]; !ok {
			names[m.CommID] = fmt.Sprintf("w%d", len(names)+1)
			ids = append(ids, m.CommID)
		}
		if m.Type == "comm_open" {
			var d struct{ State map[string]any }
			json.Unmarshal(m.Data, &d)
			fmt.Println("comm_open", names[m.CommID], d.State["_model_name"])
			return nil
		}
		text := string(m.Data)
		for _, id := range ids {
			text = strings.ReplaceAll(text, id, names[id])
		}
		fmt.Println(m.Type, names[m.CommID], text)
		return nil
	}
}

// A slider, moved by the front end and then from Go. The engine that runs
// cells sets the transport and delivers the front end's messages; here
// the example does both.
func Example() {
	widgetcomm.SetTransport(printer())
	defer widgetcomm.SetTransport(nil)

	rows := widget.NewIntSlider("rows", 3, 1, 8)
	rows.OnChange(func(n int) { fmt.Println("rows is now", n) })

	// The user drags the slider to 5.
	widgetcomm.Deliver(widgetcomm.Message{Type: "comm_msg", CommID: rows.ModelID(),
		Data: json.RawMessage(`{"method":"update","state":{"value":5}}`)})

	// The program sets it past its maximum.
	rows.SetValue(12)
	fmt.Println(rows)
	// Output:
	// comm_open w1 IntSliderModel
	// comm_msg w1 {"buffer_paths":[],"method":"echo_update","state":{"value":5}}
	// rows is now 5
	// comm_msg w1 {"buffer_paths":[],"method":"update","state":{"value":8}}
	// rows is now 8
	// IntSlider(value=8, min=1, max=8, step=1, description="rows")
}

// Interact redraws a view of a tensor as the slider moves.
func ExampleInteract() {
	widgetcomm.SetTransport(func(widgetcomm.Message) error { return nil })
	defer widgetcomm.SetTransport(nil)

	x := tensor.Arange(12)
	cols := widget.NewIntSlider("cols", 3, 1, 12)
	box := widget.Interact(func(n int) (*tensor.Tensor, error) {
		var y *tensor.Tensor
		err := tensor.Try(func() { y = x.View(-1, n) })
		return y, err
	}, cols)
	fmt.Println(box)

	cols.SetValue(5)
	fmt.Println(box)
	// Output:
	// VBox(
	//   IntSlider(value=3, min=1, max=12, step=1, description="cols")
	//   Output(
	//     tensor([[ 0,  1,  2],
	//             [ 3,  4,  5],
	//             [ 6,  7,  8],
	//             [ 9, 10, 11]])
	//   )
	// )
	// VBox(
	//   IntSlider(value=5, min=1, max=12, step=1, description="cols")
	//   Output(
	//     view: shape '[-1, 5]' is invalid for input of size 12
	//   )
	// )
}

// A click from the front end runs the button's functions.
func ExampleButton_OnClick() {
	widgetcomm.SetTransport(func(widgetcomm.Message) error { return nil })
	defer widgetcomm.SetTransport(nil)

	b := widget.NewButton("Shuffle")
	b.OnClick(func() { fmt.Println("clicked") })
	err := widgetcomm.Deliver(widgetcomm.Message{Type: "comm_msg", CommID: b.ModelID(),
		Data: json.RawMessage(`{"method":"custom","content":{"event":"click"}}`)})
	fmt.Println(err)
	// Output:
	// clicked
	// <nil>
}

// An output area holds pictures and text; its outputs are part of its
// state, so each change is one update.
func ExampleOutput() {
	widgetcomm.SetTransport(printer())
	defer widgetcomm.SetTransport(nil)

	out := widget.NewOutput()
	fmt.Fprintln(out, "strides:", tensor.Zeros(2, 3).Strides())
	out.Show(display.Bundle{display.MIMEPlain: "a picture"})
	out.Clear()
	// Output:
	// comm_open w1 OutputModel
	// comm_msg w1 {"buffer_paths":[],"method":"update","state":{"outputs":[{"name":"stdout","output_type":"stream","text":"strides: (3, 1)\n"}]}}
	// comm_msg w1 {"buffer_paths":[],"method":"update","state":{"outputs":[{"name":"stdout","output_type":"stream","text":"strides: (3, 1)\n"},{"data":{"text/plain":"a picture"},"metadata":{},"output_type":"display_data"}]}}
	// comm_msg w1 {"buffer_paths":[],"method":"update","state":{"outputs":[]}}
}
