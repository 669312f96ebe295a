package display_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// The browser tests open pages made of displays in Debian's headless
// Chromium. scripts/test installs chromium and sets
// TENSORNB_REQUIRE_BROWSER, so that in CI a missing browser fails the
// tests; elsewhere they are skipped with a message saying how to run them.

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

// browser starts a headless Chromium with a fresh profile for the test and
// returns a context whose actions run in one of its tabs.
func browser(t *testing.T) context.Context {
	t.Helper()
	path, err := chromiumPath()
	if err != nil {
		if os.Getenv("TENSORNB_REQUIRE_BROWSER") != "" {
			t.Fatal(err)
		}
		t.Skipf("%v; scripts/test installs it", err)
	}
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
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	t.Cleanup(cancel)
	ctx, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
	t.Cleanup(cancelAlloc)
	ctx, cancelTab := chromedp.NewContext(ctx)
	t.Cleanup(cancelTab)
	return ctx
}

// jsErrors collects the exceptions a page throws and the errors it logs.
type jsErrors struct {
	mu   sync.Mutex
	list []string
}

func (e *jsErrors) add(s string) {
	e.mu.Lock()
	e.list = append(e.list, s)
	e.mu.Unlock()
}

// all returns what was collected so far.
func (e *jsErrors) all() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]string{}, e.list...)
}

// openPage writes html to a file and loads it in the browser, offline as
// a notebook export would be, and returns the page's JavaScript errors.
func openPage(t *testing.T, ctx context.Context, html string) *jsErrors {
	t.Helper()
	errs := &jsErrors{}
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
					parts = append(parts, string(a.Value))
				}
				errs.add("console.error: " + strings.Join(parts, " "))
			}
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	page := filepath.Join(t.TempDir(), "page.html")
	if err := os.WriteFile(page, []byte(html), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.Navigate("file://"+page)); err != nil {
		t.Fatal(err)
	}
	return errs
}

// pageOf wraps display HTML fragments into a page, as a notebook export
// places outputs one after another.
func pageOf(fragments ...string) string {
	var b strings.Builder
	b.WriteString("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>tensornb displays</title></head><body>\n")
	for _, f := range fragments {
		b.WriteString("<div class=\"output\">\n" + f + "\n</div>\n")
	}
	b.WriteString("</body></html>\n")
	return b.String()
}

// saveArtifact keeps a file for people to look at after the test (a
// screenshot): in $TENSORNB_ARTIFACTS, or artifacts/ at the top of the
// repository.
func saveArtifact(t *testing.T, name string, data []byte) {
	t.Helper()
	dir := os.Getenv("TENSORNB_ARTIFACTS")
	if dir == "" {
		dir = filepath.Join("..", "artifacts")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("saved %s", path)
}
