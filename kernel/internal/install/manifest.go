package install

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/tensornb/tensornb/kernel/internal/atomicfile"
	"github.com/tensornb/tensornb/kernel/internal/tools"
)

// ManifestName is the file in an installation's home that records what
// tensornb install created, one absolute path a line: the files it wrote
// and the directories it made, in the home and for the kernelspecs.
// Install overwrites and uninstall removes only what it lists.
const ManifestName = "tensornb-manifest.txt"

// manifestHeader is the manifest's first line, by which install knows the
// file as its own.
const manifestHeader = "# tensornb install created these files and directories; tensornb uninstall removes only these"

// specFiles are the files of a kernelspec directory install writes.
var specFiles = []string{"kernel.json", "logo-32x32.png", "logo-64x64.png", "logo-svg.svg"}

// maxListed is how many paths a message names before it says "and more".
const maxListed = 10

// A manifest is what install created for a layout.
type manifest struct {
	l       Layout
	created map[string]bool // absolute, clean paths
	found   bool            // whether the manifest file was there
}

// file is the manifest file's path.
func (m *manifest) file() string { return filepath.Join(m.l.Home, ManifestName) }

// kernelspecs are the directories of both kernelspecs.
func (l Layout) kernelspecs() []string { return []string{l.Kernelspec, l.CompiledKernelspec()} }

// readManifest reads the manifest in l's home (l made absolute); with none there, nothing
// counts as created. A kernelspec directory whose kernel.json a tensornb
// wrote (one with tensornb metadata) counts as created too, with its
// files, so that an installation from before manifests can be replaced
// and uninstalled; other files in it do not.
func readManifest(l Layout) (*manifest, error) {
	l, err := l.absolute()
	if err != nil {
		return nil, err
	}
	m := &manifest{l: l, created: map[string]bool{}}
	data, err := os.ReadFile(m.file())
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return nil, err
	case !strings.HasPrefix(string(data), manifestHeader+"\n"):
		return nil, fmt.Errorf("%s is not the manifest tensornb install writes (its first line differs), and install would overwrite it: move it elsewhere, or install into another directory (set TENSORNB_HOME to another directory, or give -prefix DIR)", m.file())
	default:
		m.found = true
		for _, line := range strings.Split(string(data), "\n") {
			if filepath.IsAbs(line) {
				m.created[filepath.Clean(line)] = true
			}
		}
	}
	for _, dir := range l.kernelspecs() {
		if isTensornbSpec(filepath.Join(dir, "kernel.json")) {
			m.created[dir] = true
			for _, name := range specFiles {
				m.created[filepath.Join(dir, name)] = true
			}
		}
	}
	return m, nil
}

// isTensornbSpec reports whether the kernel.json at path is one tensornb
// wrote: its metadata has tensornb_version.
func isTensornbSpec(path string) bool {
	data, err := os.ReadFile(path)
	if err != nil {
		return false
	}
	var spec struct {
		Metadata struct {
			Version string `json:"tensornb_version"`
		} `json:"metadata"`
	}
	return json.Unmarshal(data, &spec) == nil && spec.Metadata.Version != ""
}

// save writes the manifest file, through a temporary file in the home so
// that the record is never half written.
func (m *manifest) save() error {
	var b strings.Builder
	b.WriteString(manifestHeader + "\n")
	for _, path := range slices.Sorted(maps.Keys(m.created)) {
		b.WriteString(path + "\n")
	}
	return atomicfile.Write(m.file(), []byte(b.String()), 0o644)
}

// add records path as created. Install calls it before creating path, so
// that an install stopped half way leaves a record of what it made. While
// the home itself is still to be made, the record waits for the next add.
func (m *manifest) add(path string) error {
	if m.created[path] {
		return nil
	}
	m.created[path] = true
	if _, err := os.Stat(m.l.Home); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return m.save()
}

// mkdirAll makes dir and the parents it lacks, recording each.
func (m *manifest) mkdirAll(dir string) error {
	if _, err := os.Stat(dir); err == nil {
		return nil
	}
	if parent := filepath.Dir(dir); parent != dir {
		if err := m.mkdirAll(parent); err != nil {
			return err
		}
	}
	if err := m.add(dir); err != nil {
		return err
	}
	return os.Mkdir(dir, 0o755)
}

// writeFile writes a file install creates, recording it first.
func (m *manifest) writeFile(path string, data []byte, perm fs.FileMode) error {
	if err := m.add(path); err != nil {
		return err
	}
	return os.WriteFile(path, data, perm)
}

// remove removes the recorded paths match reports true for, deepest first: a
// directory only when it is empty, since what is left in it is not
// install's. It forgets each path it removed or found gone.
func (m *manifest) remove(match func(path string) bool) error {
	paths := slices.Sorted(maps.Keys(m.created))
	slices.Reverse(paths) // children sort after their directory
	for _, path := range paths {
		if !match(path) {
			continue
		}
		info, err := os.Lstat(path)
		if errors.Is(err, fs.ErrNotExist) {
			delete(m.created, path)
			continue
		}
		if err != nil {
			return err
		}
		if info.IsDir() && !isEmptyDir(path) {
			continue
		}
		if err := os.Remove(path); err != nil {
			return err
		}
		delete(m.created, path)
	}
	return nil
}

// conflicts checks, before install writes anything, that it would
// overwrite or remove nothing it did not create: the tensornb command and
// the tools it builds in bin, the kernelspecs' files, and anything at all
// in src, which holds the module source every cell compiles.
func (m *manifest) conflicts() error {
	var found []string
	more := false
	foreign := func(path string) {
		if _, err := os.Lstat(path); err == nil && !m.created[path] {
			if len(found) == maxListed {
				more = true
				return
			}
			found = append(found, path)
		}
	}
	foreign(m.l.Binary())
	for _, t := range tools.All {
		if !t.Installed(m.l.Bin()) {
			for _, path := range t.Files(m.l.Bin()) {
				foreign(path)
			}
		}
	}
	err := filepath.WalkDir(m.l.Source(), func(path string, d fs.DirEntry, err error) error {
		if errors.Is(err, fs.ErrNotExist) && path == m.l.Source() {
			return nil
		}
		if err != nil {
			return err
		}
		if more {
			return fs.SkipAll
		}
		if !d.IsDir() {
			foreign(path)
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, dir := range m.l.kernelspecs() {
		for _, name := range specFiles {
			foreign(filepath.Join(dir, name))
		}
	}
	if len(found) == 0 {
		return nil
	}
	list := strings.Join(found, "\n  ")
	if more {
		list += "\n  and more"
	}
	msg := fmt.Sprintf("nothing was changed: installing would overwrite or remove these files, which tensornb install did not create:\n  %s\n"+
		"(it writes the tensornb command and its tools in %s, the module source in %s, where nothing else may be, and the kernelspecs' files)\n"+
		"Move them elsewhere and run tensornb install again, or install elsewhere: set TENSORNB_HOME to another directory, or give -prefix DIR.",
		list, m.l.Bin(), m.l.Source())
	if !m.found {
		msg += fmt.Sprintf(" An installation by tensornb 0.1.0 recorded nothing in %s: if these files are one, delete them and install again.", m.file())
	}
	return errors.New(msg)
}

// within reports whether path is root or inside it.
func within(path, root string) bool {
	return path == root || strings.HasPrefix(path, root+string(filepath.Separator))
}

// isEmptyDir reports whether dir is a directory with nothing in it.
func isEmptyDir(dir string) bool {
	f, err := os.Open(dir)
	if err != nil {
		return false
	}
	defer f.Close()
	_, err = f.Readdirnames(1)
	return err == io.EOF
}

// leftovers lists, relative to dir, the files in it (up to maxListed, then
// "and more").
func leftovers(dir string) []string {
	var left []string
	filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		if len(left) == maxListed {
			left = append(left, "and more")
			return fs.SkipAll
		}
		rel, _ := filepath.Rel(dir, path)
		left = append(left, rel)
		return nil
	})
	return left
}
