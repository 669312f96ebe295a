package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tensornb/tensornb/internal/nbformat"
	"github.com/tensornb/tensornb/kernel/internal/install"
	"github.com/tensornb/tensornb/kernel/internal/jupytertest"
)

// These tests install the kernel in scratch directories and drive it with
// real Jupyter clients: the jupyter_kernel_test suite and nbclient (see
// kernel/internal/jupytertest).

// TestMain shares one scratch installation of the kernel among the tests
// that drive it (the tests of install itself make their own).
func TestMain(m *testing.M) { os.Exit(jupytertest.Main(m)) }

func TestInstallWritesTheKernelspec(t *testing.T) {
	env := jupytertest.Install(t)
	root := jupytertest.JupyterPath(env)
	data, err := os.ReadFile(filepath.Join(root, "kernels", "tensornb", "kernel.json"))
	if err != nil {
		t.Fatal(err)
	}
	var spec struct {
		Argv          []string `json:"argv"`
		DisplayName   string   `json:"display_name"`
		Language      string   `json:"language"`
		InterruptMode string   `json:"interrupt_mode"`
	}
	if err := json.Unmarshal(data, &spec); err != nil {
		t.Fatal(err)
	}
	if spec.DisplayName != "Go (tensornb)" || spec.Language != "go" || spec.InterruptMode != "message" ||
		len(spec.Argv) != 3 || spec.Argv[1] != "kernel" || spec.Argv[2] != "{connection_file}" {
		t.Fatalf("kernel.json: %+v", spec)
	}
	for _, logo := range []string{"logo-32x32.png", "logo-64x64.png", "logo-svg.svg"} {
		if _, err := os.Stat(filepath.Join(root, "kernels", "tensornb", logo)); err != nil {
			t.Error(err)
		}
	}
	jupytertest.Require(t, "jupyter_client")
	list := exec.Command(jupytertest.Python, "-m", "jupyter_client.kernelspecapp", "list")
	list.Env = env
	out, err := list.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "tensornb") {
		t.Fatalf("jupyter kernelspec list: %v\n%s", err, out)
	}
}

// TestConformance runs jupyter_kernel_test's suite and tensornb's own
// additions (testdata/test_conformance.py) against both installed
// kernelspecs: the instant engine and GoNB.
func TestConformance(t *testing.T) {
	jupytertest.Require(t, "jupyter_kernel_test", "pytest")
	runSuite(t, "test_conformance.py")
}

// TestCellsAsStudentsWriteThem runs testdata/test_cells.py against
// both installed kernelspecs: a table of cells as people who know PyTorch
// write them, and the README's first example, read from README.md.
func TestCellsAsStudentsWriteThem(t *testing.T) {
	jupytertest.Require(t, "jupyter_client", "pytest")
	runSuite(t, "test_cells.py")
}

// TestOutputAtItsLimits runs testdata/test_output.py against both
// installed kernelspecs: 64 MiB printed arrive whole, and endless output
// is cut at the output limit with a notice while the kernel's memory
// stays bounded (its resident size is printed in the log).
func TestOutputAtItsLimits(t *testing.T) {
	jupytertest.Require(t, "jupyter_client", "pytest")
	runSuite(t, "test_output.py")
}

// TestInput runs testdata/test_input.py against both installed
// kernelspecs: a cell that reads two lines of its standard input gets
// them through input requests; without stdin it fails at once with
// StdinNotImplementedError; an interrupt ends a wait for input.
func TestInput(t *testing.T) {
	jupytertest.Require(t, "jupyter_client", "pytest")
	runSuite(t, "test_input.py")
}

// TestWidgets runs testdata/test_widgets.py against both installed
// kernelspecs, the test acting as the widget front end: comms with state,
// buffers and callbacks on the instant engine, an Interact that redraws
// (its latency printed), errors that leave the kernel answering; and a
// clear refusal where the program ends with the cell (GoNB).
func TestWidgets(t *testing.T) {
	jupytertest.Require(t, "jupyter_client", "pytest")
	runSuite(t, "test_widgets.py")
}

// runSuite runs a pytest file of testdata against each installed
// kernelspec.
func runSuite(t *testing.T, file string) {
	env := jupytertest.Install(t)
	suite, err := filepath.Abs(filepath.Join("testdata", file))
	if err != nil {
		t.Fatal(err)
	}
	for _, kernel := range []string{install.Name, install.CompiledName} {
		t.Run(kernel, func(t *testing.T) {
			cmd := exec.Command(jupytertest.Python, "-m", "pytest", "-q", "-s", "-p", "no:cacheprovider", suite)
			cmd.Env = append(env, "TENSORNB_KERNEL="+kernel)
			cmd.Dir = t.TempDir()
			out, err := cmd.CombinedOutput()
			t.Logf("%s", out)
			if err != nil {
				t.Fatalf("%s failed for %s: %v", file, kernel, err)
			}
		})
	}
}

// TestNotebookRuns executes a small notebook with nbclient and checks its
// outputs.
func TestNotebookRuns(t *testing.T) {
	jupytertest.Require(t, "nbclient", "nbformat")
	env := jupytertest.Install(t)
	cells := []string{
		"import (\n\t\"github.com/tensornb/tensornb/display\"\n\t\"github.com/tensornb/tensornb/tensor\"\n)\nvar x = tensor.Float32.Arange(24).View(2, 3, 4)",
		"x.Transpose(1, 2).Strides()",
		"display.Show(display.Card(x))",
		"fmt.Println(x.Index(\"1, 2, 3\").Item())",
	}
	nb := map[string]any{
		"nbformat": 4, "nbformat_minor": 5,
		"metadata": map[string]any{"kernelspec": map[string]any{"name": "tensornb", "display_name": "Go (tensornb)", "language": "go"}},
		"cells":    []any{},
	}
	for i, src := range cells {
		nb["cells"] = append(nb["cells"].([]any), map[string]any{
			"cell_type": "code", "id": "c" + string(rune('0'+i)), "metadata": map[string]any{}, "source": src, "outputs": []any{}, "execution_count": nil,
		})
	}
	dir := t.TempDir()
	in, outPath := filepath.Join(dir, "in.ipynb"), filepath.Join(dir, "out.ipynb")
	data, _ := json.Marshal(nb)
	if err := os.WriteFile(in, data, 0o644); err != nil {
		t.Fatal(err)
	}
	script := `import sys, nbformat, nbclient
nb = nbformat.read(sys.argv[1], as_version=4)
nbclient.NotebookClient(nb, timeout=300, kernel_name="tensornb").execute()
nbformat.write(nb, sys.argv[2])`
	cmd := exec.Command(jupytertest.Python, "-c", script, in, outPath)
	cmd.Env = env
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("nbclient: %v\n%s", err, out)
	}
	var executed struct {
		Cells []struct {
			Outputs []struct {
				OutputType string         `json:"output_type"`
				Text       any            `json:"text"`
				Data       map[string]any `json:"data"`
			} `json:"outputs"`
		} `json:"cells"`
	}
	data, err := os.ReadFile(outPath)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &executed); err != nil {
		t.Fatal(err)
	}
	c := executed.Cells
	if len(c[1].Outputs) != 1 || c[1].Outputs[0].OutputType != "execute_result" || nbformat.Text(c[1].Outputs[0].Data["text/plain"]) != "(12, 1, 4)" {
		t.Errorf("the strides cell: %+v", c[1].Outputs)
	}
	if len(c[2].Outputs) != 1 || c[2].Outputs[0].OutputType != "display_data" || c[2].Outputs[0].Data["image/svg+xml"] == nil {
		t.Errorf("the card cell: %+v", c[2].Outputs)
	}
	if len(c[3].Outputs) != 1 || !strings.Contains(nbformat.Text(c[3].Outputs[0].Text), "23") {
		t.Errorf("the print cell: %+v", c[3].Outputs)
	}
}
