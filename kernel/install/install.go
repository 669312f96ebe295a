// Package install puts the tensornb kernel where Jupyter finds it: the
// kernelspec, the pinned tools it runs, the module source its cells
// import, and a Go build cache warm enough that the first cell is quick.
package install

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/tensornb/tensornb"
	"github.com/tensornb/tensornb/kernel/dual"
	"github.com/tensornb/tensornb/kernel/gonb"
	"github.com/tensornb/tensornb/kernel/interp"
	"github.com/tensornb/tensornb/kernel/tools"
)

// The two kernelspecs: Name runs cells on the instant engine (with
// %%gonb for a compiled cell), CompiledName on GoNB only. The display
// names are what Jupyter's menus show.
const (
	Name                = "tensornb"
	DisplayName         = "Go (tensornb)"
	CompiledName        = "tensornb-compiled"
	CompiledDisplayName = "Go (tensornb, compiled)"
)

// Layout says where an installation lives.
type Layout struct {
	Home       string // tensornb's own files: bin/ and src/
	Kernelspec string // the directory of the kernelspec Name; CompiledName's is beside it
}

// CompiledKernelspec is the directory of the kernelspec CompiledName.
func (l Layout) CompiledKernelspec() string {
	return filepath.Join(filepath.Dir(l.Kernelspec), CompiledName)
}

// Bin is the directory of the tools and of the tensornb binary.
func (l Layout) Bin() string { return filepath.Join(l.Home, "bin") }

// Source is the directory of the module source cells import.
func (l Layout) Source() string { return filepath.Join(l.Home, "src") }

// Binary is the installed tensornb command the kernelspec runs.
func (l Layout) Binary() string { return filepath.Join(l.Bin(), "tensornb") }

// UserLayout is the per-user installation: tools under tools.Dir's parent
// and the kernelspec in Jupyter's user data directory
// ($JUPYTER_DATA_DIR, or ~/.local/share/jupyter).
func UserLayout() (Layout, error) {
	bin, err := tools.Dir()
	if err != nil {
		return Layout{}, err
	}
	data := os.Getenv("JUPYTER_DATA_DIR")
	if data == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return Layout{}, err
		}
		data = filepath.Join(home, ".local", "share", "jupyter")
	}
	return Layout{Home: filepath.Dir(bin), Kernelspec: filepath.Join(data, "kernels", Name)}, nil
}

// PrefixLayout installs under a prefix, as `jupyter kernelspec install
// --prefix` does: the kernelspec in prefix/share/jupyter/kernels and
// tensornb's files in prefix/share/tensornb.
func PrefixLayout(prefix string) Layout {
	return Layout{
		Home:       filepath.Join(prefix, "share", "tensornb"),
		Kernelspec: filepath.Join(prefix, "share", "jupyter", "kernels", Name),
	}
}

// absolute returns l with absolute paths, which the kernelspec and the
// manifest record.
func (l Layout) absolute() (Layout, error) {
	var err error
	for _, path := range []*string{&l.Home, &l.Kernelspec} {
		if *path != "" && err == nil {
			*path, err = filepath.Abs(*path)
		}
	}
	return l, err
}

// Install builds or finds the pinned tools, copies the running tensornb
// binary and the module source into l.Home, warms the build cache by
// running a first cell, and writes the kernelspec. It reports progress to
// log.
//
// It records what it creates in the manifest (ManifestName) in l.Home,
// and overwrites or removes nothing else: if it would have to, it changes
// nothing and says which files are in the way.
func Install(l Layout, log io.Writer) error {
	m, err := readManifest(l)
	if err != nil {
		return err
	}
	l = m.l
	if err := m.conflicts(); err != nil {
		return err
	}
	if err := m.mkdirAll(l.Home); err != nil {
		return err
	}
	if err := m.save(); err != nil {
		return err
	}
	step := func(format string, args ...any) { fmt.Fprintf(log, "==> "+format+"\n", args...) }

	step("tools (gonb, goimports, gopls) in %s", l.Bin())
	if err := buildTools(m, log); err != nil {
		return err
	}

	step("the tensornb command in %s", l.Binary())
	if err := copySelf(m, l.Binary()); err != nil {
		return err
	}

	step("the tensor and display source, version %s, in %s", tensornb.Version, l.Source())
	if err := writeSource(m, l.Source()); err != nil {
		return err
	}
	download := exec.Command("go", "mod", "download")
	download.Dir = l.Source()
	download.Stdout, download.Stderr = log, log
	if err := download.Run(); err != nil {
		return fmt.Errorf("downloading the modules tensornb needs (go mod download in %s): %w", l.Source(), err)
	}

	step("a first cell on each engine, to warm Go's build cache")
	start := time.Now()
	if err := warm(l, log); err != nil {
		return err
	}
	fmt.Fprintf(log, "    done in %.1f s\n", time.Since(start).Seconds())

	step("the kernelspecs %q in %s and %q in %s", DisplayName, l.Kernelspec, CompiledDisplayName, l.CompiledKernelspec())
	if err := writeKernelspec(m, l.Kernelspec, DisplayName, l.Binary(), "kernel", "{connection_file}"); err != nil {
		return err
	}
	return writeKernelspec(m, l.CompiledKernelspec(), CompiledDisplayName, l.Binary(), "kernel", "-engine", "gonb", "{connection_file}")
}

// Uninstall removes the kernelspecs, and with purge the rest of what
// install created in l.Home: only what the manifest records (and the
// files of a kernelspec whose kernel.json a tensornb wrote), so the
// user's files in those directories stay. It says on log what it kept.
func Uninstall(l Layout, purge bool, log io.Writer) error {
	m, err := readManifest(l)
	if err != nil {
		return err
	}
	l = m.l
	roots := l.kernelspecs()
	if purge {
		roots = append(roots, l.Home)
	}
	// What is in the roots, and the directories install made above them
	// (removed only when empty).
	match := func(path string) bool {
		return slices.ContainsFunc(roots, func(root string) bool { return within(path, root) || within(root, path) })
	}
	if err := m.remove(match); err != nil {
		return err
	}
	if purge {
		if err := os.Remove(m.file()); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		// The home and the directories above it, now that the manifest
		// has left them.
		if err := m.remove(match); err != nil {
			return err
		}
	} else if m.found {
		if err := m.save(); err != nil {
			return err
		}
	}
	for _, dir := range roots {
		left := leftovers(dir)
		switch {
		case len(left) == 0:
		case dir == l.Home && !m.found:
			fmt.Fprintf(log, "kept %s: it has no %s recording what tensornb install created there (tensornb 0.1.0 wrote none), so -purge removed nothing from it; delete what is tensornb's in it yourself\n", dir, ManifestName)
		default:
			fmt.Fprintf(log, "kept %s: tensornb install did not create what is left in it (%s)\n", dir, strings.Join(left, ", "))
		}
	}
	return nil
}

// buildTools builds, into l.Bin(), the tools it lacks at their pinned
// versions, recording their files.
func buildTools(m *manifest, log io.Writer) error {
	bin := m.l.Bin()
	if err := m.mkdirAll(bin); err != nil {
		return err
	}
	var errs []error
	for _, t := range tools.All {
		if t.Installed(bin) {
			continue
		}
		for _, path := range t.Files(bin) {
			if err := m.add(path); err != nil {
				return err
			}
		}
		if err := t.Build(bin, log); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// copySelf copies the running executable to path, so that the kernelspec
// names a binary that stays (not one `go run` made in a temporary
// directory).
func copySelf(m *manifest, path string) error {
	self, err := os.Executable()
	if err != nil {
		return err
	}
	if same, _ := filepath.EvalSymlinks(self); same == path {
		return nil
	}
	data, err := os.ReadFile(self)
	if err != nil {
		return err
	}
	if err := m.mkdirAll(filepath.Dir(path)); err != nil {
		return err
	}
	if err := m.add(path); err != nil {
		return err
	}
	// Write beside path and rename: a kernel may be running the old
	// binary, which cannot be written over.
	tmp, err := os.CreateTemp(filepath.Dir(path), ".tensornb-*.new")
	if err != nil {
		return err
	}
	_, err = tmp.Write(data)
	if closeErr := tmp.Close(); err == nil {
		err = closeErr
	}
	if err == nil {
		err = os.Chmod(tmp.Name(), 0o755)
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
	return err
}

// writeSource writes the module source embedded in the binary into dir,
// after removing the files an earlier install recorded there that this
// version does not have.
func writeSource(m *manifest, dir string) error {
	want := map[string]bool{}
	err := fs.WalkDir(tensornb.Source, ".", func(path string, d fs.DirEntry, err error) error {
		want[filepath.Join(dir, path)] = true
		return err
	})
	if err != nil {
		return err
	}
	if err := m.remove(func(path string) bool { return within(path, dir) && !want[path] }); err != nil {
		return err
	}
	return fs.WalkDir(tensornb.Source, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		target := filepath.Join(dir, path)
		if d.IsDir() {
			return m.mkdirAll(target)
		}
		data, err := tensornb.Source.ReadFile(path)
		if err != nil {
			return err
		}
		return m.writeFile(target, data, 0o644)
	})
}

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

// writeKernelspec writes kernel.json and the logos (specFiles).
func writeKernelspec(m *manifest, dir, displayName string, argv ...string) error {
	if err := m.mkdirAll(dir); err != nil {
		return err
	}
	spec := map[string]any{
		"argv":           argv,
		"display_name":   displayName,
		"language":       "go",
		"interrupt_mode": "message",
		"metadata":       map[string]any{"tensornb_version": tensornb.Version},
	}
	data, err := json.MarshalIndent(spec, "", "  ")
	if err != nil {
		return err
	}
	files := map[string][]byte{"kernel.json": append(data, '\n'), "logo-svg.svg": []byte(logoSVG())}
	for _, size := range []int{32, 64} {
		var b bytes.Buffer
		if err := png.Encode(&b, logoPNG(size)); err != nil {
			return err
		}
		files[fmt.Sprintf("logo-%dx%d.png", size, size)] = b.Bytes()
	}
	for _, name := range specFiles {
		if err := m.writeFile(filepath.Join(dir, name), files[name], 0o644); err != nil {
			return err
		}
	}
	return nil
}

// logoShapes calls draw for each rectangle of the logo, in a 64×64 frame:
// the idea of the project, a 3×4 grid of cells over a strip of storage
// slots, one cell and the slot it reads highlighted.
func logoShapes(draw func(x, y, w, h int, fill color.RGBA)) {
	navy := color.RGBA{0x1e, 0x3a, 0x8a, 0xff}
	cell, slot, lit := color.RGBA{0x93, 0xc5, 0xfd, 0xff}, color.RGBA{0xdb, 0xea, 0xfe, 0xff}, color.RGBA{0xfb, 0xbf, 0x24, 0xff}
	draw(0, 0, 64, 64, navy)
	for r := range 3 {
		for c := range 4 {
			fill := cell
			if r == 1 && c == 2 {
				fill = lit
			}
			draw(8+c*12, 8+r*12, 10, 10, fill)
		}
	}
	for s := range 12 {
		fill := slot
		if s == 6 {
			fill = lit
		}
		draw(8+s*4, 48, 3, 8, fill)
	}
}

// logoSVG draws the logo as SVG.
func logoSVG() string {
	var b strings.Builder
	b.WriteString(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">` + "\n")
	logoShapes(func(x, y, w, h int, c color.RGBA) {
		fmt.Fprintf(&b, `<rect x="%d" y="%d" width="%d" height="%d" fill="#%02x%02x%02x"/>`+"\n", x, y, w, h, c.R, c.G, c.B)
	})
	b.WriteString("</svg>\n")
	return b.String()
}

// logoPNG paints the logo at size×size pixels.
func logoPNG(size int) image.Image {
	img := image.NewRGBA(image.Rect(0, 0, size, size))
	scale := float64(size) / 64
	logoShapes(func(x, y, w, h int, c color.RGBA) {
		for py := int(float64(y) * scale); py < int(float64(y+h)*scale); py++ {
			for px := int(float64(x) * scale); px < int(float64(x+w)*scale); px++ {
				img.Set(px, py, c)
			}
		}
	})
	return img
}
