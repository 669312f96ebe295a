package interp

import (
	"encoding/json"
	"strings"
	"sync"

	"github.com/tensornb/tensornb/display"
	"github.com/tensornb/tensornb/kernel/internal/front"
)

// Displays keeps the ids of the displays an engine has shown, for the
// rule that the first display of an id creates its output and each later
// one replaces it. worker.Engine and Local keep it alike.
type Displays struct {
	mu    sync.Mutex
	shown map[string]bool
}

// Show passes a cell's display, or its result, on to out.
func (d *Displays) Show(out front.Output, b display.Bundle, id string, result bool) {
	data := make(map[string]any, len(b))
	for k, v := range b {
		data[k] = mimeValue(k, v)
	}
	if result {
		out.Result(data, b.Metadata())
		return
	}
	d.mu.Lock()
	update := id != "" && d.shown[id]
	if id != "" {
		if d.shown == nil {
			d.shown = map[string]bool{}
		}
		d.shown[id] = true
	}
	d.mu.Unlock()
	out.Display(data, b.Metadata(), id, update)
}

// mimeValue is a bundle's form of MIME type mime as a display message
// carries it: the JSON of a JSON type (a widget's view,
// application/vnd.jupyter.widget-view+json) as the object it holds, as
// Jupyter expects; text as it is.
func mimeValue(mime, form string) any {
	if mime != "application/json" && !strings.HasSuffix(mime, "+json") {
		return form
	}
	var v any
	if json.Unmarshal([]byte(form), &v) != nil {
		return form
	}
	return v
}
