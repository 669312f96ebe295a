package display_test

import (
	"maps"
	"slices"
	"testing"

	"github.com/tensornb/tensornb/display"
)

// packingStory is a hand-written diagram of the article's packing story:
// the same Q and K weights interleaved by head or blocked by role.
const packingStory = `flowchart LR
  w["qk weight, interleaved by head<br>Q0 K0 Q1 K1"] -->|"view(h, r, d): no copy"| v["(h, r, d) view"]
  v -->|"permute(r, h, d): strides only"| p["(r, h, d) view<br>not contiguous"]
  p ==>|"contiguous(): a copy"| b["qk weight, blocked by role<br>Q0 Q1 K0 K1"]
`

func TestMermaidBundle(t *testing.T) {
	src := "flowchart LR\n  a[\"<b> & c\"] --> d"
	b := display.Mermaid(src).Bundle()
	if b[display.MIMEMermaid] != src || b[display.MIMEPlain] != src {
		t.Errorf("the Mermaid and text forms are not the source: %q, %q", b[display.MIMEMermaid], b[display.MIMEPlain])
	}
	// JupyterLab prefers HTML to Mermaid: with an HTML form, it would not
	// draw the diagram.
	if len(b) != 2 {
		t.Errorf("a hand-written diagram has forms other than its source: %v", slices.Collect(maps.Keys(b)))
	}
	checkForms(t, "Mermaid", b)
}
