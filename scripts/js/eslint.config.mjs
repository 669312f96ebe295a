// ESLint's configuration for the JavaScript of the repository (see
// package.json): its recommended rules, and for each file the globals of
// the place it runs in. The patterns are relative to the repository's
// root, where npm run check runs ESLint.
import js from "@eslint/js";
import globals from "globals";

export default [
  js.configs.recommended,
  {
    // Modules that esbuild bundles into a page's script: the site's pages,
    // its JupyterLite app, and the display package's JupyterLab test page.
    files: ["**/*.js"],
    languageOptions: { sourceType: "module", globals: globals.browser },
  },
  {
    // The scripts of display's interactive pictures: function expressions
    // that Go embeds in each picture's HTML, run by the page that shows it.
    files: ["display/*.js"],
    languageOptions: { sourceType: "script" },
  },
  {
    // A classic Web Worker: wasm_exec.js, which it imports, defines Go and
    // fs, and the engine it runs defines tensornb.
    files: ["kernel/internal/browser/worker.js"],
    languageOptions: {
      sourceType: "script",
      globals: {
        ...globals.worker,
        Go: "readonly",
        fs: "readonly",
        tensornb: "readonly",
      },
    },
  },
  {
    // An expression the Notebook 6 test evaluates in the classic
    // Notebook's page, whose Jupyter object it reads.
    files: ["kernel/internal/notebooktest/testdata/notebook6.js"],
    languageOptions: {
      sourceType: "script",
      globals: { ...globals.browser, Jupyter: "readonly" },
    },
  },
  {
    // The JupyterLab apps require JupyterLab's extensions as JupyterLab's
    // own build does, and esbuild resolves require as webpack does there.
    files: [
      "kernel/internal/browser/lite/web/lab.js",
      "kernel/internal/browser/lite/web/extensions.js",
      "kernel/internal/browser/lite/web/jupyterlab.js",
    ],
    languageOptions: { globals: { require: "readonly" } },
  },
  {
    // A Node.js script that runs the browser's engine for package
    // gocompat: wasm_exec.js, which it requires, defines Go.
    files: ["kernel/internal/interp/gocompat/runcell.js"],
    languageOptions: {
      sourceType: "commonjs",
      globals: { ...globals.node, Go: "readonly" },
    },
  },
  {
    // Build scripts, run by Node.
    files: ["**/*.mjs"],
    languageOptions: { sourceType: "module", globals: globals.node },
  },
];
