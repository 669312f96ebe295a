// Package browsertest opens pages in Debian's headless Chromium for tests
// and collects the JavaScript errors they raise.
//
// scripts/test installs chromium and sets TENSORNB_REQUIRE_BROWSER, so
// that in CI a missing browser fails the tests; elsewhere they are skipped
// with a message saying how to run them.
package browsertest

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// chromiumPath finds the browser: $TENSORNB_CHROMIUM, or chromium on PATH.
func chromiumPath() (string, error) {
	if p := os.Getenv("TENSORNB_CHROMIUM"); p != "" {
		return p, nil
	}
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", fmt.Errorf("chromium is not installed (apt-get install chromium, or set TENSORNB_CHROMIUM)")
}

// Require returns the browser's path, or ends the test as Start does if
// there is none: it fails where TENSORNB_REQUIRE_BROWSER is set (CI), and
// is skipped, saying why, elsewhere. A test that prepares at length what
// it opens calls it first.
func Require(t *testing.T) string {
	t.Helper()
	path, err := chromiumPath()
	if err != nil {
		if os.Getenv("TENSORNB_REQUIRE_BROWSER") != "" {
			t.Fatal(err)
		}
		t.Skipf("%v; scripts/test installs it", err)
	}
	return path
}

// Start starts a headless Chromium with a fresh profile for the test and
// returns a context whose actions run in one of its tabs, for at most
// timeout. Without a browser, the test fails or is skipped (Require).
func Start(t *testing.T, timeout time.Duration) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	t.Cleanup(cancel)
	return startIn(t, ctx)
}

// reportTime is how long before go test's -timeout a session of
// StartUntilDeadline ends: time for its test to fail and say why.
const reportTime = 30 * time.Second

// StartUntilDeadline starts Chromium as Start does, for a session with no
// bound of its own: it lasts until reportTime before go test's -timeout
// ends the run (with no -timeout, until the test ends). A page that never
// answers is a hang, which fails the test that waits for it, saying what
// it waited for, however long the run may still take; a loaded machine
// that only makes Chromium slow fails nothing. A bound of a test's own,
// such as 90 seconds, is a timing assertion on such a machine.
func StartUntilDeadline(t *testing.T) context.Context {
	t.Helper()
	ctx, cancel := context.Background(), func() {}
	if deadline, ok := t.Deadline(); ok {
		ctx, cancel = context.WithDeadline(ctx, deadline.Add(-reportTime))
	}
	t.Cleanup(cancel)
	return startIn(t, ctx)
}

// startIn starts Chromium for the test, its session bounded by ctx.
func startIn(t *testing.T, ctx context.Context) context.Context {
	t.Helper()
	path := Require(t)
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.UserDataDir(t.TempDir()),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.WindowSize(1280, 1000),
	}
	ctx, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
	t.Cleanup(cancelAlloc)
	ctx, cancelTab := chromedp.NewContext(ctx)
	t.Cleanup(cancelTab)
	return ctx
}

// Errors collects the exceptions a page throws and the errors it logs.
type Errors struct {
	mu   sync.Mutex
	list []string
}

func (e *Errors) add(s string) {
	e.mu.Lock()
	e.list = append(e.list, s)
	e.mu.Unlock()
}

// All returns what was collected so far.
func (e *Errors) All() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]string{}, e.list...)
}

// Open loads the file at path in the browser and returns the page's
// JavaScript errors, collected from before the page starts loading.
func Open(t *testing.T, ctx context.Context, path string) *Errors {
	t.Helper()
	abs, err := filepath.Abs(path)
	if err != nil {
		t.Fatal(err)
	}
	return OpenURL(t, ctx, "file://"+abs)
}

// OpenURL loads url in the browser and returns the page's JavaScript
// errors, collected from before the page starts loading.
func OpenURL(t *testing.T, ctx context.Context, url string) *Errors {
	t.Helper()
	errs := &Errors{}
	err := chromedp.Listen(ctx, func(ev any) {
		switch ev := ev.(type) {
		case *runtime.EventExceptionThrown:
			d := ev.ExceptionDetails
			msg := d.Text
			if d.Exception != nil {
				msg += " " + d.Exception.Description
			}
			errs.add(fmt.Sprintf("%s (line %d)", msg, d.LineNumber+1))
		case *runtime.EventConsoleAPICalled:
			if ev.Type == runtime.ConsoleAPICalledTypeError {
				var parts []string
				for _, a := range ev.Args {
					if len(a.Value) > 0 {
						parts = append(parts, string(a.Value))
					} else {
						parts = append(parts, a.Description) // an object: an Error's stack
					}
				}
				errs.add("console.error: " + strings.Join(parts, " "))
			}
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(url)); err != nil {
		t.Fatal(err)
	}
	return errs
}

// OpenHTML writes html to a file and opens it, offline as a notebook
// export would be.
func OpenHTML(t *testing.T, ctx context.Context, html string) *Errors {
	t.Helper()
	page := filepath.Join(t.TempDir(), "page.html")
	if err := os.WriteFile(page, []byte(html), 0o644); err != nil {
		t.Fatal(err)
	}
	return Open(t, ctx, page)
}

// SaveArtifact keeps a file for people to look at after the test (a
// screenshot): in $TENSORNB_ARTIFACTS, or artifacts/ at the top of the
// module, above the package directory the test runs in.
func SaveArtifact(t *testing.T, name string, data []byte) {
	t.Helper()
	dir := os.Getenv("TENSORNB_ARTIFACTS")
	if dir == "" {
		dir = filepath.Join(moduleRoot(t), "artifacts")
	}
	path := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("saved %s", path)
}

// SaveScreenshot saves a screenshot of the whole page of ctx's tab as
// the artifact name.
func SaveScreenshot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	shot, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	SaveArtifact(t, name, shot)
}

// moduleRoot returns the directory of the go.mod above the test's package.
func moduleRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the test's directory")
		}
		dir = parent
	}
}

// CheckExplorerClick clicks cell [1, 2] of the first explorer on the page,
// which the notebooks show first as a 3×4 contiguous matrix, and checks
// that the explorer lights that element's slot and works out its address.
// The click is the element's own (HTMLElement.click), not the mouse's at
// where the element was: a notebook still laying out its cells under a
// loaded machine moved the explorer between the two, and the mouse's
// click landed elsewhere.
func CheckExplorerClick(t *testing.T, ctx context.Context) {
	t.Helper()
	const click = `(function () {
  var cell = document.querySelector('.tnb-explorer .tx-cell[data-index="1,2"]');
  if (!cell) { return false; }
  cell.click();
  return true;
})()`
	clicked, err := chromedp.Run(ctx, chromedp.Evaluate[bool](click))
	if err != nil || !clicked {
		t.Fatalf("clicking a cell of the explorer: found %v (%v)", clicked, err)
	}
	const read = `(function () {
  var root = document.querySelector(".tnb-explorer");
  var formula = root.querySelector(".tx-formula");
  var slots = Array.from(root.querySelectorAll(".tx-slot.tx-on"), function (s) { return s.getAttribute("data-slot"); });
  return (formula ? formula.textContent : "") + " | " + slots.join(",");
})()`
	got, err := chromedp.Run(ctx, chromedp.Evaluate[string](read))
	if err != nil {
		t.Fatalf("reading the explorer: %v", err)
	}
	if want := "0 + 1·4 + 2·1 = 6 | 6"; got != want {
		t.Errorf("after a click on cell [1, 2] the explorer shows %q, want %q", got, want)
	}
}

// FileSizes returns the size of the file at path, raw and gzipped at
// gzip's default level (as a server compresses on the fly), for the
// browser tests' reports.
func FileSizes(t *testing.T, path string) (raw, gzipped int64) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	if _, err := w.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return int64(len(data)), int64(b.Len())
}

// Median returns the median of xs (the upper one of an even count), or 0
// for none, for the browser tests' timing reports.
func Median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}
