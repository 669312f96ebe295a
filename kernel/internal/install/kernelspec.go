package install

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image/png"
	"path/filepath"

	"github.com/tensornb/tensornb"
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
