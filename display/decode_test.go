package display_test

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/tensornb/tensornb/display"
	"github.com/tensornb/tensornb/tensor"
)

// decodeFlows are the decode diagrams the goldens and the browser draw:
// the article's two stories, fused QKV and PixelUnshuffle's channels
// (a contract without parts).
func decodeFlows() map[string]display.Renderer {
	return map[string]display.Renderer{
		"decode_qk":    display.DecodeFlow(tensor.InterleavedByHead(2, 3), tensor.BlockedByRole(2, 3)),
		"decode_qkv":   display.DecodeFlow(tensor.FusedQKV(4, 16)),
		"decode_pixel": display.DecodeFlow(tensor.PixelUnshuffleChannels(3, 2)),
		"decode_empty": display.DecodeFlow(),
	}
}

func TestDecodeFlowGolden(t *testing.T) {
	for name, r := range decodeFlows() {
		t.Run(name, func(t *testing.T) { checkMermaidGolden(t, name, r) })
	}
}

// The diagram states what the contract computes: the position formula it
// writes gives every position's Meaning back, and each part is drawn with
// the sizes Decode gives it.
func TestDecodeFlowStatesTheContract(t *testing.T) {
	for _, c := range []tensor.Contract{tensor.InterleavedByHead(2, 3), tensor.BlockedByRole(3, 2), tensor.FusedQKV(2, 5), tensor.PixelUnshuffleChannels(3, 2)} {
		text := display.DecodeFlow(c).Bundle()[display.MIMEPlain]
		_, formula, ok := strings.Cut(strings.SplitN(text, "\n", 2)[0], "position = ")
		if !ok {
			t.Fatalf("%s: no formula in\n%s", c, text)
		}
		for i := range c.Len() {
			m, got := c.Meaning(i), 0
			for _, term := range strings.Split(formula, " + ") {
				coef, axis, found := strings.Cut(term, "·")
				if !found {
					coef, axis = "1", term
				}
				k, err := strconv.Atoi(coef)
				if err != nil {
					t.Fatalf("%s: term %q of %q", c, term, formula)
				}
				got += k * m[axis]
			}
			if got != i {
				t.Errorf("%s: %q gives %d for position %d (%v)", c, formula, got, i, m)
			}
		}
		x := tensor.Arange(5*c.Len()).View(5, c.Len())
		for name, part := range c.Decode(x, -1) {
			sizes := strings.Trim(fmt.Sprint(part.Shape()[1:]), "()")
			if !strings.Contains(text, "= (…, "+sizes+")") {
				t.Errorf("%s: part %s of shape %v is not drawn with sizes %s:\n%s", c, name, part.Shape(), sizes, text)
			}
		}
	}
}

// The SVG form shows every step of the decode, and every arrow's label.
func TestDecodeFlowSVGShowsEverything(t *testing.T) {
	texts := svgTexts(t, decodeFlows()["decode_qk"].Bundle()[display.MIMESVG])
	for _, want := range []string{"interleaved by head (h r d)", "blocked by role (r h d)", "packed axis of 12",
		"position = 6·h + 3·r + d", "position = 6·r + 3·h + d", "split", "(…, h, r, d) = (…, 2, 2, 3)", "(…, r, h, d) = (…, 2, 2, 3)",
		"Q", "K", "(…, h, d) = (…, 2, 3)", "unflatten · view", "select r = 0 · view", "select r = 1 · view"} {
		if !slices.Contains(texts, want) {
			t.Errorf("the SVG does not show %q; it shows %q", want, texts)
		}
	}
}

// DecodeFlow and Packing refuse a Contract literal that is not whole with
// its error, not an index out of range.
func TestBrokenContractIsRefused(t *testing.T) {
	broken := tensor.Contract{Name: "broken", Axes: []string{"h", "r", "d"}, Sizes: []int{2, 6}}
	for name, draw := range map[string]func(){
		"DecodeFlow": func() { display.DecodeFlow(broken).Bundle() },
		"Packing":    func() { display.Packing(tensor.Arange(12), broken).Bundle() },
	} {
		err := tensor.Try(draw)
		var e *tensor.Error
		if !errors.As(err, &e) || !strings.Contains(e.Message, "Sizes gives 2") {
			t.Errorf("%s: %v", name, err)
		}
	}
}
