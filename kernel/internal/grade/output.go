package grade

import (
	"context"
	"errors"
	"maps"

	"github.com/tensornb/tensornb/kernel/internal/front"
)

// outputs records what a cell produces as nbformat outputs, as a
// front.Output.
type outputs struct {
	list  []map[string]any
	count int // the cell's execution count, for its result
}

// Stream adds text to the stream output it continues, or a new one.
func (o *outputs) Stream(name, text string) {
	if n := len(o.list); n > 0 && o.list[n-1]["output_type"] == "stream" && o.list[n-1]["name"] == name {
		o.list[n-1]["text"] = o.list[n-1]["text"].(string) + text
		return
	}
	o.list = append(o.list, map[string]any{"output_type": "stream", "name": name, "text": text})
}

// Display adds a display, or with update replaces the data of the
// displays shown under id.
func (o *outputs) Display(data, metadata map[string]any, id string, update bool) {
	if update {
		for _, out := range o.list {
			if out["display_id"] == id {
				out["data"], out["metadata"] = maps.Clone(data), maps.Clone(metadata)
			}
		}
		return
	}
	out := map[string]any{"output_type": "display_data", "data": maps.Clone(data), "metadata": orEmpty(metadata)}
	if id != "" {
		out["display_id"] = id // dropped when written: not an nbformat field
	}
	o.list = append(o.list, out)
}

// Result adds the cell's Out[n].
func (o *outputs) Result(data, metadata map[string]any) {
	o.list = append(o.list, map[string]any{"output_type": "execute_result", "data": maps.Clone(data), "metadata": orEmpty(metadata), "execution_count": o.count})
}

// ClearOutput drops what the cell has shown so far.
func (o *outputs) ClearOutput(bool) { o.list = nil }

// errNoInput is what a cell that asks for input gets while it is graded.
var errNoInput = errors.New("a graded cell cannot ask for input")

// Input refuses: nobody is there to answer.
func (o *outputs) Input(context.Context, string, bool) (string, error) { return "", errNoInput }

// Comm drops what a widget sends: nobody is there to see it.
func (o *outputs) Comm(front.CommMessage) {}

// errorOutput adds a cell's error.
func (o *outputs) errorOutput(name, value string, traceback []string) {
	o.list = append(o.list, map[string]any{"output_type": "error", "ename": name, "evalue": value, "traceback": traceback})
}

// final returns the outputs as a notebook stores them.
func (o *outputs) final() []map[string]any {
	for _, out := range o.list {
		delete(out, "display_id")
	}
	return o.list
}

func orEmpty(m map[string]any) map[string]any {
	if m == nil {
		return map[string]any{}
	}
	return maps.Clone(m)
}
