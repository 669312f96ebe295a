package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/tensornb/tensornb/kernel/internal/dual"
	"github.com/tensornb/tensornb/kernel/internal/front"
	"github.com/tensornb/tensornb/kernel/internal/gonb"
	"github.com/tensornb/tensornb/kernel/internal/install"
	"github.com/tensornb/tensornb/kernel/internal/interp/worker"
	"github.com/tensornb/tensornb/kernel/internal/tools"
)

// warmCell is the cell install runs once: it compiles what a first tensor
// cell compiles.
const warmCell = `import (
	"github.com/tensornb/tensornb/display"
	"github.com/tensornb/tensornb/tensor"
)
x := tensor.Float32.Arange(12).View(3, 4)
display.Show(display.Layout(x.T()))
fmt.Println(x.Strides())`

// warm runs warmCell on both engines, set up as the kernel sets them up;
// the cells' stderr goes to log.
func warm(l install.Layout, log io.Writer) error {
	e := newEngine(l, "", nil)
	defer e.Shutdown(false)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	out := front.Discard{Stderr: log}
	if err := e.Execute(ctx, warmCell, out); err != nil {
		return fmt.Errorf("the warm-up cell failed: %w", err)
	}
	if err := e.Execute(ctx, dual.Magic+"\n"+warmCell, out); err != nil {
		return fmt.Errorf("the warm-up cell failed under GoNB: %w", err)
	}
	return nil
}

// newEngine returns the engine of the kernelspec install.Name for an
// installation: the instant engine, with GoNB for %%gonb cells, completion
// and widgets; kernelID is the id Jupyter gave the kernel (empty outside
// Jupyter), and GoNB's own log goes to log (nil discards it).
func newEngine(l install.Layout, kernelID string, log io.Writer) *dual.Engine {
	return &dual.Engine{
		Instant:  worker.NewEngine(l.Binary(), "worker", l.Source()),
		Compiled: newCompiledEngine(l, kernelID, log),
	}
}

// newCompiledEngine returns the GoNB engine of an installation, the one
// of the kernelspec install.CompiledName.
func newCompiledEngine(l install.Layout, kernelID string, log io.Writer) *gonb.Engine {
	return gonb.New(gonb.Options{
		GoNB:     tools.GoNB.Path(l.Bin()),
		ToolsDir: l.Bin(),
		Module:   l.Source(),
		KernelID: kernelID,
		Log:      log,
	})
}
