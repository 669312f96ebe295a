//go:build !js

package display_test

import (
	"encoding/xml"
	"fmt"
	"io"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/tensornb/tensornb/display"
	"github.com/tensornb/tensornb/tensor"
)

// A paintedLabel is a label of a drawn picture and the fill of the shape
// the browser finds under its centre.
type paintedLabel struct {
	Text, Fill string
	Row        float64 // the label's vertical centre, which tells its row
}

// Every static picture's SVG (which its HTML form shows as an image)
// draws in Chromium with a size and no errors; in the
// packing picture, the browser paints each part label over a coloured
// cell, one colour per part, the same under every contract.
func TestPicturesInBrowser(t *testing.T) {
	ctx := browser(t)
	var fragments []string
	cases := goldenCases()
	names := slices.Sorted(maps.Keys(cases))
	for _, name := range names {
		fragments = append(fragments, cases[name].Bundle()[display.MIMESVG])
	}
	x := tensor.Float32.Arange(12)
	fragments = append(fragments, display.Packing(x, tensor.InterleavedByHead(2, 3), tensor.BlockedByRole(2, 3)).Bundle()[display.MIMESVG])
	errs := openPage(t, ctx, pageOf(fragments...))

	sizes, err := chromedp.Run(ctx, chromedp.Evaluate[[][2]float64](`Array.from(document.querySelectorAll(".output"), o => {
		const svg = o.querySelector("svg"), r = svg ? svg.getBoundingClientRect() : {width: 0, height: 0};
		return [r.width, r.height];
	})`))
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range sizes[:len(names)] {
		if s[0] < 20 || s[1] < 10 {
			t.Errorf("%s draws at %v×%v pixels", names[i], s[0], s[1])
		}
	}

	for _, picture := range []int{slices.Index(names, "packing_qk"), len(fragments) - 1} {
		labels, err := chromedp.Run(ctx, chromedp.Evaluate[[]paintedLabel](`(() => {
			const out = document.querySelectorAll(".output")[`+strconv.Itoa(picture)+`];
			out.scrollIntoView();
			return Array.from(out.querySelectorAll("text"), t => {
				const r = t.getBoundingClientRect(), x = r.left + r.width / 2, y = r.top + r.height / 2;
				const under = document.elementsFromPoint(x, y).find(e => e.tagName === "rect");
				return {Text: t.textContent, Fill: under ? getComputedStyle(under).fill : "", Row: Math.round(y)};
			});
		})()`))
		if err != nil {
			t.Fatal(err)
		}
		checkPartColours(t, labels)
	}
	checkNoJSErrors(t, errs)
}

// checkPartColours checks the labels of contract rows: those naming parts
// ("h0·Q"). Each lies on a coloured cell; the same part (its words in any
// order) always on one colour, different parts on different colours; and
// every contract row shows the same set of parts.
func checkPartColours(t *testing.T, labels []paintedLabel) {
	t.Helper()
	colour := map[string]string{}
	owner := map[string]string{}
	rows := map[float64][]string{}
	for _, l := range labels {
		if !strings.Contains(l.Text, "·") {
			continue
		}
		words := strings.Split(l.Text, "·")
		sort.Strings(words)
		key := strings.Join(words, "·")
		rows[l.Row] = append(rows[l.Row], key)
		switch {
		case l.Fill == "" || l.Fill == "none" || l.Fill == "rgb(255, 255, 255)":
			t.Errorf("part label %q is not painted over a coloured cell (fill %q)", l.Text, l.Fill)
		case colour[key] == "":
			if other, taken := owner[l.Fill]; taken {
				t.Errorf("parts %s and %s share the colour %s", other, key, l.Fill)
			}
			colour[key], owner[l.Fill] = l.Fill, key
		case colour[key] != l.Fill:
			t.Errorf("part %s is painted %s and %s", key, colour[key], l.Fill)
		}
	}
	if len(rows) != 2 {
		t.Fatalf("found part labels in %d rows, want 2: %v", len(rows), rows)
	}
	var sets [][]string
	for _, keys := range rows {
		sets = append(sets, slices.Compact(slices.Sorted(slices.Values(keys))))
	}
	if !slices.Equal(sets[0], sets[1]) || len(sets[0]) != 4 {
		t.Errorf("the two contracts show parts %v and %v, want the same four", sets[0], sets[1])
	}
}

// Part names are drawn whole, however long, in every form, each on its
// own cell with no label over another; and so are long values.
func TestPackingLongPartNames(t *testing.T) {
	role := tensor.NewContract("by role", "(r h d)", tensor.Sizes{"r": 2, "h": 2, "d": 2}, "r", "query_projection", "key_projection")
	head := tensor.NewContract("by head", "(h r d)", tensor.Sizes{"h": 2, "r": 2, "d": 2}, "r", "query_projection", "key_projection")
	values := tensor.New([]float64{0, -1.5e-300, 2, 3, 4, 5, 6, 7})
	b := display.Packing(values, role, head).Bundle()
	checkForms(t, "packing", b)
	checkLegible(t, "packing", b[display.MIMESVG])
	for _, want := range []string{"h0·query_projection", "key_projection·h1", "h1·key_projection", "-1.5e-300"} {
		for _, mime := range []string{display.MIMEPlain, display.MIMESVG} {
			if !strings.Contains(b[mime], want) {
				t.Errorf("the %s form does not say %q:\n%s", mime, want, b[mime])
			}
		}
	}
	boxes, _, _ := svgTextBoxes(t, b[display.MIMESVG])
	cells := cellRects(t, b[display.MIMESVG])
	for _, box := range boxes {
		if !strings.Contains(box.text, "_projection") {
			continue
		}
		inside := false
		for _, c := range cells {
			inside = inside || box.x0 >= c.x0 && box.x1 <= c.x1 && box.y0 >= c.y0 && box.y1 <= c.y1
		}
		if !inside {
			t.Errorf("part label %q %v lies on no cell of its own", box.text, box)
		}
	}
}

// cellRects returns the boxes of the <rect> elements of an SVG picture.
func cellRects(t *testing.T, svg string) []textBox {
	t.Helper()
	var out []textBox
	dec := xml.NewDecoder(strings.NewReader(svg))
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		if e, ok := tok.(xml.StartElement); ok && e.Name.Local == "rect" {
			v := map[string]float64{}
			for _, a := range e.Attr {
				v[a.Name.Local], _ = strconv.ParseFloat(a.Value, 64)
			}
			out = append(out, textBox{"rect", v["x"], v["y"], v["x"] + v["width"], v["y"] + v["height"]})
		}
	}
}

// A long packed axis with long part names or long values is drawn within
// the size bound: summarized if drawing every position would pass it.
func TestPackingStaysSmall(t *testing.T) {
	long := strings.Repeat("<␀", 40)
	for _, c := range []struct {
		name   string
		values *tensor.Tensor
		parts  []string
	}{
		{"wide values", tensor.Float64.Randn(400), []string{"Q", "K"}},
		{"long parts", tensor.Arange(400), []string{long, long + "2"}},
		{"both", tensor.Float64.Randn(400).Mul(tensor.Float64.Scalar(-1e-300)), []string{long, "&" + long}},
	} {
		var contracts []tensor.Contract
		for k := range 3 {
			contracts = append(contracts, tensor.NewContract(fmt.Sprint("c", k), "(h r d)", tensor.Sizes{"h": 2, "r": 2, "d": 100}, "r", c.parts...))
			b := display.Packing(c.values, contracts...).Bundle()
			checkForms(t, fmt.Sprintf("%s, %d contracts", c.name, k+1), b)
			if !strings.Contains(b[display.MIMEPlain], nameOf(c.parts[0])) {
				t.Errorf("%s: the text form does not name the part %q whole", c.name, c.parts[0])
			}
		}
	}
}

// nameOf is a part name as a picture shows it: ␀ stands for a NUL.
func nameOf(s string) string { return strings.ReplaceAll(s, "\x00", "␀") }
