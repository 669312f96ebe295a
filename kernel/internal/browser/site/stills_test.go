package site

import (
	"testing"

	ipynb "github.com/tensornb/tensornb/kernel/internal/notebook"
)

// A widget output saved without its model's state shows its still
// picture on the site; one whose state the notebook keeps, or that has no
// other form, keeps its live view.
func TestShowStills(t *testing.T) {
	view := func(id string) map[string]any {
		return map[string]any{"model_id": id, "version_major": 2.0, "version_minor": 0.0}
	}
	nb := &ipynb.Notebook{
		Metadata: map[string]any{"widgets": map[string]any{widgetState: map[string]any{"state": map[string]any{"kept": map[string]any{}}}}},
		Cells: []*ipynb.Cell{{Type: "code", Outputs: []map[string]any{
			{"output_type": "execute_result", "data": map[string]any{widgetView: view("gone"), "image/svg+xml": "<svg/>", "text/plain": "IntSlider(...)"}},
			{"output_type": "display_data", "data": map[string]any{widgetView: view("kept"), "text/plain": "IntSlider(...)"}},
			{"output_type": "display_data", "data": map[string]any{widgetView: view("alone")}},
		}}},
	}
	if !showStills(nb) {
		t.Fatal("showStills changed nothing")
	}
	for i, want := range []bool{false, true, true} {
		_, has := nb.Cells[0].Outputs[i]["data"].(map[string]any)[widgetView]
		if has != want {
			t.Errorf("output %d: live view kept %v, want %v", i, has, want)
		}
	}
	if showStills(nb) {
		t.Error("a second showStills changed the notebook again")
	}
}
