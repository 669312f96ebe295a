// The tensornb kernel of the JupyterLite app: a JupyterLite in-browser
// kernel (a BaseKernel of @jupyterlite/services) whose cells run in the
// tensornb instant engine, compiled to WebAssembly and running in a Web
// Worker (kernel/browser/worker.js; its messages are described there).
//
// The worker already speaks Jupyter: it sends each output of a cell as
// the content of an iopub message (stream, display_data,
// update_display_data, execute_result, error, clear_output) and the
// content of the execute_reply, complete_reply and inspect_reply. This
// kernel hands them to JupyterLite's kernel client, which passes them
// to JupyterLab as a kernel on a server would.
//
// The engine cannot be stopped inside WebAssembly: an interrupt ends the
// worker and starts a new one, whose session is empty, and the cell that
// was running says so, in the words of the server's instant engine.
import { PageConfig } from "@jupyterlab/coreutils";
import { BaseKernel, IKernelSpecs, IKernelClient, LiteKernelClient } from "@jupyterlite/services";
import { IServerSettings } from "@jupyterlab/services";

/** The kernel's name, as notebooks' kernelspec metadata names it. */
export const KERNEL_NAME = "tensornb";

// What the cell that an interrupt ended shows (kernel/interp's Local says
// the same on the server).
const interruptedText =
  "the cell was interrupted; the engine was restarted, and what the cells declared is gone: run them again";

// The running tensornb kernels, by id, for the kernel client's interrupt.
const running = new Map();

// An Engine is one worker.js Web Worker: it sends requests and routes the
// worker's answers to them.
class Engine {
  constructor(url) {
    this.pending = new Map(); // id → {onIOPub, resolve}
    this.next = 0;
    this.ready = new Promise((resolve, reject) => {
      try {
        this.worker = new Worker(url);
      } catch (e) {
        reject(new Error(String(e)));
        return;
      }
      this.worker.onmessage = ({ data: m }) => {
        switch (m.type) {
          case "ready":
            resolve(m);
            return;
          case "error":
            reject(new Error(m.message));
            return;
          case "exit":
            this.endAll("EngineError", "the engine ended (exit code " + m.code + "); it was restarted, and what the cells declared is gone: run them again");
            this.onExit();
            return;
        }
        const p = this.pending.get(m.id);
        if (!p) {
          return;
        }
        if (m.type === "iopub") {
          p.onIOPub(m.msg_type, m.content);
          return;
        }
        this.pending.delete(m.id);
        p.resolve(m.content);
      };
      this.worker.onerror = (e) => {
        e.preventDefault();
        reject(new Error(e.message || url + " failed to load"));
      };
    });
    this.ready.catch(() => {});
    this.onExit = () => {};
  }

  // request sends a message to the worker and resolves to the content of
  // its reply; onIOPub receives the outputs on the way.
  async request(message, onIOPub = () => {}) {
    await this.ready;
    const id = ++this.next;
    return new Promise((resolve) => {
      this.pending.set(id, { onIOPub, resolve });
      this.worker.postMessage({ id, ...message });
    });
  }

  // endAll answers every pending request with an error, the first one
  // (the running cell) also with an error output.
  endAll(ename, evalue) {
    let first = true;
    for (const p of this.pending.values()) {
      if (first) {
        p.onIOPub("error", { ename, evalue, traceback: [ename + ": " + evalue] });
      }
      p.resolve({ status: "error", ename, evalue, traceback: [ename + ": " + evalue] });
      first = false;
    }
    this.pending.clear();
  }

  terminate() {
    this.worker && this.worker.terminate();
  }
}

/**
 * TensornbKernel runs a notebook's cells in the tensornb instant engine.
 */
export class TensornbKernel extends BaseKernel {
  constructor(options, workerUrl) {
    super(options);
    this.workerUrl = workerUrl;
    this.engine = this.newEngine();
    running.set(this.id, this);
  }

  newEngine() {
    const engine = new Engine(this.workerUrl);
    engine.onExit = () => {
      if (this.engine === engine) {
        engine.terminate();
        this.engine = this.newEngine();
      }
    };
    return engine;
  }

  // interruptEngine ends the engine, and with it the running cell, and
  // starts a new one.
  interruptEngine() {
    const old = this.engine;
    this.engine = this.newEngine();
    old.terminate();
    old.endAll("Interrupted", interruptedText);
  }

  dispose() {
    if (this.isDisposed) {
      return;
    }
    running.delete(this.id);
    this.engine.terminate();
    super.dispose();
  }

  async kernelInfoRequest() {
    return {
      status: "ok",
      protocol_version: "5.3",
      implementation: "tensornb",
      implementation_version: "wasm",
      language_info: {
        name: "go",
        version: PageConfig.getOption("tensornbGoVersion") || "",
        mimetype: "text/x-go",
        file_extension: ".go",
        codemirror_mode: "go",
        pygments_lexer: "go",
        nbconvert_exporter: "script",
      },
      banner: "tensornb: Go with tensors, interpreted in this browser (WebAssembly)",
      help_links: [],
    };
  }

  async executeRequest(content) {
    const parent = this.parentHeader;
    const count = this.executionCount;
    const publish = (msgType, c) => {
      switch (msgType) {
        case "stream":
          this.stream(c, parent);
          break;
        case "display_data":
          this.displayData(c, parent);
          break;
        case "update_display_data":
          this.updateDisplayData(c, parent);
          break;
        case "execute_result":
          this.publishExecuteResult({ ...c, execution_count: count }, parent);
          break;
        case "error":
          this.publishExecuteError(c, parent);
          break;
        case "clear_output":
          this.clearOutput(c, parent);
          break;
      }
    };
    let reply;
    try {
      reply = await this.engine.request({ code: content.code }, publish);
    } catch (e) {
      const evalue = "the engine could not start: " + e.message + " (the site must be served over HTTP: scripts/site --serve DIR)";
      publish("error", { ename: "EngineError", evalue, traceback: ["EngineError: " + evalue] });
      reply = { status: "error", ename: "EngineError", evalue, traceback: [] };
    }
    if (reply.status === "error" && content.stop_on_error === false) {
      this.keepQueue = true; // see TensornbKernelClient
    }
    return { ...reply, execution_count: count };
  }

  async completeRequest(content) {
    return this.engine
      .request({ type: "complete", code: content.code, cursor_pos: content.cursor_pos })
      .catch(() => ({ status: "ok", matches: [], cursor_start: content.cursor_pos, cursor_end: content.cursor_pos, metadata: {} }));
  }

  async inspectRequest(content) {
    return this.engine
      .request({ type: "inspect", code: content.code, cursor_pos: content.cursor_pos, detail_level: content.detail_level })
      .catch(() => ({ status: "ok", found: false, data: {}, metadata: {} }));
  }

  async isCompleteRequest() {
    return { status: "unknown" };
  }

  async commInfoRequest() {
    return { status: "ok", comms: {} };
  }

  inputReply() {}

  async commOpen() {}

  async commMsg() {}

  async commClose() {}
}

// A MutexMap holds the kernel client's mutexes, each made to skip one
// cancel when its kernel, a tensornb one, set keepQueue.
class MutexMap extends Map {
  set(kernelId, mutex) {
    if (!mutex.tensornb) {
      const cancel = mutex.cancel.bind(mutex);
      mutex.cancel = () => {
        const kernel = running.get(kernelId);
        if (kernel && kernel.keepQueue) {
          kernel.keepQueue = false;
          return;
        }
        cancel();
      };
      mutex.tensornb = true;
    }
    return super.set(kernelId, mutex);
  }
}

/**
 * TensornbKernelClient is JupyterLite's kernel client with two changes
 * for tensornb kernels: an interrupt also ends the cell that runs (the
 * client alone only drops the queued ones, which suits a kernel that
 * stops itself), and a failing cell whose request said stop_on_error
 * false (JupyterLab sends that for cells tagged raises-exception) does
 * not drop the cells queued after it, as a Jupyter server's kernel does
 * not.
 */
class TensornbKernelClient extends LiteKernelClient {
  constructor(options) {
    super(options);
    // The client keeps a mutex per kernel, which it cancels (dropping the
    // queued requests) when a cell fails; the mutexes of tensornb kernels
    // skip the cancel their kernel asked to skip.
    if (!(this._mutexMap instanceof Map)) {
      throw new Error("@jupyterlite/services' LiteKernelClient changed: it keeps no _mutexMap; tensornb's kernel client needs updating");
    }
    this._mutexMap = new MutexMap();
  }

  async interrupt(kernelId) {
    await super.interrupt(kernelId);
    const kernel = running.get(kernelId);
    if (kernel) {
      kernel.interruptEngine();
    }
  }
}

/**
 * The plugins: the kernel, registered with JupyterLite's kernel specs,
 * and the kernel client that interrupts it.
 */
export default [
  {
    id: "tensornb:kernel",
    description: "The tensornb kernel: Go cells run in the instant engine, in WebAssembly.",
    autoStart: true,
    requires: [IKernelSpecs],
    activate: (app, kernelSpecs) => {
      const workerUrl = PageConfig.getOption("tensornbWorkerUrl");
      kernelSpecs.register({
        spec: {
          name: KERNEL_NAME,
          display_name: "Go (tensornb)",
          language: "go",
          argv: [],
          resources: {},
        },
        create: async (options) => new TensornbKernel(options, workerUrl),
      });
    },
  },
  {
    id: "tensornb:kernel-client",
    description: "JupyterLite's kernel client, with a tensornb kernel's interrupt.",
    autoStart: true,
    requires: [IKernelSpecs],
    optional: [IServerSettings],
    provides: IKernelClient,
    activate: (app, kernelSpecs, serverSettings) => new TensornbKernelClient({ kernelSpecs, serverSettings }),
  },
];
