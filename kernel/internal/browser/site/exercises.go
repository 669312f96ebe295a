package site

import (
	"os"
	"path/filepath"

	"github.com/tensornb/tensornb/kernel/internal/nbgrader"
	ipynb "github.com/tensornb/tensornb/kernel/internal/notebook"
)

// serveable writes into a new temporary folder the notebooks of src at
// notebooks (paths relative to it, with slashes) as the site serves
// them, and returns the folder: a saved widget shows its still picture
// (showStills); an exercise, a notebook with answer cells
// in nbgrader's format, as the student's version (nbgrader.Assign: no
// solutions, no hidden tests), unless solutions; any other notebook as it
// is. The caller removes the folder.
func serveable(src string, notebooks []string, solutions bool) (string, error) {
	dir, err := os.MkdirTemp("", "tensornb-site-")
	if err != nil {
		return "", err
	}
	for _, rel := range notebooks {
		from, to := filepath.Join(src, filepath.FromSlash(rel)), filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			return dir, err
		}
		nb, err := ipynb.Read(from)
		if err != nil {
			return dir, err
		}
		switch {
		case !solutions && isExercise(nb):
			if nb, err = nbgrader.Assign(nb); err != nil {
				return dir, err
			}
			err = nb.Write(to)
		case showStills(nb):
			err = nb.Write(to)
		default:
			err = copyFile(from, to)
		}
		if err != nil {
			return dir, err
		}
	}
	return dir, nil
}

// isExercise reports whether a notebook has an answer cell in nbgrader's
// format.
func isExercise(nb *ipynb.Notebook) bool {
	for _, c := range nb.Cells {
		if m, ok := nbgrader.Of(c); ok && m.Answer() {
			return true
		}
	}
	return false
}

// copyFile copies the file from to the file to.
func copyFile(from, to string) error {
	data, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	return os.WriteFile(to, data, 0o644)
}
