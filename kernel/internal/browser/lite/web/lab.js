// The JupyterLite app of tensornb's static site: JupyterLab's shell and
// extensions (from npm) with JupyterLite's in-browser services in place
// of a server's, and the tensornb kernel (kernel.js). It is what
// JupyterLite's own lab app assembles with webpack, assembled here with
// esbuild: every extension is imported, its plugins registered, the
// plugins a JupyterLite plugin replaces left out, and the application
// started. The page (written by package kernel/internal/browser/lite) holds the
// configuration, in <script id="jupyter-config-data">.
// start (extensions.js) says what the page shows of the application.
import tensornb from "./kernel.js";
import mathOnUse from "./mathonuse.js";
import openEarly from "./openearly.js";
import selfCheck from "./selfcheck.js";
import * as widgets from "./widgets.js";
import {
  lab,
  mime,
  plugins as pluginsOf,
  start,
  usable,
} from "./extensions.js";

import "@jupyterlite/application-extension/style/index.js";
import "@jupyterlite/apputils-extension/style/index.js";

// JupyterLite's: the services that run in the browser (contents in the
// browser's storage over the site's files, kernels, sessions, settings)
// and the plugins that make the shell work without a server.
const lite = [
  require("@jupyterlite/application-extension"),
  require("@jupyterlite/apputils-extension"),
  require("@jupyterlite/services-extension"),
];

// Plugins left out, beyond those a JupyterLite plugin replaces (see
// below): the ones that need a server (announcements, the language
// server, downloads through the server, the server's about dialog),
// JupyterLab's router and tree resolver (JupyterLite's router handles
// ?path=), and JupyterLite's service worker, which only input() and
// the Pyodide kernels' file system use: tensornb has neither. The
// application's main, logo and resolver plugins and the licenses client
// are left out as JupyterLite's own lab app leaves them out: they ask a
// server, or a JupyterLite plugin takes their place.
const disabled = new Set([
  "@jupyterlab/application-extension:logo",
  "@jupyterlab/application-extension:main",
  "@jupyterlab/application-extension:router",
  "@jupyterlab/application-extension:tree-resolver",
  "@jupyterlab/apputils-extension:announcements",
  "@jupyterlab/apputils-extension:licenses-client",
  "@jupyterlab/apputils-extension:resolver",
  "@jupyterlab/docmanager-extension:download",
  "@jupyterlab/filebrowser-extension:download",
  "@jupyterlab/filebrowser-extension:share-file",
  "@jupyterlab/services-extension:connection-status",
  "@jupyterlab/services-extension:setting-manager",
  "@jupyterlab/services-extension:terminal-manager",
  "@jupyterlite/application-extension:service-worker-manager",
  "@jupyterlite/services-extension:kernel-client", // tensornb's kernel client replaces it
  widgets.replaced, // widgets.js's controls plugin replaces it
]);

const plugins = (module) => pluginsOf(module, disabled);

// A JupyterLab plugin that provides a service a JupyterLite plugin also
// provides (the contents, kernel, session, settings managers...) is left
// out: JupyterLite's is the one that works without a server.
const liteProvides = new Set(
  lite
    .flatMap(plugins)
    .map((p) => p.provides)
    .filter(Boolean),
);

start(
  usable([
    ...lab.flatMap(plugins).filter((p) => !liteProvides.has(p.provides)),
    ...lite.flatMap(plugins),
    ...tensornb,
    widgets.controls,
    selfCheck,
    openEarly,
    mathOnUse,
  ]),
  mime.flatMap(plugins),
  "JupyterLite",
);
