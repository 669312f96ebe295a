package site

import ipynb "github.com/tensornb/tensornb/kernel/internal/notebook"

// The MIME types of a widget's live view, and of the widgets' state a
// notebook may keep in its metadata.
const (
	widgetView  = "application/vnd.jupyter.widget-view+json"
	widgetState = "application/vnd.jupyter.widget-state+json"
)

// showStills drops the live view from each widget output of nb whose model
// the notebook does not keep (it was saved without its widgets' state, as
// scripts/notebooks saves them) and that holds another form, the widget's
// still picture. Until the cell runs again, no kernel has made the model,
// and JupyterLab's widget manager would show "model not found" where the
// picture can be. It reports whether it changed nb.
func showStills(nb *ipynb.Notebook) bool {
	kept := savedWidgets(nb)
	changed := false
	for _, c := range nb.Cells {
		for _, o := range c.Outputs {
			data, _ := o["data"].(map[string]any)
			view, ok := data[widgetView].(map[string]any)
			if !ok || len(data) < 2 {
				continue
			}
			if id, _ := view["model_id"].(string); !kept[id] {
				delete(data, widgetView)
				changed = true
			}
		}
	}
	return changed
}

// savedWidgets returns the model ids whose state nb's metadata keeps.
func savedWidgets(nb *ipynb.Notebook) map[string]bool {
	kept := map[string]bool{}
	widgets, _ := nb.Metadata["widgets"].(map[string]any)
	saved, _ := widgets[widgetState].(map[string]any)
	state, _ := saved["state"].(map[string]any)
	for id := range state {
		kept[id] = true
	}
	return kept
}
