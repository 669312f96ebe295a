// The page script of tensornb's static site: it shows a notebook, whose
// JSON the page holds in <script id="tnb-notebook">, as a reader of
// JupyterLab sees it, and runs its code cells in the instant engine of
// kernel/internal/browser, in a Web Worker (worker.js, beside the page).
//
// Markdown cells are rendered by JupyterLab's markdown renderer (with
// marked as its parser, and its formulas typeset by JupyterLab's MathJax
// typesetter, which loads on first use, as the Mermaid renderer does: see
// lazy.js); each code cell is an editor (CodeMirror, with completion and
// inspection from the engine: editor.js) with a Run button, above a
// JupyterLab OutputArea, which shows the notebook's stored
// outputs until the cell runs. A cell's outputs reach its OutputArea as
// they reach it in JupyterLab: through a kernel future whose onIOPub the
// area sets, so that streams are joined, clear_output and
// update_display_data are applied by JupyterLab's own code. Outputs are
// trusted: the site is built from notebooks its builder vouches for, so
// the interactive pictures run their scripts.
//
// The engine (engine.js) cannot be stopped inside WebAssembly: Interrupt
// ends the worker and starts a new one, in which the next cell first
// replays the cells that had run without an error.
//
// Widgets: a cell's widgets (package widget) open comms in the engine;
// the first comm_open loads the site's widget manager (lazy-widgets.js,
// ipywidgets' own models and views), which draws each widget's view
// where the cell shows it, and sends what the reader does to the engine,
// whose Go callbacks answer; what they print goes below the cell that
// made the widget. A cell that reads its standard input gets JupyterLab's
// input box, from its OutputArea: Enter sends the line.
//
// window.tnb is for tests: the cells, the engine's timings, runAll.
import { OutputArea, OutputAreaModel } from "@jupyterlab/outputarea";
import {
  RenderMimeRegistry,
  MimeModel,
  standardRendererFactories,
} from "@jupyterlab/rendermime";
import { Sanitizer } from "@jupyterlab/apputils";
import { LazyTypesetter, lazyFactory, load, loadStyle } from "./lazy.js";
import { CodeEditor, makeWhenIdle } from "./editor.js";
import { Engine } from "../../engine.js";
import { showVerdict } from "../../verdict.js";
import { workerFile } from "../../shared.js";
import { atRoot } from "./root.js";
import { Widget } from "@lumino/widgets";
import { marked } from "marked";

import "@jupyterlab/theme-light-extension/style/variables.css";
import "@lumino/widgets/style/widget.css";
import "@jupyterlab/rendermime/style/base.css";
import "@jupyterlab/outputarea/style/base.css";
import "@jupyterlab/mermaid/style/base.css";
import "@jupyterlab/mathjax-extension/style/base.css"; // MathJax's fonts, as JupyterLab loads them
import "./page.css";

// JupyterLab's mermaid extension registers the factory at rank 61.
const mermaidRank = 61;

const RAISES = "raises-exception";

// The MIME type of a widget's view, and the comm target of widgets.
const WIDGET_VIEW = "application/vnd.jupyter.widget-view+json";
const WIDGET_TARGET = "jupyter.widget";

const rendermime = new RenderMimeRegistry({
  initialFactories: standardRendererFactories,
  sanitizer: new Sanitizer(),
  markdownParser: { render: (source) => Promise.resolve(marked.parse(source)) },
  latexTypesetter: new LazyTypesetter("mathjax"),
});
rendermime.addFactory(
  lazyFactory("mermaid", ["text/vnd.mermaid"]),
  mermaidRank,
);

// A Record applies a cell's messages to an OutputAreaModel that no
// renderer sees, as an OutputArea applies them to its own: outputs added
// (streams joined by the model), cleared, or replaced by an update of
// their display.
class Record {
  constructor() {
    this.model = new OutputAreaModel({ trusted: true });
    this.displays = new Map(); // display id → indices in the model
  }
  add(msg) {
    const msgType = msg.header.msg_type;
    const displayId = msg.content.transient && msg.content.transient.display_id;
    switch (msgType) {
      case "execute_result":
      case "display_data":
      case "stream":
      case "error":
        this.model.add({ ...msg.content, output_type: msgType });
        if (displayId && msgType === "display_data") {
          this.displays.set(
            displayId,
            (this.displays.get(displayId) || []).concat([
              this.model.length - 1,
            ]),
          );
        }
        break;
      case "clear_output":
        this.model.clear(msg.content.wait);
        if (!msg.content.wait) {
          this.displays.clear();
        }
        break;
      case "update_display_data":
        for (const index of this.displays.get(displayId) || []) {
          this.model.set(index, {
            ...msg.content,
            output_type: "display_data",
          });
        }
        break;
    }
  }
}

// scrollToAnchor shows the heading the page's address names after its #,
// as JupyterLab does: the markdown renderer gives each heading its
// anchor, its text with dashes for spaces, as data-jupyter-id (the
// sanitizer keeps ids out of untrusted HTML), and a ¶ link to it.
function scrollToAnchor() {
  const id = decodeURIComponent(location.hash.slice(1));
  const heading =
    id && document.querySelector(`[data-jupyter-id="${CSS.escape(id)}"]`);
  if (heading) {
    heading.scrollIntoView();
  }
}

// linkNotebooks points links to the notebooks at their pages: a
// relative link, into a folder or out of it too (../week1/intro.ipynb),
// as the site keeps the notebooks' folders.
function linkNotebooks(markdown) {
  return markdown.replace(
    /(\]\(|href=")((?:\.\.?\/)*[\w.-]+(?:\/[\w.-]+)*)\.ipynb\b/g,
    "$1$2.html",
  );
}

// A CodeCell is a code cell's editor, prompt and OutputArea.
class CodeCell {
  constructor(page, cell, index) {
    this.page = page;
    this.index = index;
    this.tags = (cell.metadata && cell.metadata.tags) || [];
    this.nbgrader = cell.metadata && cell.metadata.nbgrader;
    this.node = document.createElement("div");
    this.node.className = "tnb-cell tnb-code";

    const input = document.createElement("div");
    input.className = "tnb-input";
    this.prompt = document.createElement("div");
    this.prompt.className = "tnb-prompt";
    this.setPrompt(cell.execution_count ? String(cell.execution_count) : " ");
    this.run = document.createElement("button");
    this.run.className = "tnb-run";
    this.run.title = "Run this cell (Shift-Enter)";
    this.run.textContent = "▶";
    this.run.addEventListener("click", () => this.execute().catch(() => {}));
    const editorNode = document.createElement("div");
    editorNode.className = "tnb-editor";
    this.editor = new CodeEditor({
      parent: editorNode,
      doc: cell.source,
      engine: page.engine,
      run: () => {
        this.execute().catch(() => {});
        page.focusAfter(this);
      },
    });
    input.append(this.prompt, this.run, editorNode);

    this.model = new OutputAreaModel({ trusted: true });
    this.model.fromJSON(cell.outputs || []);
    this.area = new OutputArea({ model: this.model, rendermime });
    this.area.addClass("tnb-outputs");
    const outputs = document.createElement("div");
    this.node.append(input, outputs);
    this.outputsNode = outputs;
    this.ran = null; // {reply, ms} of the last run
    this.record = null; // the outputs of the last run, as the engine sent them
  }

  attach() {
    Widget.attach(this.area, this.outputsNode);
  }

  setPrompt(text) {
    this.prompt.textContent = "[" + text + "]:";
  }

  // execute runs the cell and resolves to {reply, ms}, or rejects if the
  // engine was interrupted or restarted before the cell finished.
  execute() {
    const future = this.page.engine.execute(this.editor.source);
    this.area.future = future; // clears the outputs, as JupyterLab does
    // The record keeps the outputs as the engine sent them: a renderer
    // may change its output's data (the Mermaid renderer adds the SVG it
    // drew, as it does in JupyterLab, for the notebook to save).
    const record = new Record();
    this.record = record;
    const show = future.onIOPub;
    future.onIOPub = (msg) => {
      if (msg.header.msg_type.startsWith("comm_")) {
        this.page.widgetMessage(msg, this);
        return;
      }
      this.record.add(msg);
      show(msg);
    };
    this.ran = null;
    this.setPrompt("*");
    this.node.classList.add("tnb-running");
    return future.done.then(
      async (run) => {
        this.node.classList.remove("tnb-running");
        this.setPrompt(String(run.reply.execution_count || " "));
        // A test cell of an exercise says whether it passed, as the
        // grader would score it: the engine judges, the page draws. The
        // cell counts as run once its verdict is shown (unless it runs
        // again meanwhile: that run's verdict is the one to show).
        const verdict = await this.page.engine
          .verdict(this.nbgrader, record.model.toJSON())
          .catch(() => null);
        if (this.record === record) {
          showVerdict(this.node, verdict);
          this.ran = run;
        }
        return run;
      },
      (e) => {
        this.node.classList.remove("tnb-running");
        this.setPrompt(" ");
        throw e;
      },
    );
  }

  // outputs are the cell's outputs as the engine sent them, if it ran,
  // as the notebook stores them otherwise.
  outputs() {
    return this.record ? this.record.model.toJSON() : this.model.toJSON();
  }
}

class Page {
  constructor(notebook) {
    this.notebook = notebook;
    this.widgets = null; // the Promise of the widget manager, once a cell opened a widget
    this.commOwners = new Map(); // comm id → the cell that opened it
    this.cells = [];
    this.runs = 0; // Run all's in progress are counted, to stop them
    this.lastRunAll = null; // what the Run all button started: {done, completed}
    const toolbar = document.createElement("div");
    toolbar.className = "tnb-toolbar";
    const home = document.createElement("a");
    home.href = atRoot("index.html");
    home.textContent = "tensornb";
    const button = (id, text, title, action) => {
      const b = document.createElement("button");
      b.id = id;
      b.textContent = text;
      b.title = title;
      b.addEventListener("click", action);
      return b;
    };
    this.statusNode = document.createElement("span");
    this.statusNode.id = "tnb-status";
    toolbar.append(
      home,
      button(
        "tnb-run-all",
        "Run all",
        "Run every code cell, in order; stop at an error unless the cell is tagged " +
          RAISES,
        () => {
          this.lastRunAll = { done: false, completed: false };
          const record = this.lastRunAll;
          this.runAll().then(
            (completed) => Object.assign(record, { done: true, completed }),
            () => Object.assign(record, { done: true }),
          );
        },
      ),
      button(
        "tnb-interrupt",
        "Interrupt",
        "Stop the running cell: the engine restarts, and the next cell first replays the cells that ran without an error",
        () => this.interrupt(),
      ),
      button(
        "tnb-restart",
        "Restart",
        "Start a new engine: what the cells declared is gone",
        () => this.restart(),
      ),
      this.statusNode,
    );
    document.body.append(toolbar);
    // The engine loads while the page draws the notebook.
    this.engine = new Engine(
      (text, state) => {
        this.statusNode.textContent = text;
        this.statusNode.dataset.state = state;
        document.body.dataset.engine = state;
      },
      { workerURL: atRoot(workerFile) },
    );
    const main = document.createElement("main");
    main.className = "tnb-notebook";
    document.body.append(main);
    const rendered = [];
    for (const [index, cell] of notebook.cells.entries()) {
      if (cell.cell_type === "code") {
        const c = new CodeCell(this, cell, index);
        c.node.id = "tnb-code-" + this.cells.length;
        this.cells.push(c);
        main.append(c.node);
        c.attach();
      } else if (cell.cell_type === "markdown") {
        const node = document.createElement("div");
        main.append(node);
        rendered.push(this.markdown(node, cell.source));
      }
    }
    Promise.all(rendered).then(scrollToAnchor);
    // The editors are made once the engine has started, not to slow it.
    this.engine.firstReady.then(() =>
      makeWhenIdle(this.cells.map((c) => c.editor)),
    );
    window.addEventListener("hashchange", scrollToAnchor);
  }

  // markdown renders a markdown cell into node, and resolves when it is
  // shown.
  markdown(node, source) {
    node.className = "tnb-cell tnb-markdown";
    const renderer = rendermime.createRenderer("text/markdown");
    // Untrusted, as JupyterLab renders a markdown cell: its HTML goes
    // through the sanitizer.
    return renderer
      .renderModel(
        new MimeModel({
          data: { "text/markdown": linkNotebooks(source) },
          trusted: false,
        }),
      )
      .then(() => {
        Widget.attach(renderer, node);
      });
  }

  // widgetMessage takes a comm message of the engine's widgets, sent
  // while cell ran: the first widget loads the widget manager, and with
  // it the renderer of widgets' views.
  widgetMessage(msg, cell) {
    const c = msg.content;
    if (msg.header.msg_type === "comm_open") {
      this.commOwners.set(c.comm_id, cell);
    }
    if (!this.widgets) {
      if (
        msg.header.msg_type !== "comm_open" ||
        c.target_name !== WIDGET_TARGET
      ) {
        return;
      }
      loadStyle("widgets");
      this.widgets = load("widgets").then((lazy) =>
        lazy.makeManager({
          engine: this.engine,
          rendermime,
          OutputArea,
          OutputAreaModel,
          onOutput: (m, comm) => this.callbackOutput(m, comm),
        }),
      );
      this.widgets.catch((e) => console.error(e));
      rendermime.addFactory(
        lazyFactory("widgets", [WIDGET_VIEW], {
          safe: false,
          loader: () => this.widgets,
        }),
        0,
      );
    }
    this.widgets.then((widgets) => widgets.receive(msg));
  }

  // callbackOutput shows what a widget's callback printed or showed below
  // the cell that made the widget.
  callbackOutput(msg, comm) {
    const cell = this.commOwners.get(comm.comm_id);
    const type = msg.header.msg_type;
    if (
      cell &&
      ["stream", "display_data", "execute_result", "error"].includes(type)
    ) {
      cell.area.model.add({ ...msg.content, output_type: type });
    }
  }

  focusAfter(cell) {
    const next = this.cells[this.cells.indexOf(cell) + 1];
    if (next) {
      next.editor.focus();
    }
  }

  // runAll runs the code cells in order, as Jupyter's Run all does: it
  // stops at a cell that fails unless the cell is tagged raises-exception,
  // and at an interrupt or restart.
  async runAll() {
    const run = ++this.runs;
    for (const cell of this.cells) {
      if (run !== this.runs) {
        return false;
      }
      const { reply } = await cell.execute();
      if (reply.status !== "ok" && !cell.tags.includes(RAISES)) {
        return false;
      }
    }
    return true;
  }

  interrupt() {
    if (!this.engine.busy) {
      return;
    }
    this.runs++;
    this.engine.interrupt();
  }

  restart() {
    this.runs++;
    this.engine.restart();
  }
}

window.addEventListener("DOMContentLoaded", () => {
  const notebook = JSON.parse(
    document.getElementById("tnb-notebook").textContent,
  );
  const building = performance.now();
  const page = new Page(notebook);
  const buildMS = performance.now() - building;
  window.tnb = {
    page,
    runAll: () => page.runAll(),
    // cells: for each code cell, its index among all cells, its tags,
    // its outputs as JupyterLab would save them, and its last run.
    // ms is how long it ran in the engine, wall from the page's sending
    // it to its reply (a first cell waits for the engine), at from the
    // page's navigation to its reply.
    cells: () =>
      page.cells.map((c) => ({
        index: c.index,
        tags: c.tags,
        outputs: c.outputs(),
        reply: c.ran && c.ran.reply,
        ms: c.ran ? c.ran.ms : -1,
        wall: c.ran ? c.ran.wall : -1,
        at: c.ran ? c.ran.at : -1,
      })),
    lastRunAll: () => page.lastRunAll,
    // readyMS is from the worker's start to the engine's, loadMS from the
    // page's navigation to the engine's start.
    // buildMS is how long the page took to build its cells.
    engine: () => ({
      ready: page.engine.ready,
      readyMS: page.engine.readyMS,
      loadMS: page.engine.loadMS,
      busy: page.engine.busy,
      buildMS,
    }),
  };
});
