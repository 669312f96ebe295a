// hasFormula says whether a node's text may hold a formula for MathJax:
// what MathJax, as JupyterLab configures it, reads as the start of one
// ($, \( and \[, and \begin of an environment). The pages
// (site/web/lazy.js) and JupyterLite (lite/web/mathonuse.js) load MathJax
// only for a node that has one.
const formula = /\$|\\[([]|\\begin\{/;

export function hasFormula(node) {
  return formula.test(node.textContent);
}
