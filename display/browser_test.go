//go:build !js

package display_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/tensornb/tensornb/internal/browsertest"
)

// The browser tests open pages made of displays in headless Chromium (see
// internal/browsertest). What they share is here: building and opening
// pages, inserting outputs as the notebook front ends do, clicking,
// reading the page, scans, screenshots and JupyterLab's test page.

// browser starts Chromium for the test. Its session, and every wait in
// it, has no bound of its own: a page that never answers runs into go
// test's -timeout (see browsertest.StartUntilDeadline), and a slow one,
// on a loaded machine, fails nothing.
func browser(t *testing.T) context.Context { return browsertest.StartUntilDeadline(t) }

// openPage loads html in the browser and returns the page's JavaScript
// errors.
func openPage(t *testing.T, ctx context.Context, html string) *browsertest.Errors {
	return browsertest.OpenHTML(t, ctx, html)
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

// checkNoJSErrors fails the test if the page threw or logged errors.
func checkNoJSErrors(t *testing.T, errs *browsertest.Errors) {
	t.Helper()
	if e := errs.All(); len(e) > 0 {
		t.Errorf("JavaScript errors: %q", e)
	}
}

// evaluate runs the JavaScript expression js in the page and returns its
// value, awaited if it is a promise; an error ends the test.
func evaluate[T any](t *testing.T, ctx context.Context, js string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](js, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("evaluating %.200s: %v", js, err)
	}
	return v
}

// click clicks the element sel selects.
func click(t *testing.T, ctx context.Context, sel string) {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(sel))); err != nil {
		t.Fatalf("clicking %s: %v", sel, err)
	}
}

// liveIDPattern finds the element id in an explorer's or a playground's
// HTML.
var liveIDPattern = regexp.MustCompile(`<div id="(tnb-(?:explorer|playground)-[0-9]+-[0-9a-f]{8})"`)

// liveID returns the element id in an explorer's or a playground's HTML.
func liveID(t *testing.T, html string) string {
	t.Helper()
	m := liveIDPattern.FindStringSubmatch(html)
	if m == nil {
		t.Fatal("no explorer or playground element in the HTML")
	}
	return m[1]
}

// scanToEnd runs the scan of the explorer or playground with element id
// with no delay between steps, by a click on the button sel selects, and
// waits for its verdict.
func scanToEnd(t *testing.T, ctx context.Context, id, sel string) {
	t.Helper()
	evaluate[chromedp.Void](t, ctx, fmt.Sprintf(`document.getElementById(%q).setAttribute("data-scan-delay", "0")`, id))
	click(t, ctx, sel)
	done := fmt.Sprintf(`(function (s) { return s !== "running" && s; })(document.getElementById(%q).getAttribute("data-scan"))`, id)
	if _, err := chromedp.Run(ctx, chromedp.Poll[string](done, chromedp.WithPollingTimeout(0))); err != nil {
		t.Fatalf("%s: the scan did not finish: %v", id, err)
	}
}

// insertLikeFrontEnd appends an output's HTML to the page in a div of
// the given class, as a notebook front end inserts it: "lab" as
// JupyterLab does (innerHTML while detached, each script replaced by a
// clone, then attached), "classic" as Notebook 6's jQuery does (attached,
// then a copy of each script run in the head).
const insertLikeFrontEndJS = `(function (html, style, className) {
  const out = document.createElement("div");
  out.className = className;
  out.innerHTML = html;
  const scripts = Array.from(out.querySelectorAll("script"));
  if (style === "lab") {
    scripts.forEach(function (old) {
      const s = document.createElement("script");
      s.textContent = old.textContent;
      old.parentNode.replaceChild(s, old);
    });
    document.body.appendChild(out);
    return;
  }
  document.body.appendChild(out);
  scripts.forEach(function (old) {
    const s = document.createElement("script");
    s.text = old.textContent;
    document.head.appendChild(s).parentNode.removeChild(s);
  });
})(%s, %q, %q)`

// insertLikeFrontEnd appends html to the page as the front end style
// ("lab" or "classic") does, in a div of class className.
func insertLikeFrontEnd(t *testing.T, ctx context.Context, html, style, className string) {
	t.Helper()
	htmlJSON, err := json.Marshal(html)
	if err != nil {
		t.Fatal(err)
	}
	evaluate[chromedp.Void](t, ctx, fmt.Sprintf(insertLikeFrontEndJS, htmlJSON, style, className))
}

// insertInFrontEnds appends html twice as JupyterLab inserts outputs (two
// views of one output, which share its id), in divs of class
// prefix+"lab-1" and prefix+"lab-2", and other, an output of its own, as
// Notebook 6 does, in a div of class prefix+"classic"; each of the three
// explorers or playgrounds must start.
func insertInFrontEnds(t *testing.T, ctx context.Context, html, other, prefix string) {
	t.Helper()
	insertLikeFrontEnd(t, ctx, html, "lab", prefix+"lab-1")
	insertLikeFrontEnd(t, ctx, html, "lab", prefix+"lab-2")
	insertLikeFrontEnd(t, ctx, other, "classic", prefix+"classic")
	started := evaluate[[]bool](t, ctx, fmt.Sprintf(`Array.from(document.querySelectorAll(".%[1]slab-1 > div, .%[1]slab-2 > div, .%[1]sclassic > div"), function (r) { return r.hasAttribute("data-ready"); })`, prefix))
	if len(started) != 3 || !started[0] || !started[1] || !started[2] {
		t.Fatalf("outputs inserted like JupyterLab (twice) and Notebook 6: started %v", started)
	}
}

// savePageShot saves a screenshot of the whole page as the artifact name.
func savePageShot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100)) // PNG at quality 100
	if err != nil {
		t.Fatal(err)
	}
	browsertest.SaveArtifact(t, name, png)
}

// saveElementShot saves a screenshot of the element with the given id as
// the artifact name, and returns it (a PNG).
func saveElementShot(t *testing.T, ctx context.Context, id, name string) []byte {
	t.Helper()
	png, err := chromedp.Run(ctx, chromedp.Screenshot(chromedp.CSS("#"+id)))
	if err != nil {
		t.Fatalf("screenshot %s of %s: %v", name, id, err)
	}
	browsertest.SaveArtifact(t, name, png)
	return png
}

// labPage returns JupyterLab's test page (see lab_test.go), or skips the
// test (fails it under TENSORNB_REQUIRE_BROWSER) if its script has not
// been built.
func labPage(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("testdata", "lab"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "dist", "render.js")); err != nil {
		msg := "JupyterLab's renderers are not built (npm ci --prefix display/testdata/lab && npm run --prefix display/testdata/lab build): " + err.Error()
		if os.Getenv("TENSORNB_REQUIRE_BROWSER") != "" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	return filepath.Join(dir, "index.html")
}

// openLab starts Chromium for the test, as browser does, and opens
// JupyterLab's test page, ready to render bundles with
// window.renderBundle(bundle, trusted, label); it returns the browser and
// the page's JavaScript errors.
func openLab(t *testing.T) (context.Context, *browsertest.Errors) {
	t.Helper()
	page := labPage(t)
	ctx := browser(t)
	errs := browsertest.Open(t, ctx, page)
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool]("typeof window.renderBundle === 'function'", chromedp.WithPollingTimeout(0))); err != nil {
		t.Fatalf("the page's script did not load: %v", err)
	}
	return ctx, errs
}

// labShotName is the artifact name of the screenshot of an output
// JupyterLab rendered, trusted or not.
func labShotName(name string, trusted bool) string {
	return filepath.Join("lab", fmt.Sprintf("%s-%s.png", name, map[bool]string{true: "trusted", false: "untrusted"}[trusted]))
}
