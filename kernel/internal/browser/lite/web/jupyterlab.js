// The JupyterLab that scripts/run (and the image) serves: the same
// extensions as the static site's JupyterLite app (extensions.js), with
// the console and the metadata form beside them, on a real Jupyter
// server. Debian's jupyter_server and jupyterlab_server serve the page
// (scripts/jupyterlab/index.html), the settings, the workspaces, the
// contents and the kernels, so every service is JupyterLab's own, asking
// the server, but two: jupyter_server 1.23 has no /api/me and no
// /api/events, and JupyterLite's in-browser user and event managers
// stand in for them.
// start (extensions.js) says what the page shows of the application.
import mathOnUse from "./mathonuse.js";
import nbgraderForm from "./nbgrader.js";
import * as widgets from "./widgets.js";
import { lab, mime, plugins, start, usable } from "./extensions.js";

import "@jupyterlab/console-extension/style/index.js";
import "@jupyterlab/metadataform-extension/style/index.js";

// The console (a Go console on the tensornb kernel), and the metadata
// form of the property inspector.
const more = [
  require("@jupyterlab/console-extension"),
  require("@jupyterlab/metadataform-extension"),
];

// The two of JupyterLite's plugins that stand in for what the server
// lacks; nothing else of JupyterLite's.
const stand = new Set([
  "@jupyterlite/services-extension:user-manager",
  "@jupyterlite/services-extension:event-manager",
]);
const standIns = plugins(
  require("@jupyterlite/services-extension"),
  new Set(),
).filter((p) => stand.has(p.id));

// Plugins left out: the news, which asks JupyterLab's own server
// extension; terminals, which scripts/run turns off; and the widget
// controls that widgets.js registers in their place.
const disabled = new Set([
  "@jupyterlab/apputils-extension:announcements",
  "@jupyterlab/services-extension:terminal-manager",
  widgets.replaced,
]);

const replaced = new Set(standIns.map((p) => p.provides));
start(
  usable([
    ...[...lab, ...more]
      .flatMap((m) => plugins(m, disabled))
      .filter((p) => !replaced.has(p.provides)),
    ...standIns,
    widgets.controls,
    mathOnUse,
    nbgraderForm,
  ]),
  mime.flatMap((m) => plugins(m, disabled)),
  "JupyterLab",
);
