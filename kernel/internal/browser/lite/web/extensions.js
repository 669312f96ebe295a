// The JupyterLab extensions both of tensornb's JupyterLab apps carry:
// the static site's JupyterLite app (lab.js) and the JupyterLab that
// scripts/run serves on a Jupyter server (jupyterlab.js). Each app adds
// its own, picks plugins from them with plugins, keeps the usable ones
// and starts with start.
import { JupyterLab } from "@jupyterlab/application";
import { IServiceManager } from "@jupyterlab/services";
import { PluginRegistry } from "@lumino/coreutils";

// The styles of the extensions, as JupyterLab's build imports them.
import "@jupyterlab/application-extension/style/index.js";
import "@jupyterlab/apputils-extension/style/index.js";
import "@jupyterlab/codemirror-extension/style/index.js";
import "@jupyterlab/completer-extension/style/index.js";
import "@jupyterlab/docmanager-extension/style/index.js";
import "@jupyterlab/documentsearch-extension/style/index.js";
import "@jupyterlab/filebrowser-extension/style/index.js";
import "@jupyterlab/launcher-extension/style/index.js";
import "@jupyterlab/mainmenu-extension/style/index.js";
import "@jupyterlab/markedparser-extension/style/index.js";
import "@jupyterlab/mathjax-extension/style/index.js";
import "@jupyterlab/mermaid-extension/style/index.js";
import "@jupyterlab/notebook-extension/style/index.js";
import "@jupyterlab/rendermime-extension/style/index.js";
import "@jupyterlab/shortcuts-extension/style/index.js";
import "@jupyterlab/statusbar-extension/style/index.js";
import "@jupyterlab/toc-extension/style/index.js";
import "@jupyterlab/tooltip-extension/style/index.js";
import "@jupyterlab/translation-extension/style/index.js";
import "@jupyterlab/ui-components-extension/style/index.js";

// JupyterLab's extensions: the shell, the notebook, the file browser,
// the launcher, search, the table of contents, the renderers (markdown
// with marked and MathJax, mermaid). The editor for other files and the
// language server are left out, and the plugins that need them too (see
// usable); the console and the metadata form only jupyterlab.js adds.
// With them, ipywidgets' widget manager (the controls load on first use:
// widgets.js).
export const lab = [
  require("@jupyterlab/application-extension"),
  require("@jupyterlab/apputils-extension"),
  require("@jupyterlab/codemirror-extension"),
  require("@jupyterlab/completer-extension"),
  require("@jupyterlab/docmanager-extension"),
  require("@jupyterlab/documentsearch-extension"),
  require("@jupyterlab/filebrowser-extension"),
  require("@jupyterlab/launcher-extension"),
  require("@jupyterlab/mainmenu-extension"),
  require("@jupyterlab/markedparser-extension"),
  require("@jupyterlab/mathjax-extension"),
  require("@jupyterlab/mermaid-extension"),
  require("@jupyterlab/notebook-extension"),
  require("@jupyterlab/rendermime-extension"),
  require("@jupyterlab/services-extension"),
  require("@jupyterlab/shortcuts-extension"),
  require("@jupyterlab/statusbar-extension"),
  require("@jupyterlab/theme-light-extension"),
  require("@jupyterlab/toc-extension"),
  require("@jupyterlab/tooltip-extension"),
  require("@jupyterlab/translation-extension"),
  require("@jupyterlab/ui-components-extension"),
  require("@jupyter-widgets/jupyterlab-manager"),
];

// The renderer extensions (JupyterLab's mime extensions), which the
// application registers itself: Mermaid's, which draws the diagrams of
// text/vnd.mermaid outputs.
export const mime = [require("@jupyterlab/mermaid-extension/lib/mime.js")];

// plugins returns the plugins an extension's module exports, but for
// those disabled names.
export function plugins(module, disabled) {
  const exported =
    module.__esModule || module.default ? module.default : module;
  return (Array.isArray(exported) ? exported : [exported]).filter(
    (p) => p && p.id && !disabled.has(p.id),
  );
}

// usable returns the plugins whose required services some plugin
// provides, leaving out, until none is left, those that need a service
// no extension here provides (the notebook's language server features
// need the language server's extension, say).
export function usable(plugins) {
  for (;;) {
    const provided = new Set(plugins.map((p) => p.provides).filter(Boolean));
    const kept = plugins.filter((p) =>
      (p.requires || []).every((token) => provided.has(token)),
    );
    if (kept.length === plugins.length) {
      return kept;
    }
    plugins = kept;
  }
}

// start starts a JupyterLab application of the plugins all, with the
// renderer plugins mimeExtensions, called name in its errors. Once its
// layout is restored, document.body's data-tnb-lab is "restored" (it is
// "failed" if it could not start), window.jupyterapp is the application,
// for tests and the console, and window.tnbLabRestoredMS the time from
// the page's navigation.
export function start(all, mimeExtensions, name) {
  const run = async () => {
    const registry = new PluginRegistry();
    registry.registerPlugins(all);
    const serviceManager =
      await registry.resolveRequiredService(IServiceManager);
    // jupyterlab_server 2.16 keeps the address of a page it did not find
    // in the configuration that every later page shares (later versions
    // do not), and JupyterLab would say "Path Not Found" on each: only
    // that page keeps it.
    const notFound = JupyterLab.defaultPaths.urls.notFound;
    const app = new JupyterLab({
      pluginRegistry: registry,
      serviceManager,
      mimeExtensions,
      availablePlugins: all,
      paths: {
        urls: { notFound: notFound === location.pathname ? notFound : "" },
      },
    });
    app.name = name;
    window.jupyterapp = app;
    await app.start({ bubblingKeydown: true });
    await app.restored;
    window.tnbLabRestoredMS = performance.now(); // since the navigation started
    document.body.dataset.tnbLab = "restored";
  };
  run().catch((e) => {
    document.body.dataset.tnbLab = "failed";
    console.error(name + " could not start:", e);
  });
}
