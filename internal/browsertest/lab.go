package browsertest

// LabJS, evaluated in a JupyterLab page (the static site's JupyterLite
// app, or the JupyterLab scripts/run serves), defines
// window.tnbLabTest: it opens a notebook's panel, records what the
// notebook's kernel sends (each cell's outputs as the kernel sent them,
// before a renderer sees them, and its execute_reply), runs all cells
// with JupyterLab's own command, and runs code on the kernel.
const LabJS = `window.tnbLabTest = (() => {
  const app = window.jupyterapp;
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  let panel = null;
  let records = [];
  const log = []; // the last messages to and from the kernel, for a test's failure
  const byMsg = new Map();
  // A server's kernel sends the reply on its shell channel and the rest
  // on IOPub, and the two may arrive in either order: a reply that comes
  // before its execute_input waits here.
  const early = new Map();
  const kernel = () => panel.sessionContext.session.kernel;

  function output(type, content) {
    const o = { output_type: type, ...content };
    delete o.transient;
    return o;
  }

  // record applies a message the kernel sent to the record of the cell
  // (the execute request) it answers.
  function record(msg) {
    const type = msg.header.msg_type;
    const id = msg.parent_header && msg.parent_header.msg_id;
    if (type === "execute_input") {
      const r = { outputs: [], displays: new Map(), reply: early.get(id) || null, clearNext: false };
      early.delete(id);
      byMsg.set(id, r);
      records.push(r);
      return;
    }
    const r = byMsg.get(id);
    if (!r) {
      if (type === "execute_reply") {
        early.set(id, msg.content);
      }
      return;
    }
    const c = msg.content;
    const displayId = c.transient && c.transient.display_id;
    switch (type) {
      case "stream":
      case "display_data":
      case "execute_result":
      case "error":
        if (r.clearNext) {
          r.outputs = [];
          r.displays.clear();
          r.clearNext = false;
        }
        r.outputs.push(output(type, c));
        if (displayId && type === "display_data") {
          r.displays.set(displayId, (r.displays.get(displayId) || []).concat([r.outputs.length - 1]));
        }
        break;
      case "clear_output":
        if (c.wait) {
          r.clearNext = true;
        } else {
          r.outputs = [];
          r.displays.clear();
        }
        break;
      case "update_display_data":
        for (const other of records) {
          for (const i of other.displays.get(displayId) || []) {
            other.outputs[i] = output("display_data", c);
          }
        }
        break;
      case "execute_reply":
        r.reply = c;
        break;
    }
  }

  const codeCells = () => panel.content.widgets.map((c, index) => ({ c, index })).filter(({ c }) => c.model.type === "code");

  return {
    // open waits for the notebook at path to be open with its kernel
    // ready, and returns the kernel's name.
    async open(path) {
      // With no bound of its own: a notebook that never opens runs into
      // the browser's session (go test's -timeout).
      while (!panel) {
        panel = Array.from(app.shell.widgets("main")).find((w) => w.context && w.context.path === path) || null;
        if (!panel) {
          await sleep(100);
        }
      }
      await panel.context.ready;
      await panel.sessionContext.ready;
      panel.sessionContext.session.kernel.anyMessage.connect((_, { msg, direction }) => {
        log.push([Math.round(performance.now()), direction, msg.channel, msg.header.msg_type, (msg.parent_header || {}).msg_id || ""].join(" "));
        if (log.length > 200) {
          log.shift();
        }
        if (direction === "recv") {
          record(msg);
        }
      });
      app.shell.activateById(panel.id);
      return kernel().name;
    },
    // runAll runs every cell with JupyterLab's Run All Cells.
    runAll() {
      records = [];
      byMsg.clear();
      early.clear();
      app.shell.activateById(panel.id);
      void app.commands.execute("notebook:run-all-cells");
      return true;
    },
    // done says whether Run All Cells has ended: no cell runs, the kernel
    // is idle and every request it got has its reply (a cell the client
    // dropped gets no request: the test compares the numbers after).
    done() {
      const running = codeCells().some(({ c }) => c.model.executionState === "running");
      return !running && kernel().status === "idle" && records.length > 0 && records.every((r) => r.reply);
    },
    // messages are the last 200 messages the kernel got and sent, a
    // line each: ms since the navigation, direction, channel, type and
    // the id of the request it answers.
    messages() {
      return log.slice();
    },
    // requests is the number of execute requests the kernel got.
    requests() {
      return records.length;
    },
    // cells gives each code cell's index among all cells, tags, the
    // outputs its kernel sent, its reply and how many outputs JupyterLab
    // shows.
    cells() {
      return codeCells().map(({ c, index }, i) => ({
        index,
        tags: c.model.getMetadata("tags") || [],
        outputs: records[i] ? records[i].outputs : [],
        reply: records[i] ? records[i].reply : null,
        shown: c.model.outputs.length,
        count: c.model.executionCount,
        state: c.model.executionState,
      }));
    },
    // execute runs code on the notebook's kernel, as a cell would, and
    // resolves to its outputs' text: streams, the text/plain of results,
    // errors as ENAME: EVALUE.
    async execute(code) {
      const future = kernel().requestExecute({ code });
      const parts = [];
      future.onIOPub = (msg) => {
        const c = msg.content;
        switch (msg.header.msg_type) {
          case "stream":
            parts.push(c.text);
            break;
          case "execute_result":
          case "display_data":
            parts.push(c.data["text/plain"] || "");
            break;
          case "error":
            parts.push(c.ename + ": " + c.evalue);
            break;
        }
      };
      await future.done;
      return parts.join("\n");
    },
    // complete and inspect ask the kernel what JupyterLab's completer
    // (Tab) and tooltip (Shift-Tab) ask it, at the end of code: the
    // matches, and the text of what the name there is.
    async complete(code) {
      const reply = await kernel().requestComplete({ code, cursor_pos: code.length });
      return reply.content.matches || [];
    },
    async inspect(code) {
      const reply = await kernel().requestInspect({ code, cursor_pos: code.length, detail_level: 0 });
      return reply.content.found ? reply.content.data["text/plain"] : "";
    },
    // interrupt runs an endless loop, interrupts the kernel once the
    // loop has started and resolves to the cell's outputs and the time
    // from the interrupt to its reply, in ms. It waits with no bound of
    // its own: a loop that never starts, or a reply that never comes,
    // runs into the browser's session (go test's -timeout).
    async interrupt() {
      const future = kernel().requestExecute({ code: 'fmt.Println("looping")\nfor {\n}' });
      const parts = [];
      let started = false;
      future.onIOPub = (msg) => {
        const c = msg.content;
        if (msg.header.msg_type === "stream") {
          started = started || c.text.includes("looping");
          parts.push(c.text);
        } else if (msg.header.msg_type === "error") {
          parts.push(c.ename + ": " + c.evalue);
        }
      };
      while (!started) {
        await sleep(100);
      }
      await sleep(300);
      const t0 = performance.now();
      await panel.sessionContext.session.kernel.interrupt();
      await future.done;
      return { ms: performance.now() - t0, text: parts.join("\n") };
    },
    // codeNodes are the nodes of the code cells' widgets.
    codeNodes() {
      return codeCells().map(({ c }) => c.node);
    },
    // source is the source of the cell at index (among all cells).
    source(index) {
      return panel.content.widgets[index].model.sharedModel.getSource();
    },
    // select makes the cell at index (among all cells) the active one,
    // in edit mode, with the first occurrence of text selected in its
    // editor, for keys to type over it; it resolves to false if the
    // cell lacks text.
    async select(index, text) {
      const notebook = panel.content;
      const cell = notebook.widgets[index];
      const at = cell.model.sharedModel.getSource().indexOf(text);
      if (at < 0) {
        return false;
      }
      notebook.activeCellIndex = index;
      await notebook.scrollToItem(index, "center");
      await cell.ready;
      notebook.mode = "edit";
      cell.editor.focus();
      cell.editor.setSelection({ start: cell.editor.getPositionAt(at), end: cell.editor.getPositionAt(at + text.length) });
      return true;
    },
    // run runs the cell at index (among all cells) with JupyterLab's Run
    // Selected Cell and Do not Advance, and resolves once it ran.
    async run(index) {
      const notebook = panel.content;
      app.shell.activateById(panel.id);
      notebook.mode = "command";
      notebook.activeCellIndex = index;
      notebook.deselectAll();
      await app.commands.execute("notebook:run-cell");
      return true;
    },
    // runCode adds a cell with code at the notebook's end and starts it
    // with JupyterLab's Run Selected Cell and Do not Advance, without
    // waiting for it: a cell that reads its input waits for a person.
    async runCode(code) {
      const notebook = panel.content;
      app.shell.activateById(panel.id);
      notebook.mode = "command";
      notebook.activeCellIndex = notebook.widgets.length - 1;
      await app.commands.execute("notebook:insert-cell-below");
      notebook.activeCell.model.sharedModel.setSource(code);
      void app.commands.execute("notebook:run-cell");
      return true;
    },
    // lastOutput is the text the active cell's outputs show.
    lastOutput() {
      return panel.content.activeCell.outputArea.node.innerText;
    },
    // restart restarts the notebook's kernel, as JupyterLab's Restart
    // Kernel does once asked, and resolves once it answers again.
    async restart() {
      await panel.sessionContext.restartKernel();
      await kernel().requestKernelInfo();
      return true;
    },
    // runFrom runs the code cells from the one at index (among code
    // cells) on, one at a time, as run does.
    async runFrom(index) {
      for (const { index: i } of codeCells().slice(index)) {
        await this.run(i);
      }
      return true;
    },
    // count is the number of elements in the notebook's panel that
    // match selector.
    count(selector) {
      return panel.node.querySelectorAll(selector).length;
    },
    // scrollTo scrolls the first element that matches selector into
    // view and resolves once it has stayed in place for a few frames.
    // reveal scrolls the notebook to its first code cell with an output
    // of mime, so that JupyterLab draws that output if it has not yet.
    async reveal(mime) {
      const cell = panel.content.widgets.find((c) => {
        if (c.model.type !== "code") {
          return false;
        }
        const outputs = c.model.outputs;
        return Array.from({ length: outputs.length }, (_, i) => outputs.get(i)).some((o) => mime in o.data);
      });
      if (!cell) {
        throw new Error("no output of " + mime + " in the notebook");
      }
      await panel.content.scrollToCell(cell, "center");
      return true;
    },
    async scrollTo(selector) {
      const node = document.querySelector(selector);
      if (!node) {
        throw new Error("no " + selector + " on the page");
      }
      node.scrollIntoView({ block: "center" });
      let last = null;
      for (let still = 0, i = 0; still < 5 && i < 200; i++) {
        await new Promise((r) => requestAnimationFrame(r));
        const top = node.getBoundingClientRect().top;
        still = top === last ? still + 1 : 0;
        last = top;
      }
      return true;
    },
    // leave marks the notebooks unchanged, so that JupyterLab lets the
    // page go without asking (a question no one would answer here).
    leave() {
      for (const w of app.shell.widgets("main")) {
        if (w.context) {
          w.context.model.dirty = false;
        }
      }
      return true;
    },
  };
})();
true`
