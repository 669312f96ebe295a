package gonb

import (
	"strings"
	"testing"
)

// The kernel's hooks are no part of what a compiled cell can use: the
// destination of display's pictures, the widgets' transport and the count
// of storages live in the module's internal packages, which a cell's
// program may not import, and display, widget and tensor no longer export
// them. (Package interp's TestHooksAreOutOfCellsReach checks the instant
// engine.)
func TestHooksAreOutOfCellsReach(t *testing.T) {
	e := newModuleEngine(t)
	for _, c := range []struct{ code, want string }{
		{"import \"github.com/tensornb/tensornb/display\"\ndisplay.SetSink(nil)", "undefined: display.SetSink"},
		{"import \"github.com/tensornb/tensornb/widget\"\nwidget.SetTransport(nil)", "undefined: widget.SetTransport"},
		{"import \"github.com/tensornb/tensornb/tensor\"\nfmt.Println(tensor.StoragesAllocated())", "undefined: tensor.StoragesAllocated"},
		{"import \"github.com/tensornb/tensornb/internal/displaysink\"\ndisplaysink.Set(nil)", "use of internal package github.com/tensornb/tensornb/internal/displaysink not allowed"},
	} {
		_, err := run(t, e, c.code)
		ce := cellError(t, err)
		if ce.Name != "CompileError" || !strings.Contains(strings.Join(append([]string{ce.Value}, ce.Traceback...), "\n"), c.want) {
			t.Errorf("%q: %s %q %q, want a CompileError saying %q", c.code, ce.Name, ce.Value, ce.Traceback, c.want)
		}
	}
}
