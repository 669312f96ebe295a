// JupyterLab's MathJax typesetter, bundled apart from page.js, which loads
// this script when a markdown cell first has formulas to typeset (see
// lazy.js).
import { MathJaxTypesetter } from "@jupyterlab/mathjax-extension";

(window.tnbLazy ??= {}).mathjax = new MathJaxTypesetter();
