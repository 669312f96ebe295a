package display_test

import (
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
	if e := errs.All(); len(e) > 0 {
		t.Errorf("JavaScript errors: %q", e)
	}
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
