package display

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/janpfeifer/gonb/gonbui"
	"github.com/janpfeifer/gonb/gonbui/protocol"
	"github.com/tensornb/tensornb/internal/displaysink"
	"github.com/tensornb/tensornb/tensor"
)

// Where Show, Update and Result send a bundle: the kernel's engine sets
// its own destination (package internal/displaysink); a program of its
// own, a compiled cell's among them, keeps the default, defaultSink.
func init() { displaysink.SetDefault(defaultSink) }

// Show displays v in a new output.
func Show(v Renderer) { show(v, "") }

// Update displays v in the output identified by id, replacing what an
// earlier Show or Update with that id displayed, in this cell or an
// earlier one: the first display of an id creates its output. Use it to
// redraw a picture in place.
func Update(id string, v Renderer) { show(v, id) }

// show sends v's bundle to the current sink. If the sink fails, the text
// form goes to standard output and the reason to standard error, so that
// no output is lost.
func show(v Renderer, id string) {
	if v == nil {
		panic(&tensor.Error{Op: "show", Class: tensor.TypeError, Message: "show(): nothing to show: the Renderer is nil"})
	}
	b := v.Bundle()
	if err := displaysink.Get()(b, id, false); err != nil {
		fmt.Fprintf(os.Stderr, "display: %v; showing the text form instead\n", err)
		fmt.Println(b[MIMEPlain])
	}
}

// defaultSink sends to GoNB when the program runs under it (GONB_PIPE is
// set), and prints the text/plain form to standard output otherwise.
func defaultSink(b map[string]string, id string, result bool) error {
	if os.Getenv(protocol.GONB_PIPE_ENV) != "" {
		return gonbDisplay(b, id, result)
	}
	return printText(b, id, result)
}

// printText is the sink outside a notebook: the text form on stdout.
func printText(b map[string]string, _ string, _ bool) error {
	_, err := fmt.Println(b[MIMEPlain])
	return err
}

// gonbDisplay sends the bundle through GoNB's named pipe. A result is
// marked with displaysink.ResultMetadata, which GoNB passes on as
// display metadata; the bundle's own Metadata travels as
// displaysink.JSONMetadata.
func gonbDisplay(bundle map[string]string, id string, result bool) error {
	b := Bundle(bundle)
	data := &protocol.DisplayData{Data: make(map[protocol.MIMEType]any, len(b)), Metadata: map[string]any{}, DisplayID: id}
	for mime, content := range b {
		data.Data[protocol.MIMEType(mime)] = content
	}
	if result {
		data.Metadata[displaysink.ResultMetadata] = true
	}
	if md := b.Metadata(); len(md) > 0 {
		text, err := json.Marshal(md)
		if err != nil {
			return fmt.Errorf("the display's metadata: %w", err)
		}
		data.Metadata[displaysink.JSONMetadata] = string(text)
	}
	gonbui.SendData(data)
	// GoNB reads the pipe on its own schedule: without waiting for it, a
	// display sent just before the program ends can reach the notebook
	// after the cell has finished, and be lost to a client that stopped
	// listening. Sync returns once GoNB has published everything sent.
	gonbui.Sync()
	return gonbui.Error()
}
