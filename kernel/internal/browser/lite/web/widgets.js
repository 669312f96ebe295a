// Jupyter widgets in tensornb's JupyterLite app: JupyterLab's own widget
// manager (@jupyter-widgets/jupyterlab-manager, ipywidgets 8) draws the
// widgets the engine's cells make (package widget), as it draws
// ipywidgets' in JupyterLab.
//
// The manager's extension registers the controls (sliders, buttons...)
// with webpack's require.ensure, which esbuild cannot bundle; this
// plugin registers them in its place with a dynamic import, which
// esbuild makes a chunk of its own: the controls load when a notebook
// first shows a widget.
import { IJupyterWidgetRegistry } from "@jupyter-widgets/base";
import { JUPYTER_CONTROLS_VERSION } from "@jupyter-widgets/controls/lib/version";

// The manager's plugins, without the one this file replaces.
export const replaced = `@jupyter-widgets/jupyterlab-manager:controls-${JUPYTER_CONTROLS_VERSION}`;

export const controls = {
  id: "tensornb:widget-controls",
  description:
    "Registers ipywidgets' controls with the widget manager, loaded on first use.",
  requires: [IJupyterWidgetRegistry],
  autoStart: true,
  activate: (app, registry) => {
    registry.registerWidget({
      name: "@jupyter-widgets/controls",
      version: JUPYTER_CONTROLS_VERSION,
      exports: () => import("@jupyter-widgets/controls"),
    });
  },
};
