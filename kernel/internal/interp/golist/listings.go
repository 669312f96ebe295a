package golist

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/tensornb/tensornb/kernel/internal/atomicfile"
)

// A worker's start needs to know where the go command keeps the export
// data of fmt, tensor and display and of what they import. `go list
// -export` says, but each run of it costs about 0.15 s of CPU and starts
// five processes, six times what the rest of a worker's start costs; a
// class that opens its notebooks at once starts 20 workers on the same
// two cores. So what it answered is kept in a file of the user's cache
// directory, and the next worker reads it there if it still holds: the
// same go command, module and GO* environment (the file's name is their
// hash), the module's source files unchanged, and every export file
// still in the go command's cache. Otherwise the go command runs again
// and the file is written anew.

// listingVersion is part of every listing's key: a change of what the
// file holds makes the old files unused.
const listingVersion = "tensornb-listing-1"

// A listing is what a listing file holds: the go command's answer, and
// the files it was true for.
type listing struct {
	Packages []ListedPackage `json:"packages"`
	Stamps   []stamp         `json:"stamps"`
}

// A stamp is a file as it was when the go command answered: its size,
// and its modification time unless ModTime is 0 (an export file, whose
// time the go command changes when it uses it).
type stamp struct {
	Path    string `json:"path"`
	Size    int64  `json:"size"`
	ModTime int64  `json:"mtime,omitempty"`
}

// listDeps returns what ListPackages(dir, env, "-deps", paths...) would,
// from the listing file of the user's cache directory if it still holds,
// else from the go command, whose answer it then keeps there. A cache
// that cannot be read or written is only slower.
func listDeps(dir string, env []string, paths ...string) ([]ListedPackage, error) {
	file := listingFile(dir, env, paths)
	if file != "" {
		if listed, ok := readListing(file); ok {
			return listed, nil
		}
	}
	listed, err := ListPackages(dir, env, append([]string{"-deps"}, paths...)...)
	if err != nil {
		return nil, err
	}
	if file != "" {
		writeListing(file, dir, listed)
	}
	return listed, nil
}

// ListingsVar names the directory of the kept listings, if set. The
// grader sets it for its sandboxed workers, whose home is a scratch one,
// to the teacher's: they read the listings the teacher's kernels kept.
const ListingsVar = "TENSORNB_LISTINGS"

// ListingsDir returns the directory where listings are kept: the one
// ListingsVar names, else tensornb/listings in the user's cache
// directory; "" if there is none.
func ListingsDir() string {
	if dir := os.Getenv(ListingsVar); dir != "" {
		return dir
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(cache, "tensornb", "listings")
}

// listingFile returns the path of the listing file for paths listed in
// dir with env, or "" if there is no cache directory or no go command.
func listingFile(dir string, env []string, paths []string) string {
	listings := ListingsDir()
	if listings == "" {
		return ""
	}
	goCmd, err := exec.LookPath("go")
	if err != nil {
		return ""
	}
	goCmd, err = filepath.EvalSymlinks(goCmd)
	if err != nil {
		return ""
	}
	info, err := os.Stat(goCmd)
	if err != nil {
		return ""
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return ""
	}
	if env == nil {
		env = os.Environ()
	}
	var goEnv []string
	for _, kv := range env {
		if strings.HasPrefix(kv, "GO") || strings.HasPrefix(kv, "CGO_") {
			goEnv = append(goEnv, kv)
		}
	}
	slices.Sort(goEnv)
	h := sha256.New()
	fmt.Fprintf(h, "%s\n%s\n%s %d %d\n%s\n%s\n", listingVersion, abs, goCmd, info.Size(), info.ModTime().UnixNano(),
		strings.Join(paths, " "), strings.Join(goEnv, "\n"))
	return filepath.Join(listings, hex.EncodeToString(h.Sum(nil))[:32]+".json")
}

// readListing returns the packages of the listing file, if every file it
// stamped is as it was.
func readListing(file string) ([]ListedPackage, bool) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, false
	}
	var l listing
	if json.Unmarshal(data, &l) != nil || len(l.Packages) == 0 {
		return nil, false
	}
	for _, s := range l.Stamps {
		if now, ok := stampOf(s.Path, s.ModTime != 0); !ok || now != s {
			return nil, false
		}
	}
	return l.Packages, true
}

// writeListing keeps listed, the go command's answer in dir, in file,
// with stamps of what it depends on: the module's go.mod and go.sum, the
// source files and directories of the packages outside the standard
// library (the standard library's change with the go command, which is
// in the file's name), and every export file.
func writeListing(file, dir string, listed []ListedPackage) {
	l := listing{Packages: listed}
	add := func(path string, withTime bool) bool {
		s, ok := stampOf(path, withTime)
		if ok {
			l.Stamps = append(l.Stamps, s)
		}
		return ok
	}
	for _, name := range []string{"go.mod", "go.sum", "go.work"} {
		add(filepath.Join(dir, name), true)
	}
	for _, p := range listed {
		if p.Export != "" && !add(p.Export, false) {
			return
		}
		if p.Standard {
			continue
		}
		if !add(p.Dir, true) {
			return
		}
		for _, f := range p.GoFiles {
			if !add(filepath.Join(p.Dir, f), true) {
				return
			}
		}
	}
	data, err := json.Marshal(l)
	if err != nil {
		return
	}
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		return
	}
	// Written whole: workers that start together read either no file or
	// a whole one.
	_ = atomicfile.Write(file, data, 0o600)
}

// stampOf stamps the file at path as it is now, with its modification
// time if withTime.
func stampOf(path string, withTime bool) (stamp, bool) {
	info, err := os.Stat(path)
	if err != nil {
		return stamp{}, false
	}
	s := stamp{Path: path, Size: info.Size()}
	if info.IsDir() {
		s.Size = 0
	}
	if withTime {
		s.ModTime = info.ModTime().UnixNano()
	}
	return s, true
}
