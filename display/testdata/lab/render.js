// The page script of the display package's JupyterLab test: it renders an
// output's MIME bundle with JupyterLab's own rendermime registry (its
// standard factories and @jupyterlab/mermaid's), sanitizer and styles,
// choosing the MIME type as a notebook's output area does: any type for a
// trusted output, only a safe one for an untrusted output.
import {
  RenderMimeRegistry,
  MimeModel,
  standardRendererFactories,
} from "@jupyterlab/rendermime";
import { Sanitizer } from "@jupyterlab/apputils";
import {
  MermaidManager,
  RenderedMermaid,
  rendererFactory as mermaidFactory,
} from "@jupyterlab/mermaid";
import { Widget } from "@lumino/widgets";

import "@jupyterlab/theme-light-extension/style/variables.css";
import "@lumino/widgets/style/widget.css";
import "@jupyterlab/rendermime/style/base.css";
import "@jupyterlab/outputarea/style/base.css"; // an output scrolls (overflow: auto) rather than clipping
import "@jupyterlab/mermaid/style/base.css";

// JupyterLab's mermaid extension registers the factory at rank 61.
const mermaidRank = 61;

RenderedMermaid.manager = new MermaidManager();
const registry = new RenderMimeRegistry({
  initialFactories: standardRendererFactories,
  sanitizer: new Sanitizer(),
});
registry.addFactory(mermaidFactory, mermaidRank);

let outputs = 0;

// renderBundle renders bundle (MIME type to string) as an output of its
// own at the end of the page and resolves to the MIME type chosen and the
// output element's id, once the renderer has finished.
window.renderBundle = async function (bundle, trusted, label) {
  const mimeType = registry.preferredMimeType(
    bundle,
    trusted ? "any" : "ensure",
  );
  const output = document.createElement("div");
  output.className = "tnb-output jp-OutputArea-output";
  output.id = "output-" + ++outputs;
  const caption = document.createElement("div");
  caption.className = "tnb-caption";
  caption.textContent =
    label +
    (trusted ? " (trusted)" : " (untrusted)") +
    ": " +
    (mimeType || "nothing");
  document.body.appendChild(caption);
  document.body.appendChild(output);
  if (!mimeType) {
    return { mimeType: "", id: output.id };
  }
  const renderer = registry.createRenderer(mimeType);
  const model = new MimeModel({ data: bundle, trusted: trusted });
  // The output area renders a new output before attaching it, as here.
  await renderer.renderModel(model);
  Widget.attach(renderer, output);
  return { mimeType: mimeType, id: output.id };
};
