// The page's side of the instant engine: an Engine runs cells in
// worker.js, a Web Worker (kernel/internal/browser's doc gives its messages),
// and hands their outputs to kernel futures, as JupyterLab's kernel
// connection hands a kernel's. The site's pages (site/web/page.js) and
// its JupyterLite kernel (lite/web/kernel.js) both bundle it.
//
// The engine cannot be stopped inside WebAssembly: an interrupt ends the
// worker and starts a new one. Then the next cell first replays, with
// outputs hidden, the cells that had run without an error, so that what
// they declared is there again, and says so on its stderr, in the words
// of the server's instant engine (kernel/internal/interp/worker's Engine), which does the
// same after an interrupt or a crash. Restart forgets the cells. Those
// words, and the errors' names, come from Go, in shared.js.
import {
  interrupted,
  engineError,
  memoryError,
  interpreterDied,
  cellInterrupted,
  cellRanOut,
  replayInterrupted,
  restartNote,
  lostInterrupt,
  lostRunning,
  lostBetween,
  lostBetweenReport,
  lostMemoryRunning,
  lostMemoryBetween,
  nothingToReplay,
  replaying,
  replayFailed,
  replayEnded,
  replayTooLong,
  replayInterruptedDuring,
  replayDone,
  replayDoneSlowest,
  replayLimitMS,
  replayLimitText,
  workerFile,
} from "./shared.js";

// What bounds the engine's memory: WebAssembly's 32-bit addresses.
const memoryLimit =
  "a page's engine has at most 4 GiB, all that WebAssembly can address";

// The reason the worker ends when a replay takes longer than its limit
// (replayLimitMS, as on the server).
const tooLong = "the replay took too long";

// fill fills in the %s of one of the server's sentences with args, in
// order, as Go's fmt.Sprintf does.
function fill(sentence, ...args) {
  let i = 0;
  return sentence.replace(/%s/g, () => String(args[i++]));
}

// A Future stands for one cell's execution (or one comm message's
// delivery), as a kernel future does in JupyterLab: its owner (an
// OutputArea) sets onIOPub, onReply and onStdin, and answers an
// input_request with sendInputReply. done resolves to {reply, ms, wall,
// at} when the cell has run, or rejects if the engine ended first.
export class Future {
  constructor() {
    this.onIOPub = () => {};
    this.onReply = () => {};
    this.onStdin = () => {};
    this.sendInputReply = () => {}; // set once the cell is sent
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

// names names cells for a note, by execution count, as the server's
// engine does: In [1]–[3], [5].
export function names(cells) {
  const parts = [];
  for (let i = 0; i < cells.length;) {
    let j = i + 1;
    while (j < cells.length && cells[j].count === cells[j - 1].count + 1) {
      j++;
    }
    let part = "[" + cells[i].count + "]";
    if (j - i > 2) {
      part += "–[" + cells[j - 1].count + "]";
    } else if (j - i === 2) {
      part += ", [" + cells[j - 1].count + "]";
    }
    parts.push(part);
    i = j;
  }
  return "In " + parts.join(", ");
}

// The Engine runs cells in a worker.js Web Worker, one after another.
// onStatus(text, state) hears of its state: "loading", "ready", "busy" or
// "broken" (it could not start). Options: workerURL, worker.js's address;
// routeDisplays, whether an update of a display goes to the futures of
// the cells that showed it (a page of output areas), or, as everything
// else, to the future of the cell that made it (a kernel, whose client
// routes it).
export class Engine {
  constructor(onStatus, { workerURL = workerFile, routeDisplays = true } = {}) {
    this.onStatus = onStatus;
    this.workerURL = workerURL;
    this.routeDisplays = routeDisplays;
    this.displays = new Map(); // display id → the futures whose cells showed it
    this.requests = new Map(); // id → the resolve of a completion's or an inspection's reply
    this.count = 0; // the last execution count given
    this.completed = []; // {code, count} of the cells that ran without an error, to replay
    this.replay = null; // {why, cells} for the next cell to replay first, after the worker ended
    this.replaying = null; // the Promise of a replay and its cell, which later cells wait for
    this.firstReady = new Promise(
      (resolve) => (this.resolveFirstReady = resolve),
    );
    this.start("loading");
  }

  start(why) {
    this.started = performance.now();
    this.ready = false;
    this.readyMS = null;
    this.broken = null; // why the engine could not start
    this.cells = new Map(); // id → {future, sent, code, count, allowStdin, comm}
    this.comms = new Map(); // the open comms of the worker's widgets: comm id → target name
    this.next = 0;
    this.why = why;
    // The page's first engine was started by the page itself, before its
    // script loaded (see site.go's page); it is adopted once.
    const early = window.tnbEarlyEngine;
    window.tnbEarlyEngine = null;
    if (early) {
      this.worker = early.worker;
      this.started = early.started;
    } else {
      try {
        this.worker = new Worker(this.workerURL);
      } catch (e) {
        // A page opened from a file may not start workers.
        this.worker = null;
        this.cannotStart(String(e));
        return;
      }
    }
    // A worker ended for an interrupt or a restart may still report
    // what it was doing (its scripts' load, aborted): only the current
    // worker's messages and errors count.
    const worker = this.worker;
    worker.onmessage = ({ data: m }) => {
      if (worker === this.worker) {
        this.receive(m);
      }
    };
    worker.onerror = (e) => {
      e.preventDefault();
      if (worker === this.worker) {
        this.loadFailed(e.message || this.workerURL + " failed to load");
      }
    };
    this.status();
    // The early worker's messages, each with the time it came.
    for (const [i, m] of (early ? early.messages : []).entries()) {
      this.receivedAt = early.times ? early.times[i] : null;
      this.receive(m);
    }
    this.receivedAt = null;
  }

  receive(m) {
    switch (m.type) {
      case "ready":
        this.resolveFirstReady();
        this.ready = true;
        this.retried = false;
        // (An adopted early worker's message came at this.receivedAt.)
        this.loadMS = this.receivedAt ?? performance.now(); // since the page's navigation started
        this.readyMS = this.loadMS - this.started;
        // For timing reports (the site's TestLabTimes): when the engine
        // was ready, and its start's steps, in ms since the worker began.
        performance.mark("tnb-engine-ready", {
          startTime: this.loadMS,
          detail: {
            ms: m.ms,
            compiled: m.compiled,
            init: m.init,
            session: m.session,
            warm: m.warm,
          },
        });
        this.status();
        return;
      case "error":
        this.loadFailed(m.message);
        return;
      case "exit":
        this.crashed(m.code, m.fatal);
        return;
      case "complete_reply":
      case "inspect_reply":
      case "verdict_reply": {
        const resolve = this.requests.get(m.id);
        this.requests.delete(m.id);
        if (resolve) {
          resolve(m.content);
        }
        return;
      }
    }
    const cell = this.cells.get(m.id);
    if (!cell) {
      return;
    }
    if (m.type === "iopub") {
      this.iopub(cell.future, m.msg_type, m.content, m.metadata, m.buffers);
    } else if (m.type === "input_request") {
      cell.future.onStdin({
        header: { msg_type: "input_request", msg_id: "input-" + m.id },
        parent_header: {},
        metadata: {},
        content: { prompt: m.prompt, password: m.password },
        channel: "stdin",
      });
    } else if (m.type === "reply") {
      this.cells.delete(m.id);
      if (m.content.status === "ok" && !cell.comm) {
        this.completed.push({ code: cell.code, count: cell.count });
      }
      if (!cell.comm) {
        cell.future.onReply({
          header: { msg_type: "execute_reply" },
          content: m.content,
        });
      }
      cell.future.resolve({
        reply: m.content,
        ms: m.ms,
        wall: performance.now() - cell.sent,
        at: performance.now(),
      });
      this.status();
    }
  }

  // iopub hands a message to the futures that should see it, as
  // JupyterLab's kernel connection does: an update of a display goes to
  // the cells that showed it, everything else to the cell that made it.
  // The comms the widgets open and close are kept, for comm_info.
  iopub(future, msgType, content, metadata, buffers) {
    const msg = {
      header: { msg_type: msgType },
      parent_header: {},
      metadata: metadata || {},
      content,
      buffers,
      channel: "iopub",
    };
    this.track(msgType, content);
    const displayId = content.transient && content.transient.display_id;
    if (
      this.routeDisplays &&
      displayId &&
      (msgType === "display_data" || msgType === "update_display_data")
    ) {
      const owners = (this.displays.get(displayId) || []).filter(
        (f) => !f.isDisposed,
      );
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

  // track keeps the open comms up to date with a comm message.
  track(msgType, content) {
    if (msgType === "comm_open") {
      this.comms.set(content.comm_id, content.target_name);
    } else if (msgType === "comm_close") {
      this.comms.delete(content.comm_id);
    }
  }

  // execute runs a cell's code as execution count count (the next one if
  // not given), after replaying the earlier cells if the worker was
  // replaced, and returns its future. Cells run in the order they were
  // given, after the replay too. With allowStdin false, a cell that reads
  // its standard input fails at once, as a kernel's does when the front
  // end allows no input; otherwise its future's onStdin hears of each
  // line it reads, to be answered with sendInputReply({value}).
  execute(code, count = this.count + 1, { allowStdin = true } = {}) {
    const future = new Future();
    this.count = count;
    const replay = this.replay;
    this.replay = null;
    if (replay && !this.broken) {
      this.completed = []; // the replayed cells are recorded again as they complete
      const replaying = this.replayThen(
        replay,
        code,
        count,
        future,
        allowStdin,
      ).finally(() => {
        if (this.replaying === replaying) {
          this.replaying = null;
        }
      });
      this.replaying = replaying;
    } else if (this.replaying) {
      this.replaying.then(() => this.send(code, count, future, allowStdin));
    } else {
      this.send(code, count, future, allowStdin);
    }
    return future;
  }

  // comm delivers a comm message of the page's widget manager to the
  // worker's widgets, after the cells sent before it, and returns its
  // future, which hears of what the widgets' callbacks print, show and
  // send. buffers are ArrayBuffers or DataViews.
  comm(msgType, content, metadata = {}, buffers = []) {
    const future = new Future();
    this.track(msgType, content);
    if (this.broken || !this.worker) {
      const evalue = this.broken || "the engine is not running";
      Promise.resolve().then(() => this.failNow(future, engineError, evalue));
      return future;
    }
    const id = ++this.next;
    this.cells.set(id, { future, sent: performance.now(), comm: true });
    this.worker.postMessage({
      id,
      type: "comm",
      msg_type: msgType,
      content,
      metadata,
      buffers,
    });
    this.status();
    return future;
  }

  // send sends a cell to the worker; with no worker to take it, the cell
  // fails, saying why.
  send(code, count, future, allowStdin = false) {
    if (this.broken || !this.worker) {
      // Once the cell's output area has taken the future.
      const evalue = this.broken || "the engine is not running";
      Promise.resolve().then(() => this.failNow(future, engineError, evalue));
      return;
    }
    const id = ++this.next;
    this.cells.set(id, {
      future,
      sent: performance.now(),
      code,
      count,
      allowStdin,
    });
    future.sendInputReply = (content) => this.inputReply(id, content.value);
    this.worker.postMessage({ id, code, count, allow_stdin: allowStdin });
    this.status();
  }

  // inputReply answers cell id's input_request with the line value.
  inputReply(id, value) {
    if (this.worker && this.cells.has(id)) {
      this.worker.postMessage({ id, type: "input_reply", value });
    }
  }

  // failNow ends a cell that did not run with an error.
  failNow(future, ename, evalue) {
    this.fail(future, ename, evalue);
    future.resolve({
      reply: {
        status: "error",
        ename,
        evalue,
        traceback: [ename + ": " + evalue],
      },
      ms: 0,
      wall: 0,
      at: performance.now(),
    });
  }

  // replayThen replays the cells of replay with their outputs hidden,
  // saying so on the stderr of the cell it is for, then runs that cell,
  // as the server's engine does (kernel/internal/interp/worker's Engine.ready).
  async replayThen(replay, code, count, future, allowStdin) {
    await Promise.resolve(); // the cell's output area takes the future
    const note = (text) =>
      this.iopub(future, "stream", { name: "stderr", text });
    const { why, cells } = replay;
    if (cells.length === 0) {
      note(fill(nothingToReplay, why));
      this.send(code, count, future, allowStdin);
      return;
    }
    note(fill(replaying, why, names(cells), ""));
    const start = performance.now();
    const limit = setTimeout(() => this.end(tooLong, null), replayLimitMS);
    let slowest = 0;
    let slowestMS = 0;
    try {
      for (const [i, cell] of cells.entries()) {
        const replayed = new Future();
        const cellStart = performance.now();
        this.send(cell.code, cell.count, replayed);
        let run;
        try {
          run = await replayed.done;
        } catch (e) {
          if (e.message === "restarted" || e.message === "disposed") {
            future.reject(e);
            return;
          }
          if (e.message === "interrupted") {
            note(fill(replayInterruptedDuring, names([cell])));
            this.forget();
            this.failNow(future, interrupted, replayInterrupted);
            return;
          }
          if (e.message === tooLong) {
            note(fill(replayTooLong, replayLimitText, names([cell])));
          } else {
            note(fill(replayEnded, names([cell]), e.message));
          }
          // The worker ended: the cell runs in the new, empty one.
          this.forget();
          this.send(code, count, future, allowStdin);
          return;
        }
        if (performance.now() - cellStart > slowestMS) {
          slowest = i;
          slowestMS = performance.now() - cellStart;
        }
        if (run.reply.status !== "ok") {
          note(
            fill(
              replayFailed,
              names([cell]),
              run.reply.ename + ": " + run.reply.evalue,
              names(cells.slice(i)),
            ),
          );
          this.send(code, count, future, allowStdin);
          return;
        }
      }
    } finally {
      clearTimeout(limit);
    }
    const took = performance.now() - start;
    if (took > 2000 && slowestMS > took / 2) {
      note(
        fill(
          replayDoneSlowest,
          (took / 1000).toFixed(1),
          (slowestMS / 1000).toFixed(1),
          names(cells.slice(slowest, slowest + 1)),
        ),
      );
    } else {
      note(fill(replayDone, (took / 1000).toFixed(2)));
    }
    this.send(code, count, future, allowStdin);
  }

  // forget drops the cells recorded so far: they are not replayed.
  forget() {
    this.completed = [];
    this.replay = null;
    this.status();
  }

  // complete and inspect ask the engine for a complete_reply's or an
  // inspect_reply's content, at cursorPos (in characters) in code.
  complete(code, cursorPos) {
    return this.request({ type: "complete", code, cursor_pos: cursorPos });
  }

  inspect(code, cursorPos, detailLevel = 0) {
    return this.request({
      type: "inspect",
      code,
      cursor_pos: cursorPos,
      detail_level: detailLevel,
    });
  }

  // verdict asks the engine how a test cell of an exercise did, from its
  // nbgrader metadata (undefined if it has none) and its outputs as
  // nbformat stores them, by the rule tensornb grade scores by (Go's:
  // kernel/internal/nbgrader's Judge): a Promise of {passed, points, max,
  // feedback}, or of null if the cell is no test cell. It does not wait
  // for the cells sent before it, and rejects if the engine cannot answer
  // (it could not start, or ended first).
  async verdict(nbgrader, outputs) {
    const reply = await this.request({ type: "verdict", nbgrader, outputs });
    if (reply.status !== "ok") {
      throw new Error(reply.ename + ": " + reply.evalue);
    }
    return reply.verdict;
  }

  request(message) {
    if (this.broken || !this.worker) {
      return Promise.resolve({
        status: "error",
        ename: engineError,
        evalue: this.broken || "no engine",
        traceback: [],
      });
    }
    const id = ++this.next;
    this.worker.postMessage({ id, ...message });
    return new Promise((resolve) => this.requests.set(id, resolve));
  }

  get busy() {
    return this.cells.size > 0;
  }

  // dispose ends the worker for good: the cells sent later fail.
  dispose() {
    if (this.worker) {
      this.worker.terminate();
    }
    this.broken = "the kernel was shut down";
    this.endCells("disposed", null);
  }

  // interrupt ends the worker under a running cell, which fails saying
  // so; the next cell replays the cells that had completed.
  interrupt() {
    this.replay = { why: lostInterrupt, cells: this.completed };
    this.end("interrupted", { ename: interrupted, evalue: cellInterrupted });
  }

  // restart ends the worker and forgets the cells, as a kernel's restart
  // does: the next cell runs in an empty session, as execution count 1.
  restart() {
    this.forget();
    this.count = 0;
    this.end("restarted", null);
  }

  // end ends the worker, and with it every cell sent to it: the one
  // running shows error (if not null), and all are rejected with why.
  // Then a new worker starts.
  end(why, error) {
    if (this.worker) {
      this.worker.terminate();
    }
    this.endCells(why, error);
    this.start(why);
  }

  // crashed restarts an engine that ended, with exit code code and the Go
  // runtime's fatal error (or ""): the cell it was running fails, with a
  // MemoryError if the engine ran out of memory, as on the server, and
  // the next cell replays the cells that had completed.
  crashed(code, fatal) {
    const status = "the interpreter ended (exit code " + code + ")";
    let error = {
      ename: interpreterDied,
      evalue: fatal || status,
      traceback: [
        interpreterDied + ": " + status,
        ...(fatal ? [fatal] : []),
        restartNote,
      ],
    };
    let why = this.busy
      ? lostRunning
      : fatal
        ? fill(lostBetweenReport, fatal)
        : lostBetween;
    if (/out of memory/.test(fatal)) {
      const line = "out of memory (" + memoryLimit + ")";
      const evalue = fill(cellRanOut, line);
      error = {
        ename: memoryError,
        evalue,
        traceback: [memoryError + ": " + evalue, restartNote],
      };
      why = fill(this.busy ? lostMemoryRunning : lostMemoryBetween, line);
    }
    this.replay = { why, cells: this.completed };
    this.end(error.evalue, error);
  }

  // loadFailed starts the worker once more when it could not load its
  // scripts, which a busy machine or network can make fail once; a second
  // failure gives up (cannotStart). The cells sent meanwhile wait in the
  // new worker's queue.
  loadFailed(text) {
    if (this.ready || this.retried) {
      this.cannotStart(text);
      return;
    }
    this.retried = true;
    const cells = this.cells;
    this.cells = new Map(); // endCells ends only the completions asked for
    this.endCells(
      "the engine's worker did not load; it was started again",
      null,
    );
    this.worker.terminate();
    this.start(this.why);
    for (const [id, cell] of cells) {
      if (cell.comm) {
        cell.future.reject(new Error("the engine's worker was started again"));
        continue; // the new worker has no widgets
      }
      this.cells.set(id, cell);
      this.next = Math.max(this.next, id);
      this.worker.postMessage({
        id,
        code: cell.code,
        count: cell.count,
        allow_stdin: cell.allowStdin,
      });
    }
    this.status();
  }

  // cannotStart gives up on an engine that could not start: the cells
  // sent to it fail, and so do the next ones, until Restart.
  cannotStart(text) {
    if (this.worker) {
      this.worker.terminate();
    }
    this.broken =
      "the engine could not start: " +
      text +
      " (a page of the site must be served over HTTP: scripts/site --serve DIR)";
    this.endCells(this.broken, { ename: engineError, evalue: this.broken });
    this.status();
  }

  // endCells ends the cells sent to the engine, their futures rejected
  // with why; the first, which was running, shows error (if not null):
  // {ename, evalue, traceback (optional)}. The completions and
  // inspections asked for get an error reply.
  endCells(why, error) {
    let first = true;
    for (const { future } of this.cells.values()) {
      if (first && error) {
        this.fail(future, error.ename, error.evalue, error.traceback);
      }
      future.reject(
        Object.assign(
          new Error(why),
          first && error ? { ename: error.ename, evalue: error.evalue } : {},
        ),
      );
      first = false;
    }
    this.cells.clear();
    for (const resolve of this.requests.values()) {
      resolve({
        status: "error",
        ename: engineError,
        evalue: "the engine ended before it answered (" + why + ")",
        traceback: [],
      });
    }
    this.requests.clear();
  }

  fail(future, ename, evalue, traceback = [ename + ": " + evalue]) {
    future.onIOPub({
      header: { msg_type: "error" },
      parent_header: {},
      metadata: {},
      content: { ename, evalue, traceback },
      channel: "iopub",
    });
  }

  status() {
    if (this.broken) {
      this.onStatus(this.broken + " — Restart tries again", "broken");
      return;
    }
    let after = "";
    if (this.replay) {
      after =
        this.replay.why +
        ": the next cell first replays the cells that ran without an error";
    } else if (this.why === "restarted" && this.count === 0) {
      after = "restarted: what the cells declared is gone";
    }
    if (!this.ready) {
      this.onStatus(
        (after ? after + " — " : "") + "engine loading…",
        "loading",
      );
      return;
    }
    this.onStatus(
      (this.busy ? "engine busy" : "engine ready") +
        (after ? " (" + after + ")" : ""),
      this.busy ? "busy" : "ready",
    );
  }
}
