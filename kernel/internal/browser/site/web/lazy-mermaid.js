// The site's Mermaid renderer, bundled apart from page.js: Mermaid and its
// layouts are four fifths of the page script's size, and only a page that
// shows a diagram needs them. page.js loads this script when it first
// renders a text/vnd.mermaid output (see lazy.js).
import {
  MermaidManager,
  RenderedMermaid,
  rendererFactory,
} from "@jupyterlab/mermaid";

RenderedMermaid.manager = new MermaidManager();
(window.tnbLazy ??= {}).mermaid = rendererFactory;
