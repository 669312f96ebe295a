package worker

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/tensornb/tensornb/kernel/internal/front"
	"github.com/tensornb/tensornb/kernel/internal/interp"
)

// commsOf returns the comm messages among a cell's outputs, decoded: the
// type, the comm id, the target and the data of each.
func commsOf(t *testing.T, items []string) []struct {
	Type, ID, Target string
	Data             map[string]any
} {
	t.Helper()
	var comms []struct {
		Type, ID, Target string
		Data             map[string]any
	}
	for _, item := range items {
		typ, content, ok := strings.Cut(item, ": ")
		if !ok || !strings.HasPrefix(typ, "comm_") {
			continue
		}
		var c struct {
			CommID string         `json:"comm_id"`
			Target string         `json:"target_name"`
			Data   map[string]any `json:"data"`
		}
		if err := json.Unmarshal([]byte(content), &c); err != nil {
			t.Fatalf("%s: %v", item, err)
		}
		comms = append(comms, struct {
			Type, ID, Target string
			Data             map[string]any
		}{typ, c.CommID, c.Target, c.Data})
	}
	return comms
}

// commEngines are the engines that have widgets: the worker, and a Local
// (the browser's engine), each run by the tests below.
func commEngines(t *testing.T, test func(t *testing.T, e front.CommEngine)) {
	for _, name := range []string{"worker", "local"} {
		t.Run(name, func(t *testing.T) {
			if name == "worker" {
				test(t, newEngine(t))
			} else {
				test(t, newLocalTest(t))
			}
		})
	}
}

// update is a comm_msg from the front end that sets a widget's state.
func update(id string, state map[string]any) front.CommMessage {
	content, _ := json.Marshal(map[string]any{"comm_id": id, "data": map[string]any{"method": "update", "state": state, "buffer_paths": []any{}}})
	return front.CommMessage{Type: "comm_msg", Content: content}
}

// A slider made in a cell opens its comm and shows its view; a change from
// the front end runs its callback in the session, between cells, which
// sees and changes the cells' state and prints in reply to the change.
func TestWidgetCallbacksRunInTheSession(t *testing.T) {
	commEngines(t, func(t *testing.T, e front.CommEngine) {
		items, err := execute(t, e, `import (
	"fmt"
	"github.com/tensornb/tensornb/widget"
)
got := 0
s := widget.NewIntSlider("n", 2, 0, 10)
s.OnChange(func(v int) { got = v; fmt.Println("changed to", v) })
s`)
		if err != nil {
			t.Fatal(err)
		}
		comms := commsOf(t, items)
		if len(comms) != 1 || comms[0].Type != "comm_open" || comms[0].Target != "jupyter.widget" {
			t.Fatalf("comms: %+v (%q)", comms, items)
		}
		id := comms[0].ID
		if !strings.Contains(strings.Join(items, "|"), "result: IntSlider(") {
			t.Fatalf("the slider is not shown: %q", items)
		}
		out := &output{}
		if err := e.Comm(context.Background(), update(id, map[string]any{"value": 7}), out); err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(out.items, "|"); !strings.Contains(got, "stdout: changed to 7\n") || !strings.Contains(got, `"method":"echo_update"`) {
			t.Fatalf("the change: %q", out.items)
		}
		if items, err := execute(t, e, "got"); err != nil || strings.Join(items, "|") != "result: 7" {
			t.Fatalf("the state after the change: %v %q", err, items)
		}
	})
}

// A message for a comm nobody has, or one whose callback panics, is an
// error said on stderr; the session goes on.
func TestWidgetErrorsLeaveTheSession(t *testing.T) {
	commEngines(t, func(t *testing.T, e front.CommEngine) {
		items, err := execute(t, e, `import "github.com/tensornb/tensornb/widget"
b := widget.NewButton("boom")
b.OnClick(func() { panic("the callback broke") })
b`)
		if err != nil {
			t.Fatal(err)
		}
		id := commsOf(t, items)[0].ID
		click, _ := json.Marshal(map[string]any{"comm_id": id, "data": map[string]any{"method": "custom", "content": map[string]any{"event": "click"}}})
		for _, m := range []front.CommMessage{update("no-such-comm", map[string]any{"value": 1}), {Type: "comm_msg", Content: click}} {
			out := &output{}
			err := e.Comm(context.Background(), m, out)
			var ce *front.CellError
			if !errors.As(err, &ce) || ce.Name != interp.WidgetError || !strings.Contains(strings.Join(out.items, "|"), "stderr: "+interp.WidgetError+": ") {
				t.Fatalf("%s: %v %q", m.Content, err, out.items)
			}
		}
		if items, err := execute(t, e, "1 + 1"); err != nil || strings.Join(items, "|") != "result: 2" {
			t.Fatalf("after the errors: %v %q", err, items)
		}
	})
}

// Interact calls a function of the cell with the controls' values, and
// shows what it returns in its output area, again after each change.
func TestInteractRedraws(t *testing.T) {
	commEngines(t, func(t *testing.T, e front.CommEngine) {
		items, err := execute(t, e, `import (
	"github.com/tensornb/tensornb/tensor"
	"github.com/tensornb/tensornb/widget"
)
x := tensor.Float32.Arange(12)
cols := widget.NewIntSlider("cols", 3, 1, 12)
widget.Interact(func(c int) *tensor.Tensor { return x.View(-1, c) }, cols)`)
		if err != nil {
			t.Fatal(err)
		}
		var slider string
		for _, c := range commsOf(t, items) {
			if state, _ := c.Data["state"].(map[string]any); state["_model_name"] == "IntSliderModel" {
				slider = c.ID
			}
		}
		if slider == "" || !strings.Contains(strings.Join(items, "|"), "[ 3.,  4.,  5.]") {
			t.Fatalf("interact: %q", items)
		}
		out := &output{}
		start := time.Now()
		if err := e.Comm(context.Background(), update(slider, map[string]any{"value": 4}), out); err != nil {
			t.Fatal(err)
		}
		t.Logf("a slider's update to the redrawn output took %v", time.Since(start))
		if got := strings.Join(out.items, "|"); !strings.Contains(got, `"outputs"`) || !strings.Contains(got, "[ 4.,  5.,  6.,  7.]") {
			t.Fatalf("the redraw: %q", out.items)
		}
	})
}
