// The self-check of exercises in JupyterLab: when a test cell of an
// exercise in nbgrader's format has run, its verdict (passed or failed,
// its points, and the grader's feedback) is shown under it, as the
// site's pages show it (kernel/internal/browser/verdict.js).
import { NotebookActions } from "@jupyterlab/notebook";
import { showVerdict } from "../../verdict.js";

export default {
  id: "tensornb:self-check",
  description:
    "Shows under each test cell of an exercise whether it passed, with the grader's feedback.",
  autoStart: true,
  activate: () => {
    NotebookActions.executed.connect((_, { cell }) => {
      if (cell.model.type !== "code") {
        return;
      }
      showVerdict(
        cell.node,
        cell.model.getMetadata("nbgrader"),
        cell.model.outputs.toJSON(),
      );
    });
  },
};
