// The self-check of exercises in JupyterLab: when a test cell of an
// exercise in nbgrader's format has run, its verdict (passed or failed,
// its points, and the grader's feedback) is shown under it, as the
// site's pages show it (kernel/internal/browser/verdict.js).
//
// The verdict is Go's, as the pages': the engine of the notebook's
// kernel judges the cell (Engine.verdict), and this plugin draws what it
// gives. The engine is found by the id of the kernel of the notebook's
// session, among the running tensornb kernels of kernel.js (engineOf), a
// plugin of the same bundle: JupyterLab's kernel connection has no
// request a verdict could ride on, and the kernel behind it is
// JupyterLite's object, which no plugin reaches otherwise. While the
// engine judges, the cell's node has data-tnb-verdict="pending"; a cell
// of a notebook whose kernel is not tensornb's shows none.
import { INotebookTracker, NotebookActions } from "@jupyterlab/notebook";
import { engineOf } from "./kernel.js";
import { showVerdict } from "../../verdict.js";

// The latest request of each cell (its model) for a verdict: an earlier
// one that answers later is not drawn.
const latest = new WeakMap();

export default {
  id: "tensornb:self-check",
  description:
    "Shows under each test cell of an exercise whether it passed, with the grader's feedback.",
  autoStart: true,
  requires: [INotebookTracker],
  activate: (app, tracker) => {
    NotebookActions.executed.connect((_, { notebook, cell }) => {
      if (cell.model.type !== "code") {
        return;
      }
      const panel = tracker.find((p) => p.content === notebook);
      const kernel = panel && panel.sessionContext.session?.kernel;
      const engine = kernel ? engineOf(kernel.id) : null;
      if (!engine) {
        showVerdict(cell.node, null);
        return;
      }
      const request = {};
      latest.set(cell.model, request);
      cell.node.dataset.tnbVerdict = "pending";
      engine
        .verdict(
          cell.model.getMetadata("nbgrader"),
          cell.model.outputs.toJSON(),
        )
        .catch(() => null)
        .then((verdict) => {
          if (latest.get(cell.model) !== request) {
            return;
          }
          latest.delete(cell.model);
          showVerdict(cell.node, verdict);
          delete cell.node.dataset.tnbVerdict;
        });
    });
  },
};
