// The self-check of an exercise in nbgrader's format, in the browser:
// under a test cell that ran, whether it passed, its points and, if it
// failed, the grader's feedback. The verdict itself is Go's: the engine
// judges the cell (Engine.verdict in engine.js, which asks the worker for
// kernel/internal/nbgrader's Judge, the rule tensornb grade scores by),
// and this file only draws what it gives. The pages (site/web/page.js)
// and JupyterLite (lite/web/selfcheck.js) show it under the cell.

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

// showVerdict shows the verdict v, as the engine gave it, in container,
// in place of the one shown there, if any; with v null (the cell is no
// test cell, or the engine could not judge it) it only removes that one.
export function showVerdict(container, v) {
  const old = container.querySelector(":scope > .tnb-verdict");
  if (old) {
    old.remove();
  }
  if (v) {
    container.append(verdictNode(v));
  }
}
