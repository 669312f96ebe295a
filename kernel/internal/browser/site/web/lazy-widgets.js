// The site's widget manager, bundled apart from page.js and loaded when a
// cell first opens a widget (see lazy.js): ipywidgets' own models and
// views (@jupyter-widgets/base, controls and output, version 8), kept in
// step with the Go widgets of the engine through its comms, as
// JupyterLab's widget manager keeps them in step with a kernel's.
//
// The page hands the manager what it already has: the engine (whose comm
// sends a comm message to the worker), its rendermime registry and
// JupyterLab's OutputArea, which the Output widget shows its outputs in.
import { ManagerBase } from "@jupyter-widgets/base-manager";
import * as base from "@jupyter-widgets/base";
import * as controls from "@jupyter-widgets/controls";
import * as output from "@jupyter-widgets/output";
import { Widget } from "@lumino/widgets";
import "@jupyter-widgets/base/css/index.css";
import "@jupyter-widgets/controls/css/widgets-base.css";

const WIDGET_TARGET = "jupyter.widget";

let next = 0;
const newID = () =>
  "tnb-" + Date.now().toString(36) + "-" + (++next).toString(36);

// A Comm is one comm between a widget model here and its Go widget in
// the engine, as ipywidgets' classic comm interface describes it.
class Comm {
  constructor(manager, id, target) {
    this.manager = manager;
    this.comm_id = id;
    this.target_name = target;
    this.onMsg = null;
    this.onClose = null;
    // Messages that come while the model is being made, before it
    // listens: the update that follows an Output widget's comm_open.
    this.early = [];
  }

  open(data, callbacks, metadata, buffers) {
    const content = { comm_id: this.comm_id, target_name: this.target_name };
    return this.post(
      "comm_open",
      { ...content, data },
      callbacks,
      metadata,
      buffers,
    );
  }

  send(data, callbacks, metadata, buffers) {
    return this.post(
      "comm_msg",
      { comm_id: this.comm_id, data },
      callbacks,
      metadata,
      buffers,
    );
  }

  close(data, callbacks, metadata, buffers) {
    this.manager.comms.delete(this.comm_id);
    return this.post(
      "comm_close",
      { comm_id: this.comm_id, data: data || {} },
      callbacks,
      metadata,
      buffers,
    );
  }

  on_msg(callback) {
    this.onMsg = callback;
    for (const msg of this.early.splice(0)) {
      callback(msg);
    }
  }

  on_close(callback) {
    this.onClose = callback;
  }

  // post sends a message to the engine and returns its id: the widgets'
  // answers name it as their parent (an echo_update is matched to its
  // update so), and the callbacks hear of the outputs and of the end.
  post(msgType, content, callbacks = {}, metadata = {}, buffers = []) {
    const msgId = newID();
    const future = this.manager.engine.comm(
      msgType,
      content,
      metadata,
      buffers,
    );
    const iopub = (callbacks && callbacks.iopub) || {};
    future.onIOPub = (msg) => {
      msg.parent_header = { msg_id: msgId };
      if (msg.header.msg_type.startsWith("comm_")) {
        this.manager.receive(msg);
      } else if (iopub.output) {
        iopub.output(msg);
      } else {
        this.manager.onOutput(msg, this);
      }
    };
    const idle = () => {
      if (iopub.status) {
        iopub.status({
          header: { msg_type: "status" },
          parent_header: { msg_id: msgId },
          metadata: {},
          content: { execution_state: "idle" },
        });
      }
    };
    future.done.then(idle, idle);
    return msgId;
  }
}

// The Output widget: its outputs, as the engine sets them, in a model of
// JupyterLab's output area, which its view shows.
class OutputModel extends output.OutputModel {
  initialize(attributes, options) {
    super.initialize(attributes, options);
    const { OutputAreaModel } = this.widget_manager.deps;
    this.outputs = new OutputAreaModel({ trusted: true });
    const set = () => {
      this.outputs.clear();
      this.outputs.fromJSON(this.get("outputs") || []);
    };
    this.on("change:outputs", set);
    set();
  }
}

class OutputView extends output.OutputView {
  render() {
    super.render();
    const { OutputArea, rendermime } = this.model.widget_manager.deps;
    this.area = new OutputArea({
      model: this.model.outputs,
      rendermime,
    });
    this.el.classList.add("jupyter-widgets-output-area", "widget-output");
    // The area's node goes in at once: a view inside a box is put in the
    // page after its render, and what the area draws needs no more than
    // its node (it holds pictures and text, not widgets that measure
    // themselves).
    this.el.appendChild(this.area.node);
  }

  remove() {
    if (this.area) {
      this.area.dispose();
    }
    return super.remove();
  }
}

const modules = {
  "@jupyter-widgets/base": base,
  "@jupyter-widgets/controls": controls,
  "@jupyter-widgets/output": { ...output, OutputModel, OutputView },
};

// The Manager keeps the widget models of the engine's open comms.
class Manager extends ManagerBase {
  constructor(deps) {
    super();
    this.deps = deps;
    this.engine = deps.engine;
    this.onOutput = deps.onOutput;
    this.comms = new Map(); // comm id → Comm
  }

  async loadClass(className, moduleName) {
    const m = modules[moduleName];
    if (!m || !m[className]) {
      throw new Error(`no widget class ${className} in ${moduleName}`);
    }
    return m[className];
  }

  async _create_comm(target, modelId, data, metadata, buffers) {
    const comm = new Comm(this, modelId || newID(), target);
    this.comms.set(comm.comm_id, comm);
    if (data !== undefined) {
      comm.open(data, {}, metadata, buffers);
    }
    return comm;
  }

  async _get_comm_info() {
    return {};
  }

  // receive takes a comm message of the engine's widgets.
  receive(msg) {
    const c = msg.content;
    const comm = this.comms.get(c.comm_id);
    switch (msg.header.msg_type) {
      case "comm_open":
        if (c.target_name === WIDGET_TARGET && !comm) {
          const opened = new Comm(this, c.comm_id, c.target_name);
          this.comms.set(c.comm_id, opened);
          this.handle_comm_open(opened, msg).catch((e) =>
            console.error("a widget could not be made:", e),
          );
        }
        break;
      case "comm_msg":
        if (comm && comm.onMsg) {
          comm.onMsg(msg);
        } else if (comm) {
          comm.early.push(msg);
        }
        break;
      case "comm_close":
        this.comms.delete(c.comm_id);
        if (comm && comm.onClose) {
          comm.onClose(msg);
        }
        break;
    }
  }

  // forget drops every model: the engine that held their widgets ended.
  forget() {
    this.comms.clear();
    return this.clear_state();
  }
}

// A Renderer shows a widget's view for an output of MIME type
// application/vnd.jupyter.widget-view+json; for a widget this manager
// does not hold (a stored output, a widget of an engine that ended), it
// shows the still picture the output holds beside it.
class Renderer extends Widget {
  constructor(options, manager) {
    super();
    this.options = options;
    this.manager = manager;
    this.addClass("jupyter-widgets");
  }

  async renderModel(model) {
    const source = model.data[this.options.mimeType] || {};
    const widgetModel = source.model_id
      ? await this.manager.get_model(source.model_id).catch(() => null)
      : null;
    if (!widgetModel) {
      return this.still(model);
    }
    const view = await this.manager.create_view(widgetModel).catch((e) => {
      console.error(
        String((e && e.error && e.error.stack) || (e && e.stack) || e),
      );
      throw e;
    });
    this.view = view;
    Widget.attach(view.luminoWidget, this.node);
  }

  still(model) {
    const { rendermime } = this.manager.deps;
    const type = ["text/html", "image/svg+xml", "text/plain"].find(
      (t) => t in model.data,
    );
    if (!type) {
      return;
    }
    const renderer = rendermime.createRenderer(type);
    return renderer.renderModel(model).then(() => {
      this.node.append(renderer.node);
    });
  }

  dispose() {
    if (this.view) {
      this.view.remove();
      this.view = null;
    }
    super.dispose();
  }
}

(window.tnbLazy ??= {}).widgets = {
  // makeManager makes the page's manager from deps: {engine, rendermime,
  // OutputArea, OutputAreaModel, onOutput(msg, comm) for what a callback
  // prints or shows}.
  makeManager(deps) {
    const manager = new Manager(deps);
    return {
      manager,
      receive: (msg) => manager.receive(msg),
      forget: () => manager.forget(),
      createRenderer: (options) => new Renderer(options, manager),
    };
  },
};
