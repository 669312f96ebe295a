package display_test

import (
	"context"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/tensornb/tensornb/display"
	"github.com/tensornb/tensornb/internal/browsertest"
)

// packingStory is a hand-written diagram of the article's packing story:
// the same Q and K weights interleaved by head or blocked by role.
const packingStory = `flowchart LR
  w["qk weight, interleaved by head<br>Q0 K0 Q1 K1"] -->|"view(h, r, d): no copy"| v["(h, r, d) view"]
  v -->|"permute(r, h, d): strides only"| p["(r, h, d) view<br>not contiguous"]
  p ==>|"contiguous(): a copy"| b["qk weight, blocked by role<br>Q0 Q1 K0 K1"]
`

// brokenDiagram is Mermaid that Mermaid refuses.
const brokenDiagram = "flowchart LR\n  a -->|unfinished"

func TestMermaidBundle(t *testing.T) {
	src := "flowchart LR\n  a[\"<b> & c\"] --> d"
	b := display.Mermaid(src).Bundle()
	if b[display.MIMEMermaid] != src || b[display.MIMEPlain] != src {
		t.Errorf("the Mermaid and text forms are not the source: %q, %q", b[display.MIMEMermaid], b[display.MIMEPlain])
	}
	html := b[display.MIMEHTML]
	if !strings.Contains(html, `a[&#34;&lt;b&gt; &amp; c&#34;] --&gt; d</pre>`) {
		t.Errorf("the HTML does not hold the escaped source in a <pre>:\n%s", html)
	}
	checkForms(t, "Mermaid", b)
	if html == display.Mermaid(src).Bundle()[display.MIMEHTML] {
		t.Error("two bundles of one diagram have the same HTML ids")
	}
}

// mermaidJS returns the file:// URL of the Mermaid bundle that
// testdata/browser/package.json pins, or skips the test (fails it under
// TENSORNB_REQUIRE_BROWSER) if it is not installed.
func mermaidJS(t *testing.T) string {
	t.Helper()
	path, err := filepath.Abs(filepath.Join("testdata", "browser", "node_modules", "mermaid", "dist", "mermaid.min.js"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); err != nil {
		msg := "Mermaid JS is not installed (npm ci --prefix display/testdata/browser): " + err.Error()
		if os.Getenv("TENSORNB_REQUIRE_BROWSER") != "" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(path)}).String()
}

// A shownDiagram is what a page shows of one Mermaid display.
type shownDiagram struct {
	SVG      bool     // the display holds an <svg> that Mermaid drew
	Text     string   // the text of the drawn diagram
	Source   string   // the text of a visible <pre>, "" if there is none
	Note     string   // the text of the failure note, "" if there is none
	Fallback []string // the texts of the visible picture Go drew, nil if there is none
}

// shownDiagrams reads every Mermaid display of the page, in page order,
// once each has either been drawn or given up (at once without Mermaid).
func shownDiagrams(t *testing.T, ctx context.Context) []shownDiagram {
	t.Helper()
	// imageTexts returns the texts of the SVG an <img> shows from a data
	// URI, or null if it shows nothing.
	const imageTexts = `function imageTexts(img) {
		if (!img || img.naturalWidth === 0) { return null; }
		const src = img.getAttribute("src"), bytes = Uint8Array.from(atob(src.slice(src.indexOf(",") + 1)), c => c.charCodeAt(0));
		const svg = new DOMParser().parseFromString(new TextDecoder().decode(bytes), "image/svg+xml");
		return Array.from(svg.querySelectorAll("text"), e => e.textContent);
	}`
	const settled = `Array.from(document.querySelectorAll(".tensornb-mermaid")).every(d => d.querySelector(":scope > div:not(.tensornb-mermaid-fallback) svg, .tensornb-mermaid-note")) || !window.mermaid`
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](settled, chromedp.WithPollingTimeout(30*time.Second))); err != nil {
		t.Fatalf("the diagrams were not drawn: %v", err)
	}
	loaded := `Array.from(document.querySelectorAll(".tensornb-mermaid-fallback img")).every(i => i.complete)`
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](loaded, chromedp.WithPollingTimeout(30*time.Second))); err != nil {
		t.Fatalf("the pictures drawn in Go did not load: %v", err)
	}
	shown, err := chromedp.Run(ctx, chromedp.Evaluate[[]shownDiagram](imageTexts+`; Array.from(document.querySelectorAll(".tensornb-mermaid")).map(d => {
		const svg = d.querySelector(":scope > div:not(.tensornb-mermaid-fallback) svg"), pre = d.querySelector("pre"),
			note = d.querySelector(".tensornb-mermaid-note"), fallback = d.querySelector(".tensornb-mermaid-fallback");
		return {
			SVG: !!svg,
			Text: svg ? Array.from(svg.querySelectorAll("foreignObject"), f => f.textContent).join("\n") : "",
			Source: pre && pre.offsetHeight > 0 ? pre.textContent : "",
			Note: note ? note.textContent : "",
			Fallback: fallback && fallback.offsetHeight > 0 ? imageTexts(fallback.querySelector("img")) : null,
		};
	})`))
	if err != nil {
		t.Fatal(err)
	}
	return shown
}

// mermaidPage returns the displays the browser tests show, their
// Mermaid sources, and the texts of the SVG pictures Go drew (nil for a
// hand-written diagram): three lineages (the last one empty), the packing
// story, the decode flows of the article's two contracts and of none, and
// a broken diagram, last.
func mermaidPage(t *testing.T) (fragments, sources []string, drawn [][]string) {
	flows := decodeFlows()
	for _, r := range []display.Renderer{articleLineage(), trickyLineage(), display.NewLineage(), display.Mermaid(packingStory),
		flows["decode_qk"], flows["decode_empty"], display.Mermaid(brokenDiagram)} {
		b := r.Bundle()
		fragments = append(fragments, b[display.MIMEHTML])
		sources = append(sources, b[display.MIMEMermaid])
		var texts []string
		if svg, ok := b[display.MIMESVG]; ok {
			texts = svgTexts(t, svg)
		}
		drawn = append(drawn, texts)
	}
	return fragments, sources, drawn
}

// Mermaid JS draws the lineages and the hand-written diagram, with every
// tricky label shown as written, and a diagram it refuses keeps its source
// and gets a note, without uncaught errors.
func TestMermaidBrowser(t *testing.T) {
	js := mermaidJS(t)
	ctx := browser(t)
	fragments, sources, _ := mermaidPage(t)
	// Mermaid is loaded after the first display, as a page that loads it
	// late does: that display waits for the page's load event.
	script := `<script src="` + js + `"></script>`
	page := pageOf(append([]string{fragments[0], script}, fragments[1:]...)...)
	errs := openPage(t, ctx, page)
	shown := shownDiagrams(t, ctx)
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	browsertest.SaveArtifact(t, "mermaid.png", png)

	if len(shown) != len(sources) {
		t.Fatalf("the page shows %d Mermaid displays, want %d", len(shown), len(sources))
	}
	last := len(shown) - 1
	for i, d := range shown[:last] {
		if !d.SVG || d.Source != "" || d.Note != "" || d.Fallback != nil {
			t.Errorf("display %d was not drawn by Mermaid alone: %+v", i, d)
		}
	}
	for _, want := range slices.Concat(trickyOps, []string{`x "α" [0]`, "t<h>#", "storage S1: 12 × int64 (96 bytes)", "(4, 3):(1, 4)"}) {
		if !strings.Contains(shown[1].Text, want) {
			t.Errorf("the tricky lineage does not show %q; it shows:\n%s", want, shown[1].Text)
		}
	}
	for _, want := range []string{"x = arange(24).view(2, 3, 4)", "transpose(1, 2) · view", "reshape(-1) · copy", "(3, 4):(4, 1) offset 12"} {
		if !strings.Contains(shown[0].Text, want) {
			t.Errorf("the article lineage does not show %q; it shows:\n%s", want, shown[0].Text)
		}
	}
	for _, want := range []string{"interleaved by head (h r d)", "blocked by role (r h d)", "position = 6·h + 3·r + d", "select r = 1 · view", "(…, h, d) = (…, 2, 3)"} {
		if !strings.Contains(shown[4].Text, want) {
			t.Errorf("the decode flow does not show %q; it shows:\n%s", want, shown[4].Text)
		}
	}
	if broken := shown[last]; broken.SVG || broken.Source != sources[last] || !strings.HasPrefix(broken.Note, "Mermaid could not draw this diagram: ") {
		t.Errorf("the broken diagram shows %+v", broken)
	}
	// Mermaid's own hidden tooltip may stay; an error picture must not.
	stray, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll("body > :not(.output, .mermaidTooltip)"), e => e.outerHTML)`))
	if err != nil {
		t.Fatal(err)
	}
	if len(stray) != 0 {
		t.Errorf("Mermaid left elements in the page's body: %q", stray)
	}
	if e := errs.All(); len(e) > 0 {
		t.Errorf("JavaScript errors: %q", e)
	}
}

// Without Mermaid JS, a lineage or decode flow shows the picture Go drew,
// a hand-written diagram its source, and nothing fails.
func TestMermaidBrowserWithoutMermaid(t *testing.T) {
	ctx := browser(t)
	fragments, sources, drawn := mermaidPage(t)
	errs := openPage(t, ctx, pageOf(fragments...))
	shown := shownDiagrams(t, ctx)
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	browsertest.SaveArtifact(t, "mermaid-drawn-in-go.png", png)
	if len(shown) != len(sources) {
		t.Fatalf("the page shows %d Mermaid displays, want %d", len(shown), len(sources))
	}
	for i, d := range shown {
		switch {
		case d.SVG || d.Note != "":
			t.Errorf("display %d shows a Mermaid picture or note: %+v", i, d)
		case drawn[i] == nil && (d.Source != sources[i] || d.Fallback != nil):
			t.Errorf("display %d does not show its source alone:\n%+v\nwant source:\n%s", i, d, sources[i])
		case drawn[i] != nil && (d.Source != "" || !slices.Equal(d.Fallback, drawn[i])):
			t.Errorf("display %d does not show the picture Go drew alone:\n%+v\nwant texts %q", i, d, drawn[i])
		}
	}
	if e := errs.All(); len(e) > 0 {
		t.Errorf("JavaScript errors: %q", e)
	}
}
