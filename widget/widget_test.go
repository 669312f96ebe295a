package widget_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/tensornb/tensornb/display"
	"github.com/tensornb/tensornb/internal/widgetcomm"
	"github.com/tensornb/tensornb/tensor"
	"github.com/tensornb/tensornb/widget"
)

// front is a fake front end: it records the messages the widgets send.
type front struct {
	mu   sync.Mutex
	msgs []widgetcomm.Message
}

func (f *front) send(m widgetcomm.Message) error {
	f.mu.Lock()
	f.msgs = append(f.msgs, m)
	f.mu.Unlock()
	return nil
}

// take returns the messages sent since the last take.
func (f *front) take() []widgetcomm.Message {
	f.mu.Lock()
	defer f.mu.Unlock()
	m := f.msgs
	f.msgs = nil
	return m
}

// try returns the *tensor.Error f panics with, or nil.
func try(f func()) *tensor.Error {
	var e *tensor.Error
	errors.As(tensor.Try(f), &e)
	return e
}

func newFront(t *testing.T) *front {
	f := &front{}
	widgetcomm.SetTransport(f.send)
	t.Cleanup(func() { widgetcomm.SetTransport(nil) })
	return f
}

// data decodes a message's data.
func data(t *testing.T, m widgetcomm.Message) map[string]any {
	t.Helper()
	var d map[string]any
	if err := json.Unmarshal(m.Data, &d); err != nil {
		t.Fatalf("%s data %s: %v", m.Type, m.Data, err)
	}
	return d
}

// update sends a front end's update of state to w.
func update(w widget.Widget, state string) error {
	return widgetcomm.Deliver(widgetcomm.Message{Type: "comm_msg", CommID: w.ModelID(), Data: json.RawMessage(`{"method":"update","state":` + state + `}`)})
}

func TestOpenStates(t *testing.T) {
	f := newFront(t)
	for _, c := range []struct {
		make          func() widget.Widget
		model, module string
		version       string
		attrs         map[string]any
	}{
		{func() widget.Widget { return widget.NewIntSlider("rows", 3, 0, 10) }, "IntSliderModel", "@jupyter-widgets/controls", "2.0.0",
			map[string]any{"value": 3.0, "min": 0.0, "max": 10.0, "step": 1.0, "description": "rows", "readout_format": "d", "continuous_update": true}},
		{func() widget.Widget { return widget.NewFloatSlider("x", 0.5, 0, 1) }, "FloatSliderModel", "@jupyter-widgets/controls", "2.0.0",
			map[string]any{"value": 0.5, "max": 1.0, "step": 0.1, "readout_format": ".2f"}},
		{func() widget.Widget { return widget.NewDropdown("dtype", "float32", "int64") }, "DropdownModel", "@jupyter-widgets/controls", "2.0.0",
			map[string]any{"_options_labels": []any{"float32", "int64"}, "index": 0.0}},
		{func() widget.Widget { return widget.NewCheckbox("view", true) }, "CheckboxModel", "@jupyter-widgets/controls", "2.0.0",
			map[string]any{"value": true, "indent": true}},
		{func() widget.Widget { return widget.NewButton("Run") }, "ButtonModel", "@jupyter-widgets/controls", "2.0.0",
			map[string]any{"description": "Run", "button_style": ""}},
		{func() widget.Widget { return widget.NewText("name", "x") }, "TextModel", "@jupyter-widgets/controls", "2.0.0",
			map[string]any{"value": "x", "placeholder": "\u200b"}},
		{func() widget.Widget { return widget.NewOutput() }, "OutputModel", "@jupyter-widgets/output", "1.0.0",
			map[string]any{"outputs": []any{}, "msg_id": ""}},
		{func() widget.Widget { return widget.NewVBox() }, "VBoxModel", "@jupyter-widgets/controls", "2.0.0",
			map[string]any{"children": []any{}, "_dom_classes": []any{}}},
		{func() widget.Widget { return widget.NewHBox() }, "HBoxModel", "@jupyter-widgets/controls", "2.0.0", nil},
	} {
		w := c.make()
		msgs := f.take()
		if len(msgs) != 1 || msgs[0].Type != "comm_open" || msgs[0].Target != "jupyter.widget" || msgs[0].CommID != w.ModelID() {
			t.Fatalf("%s: want one comm_open to jupyter.widget, got %+v", c.model, msgs)
		}
		if string(msgs[0].Metadata) != `{"version":"2.1.0"}` {
			t.Errorf("%s: metadata %s", c.model, msgs[0].Metadata)
		}
		if len(w.ModelID()) != 32 {
			t.Errorf("%s: model id %q is not 32 hex digits", c.model, w.ModelID())
		}
		d := data(t, msgs[0])
		state := d["state"].(map[string]any)
		want := map[string]any{"_model_name": c.model, "_model_module": c.module, "_model_module_version": c.version,
			"_view_name": strings.Replace(c.model, "Model", "View", 1), "_view_module": c.module, "_view_module_version": c.version}
		for k, v := range c.attrs {
			want[k] = v
		}
		for k, v := range want {
			if !reflect.DeepEqual(state[k], v) {
				t.Errorf("%s: state[%q] = %#v, want %#v", c.model, k, state[k], v)
			}
		}
		if _, ok := state["layout"]; ok {
			t.Errorf("%s: state has a layout", c.model)
		}
		if paths, ok := d["buffer_paths"].([]any); !ok || len(paths) != 0 {
			t.Errorf("%s: buffer_paths %v, want []", c.model, d["buffer_paths"])
		}
		b := w.Bundle()
		var view map[string]any
		if err := json.Unmarshal([]byte(b[widget.MIMEWidgetView]), &view); err != nil || view["model_id"] != w.ModelID() || view["version_major"] != 2.0 || view["version_minor"] != 0.0 {
			t.Errorf("%s: widget view %q", c.model, b[widget.MIMEWidgetView])
		}
		if b[display.MIMEPlain] == "" || strings.Contains(b[display.MIMEHTML], "<script") {
			t.Errorf("%s: bundle %v", c.model, b)
		}
	}
}

func TestFrontUpdateRunsCallbackAndEchoes(t *testing.T) {
	f := newFront(t)
	s := widget.NewIntSlider("rows", 3, 0, 10)
	var got []int
	s.OnChange(func(v int) { got = append(got, v) })
	f.take()
	if err := update(s, `{"value":7}`); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, []int{7}) || s.Value() != 7 {
		t.Errorf("callback saw %v, value %d; want [7], 7", got, s.Value())
	}
	msgs := f.take()
	if len(msgs) != 1 {
		t.Fatalf("want one echo, got %+v", msgs)
	}
	d := data(t, msgs[0])
	if d["method"] != "echo_update" || !reflect.DeepEqual(d["state"], map[string]any{"value": 7.0}) {
		t.Errorf("echo: %s", msgs[0].Data)
	}
	// The same value again: an echo, no callback.
	if err := update(s, `{"value":7}`); err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || len(f.take()) != 1 {
		t.Errorf("an unchanged value ran the callback again: %v", got)
	}
}

func TestSetValueSendsUpdate(t *testing.T) {
	f := newFront(t)
	d := widget.NewDropdown("dtype", "float32", "int64", "bool")
	var got []string
	d.OnChange(func(v string) { got = append(got, v) })
	f.take()
	d.SetValue("bool")
	msgs := f.take()
	if len(msgs) != 1 || data(t, msgs[0])["method"] != "update" || !reflect.DeepEqual(data(t, msgs[0])["state"], map[string]any{"index": 2.0}) {
		t.Errorf("want an update of index to 2, got %+v", msgs)
	}
	if !reflect.DeepEqual(got, []string{"bool"}) {
		t.Errorf("observers saw %v", got)
	}
	if err := try(func() { d.SetValue("int8") }); err == nil || err.Class != tensor.ValueError {
		t.Errorf("SetValue of no option: %v, want a ValueError", err)
	}
}

func TestClamping(t *testing.T) {
	f := newFront(t)
	s := widget.NewIntSlider("n", 20, 0, 10)
	if s.Value() != 10 {
		t.Errorf("NewIntSlider(20 in [0,10]) = %d, want 10", s.Value())
	}
	f.take()
	if err := update(s, `{"value":-5}`); err != nil {
		t.Fatal(err)
	}
	if s.Value() != 0 {
		t.Errorf("front's -5 gave %d, want 0", s.Value())
	}
	if d := data(t, f.take()[0]); d["method"] != "echo_update" || d["state"].(map[string]any)["value"] != 0.0 {
		t.Errorf("echo %v, want the clamped value 0", d)
	}
	// A new minimum moves the value; the front end is told of both.
	if err := update(s, `{"min":4}`); err != nil {
		t.Fatal(err)
	}
	msgs := f.take()
	if s.Value() != 4 || len(msgs) != 2 || data(t, msgs[1])["method"] != "update" || data(t, msgs[1])["state"].(map[string]any)["value"] != 4.0 {
		t.Errorf("min 4: value %d, messages %+v", s.Value(), msgs)
	}
	fs := widget.NewFloatSlider("x", 0.5, 0, 1)
	fs.SetValue(3)
	if fs.Value() != 1 {
		t.Errorf("FloatSlider.SetValue(3) in [0,1] = %g", fs.Value())
	}
	// A non-number is refused, and the front end gets the value back.
	f.take()
	err := update(s, `{"value":"seven"}`)
	if err == nil || !strings.Contains(err.Error(), "value") {
		t.Errorf("a string value: %v", err)
	}
	if msgs := f.take(); len(msgs) != 1 || data(t, msgs[0])["state"].(map[string]any)["value"] != 4.0 {
		t.Errorf("a refused update is not answered with the value: %+v", msgs)
	}
	if err := update(s, `{"min":20}`); err == nil {
		t.Error("min above max was accepted")
	}
	if err := try(func() { widget.NewIntSlider("bad", 0, 5, 1) }); err == nil || err.Class != tensor.ValueError {
		t.Errorf("min > max: %v", err)
	}
}

func TestRequestState(t *testing.T) {
	f := newFront(t)
	c := widget.NewCheckbox("on", false)
	f.take()
	if err := widgetcomm.Deliver(widgetcomm.Message{Type: "comm_msg", CommID: c.ModelID(), Data: json.RawMessage(`{"method":"request_state"}`)}); err != nil {
		t.Fatal(err)
	}
	msgs := f.take()
	if len(msgs) != 1 {
		t.Fatalf("got %+v", msgs)
	}
	d := data(t, msgs[0])
	state := d["state"].(map[string]any)
	if d["method"] != "update" || state["_model_name"] != "CheckboxModel" || state["value"] != false || state["description"] != "on" {
		t.Errorf("request_state answered %s", msgs[0].Data)
	}
}

func TestBuffers(t *testing.T) {
	f := newFront(t)
	png := []byte("\x89PNG not really")
	img := widget.NewImage(png, "png")
	open := f.take()[0]
	d := data(t, open)
	if !reflect.DeepEqual(d["buffer_paths"], []any{[]any{"value"}}) || len(open.Buffers) != 1 || string(open.Buffers[0]) != string(png) {
		t.Errorf("comm_open: buffer_paths %v, buffers %q", d["buffer_paths"], open.Buffers)
	}
	if _, ok := d["state"].(map[string]any)["value"]; ok {
		t.Error("the buffer is also in the state")
	}
	// From the front: the buffer goes back into the state at its path.
	err := widgetcomm.Deliver(widgetcomm.Message{Type: "comm_msg", CommID: img.ModelID(),
		Data:    json.RawMessage(`{"method":"update","state":{},"buffer_paths":[["value"]]}`),
		Buffers: [][]byte{[]byte("new")}})
	if err != nil || string(img.Value()) != "new" {
		t.Errorf("update with a buffer: %v, value %q", err, img.Value())
	}
	echo := f.take()[0]
	if !reflect.DeepEqual(data(t, echo)["buffer_paths"], []any{[]any{"value"}}) || string(echo.Buffers[0]) != "new" {
		t.Errorf("echo of a buffer: %s %q", echo.Data, echo.Buffers)
	}
	// A path that leads nowhere, or a missing buffer, is an error.
	for _, bad := range []string{`[["value","x"]]`, `[["nothing",0]]`} {
		err := widgetcomm.Deliver(widgetcomm.Message{Type: "comm_msg", CommID: img.ModelID(),
			Data: json.RawMessage(`{"method":"update","state":{},"buffer_paths":` + bad + `}`), Buffers: [][]byte{[]byte("x")}})
		if err == nil {
			t.Errorf("buffer path %s: no error", bad)
		}
	}
	if err := widgetcomm.Deliver(widgetcomm.Message{Type: "comm_msg", CommID: img.ModelID(),
		Data: json.RawMessage(`{"method":"update","state":{},"buffer_paths":[["value"]]}`)}); err == nil {
		t.Error("a buffer path without its buffer: no error")
	}
}

func TestClick(t *testing.T) {
	newFront(t)
	b := widget.NewButton("Run")
	clicks := 0
	b.OnClick(func() { clicks++ })
	for range 2 {
		if err := widgetcomm.Deliver(widgetcomm.Message{Type: "comm_msg", CommID: b.ModelID(), Data: json.RawMessage(`{"method":"custom","content":{"event":"click"}}`)}); err != nil {
			t.Fatal(err)
		}
	}
	if clicks != 2 {
		t.Errorf("%d clicks, want 2", clicks)
	}
	if err := widgetcomm.Deliver(widgetcomm.Message{Type: "comm_msg", CommID: b.ModelID(), Data: json.RawMessage(`{"method":"custom","content":"boo"}`)}); err == nil {
		t.Error("an unknown custom message: no error")
	}
}

func TestControlComm(t *testing.T) {
	f := newFront(t)
	s := widget.NewIntSlider("n", 1, 0, 5)
	img := widget.NewImage([]byte("bytes"), "png")
	f.take()
	const ctl = "control-1"
	if err := widgetcomm.Deliver(widgetcomm.Message{Type: "comm_open", CommID: ctl, Target: "jupyter.widget.control", Metadata: json.RawMessage(`{"version":"1.0.0"}`)}); err != nil {
		t.Fatal(err)
	}
	if err := widgetcomm.Deliver(widgetcomm.Message{Type: "comm_msg", CommID: ctl, Data: json.RawMessage(`{"method":"request_states"}`)}); err != nil {
		t.Fatal(err)
	}
	msgs := f.take()
	if len(msgs) != 1 || msgs[0].CommID != ctl {
		t.Fatalf("got %+v", msgs)
	}
	d := data(t, msgs[0])
	states := d["states"].(map[string]any)
	st := states[s.ModelID()].(map[string]any)
	if d["method"] != "update_states" || st["model_name"] != "IntSliderModel" || st["model_module"] != "@jupyter-widgets/controls" ||
		st["model_module_version"] != "2.0.0" || st["state"].(map[string]any)["value"] != 1.0 {
		t.Errorf("update_states: %s", msgs[0].Data)
	}
	paths := d["buffer_paths"].([]any)
	want := []any{img.ModelID(), "state", "value"}
	found := false
	for i, p := range paths {
		if reflect.DeepEqual(p, want) && string(msgs[0].Buffers[i]) == "bytes" {
			found = true
		}
	}
	if !found {
		t.Errorf("buffer_paths %v lack %v", paths, want)
	}
	if err := widgetcomm.Deliver(widgetcomm.Message{Type: "comm_close", CommID: ctl}); err != nil {
		t.Fatal(err)
	}
	if err := widgetcomm.Deliver(widgetcomm.Message{Type: "comm_msg", CommID: ctl, Data: json.RawMessage(`{"method":"request_states"}`)}); err == nil {
		t.Error("the closed control comm still answers request_states")
	}
}

func TestDeliverErrors(t *testing.T) {
	f := newFront(t)
	s := widget.NewIntSlider("n", 1, 0, 5)
	s.OnChange(func(int) { panic("boom") })
	f.take()
	for _, c := range []struct {
		m    widgetcomm.Message
		want string
	}{
		{widgetcomm.Message{Type: "comm_msg", CommID: "nope", Data: json.RawMessage(`{"method":"update","state":{}}`)}, "unknown comm"},
		{widgetcomm.Message{Type: "comm_msg", CommID: s.ModelID(), Data: json.RawMessage(`{"method":`)}, "malformed"},
		{widgetcomm.Message{Type: "comm_msg", CommID: s.ModelID(), Data: json.RawMessage(`{"method":"dance"}`)}, "unknown method"},
		{widgetcomm.Message{Type: "comm_msg", CommID: s.ModelID(), Data: json.RawMessage(`{"method":"update","state":{"value":2}}`)}, "boom"},
		{widgetcomm.Message{Type: "comm_close", CommID: "nope"}, "unknown comm"},
		{widgetcomm.Message{Type: "comm_open", CommID: "w1", Target: "jupyter.widget", Data: json.RawMessage(`{"state":{}}`)}, "not supported"},
		{widgetcomm.Message{Type: "comm_open", CommID: "x1", Target: "something.else"}, "unknown target"},
		{widgetcomm.Message{Type: "shout", CommID: "x1"}, "unknown message type"},
	} {
		err := widgetcomm.Deliver(c.m)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %s: error %v, want one saying %q", c.m.Type, c.m.Data, err, c.want)
		}
	}
	if s.Value() != 2 {
		t.Errorf("a panicking callback undid the change: %d", s.Value())
	}
	var closes []string
	for _, m := range f.take() {
		if m.Type == "comm_close" {
			closes = append(closes, m.CommID)
		}
	}
	if !reflect.DeepEqual(closes, []string{"w1", "x1"}) {
		t.Errorf("comm_close sent for %v, want [w1 x1]", closes)
	}
}

func TestCommClose(t *testing.T) {
	newFront(t)
	s := widget.NewIntSlider("n", 1, 0, 5)
	if err := widgetcomm.Deliver(widgetcomm.Message{Type: "comm_close", CommID: s.ModelID()}); err != nil {
		t.Fatal(err)
	}
	if err := update(s, `{"value":2}`); err == nil {
		t.Error("a closed widget took an update")
	}
}

func TestCallbackMayCreateAndChangeWidgets(t *testing.T) {
	newFront(t)
	a := widget.NewIntSlider("a", 0, 0, 10)
	b := widget.NewIntSlider("b", 0, 0, 10)
	var made widget.Widget
	a.OnChange(func(v int) {
		b.SetValue(v * 2) // no deadlock
		made = widget.NewHBox(a, b)
		_ = made.Bundle()
	})
	if err := update(a, `{"value":3}`); err != nil {
		t.Fatal(err)
	}
	if b.Value() != 6 || made == nil {
		t.Errorf("b = %d, box %v", b.Value(), made)
	}
}

func TestInteract(t *testing.T) {
	f := newFront(t)
	rows := widget.NewIntSlider("rows", 2, 1, 4)
	dtype := widget.NewDropdown("dtype", "float32", "int64")
	calls := 0
	box := widget.Interact(func(n int, dt string) display.Renderer {
		calls++
		return display.Bundle{display.MIMEPlain: fmt.Sprintf("%d rows of %s", n, dt), display.MIMESVG: `<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"></svg>`}
	}, rows, dtype)
	if calls != 1 {
		t.Errorf("f called %d times at creation, want 1", calls)
	}
	var out string
	for _, m := range f.take() {
		if m.Type == "comm_open" && strings.Contains(string(m.Data), "OutputModel") {
			out = m.CommID
		}
	}
	if err := update(rows, `{"value":3}`); err != nil {
		t.Fatal(err)
	}
	if calls != 2 {
		t.Errorf("f called %d times after a change, want 2", calls)
	}
	var outputs []any
	for _, m := range f.take() {
		if m.CommID == out && data(t, m)["method"] == "update" {
			outputs, _ = data(t, m)["state"].(map[string]any)["outputs"].([]any)
		}
	}
	if len(outputs) != 1 {
		t.Fatalf("the output area's update has outputs %v", outputs)
	}
	o := outputs[0].(map[string]any)
	if o["output_type"] != "display_data" || o["data"].(map[string]any)[display.MIMEPlain] != "3 rows of float32" {
		t.Errorf("output %v", o)
	}
	b := box.Bundle()
	if !strings.Contains(b[display.MIMEPlain], "3 rows of float32") || b[display.MIMESVG] == "" {
		t.Errorf("the box's bundle: %v", b)
	}
}

func TestInteractShowsResultsAndPanics(t *testing.T) {
	f := newFront(t)
	x := widget.NewFloatSlider("x", 1, 0, 2)
	box := widget.Interact(func(v float64) (*tensor.Tensor, error) {
		if v > 1.5 {
			return nil, errors.New("too big")
		}
		if v < 0.5 {
			panic(&tensor.Error{Op: "view", Class: tensor.RuntimeError, Message: "shape '[3]' is invalid"})
		}
		return tensor.Float32.Full(v, 2), nil
	}, x)
	if !strings.Contains(box.String(), "tensor([1., 1.])") {
		t.Errorf("at creation: %s", box)
	}
	for v, want := range map[string]string{"2": "too big", "0": "RuntimeError: view: shape '[3]' is invalid", "1": "tensor([1., 1.])"} {
		f.take()
		if err := update(x, `{"value":`+v+`}`); err != nil {
			t.Fatalf("value %s: %v", v, err)
		}
		if !strings.Contains(box.String(), want) {
			t.Errorf("value %s: the box shows %s, want %q", v, box, want)
		}
	}
}

func TestInteractTypeErrors(t *testing.T) {
	newFront(t)
	n := widget.NewIntSlider("n", 1, 0, 5)
	c := widget.NewCheckbox("c", false)
	for _, c := range []struct {
		f        any
		controls []widget.Control
		want     string
	}{
		{func(x float64) {}, []widget.Control{n}, "parameter 1 of f is float64, but control 1, IntSlider"},
		{func(x int, y string) {}, []widget.Control{n, c}, "parameter 2 of f is string, but control 2, Checkbox"},
		{func(x int) {}, []widget.Control{n, c}, "takes 1 parameters"},
		{42, []widget.Control{n}, "not a function"},
		{func(x int) (int, int) { return 0, 0 }, []widget.Control{n}, "return nothing, one value, or a value and an error"},
	} {
		err := try(func() { widget.Interact(c.f, c.controls...) })
		if err == nil || err.Class != tensor.TypeError || !strings.Contains(err.Message, c.want) {
			t.Errorf("%T: %v, want a TypeError saying %q", c.f, err, c.want)
		}
	}
}

func TestNoTransport(t *testing.T) {
	widgetcomm.SetTransport(nil)
	err := try(func() { widget.NewIntSlider("n", 0, 0, 1) })
	if err == nil || err.Class != tensor.RuntimeError || !strings.Contains(err.Message, "keeps the program alive between cells") ||
		!strings.Contains(err.Message, "%%gonb") || !strings.Contains(err.Message, "Go (tensornb)") {
		t.Errorf("no transport: %v", err)
	}
}

func TestBoxes(t *testing.T) {
	newFront(t)
	a := widget.NewIntSlider("a", 0, 0, 10)
	b := widget.NewCheckbox("b", true)
	h := widget.NewHBox(a, b)
	v := widget.NewVBox(h, widget.NewButton("go"))
	if got := h.Children(); len(got) != 2 || got[0].ModelID() != a.ModelID() {
		t.Errorf("Children() = %v", got)
	}
	if err := try(func() { h.SetChildren(v) }); err == nil || err.Class != tensor.ValueError {
		t.Errorf("a box inside itself: %v", err)
	}
	if err := try(func() { widget.NewHBox(nil) }); err == nil {
		t.Error("a nil child was accepted")
	}
	bundle := v.Bundle()
	if !strings.HasPrefix(bundle[display.MIMESVG], "<svg") || !strings.Contains(bundle[display.MIMEHTML], "data:image/svg+xml;base64,") {
		t.Errorf("box bundle: %v", bundle)
	}
	if want := "VBox(\n  HBox(\n    IntSlider("; !strings.HasPrefix(bundle[display.MIMEPlain], want) {
		t.Errorf("box text: %q", bundle[display.MIMEPlain])
	}
}

// Go and the front end may change one widget at once; the race detector
// watches.
func TestConcurrentChanges(t *testing.T) {
	newFront(t)
	s := widget.NewIntSlider("n", 0, 0, 100)
	s.OnChange(func(int) {})
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Go(func() {
			for j := range 50 {
				if i%2 == 0 {
					s.SetValue(j)
				} else if err := update(s, fmt.Sprintf(`{"value":%d}`, j)); err != nil {
					t.Error(err)
				}
				_ = s.Bundle()
			}
		})
	}
	wg.Wait()
}
