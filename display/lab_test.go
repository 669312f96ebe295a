//go:build !js

package display_test

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"image"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/tensornb/tensornb/display"
	"github.com/tensornb/tensornb/internal/displaysink"
	"github.com/tensornb/tensornb/tensor"
)

// The JupyterLab test renders every picture's bundle, and every output
// saved in the notebooks, with JupyterLab's own renderers: the page of
// testdata/lab, whose script is bundled from the npm packages
// @jupyterlab/rendermime, @jupyterlab/apputils (the Sanitizer) and
// @jupyterlab/mermaid, chooses the MIME type as a notebook's output area
// does and renders it, sanitized when the output is untrusted (openLab in
// browser_test.go opens it).

// A labCase is one output to render.
type labCase struct {
	name   string
	bundle display.Bundle
}

// wantMIME is the form JupyterLab should show: the HTML form, which
// JupyterLab ranks above every other, else a diagram through
// @jupyterlab/mermaid, else the SVG (only when trusted: JupyterLab shows
// no SVG of an untrusted output), else the PNG, else the text.
func (c labCase) wantMIME(trusted bool) string {
	for _, mime := range []string{display.MIMEHTML, display.MIMEMermaid, display.MIMESVG, display.MIMEPNG, display.MIMEPlain} {
		if _, ok := c.bundle[mime]; ok && (trusted || mime != display.MIMESVG) {
			return mime
		}
	}
	return ""
}

// svgLabels returns the texts of an SVG picture's <text> elements.
func svgLabels(t *testing.T, svg string) []string {
	t.Helper()
	var labels []string
	dec := xml.NewDecoder(strings.NewReader(svg))
	in := false
	var b strings.Builder
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("the SVG does not parse: %v", err)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			if tok.Name.Local == "text" {
				in = true
				b.Reset()
			}
		case xml.CharData:
			if in {
				b.Write(tok)
			}
		case xml.EndElement:
			if tok.Name.Local == "text" {
				in = false
				labels = append(labels, b.String())
			}
		}
	}
	return labels
}

// coloured tells whether a form draws in a colour other than greys.
var colourHex = regexp.MustCompile(`#([0-9a-fA-F]{2})([0-9a-fA-F]{2})([0-9a-fA-F]{2})\b`)

func hasColour(svg string) bool {
	for _, m := range colourHex.FindAllStringSubmatch(svg, -1) {
		var r, g, b int
		fmt.Sscanf(m[1]+" "+m[2]+" "+m[3], "%x %x %x", &r, &g, &b)
		if max(r, g, b)-min(r, g, b) >= 48 {
			return true
		}
	}
	return false
}

// labPictures are the pictures of the package, one or more of each kind.
func labPictures(t *testing.T) []labCase {
	var cases []labCase
	add := func(name string, r display.Renderer) { cases = append(cases, labCase{name, r.Bundle()}) }
	golden := goldenCases()
	names := make([]string, 0, len(golden))
	for name := range golden {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		add(name, golden[name])
	}
	flows := decodeFlows()
	for _, name := range []string{"decode_qk", "decode_qkv", "decode_pixel"} {
		add(name, flows[name])
	}
	add("lineage_article", articleLineage())
	add("lineage_tricky", trickyLineage())
	add("mermaid_packing_story", display.Mermaid(packingStory))
	// A large random matrix at its natural size, wider than the output,
	// and a name longer than a label column used to be.
	tensor.ManualSeed(0)
	add("layout_randn", display.Layout(tensor.Randn(50, 60)))
	add("named_layout", display.Named{Name: longName, Tensor: tensor.Arange(24).View(2, 3, 4)}.Layout())
	add("views_long_name", display.Views(display.Named{Name: longName, Tensor: articleMatrix()}, display.Named{Name: "b", Tensor: articleMatrix().T()}))
	add("explorer_article", display.Explorer(articleMatrix()))
	add("explorer_refusal", display.Explorer(tensor.Zeros(17, 3)))
	rec := &recorder{}
	displaysink.Set(rec.Display)
	display.Result(tensor.Arange(6).View(2, 3).T())
	display.Result("a string")
	displaysink.Set(nil)
	cases = append(cases, labCase{"result_tensor", rec.bundles[0]}, labCase{"result_string", rec.bundles[1]})
	return cases
}

// notebookOutputs returns the displays and results saved in the
// notebooks.
func notebookOutputs(t *testing.T) []labCase {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join("..", "notebooks", "*.ipynb"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no notebooks found (%v)", err)
	}
	var cases []labCase
	for _, path := range paths {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var nb struct {
			Cells []struct {
				Outputs []struct {
					Type string                     `json:"output_type"`
					Data map[string]json.RawMessage `json:"data"`
				} `json:"outputs"`
			} `json:"cells"`
		}
		if err := json.Unmarshal(data, &nb); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		name := strings.TrimSuffix(filepath.Base(path), ".ipynb")
		for i, cell := range nb.Cells {
			for j, out := range cell.Outputs {
				if out.Type != "display_data" && out.Type != "execute_result" {
					continue
				}
				b := display.Bundle{}
				for mime, raw := range out.Data {
					if mime == widgetView {
						// The live view needs a widget manager and a
						// kernel (JupyterLite's test has both); this page
						// shows the still picture beside it.
						continue
					}
					b[mime] = multiline(t, raw)
				}
				cases = append(cases, labCase{fmt.Sprintf("%s_cell%d_out%d", name, i, j), b})
			}
		}
	}
	return cases
}

// widgetView is the MIME type of a widget's live view.
const widgetView = "application/vnd.jupyter.widget-view+json"

// multiline reads an nbformat string, which may be a list of lines.
func multiline(t *testing.T, raw json.RawMessage) string {
	t.Helper()
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var lines []string
	if err := json.Unmarshal(raw, &lines); err != nil {
		t.Fatalf("an output's data is neither a string nor a list of strings: %s", raw)
	}
	return strings.Join(lines, "")
}

// A labBox is a rectangle on the page.
type labBox struct {
	X, Y, W, H float64
}

func (b labBox) String() string { return fmt.Sprintf("(%.0f,%.0f %.0f×%.0f)", b.X, b.Y, b.W, b.H) }

// inside tells whether b lies within o, give or take a pixel.
func (b labBox) inside(o labBox) bool {
	return b.X >= o.X-1 && b.Y >= o.Y-1 && b.X+b.W <= o.X+o.W+1 && b.Y+b.H <= o.Y+o.H+1
}

// overlaps tells whether b and o share more than a sliver.
func (b labBox) overlaps(o labBox) bool {
	w := min(b.X+b.W, o.X+o.W) - max(b.X, o.X)
	h := min(b.Y+b.H, o.Y+o.H) - max(b.Y, o.Y)
	return w > 1 && h > 1
}

// A labLabel is a piece of text the output shows, with its box.
type labLabel struct {
	Text  string `json:"text"`
	Group string `json:"group"` // labels of one group must not overlap
	Box   labBox `json:"box"`
}

// A labImage is an <img> of the output.
type labImage struct {
	Decoded    bool    `json:"decoded"`
	NaturalW   float64 `json:"naturalW"`
	NaturalH   float64 `json:"naturalH"`
	Box        labBox  `json:"box"`
	SVGDataURI bool    `json:"svgDataURI"`
	Source     string  `json:"source"` // the SVG it shows
}

// labOutput is what an output shows after JupyterLab rendered it.
type labOutput struct {
	MIME        string     `json:"mimeType"`
	ID          string     `json:"id"`
	Box         labBox     `json:"box"`
	Text        string     `json:"text"`
	Images      []labImage `json:"images"`
	Labels      []labLabel `json:"labels"`
	MermaidSVG  bool       `json:"mermaidSVG"`
	MermaidText string     `json:"mermaidText"` // the texts of the diagram Mermaid drew`
	ScrollW     float64    `json:"scrollW"`     // the width and height the output shows, with scrolling
	ScrollH     float64    `json:"scrollH"`
	LiveReady   bool       `json:"liveReady"` // an explorer or playground started
	Scripts     int        `json:"scripts"`
}

// labInspectJS renders a bundle and reports what the output shows: its
// images, decoded, with the labels of the SVG each shows (laid out in a
// hidden copy of the SVG placed over the image, at the image's size), the
// labels of inline SVG pictures, the node labels of Mermaid's diagrams
// (which @jupyterlab/mermaid shows as an SVG image too), and the cells,
// slots and buttons of a live explorer or playground.
const labInspectJS = `(async function (bundle, trusted, label) {
  const r = await window.renderBundle(bundle, trusted, label);
  const out = document.getElementById(r.id);
  function box(el) {
    const b = el.getBoundingClientRect();
    return { X: b.left + scrollX, Y: b.top + scrollY, W: b.width, H: b.height };
  }
  const labels = [];
  function collect(root, selector, group) {
    root.querySelectorAll(selector).forEach(function (el) {
      const b = box(el);
      if (b.W > 0 && b.H > 0) {
        labels.push({ text: el.textContent.trim(), group: group, box: b });
      }
    });
  }
  // Mermaid draws asynchronously inside its widget: an image or, if it
  // cannot, a details element with the source and the error. A drawing
  // that never ends runs into the browser session's bound.
  if (r.mimeType === "text/vnd.mermaid") {
    while (!out.querySelector("img, details")) {
      await new Promise(function (ok) { setTimeout(ok, 50); });
    }
  }
  const images = [];
  let mermaidText = "";
  for (const img of Array.from(out.querySelectorAll("img"))) {
    let decoded = true;
    try { await img.decode(); } catch (e) { decoded = false; }
    const src = img.getAttribute("src") || "";
    let source = "";
    if (src.startsWith("data:image/svg+xml;base64,")) {
      source = new TextDecoder().decode(Uint8Array.from(atob(src.slice(src.indexOf(",") + 1)), function (c) { return c.charCodeAt(0); }));
    } else if (src.startsWith("data:image/svg+xml,")) {
      source = decodeURIComponent(src.slice(src.indexOf(",") + 1));
    }
    if (source) {
      const b = box(img);
      const svg = document.importNode(new DOMParser().parseFromString(source, "image/svg+xml").documentElement, true);
      svg.setAttribute("width", b.W);
      svg.setAttribute("height", b.H);
      const holder = document.createElement("div");
      holder.style.cssText = "position:absolute;margin:0;padding:0;visibility:hidden;left:" + b.X + "px;top:" + b.Y + "px";
      holder.appendChild(svg);
      document.body.appendChild(holder);
      if (img.closest(".jp-RenderedMermaid")) {
        collect(svg, ".nodeLabel", "mermaid nodes");
        mermaidText += Array.from(svg.querySelectorAll("foreignObject, text"), function (e) { return e.textContent; }).join("\n");
      } else {
        collect(svg, "text", "picture");
      }
      holder.remove();
    }
    images.push({ decoded: decoded && img.naturalWidth > 0, naturalW: img.naturalWidth, naturalH: img.naturalHeight,
      box: box(img), source: source });
  }
  out.querySelectorAll("svg").forEach(function (svg) {
    if (!svg.closest(".jp-RenderedMermaid") && !svg.parentElement.closest("svg")) {
      collect(svg, "text", "picture");
    }
  });
  // How far the output, or a box in it, scrolls: what lies there is
  // inside the output, a scroll away.
  function scrolled(axis) {
    let most = 0;
    [out].concat(Array.from(out.querySelectorAll("*"))).forEach(function (el) {
      const overflow = getComputedStyle(el)["overflow" + axis];
      if (overflow === "auto" || overflow === "scroll") {
        most = Math.max(most, axis === "X" ? el.scrollWidth - el.clientWidth : el.scrollHeight - el.clientHeight);
      }
    });
    return most;
  }
  const explorer = out.querySelector(".tnb-explorer[data-ready]");
  if (explorer) {
    collect(explorer, ".tx-cell", "live cells");
    collect(explorer, ".tx-slot", "live slots");
    collect(explorer, ".tx-mode", "live buttons");
  }
  const playground = out.querySelector(".tnb-playground[data-ready]");
  if (playground) {
    collect(playground, ".tp-cell", "live cells");
    collect(playground, ".tp-slot", "live slots");
    collect(playground, ".tp-preset", "live buttons");
  }
  return { mimeType: r.mimeType, id: r.id, box: box(out), text: out.innerText,
    scrollW: out.clientWidth + scrolled("X"), scrollH: out.clientHeight + scrolled("Y"),
    images: images, labels: labels,
    mermaidSVG: images.some(function (i) { return i.decoded && i.source.indexOf("<svg") >= 0; }) &&
      !!out.querySelector(".jp-RenderedMermaid img") && !out.querySelector(".jp-RenderedMermaid.jp-mod-warning"),
    mermaidText: mermaidText, liveReady: !!(explorer || playground), scripts: out.querySelectorAll("script").length };
})(%s, %t, %s)`

// colourPixels counts the pixels of a PNG that are clearly coloured, not
// grey.
func colourPixels(t *testing.T, data []byte) int {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	bounds := img.Bounds()
	for y := bounds.Min.Y; y < bounds.Max.Y; y++ {
		for x := bounds.Min.X; x < bounds.Max.X; x++ {
			if chroma(img, x, y) >= 48 {
				n++
			}
		}
	}
	return n
}

func chroma(img image.Image, x, y int) int {
	r, g, b, _ := img.At(x, y).RGBA()
	r, g, b = r>>8, g>>8, b>>8
	return int(max(r, g, b) - min(r, g, b))
}

// checkLabOutput checks one rendered output against its bundle.
func checkLabOutput(t *testing.T, c labCase, trusted bool, o labOutput, shot []byte) {
	t.Helper()
	where := fmt.Sprintf("%s (trusted %t)", c.name, trusted)
	if want := c.wantMIME(trusted); o.MIME != want {
		t.Errorf("%s: JupyterLab chose %q, want %q", where, o.MIME, want)
	}
	if o.Box.W <= 0 || o.Box.H <= 0 {
		t.Errorf("%s: the output is empty: %v", where, o.Box)
	}
	// A picture wider than the output is shown at its size, and the output
	// (or a box in it) scrolls sideways to it.
	content := o.Box
	content.W, content.H = max(o.Box.W, o.ScrollW), max(o.Box.H, o.ScrollH)
	for _, img := range o.Images {
		if !img.Decoded || img.Box.W < 1 || img.Box.H < 1 {
			t.Errorf("%s: an image did not load: %+v", where, img)
		}
		if !img.Box.inside(content) {
			t.Errorf("%s: an image %v lies outside the output %v", where, img.Box, content)
		}
		if img.NaturalW > 0 && img.Box.W < img.NaturalW-1 {
			t.Errorf("%s: an image of %.0f px is scaled down to %.0f px", where, img.NaturalW, img.Box.W)
		}
	}
	// A static picture shows every label of its SVG form, laid out; a live
	// explorer or playground shows its own elements instead.
	live := trusted && isLive(c.bundle)
	if svg, ok := c.bundle[display.MIMESVG]; ok && o.MIME == display.MIMEHTML && !live {
		var shown []string
		for _, l := range o.Labels {
			if l.Group == "picture" {
				shown = append(shown, l.Text)
			}
		}
		if want := svgLabels(t, svg); !slices.Equal(nonEmpty(shown), nonEmpty(want)) {
			t.Errorf("%s: the labels laid out are not the picture's (text shown: %.200q):\n got %q\nwant %q", where, o.Text, shown, want)
		}
	}
	for i, a := range o.Labels {
		if !a.Box.inside(content) {
			t.Errorf("%s: label %q %v lies outside the output %v", where, a.Text, a.Box, content)
		}
		for _, b := range o.Labels[i+1:] {
			if a.Group == b.Group && a.Box.overlaps(b.Box) {
				t.Errorf("%s: labels %q %v and %q %v overlap", where, a.Text, a.Box, b.Text, b.Box)
			}
		}
	}
	if c.bundle[display.MIMEMermaid] != "" && o.MIME == display.MIMEMermaid && !o.MermaidSVG {
		t.Errorf("%s: @jupyterlab/mermaid drew no SVG: %.300q", where, o.Text)
	}
	// Mermaid's drawing of a diagram Go draws too says all the SVG form
	// says: every box's lines, every arrow's label, every group's title.
	if svg := c.bundle[display.MIMESVG]; svg != "" && o.MIME == display.MIMEMermaid {
		drawn := spaces.ReplaceAllString(o.MermaidText, " ")
		for _, label := range nonEmpty(svgLabels(t, svg)) {
			if !strings.Contains(drawn, spaces.ReplaceAllString(label, " ")) {
				t.Errorf("%s: Mermaid's drawing does not show %q; it shows %.400q", where, label, drawn)
			}
		}
	}
	if isLive(c.bundle) && o.MIME == display.MIMEHTML {
		checkLabLive(t, where, trusted, o)
	}
	wantColour := hasColour(c.bundle[display.MIMESVG]) || o.MIME == display.MIMEMermaid
	if n := colourPixels(t, shot); wantColour && n == 0 {
		t.Errorf("%s: the output shows no colour", where)
	}
}

// isLive tells whether a bundle's HTML form is an explorer or a
// playground, which a script makes live.
func isLive(b display.Bundle) bool {
	return strings.Contains(b[display.MIMEHTML], `class="tnb-explorer"`) || strings.Contains(b[display.MIMEHTML], `class="tnb-playground"`)
}

// checkLabLive checks an explorer or a playground: live when trusted, and
// otherwise a static picture with a line saying how to make it live.
func checkLabLive(t *testing.T, where string, trusted bool, o labOutput) {
	t.Helper()
	if trusted {
		cells := 0
		for _, l := range o.Labels {
			if l.Group == "live cells" {
				cells++
			}
		}
		if !o.LiveReady || cells == 0 {
			t.Errorf("%s: the script did not start (%d cells)", where, cells)
		}
		return
	}
	if o.LiveReady || o.Scripts > 0 {
		t.Errorf("%s: an untrusted output ran or kept its script", where)
	}
	if !strings.Contains(o.Text, "trust the notebook") || !strings.Contains(o.Text, "run the cell") {
		t.Errorf("%s: the still picture does not say how to make it live: %.300q", where, o.Text)
	}
}

func nonEmpty(s []string) []string {
	var out []string
	for _, x := range s {
		if strings.TrimSpace(x) != "" {
			out = append(out, strings.TrimSpace(x))
		}
	}
	return out
}

var spaces = regexp.MustCompile(`\s+`)

// fileName turns a case name into a file name.
func fileName(s string) string {
	return regexp.MustCompile(`[^A-Za-z0-9_.-]+`).ReplaceAllString(s, "_")
}

func TestJupyterLabRendersEveryOutput(t *testing.T) {
	labPage(t) // skips the test before anything is rendered if the page is not built
	cases := append(labPictures(t), notebookOutputs(t)...)
	for _, trusted := range []bool{true, false} {
		t.Run(fmt.Sprintf("trusted=%t", trusted), func(t *testing.T) {
			ctx, errs := openLab(t)
			for _, c := range cases {
				b, err := json.Marshal(c.bundle)
				if err != nil {
					t.Fatal(err)
				}
				label, _ := json.Marshal(c.name)
				o, err := chromedp.Run(ctx, chromedp.Evaluate[labOutput](fmt.Sprintf(labInspectJS, b, trusted, label), chromedp.EvalAwaitPromise))
				if err != nil {
					t.Fatalf("%s: rendering: %v", c.name, err)
				}
				shot := saveElementShot(t, ctx, o.ID, labShotName(fileName(c.name), trusted))
				checkLabOutput(t, c, trusted, o, shot)
			}
			checkNoJSErrors(t, errs)
		})
	}
}
