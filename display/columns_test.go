package display

import "testing"

// columns lines its cells up under each other when a label has letters
// of more than one byte: widths count characters, for labels as for cells.
func TestColumnsAlignNonASCIILabels(t *testing.T) {
	got := columns([]string{"α·β", "ab"}, []string{"1", "2"}, []string{"3", "4"})
	want := "α·β 1 2\nab  3 4"
	if got != want {
		t.Errorf("columns =\n%s\nwant\n%s", got, want)
	}
}
