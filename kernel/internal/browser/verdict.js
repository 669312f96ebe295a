// The self-check of an exercise in nbgrader's format, in the browser: a
// test cell that ran (nbgrader metadata with grade, and neither solution
// nor task) passed if it showed no error, and its feedback otherwise is
// its error as tensornb grade gives it (package grade's feedbackLines):
// the traceback's lines, whose first is the error's name and message, or
// "name: message" if it has none. The pages (site/web/page.js) and
// JupyterLite (lite/web/kernel.js) show it under the cell.

// verdict returns how a test cell did, from its nbgrader metadata and
// its outputs as nbformat stores them, or null if the cell is not a test.
export function verdict(nbgrader, outputs) {
  if (!nbgrader || !nbgrader.grade || nbgrader.solution || nbgrader.task) {
    return null;
  }
  const max = Number(nbgrader.points) || 0;
  const error = outputs.find((o) => o.output_type === "error");
  if (!error) {
    return { passed: true, points: max, max, feedback: "" };
  }
  const lines =
    error.traceback && error.traceback.length
      ? error.traceback
      : [`${error.ename}: ${error.evalue}`];
  return { passed: false, points: 0, max, feedback: lines.join("\n") };
}

// verdictNode returns an element that shows a verdict: a line with its
// points, and the feedback under it for a test that failed.
export function verdictNode(v) {
  const node = document.createElement("div");
  node.className =
    "tnb-verdict " + (v.passed ? "tnb-verdict-pass" : "tnb-verdict-fail");
  const unit = v.max === 1 ? "point" : "points";
  const line = document.createElement("div");
  line.className = "tnb-verdict-line";
  line.textContent = v.passed
    ? `✓ passed: ${v.points} of ${v.max} ${unit}`
    : `✗ failed: ${v.points} of ${v.max} ${unit}`;
  node.append(line);
  if (!v.passed) {
    const feedback = document.createElement("pre");
    feedback.className = "tnb-verdict-feedback";
    feedback.textContent = v.feedback;
    // Its lines wrap, as an error's do in the output above: a line as
    // long as a check's message would widen the cell past the notebook.
    feedback.style.cssText =
      "margin: 4px 0; white-space: pre-wrap; overflow-wrap: anywhere;";
    node.append(feedback);
  }
  // Inline styles: JupyterLite's page has no style sheet of ours.
  // The page's style sheet sets its left margin, under the outputs.
  node.style.cssText = `margin-top: 4px; margin-bottom: 8px; padding: 4px 8px; border-left: 4px solid ${v.passed ? "#16a34a" : "#dc2626"}; background: ${v.passed ? "#f0fdf4" : "#fef2f2"}; font-family: var(--jp-ui-font-family, system-ui, sans-serif); font-size: 13px;`;
  return node;
}

// showVerdict puts the verdict of a test cell in place of the one shown
// in container, if any, or removes it when the cell is no test.
export function showVerdict(container, nbgrader, outputs) {
  const old = container.querySelector(":scope > .tnb-verdict");
  if (old) {
    old.remove();
  }
  const v = verdict(nbgrader, outputs);
  if (v) {
    container.append(verdictNode(v));
  }
  return v;
}
