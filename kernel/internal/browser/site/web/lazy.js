// Parts of the page that load on first use, from scripts of their own
// beside page.js (lazy-mermaid.js, lazy-mathjax.js): a page starts
// sooner when the browser has less script to parse while it compiles the
// engine. They are classic scripts, as page.js is, so that a page opened
// from a file still loads them.
import { Panel } from "@lumino/widgets";
import { atRoot } from "./root.js";
import { hasFormula } from "../../formula.js";

const loading = new Map(); // name → Promise of what its script registered

// load runs the script lazy-NAME.js once, and resolves to what it put in
// window.tnbLazy[NAME].
export function load(name) {
  if (!loading.has(name)) {
    loading.set(
      name,
      new Promise((resolve, reject) => {
        const script = document.createElement("script");
        script.src = atRoot(`lazy-${name}.js`);
        script.onload = () => resolve(window.tnbLazy[name]);
        script.onerror = () =>
          reject(
            new Error(
              `lazy-${name}.js, beside the page, did not load: rebuild the site with scripts/site`,
            ),
          );
        document.head.append(script);
      }),
    );
  }
  return loading.get(name);
}

// A LazyRenderer is a rendermime renderer whose real renderer comes from
// a factory that loads on first use; it holds that renderer as its child.
class LazyRenderer extends Panel {
  constructor(options, factory) {
    super();
    this.options = options;
    this.factory = factory;
  }

  async renderModel(model) {
    this.made ??= this.factory().then((factory) => {
      const renderer = factory.createRenderer(this.options);
      this.addWidget(renderer);
      return renderer;
    });
    return (await this.made).renderModel(model);
  }
}

// lazyFactory is a renderer factory for mimeTypes whose renderers come
// from the factory the script lazy-NAME.js registers.
// With loader, the factory comes from loader() instead, a Promise.
export function lazyFactory(
  name,
  mimeTypes,
  { safe = true, defaultRank, loader = () => load(name) } = {},
) {
  return {
    safe,
    mimeTypes,
    defaultRank,
    createRenderer: (options) => new LazyRenderer(options, loader),
  };
}

// loadStyle adds the stylesheet lazy-NAME.css, beside the page, once.
export function loadStyle(name) {
  const href = atRoot(`lazy-${name}.css`);
  if (!document.querySelector(`link[href="${href}"]`)) {
    const link = document.createElement("link");
    link.rel = "stylesheet";
    link.href = href;
    document.head.append(link);
  }
}

// A LazyTypesetter is a LaTeX typesetter whose real typesetter comes from
// the script lazy-NAME.js, loaded when a node first has a formula.
export class LazyTypesetter {
  constructor(name) {
    this.name = name;
  }

  typeset(node) {
    if (!hasFormula(node)) {
      return Promise.resolve();
    }
    return load(this.name).then((typesetter) => typesetter.typeset(node));
  }
}
