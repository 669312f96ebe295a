// Package atomicfile writes a file whole or not at all: into a temporary
// file beside it, then renamed over it. A reader sees the old file or
// the new one, never half of one, and a program running from the old
// file goes on running (its inode stays until it exits).
package atomicfile

import (
	"errors"
	"os"
	"path/filepath"
)

// Write writes data to the file at path with permissions perm, replacing
// whatever was there once data is written whole. Its directory must
// exist. On an error nothing is left beside path.
func Write(path string, data []byte, perm os.FileMode) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.new")
	if err != nil {
		return err
	}
	_, err = tmp.Write(data)
	err = errors.Join(err, tmp.Close())
	if err == nil {
		err = os.Chmod(tmp.Name(), perm)
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
	return err
}
