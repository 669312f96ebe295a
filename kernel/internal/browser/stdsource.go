package browser

import (
	"archive/zip"
	"bytes"
	"errors"
	"io"
	"io/fs"
	"path"
	"strings"
	"sync"
)

// A zipSource is the standard library's source as a page has it: one zip
// of each package's files (Build's StdDir), fetched the first time the
// engine's lowering reads the package. It is an fs.FS rooted as GOROOT/src
// is, safe for concurrent use.
type zipSource struct {
	fetch func(path string) (io.ReadCloser, error)

	mu   sync.Mutex
	zips map[string]*zip.Reader
	errs map[string]error
}

// newZipSource returns the source that fetch fetches, a package's zip by
// its import path.
func newZipSource(fetch func(path string) (io.ReadCloser, error)) *zipSource {
	return &zipSource{fetch: fetch, zips: map[string]*zip.Reader{}, errs: map[string]error{}}
}

// Open opens a package's directory, or one of its files.
func (z *zipSource) Open(name string) (fs.File, error) {
	dir := name
	if strings.HasSuffix(name, ".go") {
		dir = path.Dir(name)
	}
	if !fs.ValidPath(name) || dir == "." {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	zr, err := z.zip(dir)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	return zr.Open(name)
}

// zip returns the zip of the package at dir, fetched once.
func (z *zipSource) zip(dir string) (*zip.Reader, error) {
	z.mu.Lock()
	defer z.mu.Unlock()
	if zr, ok := z.zips[dir]; ok {
		return zr, nil
	}
	if err, ok := z.errs[dir]; ok {
		return nil, err
	}
	zr, err := z.read(dir)
	if err != nil {
		z.errs[dir] = err
		return nil, err
	}
	z.zips[dir] = zr
	return zr, nil
}

// read fetches and opens the zip of the package at dir.
func (z *zipSource) read(dir string) (*zip.Reader, error) {
	rc, err := z.fetch(dir)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	data, err := io.ReadAll(rc)
	if err != nil {
		return nil, err
	}
	if len(data) == 0 {
		return nil, errors.New("an empty zip")
	}
	return zip.NewReader(bytes.NewReader(data), int64(len(data)))
}
