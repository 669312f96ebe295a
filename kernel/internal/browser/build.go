//go:build !js

package browser

import (
	"archive/zip"
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/tensornb/tensornb/kernel/internal/interp/compiled"
	"github.com/tensornb/tensornb/kernel/internal/interp/complete"
	"github.com/tensornb/tensornb/kernel/internal/interp/golist"
	"github.com/tensornb/tensornb/kernel/internal/interp/lower"
)

//go:embed worker.js
var workerJS []byte

// The files Build writes, in its directory.
const (
	EngineFile  = "tensornb.wasm" // the engine, kernel/cmd/tensornb-wasm
	SupportFile = "wasm_exec.js"  // Go's support script for it
	WorkerFile  = "worker.js"     // the Web Worker that runs it
	ExportsDir  = "exports"       // the export data, one PATH.a a package
	DocsDir     = "docs"          // the doc comments, one PATH.json a package
	StdDir      = "std"           // the source of standard packages, one PATH.zip a package
)

// Build writes into dir the files a page needs to run cells in a Web
// Worker, with the go command, run in the tensornb module at moduleDir:
// the engine, built for js/wasm; Go's wasm_exec.js, from the toolchain
// that built it; worker.js; and, in exports, the export data the engine's
// type checker reads for each package cells can import, as the compiler
// wrote it for js/wasm, and, in docs, their doc comments, which
// inspections show.
func Build(moduleDir, dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	env := append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	engine, err := filepath.Abs(filepath.Join(dir, EngineFile))
	if err != nil {
		return err
	}
	// -s -w: no symbol table and no DWARF, which a browser does not read;
	// panics still name their functions and lines.
	if _, err := goCommand(moduleDir, env, "build", "-trimpath", "-ldflags=-s -w", "-o", engine, "./kernel/cmd/tensornb-wasm"); err != nil {
		return err
	}
	goroot, err := goCommand(moduleDir, env, "env", "GOROOT")
	if err != nil {
		return err
	}
	support, err := supportScript(strings.TrimSpace(goroot))
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, SupportFile), support, 0o644); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, WorkerFile), workerJS, 0o644); err != nil {
		return err
	}
	return writeExports(moduleDir, env, dir)
}

// supportScript reads wasm_exec.js from the toolchain at goroot: in
// lib/wasm since Go 1.24, in misc/wasm before.
func supportScript(goroot string) ([]byte, error) {
	var firstErr error
	for _, dir := range []string{"lib/wasm", "misc/wasm"} {
		data, err := os.ReadFile(filepath.Join(goroot, dir, SupportFile))
		if err == nil {
			return data, nil
		}
		if firstErr == nil {
			firstErr = err
		}
	}
	return nil, fmt.Errorf("the Go toolchain has no %s: %w", SupportFile, firstErr)
}

// writeExports writes into dir the export data of every package compiled
// into the browser's interpreter (compiled.BrowserPackages), each as an
// archive of its __.PKGDEF member alone, which is all the type checker
// reads: the compiler's archive holds the package's code after it; and
// into docsDir the doc comments of its Go files (complete.PackageDocs), as
// JSON.
func writeExports(moduleDir string, env []string, site string) error {
	dir, docsDir := filepath.Join(site, ExportsDir), filepath.Join(site, DocsDir)
	// -trimpath as the engine was built, so that the packages it compiled
	// are not compiled again.
	paths := append(compiled.BrowserPackages(), lower.StdPackages...)
	listed, err := golist.ListPackages(moduleDir, env, append([]string{"-trimpath"}, paths...)...)
	if err != nil {
		return fmt.Errorf("go list -export of the browser's packages: %w", err)
	}
	for _, p := range listed {
		if p.Export == "" {
			return fmt.Errorf("go list -export gave no export data for %s", p.ImportPath)
		}
		if err := writeDocs(docsDir, p.ImportPath, p.Dir, p.GoFiles); err != nil {
			return err
		}
		if p.Standard {
			if err := writeSource(filepath.Join(site, StdDir), p.ImportPath, p.Dir, p.GoFiles); err != nil {
				return err
			}
		}
		data, err := os.ReadFile(p.Export)
		if err != nil {
			return err
		}
		def, err := packageDefinition(data)
		if err != nil {
			return fmt.Errorf("the export data of %s: %w", p.ImportPath, err)
		}
		name := filepath.Join(dir, filepath.FromSlash(p.ImportPath)+".a")
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(name, def, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// writeSource writes into dir, as PATH.zip, the Go files of the standard
// package at path, in srcDir, that build for js/wasm: the lowering of
// the browser's engine writes the package's generic and newer names
// from them (lower.Std), as the server's does from its GOROOT. The zip
// holds them as PATH/FILE, as they lie in GOROOT/src; a page fetches it
// the first time a cell needs one of them.
func writeSource(dir, path, srcDir string, files []string) error {
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	for _, f := range files {
		data, err := os.ReadFile(filepath.Join(srcDir, f))
		if err != nil {
			return err
		}
		w, err := zw.CreateHeader(&zip.FileHeader{Name: path + "/" + f, Method: zip.Deflate})
		if err != nil {
			return err
		}
		if _, err := w.Write(data); err != nil {
			return err
		}
	}
	if err := zw.Close(); err != nil {
		return err
	}
	name := filepath.Join(dir, filepath.FromSlash(path)+".zip")
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		return err
	}
	return os.WriteFile(name, b.Bytes(), 0o644)
}

// writeDocs writes into dir, as PATH.json, the doc comments of the Go
// files of the package at path, in srcDir.
func writeDocs(dir, path, srcDir string, files []string) error {
	data, err := json.Marshal(complete.PackageDocs(srcDir, files))
	if err != nil {
		return err
	}
	name := filepath.Join(dir, filepath.FromSlash(path)+".json")
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		return err
	}
	return os.WriteFile(name, data, 0o644)
}

// packageDefinition returns the start of a Go archive up to the end of
// its first member, which must be __.PKGDEF: the archive's signature, the
// member's 60-byte header, its data, and the byte that pads it to an even
// length.
func packageDefinition(archive []byte) ([]byte, error) {
	const signature, header = "!<arch>\n", 60
	if !bytes.HasPrefix(archive, []byte(signature)) || len(archive) < len(signature)+header {
		return nil, fmt.Errorf("not a Go archive")
	}
	h := archive[len(signature) : len(signature)+header]
	if name := strings.TrimSpace(string(h[:16])); name != "__.PKGDEF" {
		return nil, fmt.Errorf("its first member is %q, not __.PKGDEF", name)
	}
	size, err := strconv.Atoi(strings.TrimSpace(string(h[48:58])))
	end := len(signature) + header + size + size%2
	if err != nil || size < 0 || end > len(archive) {
		return nil, fmt.Errorf("its __.PKGDEF header is broken")
	}
	return archive[:end], nil
}

// goCommand runs the go command in dir and returns its standard output.
func goCommand(dir string, env []string, args ...string) (string, error) {
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("go %s: %v\n%s", strings.Join(args, " "), err, stderr.Bytes())
	}
	return string(out), nil
}
