package install

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/tensornb/tensornb/kernel/dual"
	"github.com/tensornb/tensornb/kernel/gonb"
	"github.com/tensornb/tensornb/kernel/interp"
	"github.com/tensornb/tensornb/kernel/tools"
)

// WarmCell is the cell install runs once: it compiles what a first tensor
// cell compiles.
const WarmCell = `import (
	"github.com/tensornb/tensornb/display"
	"github.com/tensornb/tensornb/tensor"
)
x := tensor.Float32.Arange(12).View(3, 4)
display.Show(display.Layout(x.T()))
fmt.Println(x.Strides())`

// warm runs WarmCell on both engines, set up as the kernel sets them up.
func warm(l Layout, log io.Writer) error {
	e := NewEngine(l, "", nil)
	defer e.Shutdown(false)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	out := &discard{log: log}
	if err := e.Execute(ctx, WarmCell, out); err != nil {
		return fmt.Errorf("the warm-up cell failed: %w", err)
	}
	if err := e.Execute(ctx, dual.Magic+"\n"+WarmCell, out); err != nil {
		return fmt.Errorf("the warm-up cell failed under GoNB: %w", err)
	}
	return nil
}

// NewEngine returns the engine of the kernelspec Name for an
// installation: the instant engine, with GoNB for %%gonb cells, completion
// and widgets; kernelID is the id Jupyter gave the kernel (empty outside
// Jupyter), and GoNB's own log goes to log (nil discards it).
func NewEngine(l Layout, kernelID string, log io.Writer) *dual.Engine {
	return &dual.Engine{
		Instant:  interp.NewEngine(l.Binary(), "worker", l.Source()),
		Compiled: NewCompiledEngine(l, kernelID, log),
	}
}

// NewCompiledEngine returns the GoNB engine of an installation, the one
// of the kernelspec CompiledName.
func NewCompiledEngine(l Layout, kernelID string, log io.Writer) *gonb.Engine {
	return gonb.New(gonb.Options{
		GoNB:     tools.GoNB.Path(l.Bin()),
		ToolsDir: l.Bin(),
		Module:   l.Source(),
		KernelID: kernelID,
		Log:      log,
	})
}

// discard is an Output that keeps nothing but the text of errors.
type discard struct{ log io.Writer }

func (d *discard) Stream(name, text string) {
	if name == "stderr" {
		fmt.Fprint(d.log, text)
	}
}
func (d *discard) Display(map[string]any, map[string]any, string, bool) {}
func (d *discard) Result(map[string]any, map[string]any)                {}
func (d *discard) ClearOutput(bool)                                     {}
func (d *discard) Comm(string, json.RawMessage)                         {}
func (d *discard) Input(string, bool) (string, error)                   { return "", nil }
