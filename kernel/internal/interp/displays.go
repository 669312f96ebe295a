package interp

import (
	"sync"

	"github.com/tensornb/tensornb/display"
	"github.com/tensornb/tensornb/kernel/internal/front"
)

// displayIDs keeps the ids of the displays an engine has shown, for the
// rule that the first display of an id creates its output and each later
// one replaces it (see Engine.deliver). Engine and Local keep it alike.
type displayIDs struct {
	mu    sync.Mutex
	shown map[string]bool
}

// show passes a cell's display, or its result, on to out.
func (d *displayIDs) show(out front.Output, b display.Bundle, id string, result bool) {
	data := make(map[string]any, len(b))
	for k, v := range b {
		data[k] = v
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
