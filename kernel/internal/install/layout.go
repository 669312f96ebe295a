package install

import (
	"os"
	"path/filepath"

	"github.com/tensornb/tensornb/kernel/internal/tools"
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
