package display

import (
	"encoding/json"
	"fmt"
	"os"
	"sync"

	"github.com/janpfeifer/gonb/gonbui"
	"github.com/janpfeifer/gonb/gonbui/protocol"
	"github.com/tensornb/tensornb/tensor"
)

// A Sink delivers bundles to a front end. id is empty for a new output;
// otherwise the output with that id is created or replaced in place.
// result is set for the value of a cell's last expression (see Result),
// which a notebook shows as the cell's Out[n].
type Sink interface {
	Display(b Bundle, id string, result bool) error
}

// SinkFunc adapts a function to a Sink.
type SinkFunc func(b Bundle, id string, result bool) error

// Display calls f.
func (f SinkFunc) Display(b Bundle, id string, result bool) error { return f(b, id, result) }

var sink struct {
	sync.Mutex
	s Sink
}

// SetSink makes s the destination of Show and Update: an engine that runs
// cells itself registers its own. SetSink(nil) restores the default, which
// sends to GoNB when the program runs under it (GONB_PIPE is set) and
// prints the text/plain form to standard output otherwise.
func SetSink(s Sink) {
	sink.Lock()
	sink.s = s
	sink.Unlock()
}

// Show displays v in a new output.
func Show(v Renderer) { show(v, "") }

// Update displays v in the output identified by id, replacing what an
// earlier Show or Update with that id displayed. Use it to redraw a
// picture in place.
// Which Update creates the output is kernel/internal/interp's rule (Engine.deliver).
func Update(id string, v Renderer) { show(v, id) }

// show sends v's bundle to the current sink. If the sink fails, the text
// form goes to standard output and the reason to standard error, so that
// no output is lost.
func show(v Renderer, id string) {
	if v == nil {
		panic(&tensor.Error{Op: "show", Class: tensor.TypeError, Message: "show(): nothing to show: the Renderer is nil"})
	}
	b := v.Bundle()
	if err := currentSink().Display(b, id, false); err != nil {
		fmt.Fprintf(os.Stderr, "display: %v; showing the text form instead\n", err)
		fmt.Println(b[MIMEPlain])
	}
}

func currentSink() Sink {
	sink.Lock()
	defer sink.Unlock()
	if sink.s != nil {
		return sink.s
	}
	if os.Getenv(protocol.GONB_PIPE_ENV) != "" {
		return GoNBSink
	}
	return SinkFunc(printText)
}

// printText is the sink outside a notebook: the text form on stdout.
func printText(b Bundle, _ string, _ bool) error {
	_, err := fmt.Println(b[MIMEPlain])
	return err
}

// GoNBSink sends bundles through GoNB's named pipe. It is the default
// sink of a program that runs under GoNB; a sink that does more before
// each display can pass the bundle on to it.
var GoNBSink Sink = SinkFunc(gonbDisplay)

// gonbDisplay sends the bundle through GoNB's named pipe. A result is
// marked with ResultMetadata, which GoNB passes on as display metadata;
// the bundle's own Metadata travels as JSONMetadata.
func gonbDisplay(b Bundle, id string, result bool) error {
	data := &protocol.DisplayData{Data: make(map[protocol.MIMEType]any, len(b)), Metadata: map[string]any{}, DisplayID: id}
	for mime, content := range b {
		data.Data[protocol.MIMEType(mime)] = content
	}
	if result {
		data.Metadata[ResultMetadata] = true
	}
	if md := b.Metadata(); len(md) > 0 {
		text, err := json.Marshal(md)
		if err != nil {
			return fmt.Errorf("the display's metadata: %w", err)
		}
		data.Metadata[JSONMetadata] = string(text)
	}
	gonbui.SendData(data)
	// GoNB reads the pipe on its own schedule: without waiting for it, a
	// display sent just before the program ends can reach the notebook
	// after the cell has finished, and be lost to a client that stopped
	// listening. Sync returns once GoNB has published everything sent.
	gonbui.Sync()
	return gonbui.Error()
}
