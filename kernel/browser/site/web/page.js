// The page script of tensornb's static site: it shows a notebook, whose
// JSON the page holds in <script id="tnb-notebook">, as a reader of
// JupyterLab sees it, and runs its code cells in the instant engine of
// kernel/browser, in a Web Worker (worker.js, beside the page).
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
// The engine cannot be stopped inside WebAssembly: Interrupt ends the
// worker and starts a new one, whose session is empty.
//
// window.tnb is for tests: the cells, the engine's timings, runAll.
import { OutputArea, OutputAreaModel } from "@jupyterlab/outputarea";
import { RenderMimeRegistry, MimeModel, standardRendererFactories } from "@jupyterlab/rendermime";
import { Sanitizer } from "@jupyterlab/apputils";
import { LazyTypesetter, lazyFactory } from "./lazy.js";
import { CodeEditor, makeWhenIdle } from "./editor.js";
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

// What a cell shows when an interrupt ended the engine under it, in the
// words of the server's instant engine (kernel/interp's Local).
const interruptedText = "the cell was interrupted; the engine was restarted, and what the cells declared is gone: run them again";
const RAISES = "raises-exception";
// What bounds the engine's memory: WebAssembly's 32-bit addresses.
const memoryLimit = "a page's engine has at most 4 GiB, all that WebAssembly can address";

const rendermime = new RenderMimeRegistry({
  initialFactories: standardRendererFactories,
  sanitizer: new Sanitizer(),
  markdownParser: { render: (source) => Promise.resolve(marked.parse(source)) },
  latexTypesetter: new LazyTypesetter("mathjax"),
});
rendermime.addFactory(lazyFactory("mermaid", ["text/vnd.mermaid"]), mermaidRank);

// A Future stands for one cell's execution, as a kernel future does in
// JupyterLab: its owner (an OutputArea) sets onIOPub and onReply.
class Future {
  constructor() {
    this.onIOPub = () => {};
    this.onReply = () => {};
    this.onStdin = () => {};
    this.isDisposed = false;
    this.done = new Promise((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
    this.done.catch(() => {});
  }
  dispose() {
    this.isDisposed = true;
  }
}

// The Engine runs cells in a worker.js Web Worker, one after another.
class Engine {
  constructor(onStatus) {
    this.onStatus = onStatus;
    this.displays = new Map(); // display id → the futures whose cells showed it
    this.requests = new Map(); // id → the resolve of a completion's or an inspection's reply
    this.firstReady = new Promise((resolve) => (this.resolveFirstReady = resolve));
    this.start("loading");
  }

  start(why) {
    this.started = performance.now();
    this.ready = false;
    this.readyMS = null;
    this.broken = null; // why the engine could not start
    this.cells = new Map(); // id → {future, sent}
    for (const resolve of this.requests.values()) {
      resolve({ status: "error", ename: "EngineError", evalue: "the engine " + why, traceback: [] });
    }
    this.requests.clear();
    this.next = 0;
    this.displays.clear();
    this.why = why;
    // The page's first engine was started by the page itself, before this
    // script loaded (see site.go's page); it is adopted once.
    const early = window.tnbEarlyEngine;
    window.tnbEarlyEngine = null;
    if (early) {
      this.worker = early.worker;
      this.started = early.started;
    } else {
      try {
        this.worker = new Worker("worker.js");
      } catch (e) {
        // A page opened from a file may not start workers.
        this.worker = null;
        this.cannotStart(String(e));
        return;
      }
    }
    this.worker.onmessage = ({ data: m }) => this.receive(m);
    this.worker.onerror = (e) => {
      e.preventDefault();
      this.cannotStart(e.message || "worker.js failed to load");
    };
    this.status();
    for (const m of early ? early.messages : []) {
      this.receive(m);
    }
  }

  receive(m) {
    switch (m.type) {
      case "ready":
        this.resolveFirstReady();
        this.ready = true;
        this.readyMS = performance.now() - this.started;
        this.loadMS = performance.now(); // since the page's navigation started
        this.status();
        return;
      case "error":
        this.cannotStart(m.message);
        return;
      case "exit":
        this.crashed(m.code, m.fatal);
        return;
    }
    if (m.type === "complete_reply" || m.type === "inspect_reply") {
      const resolve = this.requests.get(m.id);
      this.requests.delete(m.id);
      if (resolve) {
        resolve(m.content);
      }
      return;
    }
    const cell = this.cells.get(m.id);
    if (!cell) {
      return;
    }
    if (m.type === "iopub") {
      this.iopub(cell.future, m.msg_type, m.content);
    } else if (m.type === "reply") {
      this.cells.delete(m.id);
      cell.future.onReply({ header: { msg_type: "execute_reply" }, content: m.content });
      cell.future.resolve({ reply: m.content, ms: m.ms, wall: performance.now() - cell.sent, at: performance.now() });
      this.status();
    }
  }

  // iopub hands a message to the futures that should see it, as
  // JupyterLab's kernel connection does: an update of a display goes to
  // the cells that showed it, everything else to the cell that made it.
  iopub(future, msgType, content) {
    const msg = { header: { msg_type: msgType }, parent_header: {}, metadata: {}, content, channel: "iopub" };
    const displayId = content.transient && content.transient.display_id;
    if (displayId && (msgType === "display_data" || msgType === "update_display_data")) {
      const owners = (this.displays.get(displayId) || []).filter((f) => !f.isDisposed);
      if (msgType === "display_data" && !owners.includes(future)) {
        owners.push(future);
      }
      this.displays.set(displayId, owners);
      if (msgType === "update_display_data") {
        for (const f of owners) {
          f.onIOPub(msg);
        }
        return;
      }
    }
    future.onIOPub(msg);
  }

  // execute sends a cell's code and returns its future, done with
  // {reply, ms} when the cell has run.
  execute(code) {
    const future = new Future();
    if (this.broken) {
      // Once the cell's output area has taken the future.
      const evalue = this.broken;
      Promise.resolve().then(() => {
        this.fail(future, "EngineError", evalue);
        future.resolve({ reply: { status: "error", ename: "EngineError", evalue, traceback: [] }, ms: 0, wall: 0, at: performance.now() });
      });
      return future;
    }
    const id = ++this.next;
    this.cells.set(id, { future, sent: performance.now() });
    this.worker.postMessage({ id, code });
    this.status();
    return future;
  }

  // complete and inspect ask the engine for a complete_reply's or an
  // inspect_reply's content, at cursorPos (in characters) in code.
  complete(code, cursorPos) {
    return this.request({ type: "complete", code, cursor_pos: cursorPos });
  }

  inspect(code, cursorPos) {
    return this.request({ type: "inspect", code, cursor_pos: cursorPos, detail_level: 0 });
  }

  request(message) {
    if (this.broken || !this.worker) {
      return Promise.resolve({ status: "error", ename: "EngineError", evalue: this.broken || "no engine", traceback: [] });
    }
    const id = ++this.next;
    this.worker.postMessage({ id, ...message });
    return new Promise((resolve) => this.requests.set(id, resolve));
  }

  get busy() {
    return this.cells.size > 0;
  }

  // restart ends the worker, and with it every cell sent to it: the one
  // running fails with an interrupt (why "interrupted") or an engine
  // error, the ones waiting are dropped. Then a new worker starts.
  restart(why) {
    if (this.worker) {
      this.worker.terminate();
    }
    this.endCells(why, why === "interrupted" ? { ename: "Interrupted", evalue: interruptedText } : null);
    this.start(why);
  }

  // crashed restarts an engine that ended, with exit code code and the Go
  // runtime's fatal error (or ""): the cell it was running fails, with a
  // MemoryError if the engine ran out of memory, as on the server.
  crashed(code, fatal) {
    this.worker.terminate();
    let ename = "EngineError";
    let why = "the engine ended (exit code " + code + (fatal ? ": " + fatal : "") + ")";
    let detail = "";
    if (/out of memory/.test(fatal)) {
      ename = "MemoryError";
      why = "the cell ran out of memory";
      detail = " (" + memoryLimit + ")";
    }
    const evalue = why + detail + "; the engine was restarted, and what the cells declared is gone: run them again";
    this.endCells(evalue, { ename, evalue });
    this.start("ended: " + why);
  }

  // cannotStart gives up on an engine that could not start: the cells
  // sent to it fail, and so do the next ones, until Restart.
  cannotStart(text) {
    if (this.worker) {
      this.worker.terminate();
    }
    this.broken = "the engine could not start: " + text + " (a page of the site must be served over HTTP: scripts/site --serve DIR)";
    this.endCells(this.broken, { ename: "EngineError", evalue: this.broken });
    this.status();
  }

  // endCells ends the cells sent to the engine, their futures rejected
  // with why; the first, which was running, shows error (if not null):
  // {ename, evalue}.
  endCells(why, error) {
    let first = true;
    for (const { future } of this.cells.values()) {
      if (first && error) {
        this.fail(future, error.ename, error.evalue);
      }
      future.reject(new Error(why));
      first = false;
    }
    this.cells.clear();
  }

  fail(future, ename, evalue) {
    future.onIOPub({ header: { msg_type: "error" }, parent_header: {}, metadata: {}, content: { ename, evalue, traceback: [ename + ": " + evalue] }, channel: "iopub" });
  }

  status() {
    let text;
    if (this.broken) {
      this.onStatus(this.broken + " — Restart tries again", "broken");
      return;
    }
    if (!this.ready) {
      text = "engine loading…";
      if (this.why === "interrupted") {
        text = "interrupted: the engine is restarting, and what the cells declared is gone — engine loading…";
      } else if (this.why === "restarted") {
        text = "restarted: what the cells declared is gone — engine loading…";
      } else if (this.why.startsWith("ended")) {
        text = this.why + " — engine loading…";
      }
    } else {
      text = this.busy ? "engine busy" : "engine ready";
      if (this.why !== "loading") {
        text += " (" + (this.why === "interrupted" || this.why === "restarted" ? this.why : this.why.replace(/^ended: /, "")) + ": what the cells declared before is gone)";
      }
    }
    this.onStatus(text, !this.ready ? "loading" : this.busy ? "busy" : "ready");
  }
}

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
          this.displays.set(displayId, (this.displays.get(displayId) || []).concat([this.model.length - 1]));
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
          this.model.set(index, { ...msg.content, output_type: "display_data" });
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
  const heading = id && document.querySelector(`[data-jupyter-id="${CSS.escape(id)}"]`);
  if (heading) {
    heading.scrollIntoView();
  }
}

// linkNotebooks points links to the notebooks at their pages.
function linkNotebooks(markdown) {
  return markdown.replace(/(\]\(|href=")((?:\.\/)?[\w.-]+)\.ipynb\b/g, "$1$2.html");
}

// A CodeCell is a code cell's editor, prompt and OutputArea.
class CodeCell {
  constructor(page, cell, index) {
    this.page = page;
    this.index = index;
    this.tags = (cell.metadata && cell.metadata.tags) || [];
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
    this.record = new Record();
    const show = future.onIOPub;
    future.onIOPub = (msg) => {
      this.record.add(msg);
      show(msg);
    };
    this.ran = null;
    this.setPrompt("*");
    this.node.classList.add("tnb-running");
    return future.done.then(
      (run) => {
        this.ran = run;
        this.node.classList.remove("tnb-running");
        this.setPrompt(String(run.reply.execution_count || " "));
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
    this.cells = [];
    this.runs = 0; // Run all's in progress are counted, to stop them
    this.lastRunAll = null; // what the Run all button started: {done, completed}
    const toolbar = document.createElement("div");
    toolbar.className = "tnb-toolbar";
    const home = document.createElement("a");
    home.href = "index.html";
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
      button("tnb-run-all", "Run all", "Run every code cell, in order; stop at an error unless the cell is tagged " + RAISES, () => {
        this.lastRunAll = { done: false, completed: false };
        const record = this.lastRunAll;
        this.runAll().then(
          (completed) => Object.assign(record, { done: true, completed }),
          () => Object.assign(record, { done: true }),
        );
      }),
      button("tnb-interrupt", "Interrupt", "Stop the running cell: the engine restarts, and what the cells declared is gone", () => this.interrupt()),
      button("tnb-restart", "Restart", "Start a new engine: what the cells declared is gone", () => this.restart()),
      this.statusNode,
    );
    document.body.append(toolbar);
    // The engine loads while the page draws the notebook.
    this.engine = new Engine((text, state) => {
      this.statusNode.textContent = text;
      this.statusNode.dataset.state = state;
      document.body.dataset.engine = state;
    });
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
    this.engine.firstReady.then(() => makeWhenIdle(this.cells.map((c) => c.editor)));
    window.addEventListener("hashchange", scrollToAnchor);
  }

  // markdown renders a markdown cell into node, and resolves when it is
  // shown.
  markdown(node, source) {
    node.className = "tnb-cell tnb-markdown";
    const renderer = rendermime.createRenderer("text/markdown");
    // Untrusted, as JupyterLab renders a markdown cell: its HTML goes
    // through the sanitizer.
    return renderer.renderModel(new MimeModel({ data: { "text/markdown": linkNotebooks(source) }, trusted: false })).then(() => {
      Widget.attach(renderer, node);
    });
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
    this.engine.restart("interrupted");
  }

  restart() {
    this.runs++;
    this.engine.restart("restarted");
  }
}

window.addEventListener("DOMContentLoaded", () => {
  const notebook = JSON.parse(document.getElementById("tnb-notebook").textContent);
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
    cells: () => page.cells.map((c) => ({ index: c.index, tags: c.tags, outputs: c.outputs(), reply: c.ran && c.ran.reply, ms: c.ran ? c.ran.ms : -1, wall: c.ran ? c.ran.wall : -1, at: c.ran ? c.ran.at : -1 })),
    lastRunAll: () => page.lastRunAll,
    // readyMS is from the worker's start to the engine's, loadMS from the
    // page's navigation to the engine's start.
    // buildMS is how long the page took to build its cells.
    engine: () => ({ ready: page.engine.ready, readyMS: page.engine.readyMS, loadMS: page.engine.loadMS, busy: page.engine.busy, buildMS }),
  };
});
