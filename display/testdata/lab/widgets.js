// The page script of the JupyterLab widget test (widgets.html): a cell's
// outputs drawn as a JupyterLab notebook draws them, with widgets live.
//
// The page talks to a real Jupyter server, on the page's own origin:
// @jupyterlab/services starts a session with the "tensornb" kernel, and
// JupyterLab's SessionContext holds it as a notebook panel does. A cell
// runs through JupyterLab's OutputArea, whose outputs go through a
// rendermime registry with JupyterLab's standard renderers and sanitizer.
// As the widget manager's extension does for a notebook, the page makes
// a KernelWidgetManager for the session's kernel and that registry,
// registers ipywidgets' base, controls and output modules with it, and
// adds its WidgetRenderer for the widget-view MIME type.
//
// The extension's own plugins are left out: they need a JupyterLab app,
// and its controls plugin loads the controls with webpack's
// require.ensure, which esbuild cannot bundle; the page registers the
// controls with a dynamic import, as the site's JupyterLite app does.
import {
  KernelManager,
  KernelSpecManager,
  ServerConnection,
  SessionManager,
} from "@jupyterlab/services";
import { SessionContext, Sanitizer } from "@jupyterlab/apputils";
import { OutputArea, OutputAreaModel } from "@jupyterlab/outputarea";
import {
  RenderMimeRegistry,
  standardRendererFactories,
} from "@jupyterlab/rendermime";
import { Widget } from "@lumino/widgets";
import * as base from "@jupyter-widgets/base";
import { JUPYTER_CONTROLS_VERSION } from "@jupyter-widgets/controls/lib/version";
import {
  KernelWidgetManager,
  WIDGET_VIEW_MIMETYPE,
} from "@jupyter-widgets/jupyterlab-manager/lib/manager";
import { WidgetRenderer } from "@jupyter-widgets/jupyterlab-manager/lib/renderer";
import {
  OutputModel,
  OutputView,
  OUTPUT_WIDGET_VERSION,
} from "@jupyter-widgets/jupyterlab-manager/lib/output";

import "@jupyterlab/theme-light-extension/style/variables.css";
import "@lumino/widgets/style/widget.css";
import "@jupyterlab/rendermime/style/base.css";
import "@jupyterlab/outputarea/style/base.css";
import "@jupyter-widgets/base/css/index.css";
import "@jupyter-widgets/controls/css/widgets-base.css";

const rendermime = new RenderMimeRegistry({
  initialFactories: standardRendererFactories,
  sanitizer: new Sanitizer(),
});

let sessionContext = null;
let cells = 0;

// start starts a tensornb kernel on the page's server, which takes
// token, and makes its widget manager; with widgets false (to show what
// the test sees without one) it makes none. It resolves to the kernel's
// name.
async function start(token, widgets) {
  const serverSettings = ServerConnection.makeSettings({
    baseUrl: location.origin + "/",
    token: token,
    appendToken: true, // the kernel's WebSocket carries the token too
  });
  const kernelManager = new KernelManager({ serverSettings });
  sessionContext = new SessionContext({
    kernelManager,
    sessionManager: new SessionManager({ kernelManager, serverSettings }),
    specsManager: new KernelSpecManager({ serverSettings }),
    path: "widgets.ipynb",
    name: "widgets.ipynb",
    type: "notebook",
    kernelPreference: { name: "tensornb", autoStartDefault: false },
  });
  await sessionContext.initialize();
  await sessionContext.ready;
  const kernel = sessionContext.session.kernel;
  await kernel.info;
  if (widgets) {
    const manager = new KernelWidgetManager(kernel, rendermime);
    manager.register({
      name: "@jupyter-widgets/base",
      version: base.JUPYTER_WIDGETS_VERSION,
      exports: {
        WidgetModel: base.WidgetModel,
        WidgetView: base.WidgetView,
        DOMWidgetView: base.DOMWidgetView,
        DOMWidgetModel: base.DOMWidgetModel,
        LayoutModel: base.LayoutModel,
        LayoutView: base.LayoutView,
        StyleModel: base.StyleModel,
        StyleView: base.StyleView,
        ErrorWidgetView: base.ErrorWidgetView,
      },
    });
    manager.register({
      name: "@jupyter-widgets/controls",
      version: JUPYTER_CONTROLS_VERSION,
      exports: () => import("@jupyter-widgets/controls"),
    });
    manager.register({
      name: "@jupyter-widgets/output",
      version: OUTPUT_WIDGET_VERSION,
      exports: { OutputModel, OutputView },
    });
    // The extension's rank for it: before every other renderer.
    rendermime.addFactory(
      {
        safe: false,
        mimeTypes: [WIDGET_VIEW_MIMETYPE],
        createRenderer: (options) => new WidgetRenderer(options, manager),
      },
      -10,
    );
  }
  return kernel.name;
}

// run runs code as a trusted notebook cell (one the user runs), its
// outputs in an output area of its own at the end of the page, and
// resolves to the execute reply's status once the kernel is done.
async function run(code) {
  const model = new OutputAreaModel({ trusted: true });
  const area = new OutputArea({ model, rendermime });
  const cell = document.createElement("div");
  cell.className = "tnb-cell";
  cell.id = "cell-" + ++cells;
  document.body.appendChild(cell);
  Widget.attach(area, cell);
  const reply = await OutputArea.execute(code, area, sessionContext);
  return reply.content.status;
}

// stop shuts the session and its kernel down.
async function stop() {
  if (sessionContext && sessionContext.session) {
    await sessionContext.session.shutdown();
  }
  return true;
}

window.tnbLabWidgets = { start, run, stop };
