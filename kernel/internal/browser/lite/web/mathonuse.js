// MathJax on first use in JupyterLab: its MathJax typesetter, which
// JupyterLab asks to typeset every markdown cell it renders and every
// LaTeX output, loads MathJax (its chunks, a megabyte of script, and its
// set-up) the first time it is asked, formula or not. This plugin lets
// it typeset only a node whose text may hold a formula, so a notebook
// without math opens without loading MathJax, as the site's pages do.
import mathjax from "@jupyterlab/mathjax-extension";
import { hasFormula } from "../../formula.js";

export default {
  id: "tensornb:math-on-first-use",
  description:
    "Typesets with MathJax only the nodes whose text may hold a formula.",
  autoStart: true,
  requires: [mathjax.provides], // ILatexTypesetter
  activate: (app, typesetter) => {
    const typeset = typesetter.typeset.bind(typesetter);
    typesetter.typeset = (node) =>
      hasFormula(node) ? typeset(node) : Promise.resolve();
  },
};
