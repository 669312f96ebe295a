// The tensornb kernel of the JupyterLite app: a JupyterLite in-browser
// kernel (a BaseKernel of @jupyterlite/services) whose cells run in the
// tensornb instant engine, compiled to WebAssembly and running in a Web
// Worker (kernel/internal/browser/worker.js; package kernel/internal/browser
// lists its messages).
//
// The worker already speaks Jupyter: it sends each output of a cell as
// the content of an iopub message (stream, display_data,
// update_display_data, execute_result, error, clear_output) and the
// content of the execute_reply, complete_reply and inspect_reply. This
// kernel hands them to JupyterLite's kernel client, which passes them
// to JupyterLab as a kernel on a server would.
//
// Widgets: the worker's comm messages (a widget made in a cell opens its
// comm) are published as iopub messages, with their metadata and binary
// buffers, and the comm messages of JupyterLab's widget manager
// (@jupyter-widgets/jupyterlab-manager, in lab.js) go to the engine,
// which delivers them to the widgets between cells; what their callbacks
// print or send comes back in reply to them.
//
// Input: a cell that reads its standard input makes the worker ask for a
// line; this kernel sends JupyterLab an input_request, and JupyterLab's
// input_reply reaches inputReply, which hands the line to the worker.
// JupyterLite's kernel client passes an input_reply to the kernel at
// once, outside the lock a running cell holds, when no service worker
// handles stdin (the route it also takes for kernels that wait with a
// SharedArrayBuffer). A kernel that runs its cells in the page's own
// thread and must block in the middle of one needs that service worker or
// a SharedArrayBuffer (and so cross-origin isolation headers); this one's
// cells run in their own Web Worker, whose Go waits for the line without
// blocking that worker's event loop, so the kernel simply awaits the
// reply as a message, and the site needs neither.
//
// The worker and what the page does around it (an interrupt ends the
// worker, and the next cell first replays the cells that ran without an
// error, as the server's instant engine does) are the site pages'
// Engine, kernel/internal/browser/engine.js.
import { PageConfig } from "@jupyterlab/coreutils";
import {
  BaseKernel,
  IKernelSpecs,
  IKernelClient,
  LiteKernelClient,
} from "@jupyterlite/services";
import { IServerSettings } from "@jupyterlab/services";
import { Engine } from "../../engine.js";
// What the kernel shares with Go: its name (as notebooks' kernelspec
// metadata names it), its display name and language_info, as the
// installed kernel's, and the page options package lite writes for it.
import {
  engineError,
  kernelName,
  kernelDisplayName,
  protocolVersion,
  languageInfo,
  workerURLOption,
  goVersionOption,
} from "../../shared.js";

// The running tensornb kernels, by id, for the kernel client's interrupt
// and for the self-check (engineOf).
const running = new Map();

// engineOf returns the Engine of the running tensornb kernel whose id is
// kernelId, or null: the self-check (selfcheck.js) asks it for a test
// cell's verdict. Both are plugins of one bundle, which holds one
// running map.
export function engineOf(kernelId) {
  const kernel = running.get(kernelId);
  return kernel ? kernel.engine : null;
}

/**
 * TensornbKernel runs a notebook's cells in the tensornb instant engine.
 */
class TensornbKernel extends BaseKernel {
  constructor(options, workerUrl) {
    super(options);
    this.engine = new Engine(() => {}, {
      workerURL: workerUrl,
      routeDisplays: false,
    });
    running.set(this.id, this);
  }

  // interruptEngine ends the engine under a running cell, which says so,
  // and starts a new one.
  interruptEngine() {
    if (this.engine.busy) {
      this.engine.interrupt();
    }
  }

  dispose() {
    if (this.isDisposed) {
      return;
    }
    running.delete(this.id);
    this.engine.dispose();
    super.dispose();
  }

  async kernelInfoRequest() {
    return {
      status: "ok",
      protocol_version: protocolVersion,
      implementation: "tensornb",
      implementation_version: "wasm",
      language_info: {
        ...languageInfo,
        version: PageConfig.getOption(goVersionOption) || "",
      },
      banner:
        "tensornb: Go with tensors, interpreted in this browser (WebAssembly)",
      help_links: [],
    };
  }

  // publish publishes an iopub message of the engine's in reply to
  // parent, for the cell of execution count count.
  publish(msg, parent, count) {
    const c = msg.content;
    switch (msg.header.msg_type) {
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
      case "comm_open":
      case "comm_msg":
      case "comm_close":
        this.handleComm(
          msg.header.msg_type,
          c,
          msg.metadata,
          msg.buffers,
          parent,
        );
        break;
    }
  }

  async executeRequest(content) {
    const parent = this.parentHeader;
    const count = this.executionCount;
    this.keepQueue = false;
    const future = this.engine.execute(content.code, count, {
      allowStdin: content.allow_stdin !== false,
    });
    future.onIOPub = (msg) => this.publish(msg, parent, count);
    future.onStdin = (msg) => {
      this.waiting = future;
      this.inputRequest(msg.content, parent);
    };
    let reply;
    try {
      reply = (await future.done).reply;
    } catch (e) {
      // The engine ended under the cell, which showed why (e.ename and
      // e.evalue, if it was running).
      reply = {
        status: "error",
        ename: e.ename || engineError,
        evalue: e.evalue || e.message,
        traceback: [],
      };
    }
    if (this.waiting === future) {
      this.waiting = null;
    }
    if (reply.status === "error" && content.stop_on_error === false) {
      this.keepQueue = true; // see TensornbKernelClient
    }
    return { ...reply, execution_count: count };
  }

  async completeRequest(content) {
    const reply = await this.engine.complete(content.code, content.cursor_pos);
    return reply.status === "ok"
      ? reply
      : {
          status: "ok",
          matches: [],
          cursor_start: content.cursor_pos,
          cursor_end: content.cursor_pos,
          metadata: {},
        };
  }

  async inspectRequest(content) {
    const reply = await this.engine.inspect(
      content.code,
      content.cursor_pos,
      content.detail_level,
    );
    return reply.status === "ok"
      ? reply
      : { status: "ok", found: false, data: {}, metadata: {} };
  }

  async isCompleteRequest() {
    return { status: "unknown" };
  }

  async commInfoRequest(content) {
    const comms = {};
    for (const [id, target] of this.engine.comms) {
      if (!content.target_name || content.target_name === target) {
        comms[id] = { target_name: target };
      }
    }
    return { status: "ok", comms };
  }

  // inputReply hands the line typed to the cell that asked for it.
  inputReply(content) {
    const future = this.waiting;
    this.waiting = null;
    if (future) {
      future.sendInputReply(content);
    }
  }

  async commOpen(msg) {
    await this.comm(msg);
  }

  async commMsg(msg) {
    await this.comm(msg);
  }

  async commClose(msg) {
    await this.comm(msg);
  }

  // comm delivers a comm message of the widget manager to the engine's
  // widgets, and publishes what their callbacks make in reply to it.
  async comm(msg) {
    const parent = msg.header;
    const future = this.engine.comm(
      msg.header.msg_type,
      msg.content,
      msg.metadata,
      msg.buffers,
    );
    future.onIOPub = (m) => this.publish(m, parent, this.executionCount);
    try {
      await future.done;
    } catch {
      // The engine ended; the widgets are gone with it.
    }
  }
}

// A MutexMap holds the kernel client's mutexes, each made to skip the
// cancel that follows an error reply when its kernel, a tensornb one,
// set keepQueue for that reply. build.mjs checks, at build time, that
// the client still keeps its mutexes and cancel reasons as this expects.
class MutexMap extends Map {
  constructor(cancelReasons) {
    super();
    this.cancelReasons = cancelReasons;
  }

  set(kernelId, mutex) {
    if (!mutex.tensornb) {
      const cancel = mutex.cancel.bind(mutex);
      mutex.cancel = () => {
        const kernel = running.get(kernelId);
        if (
          kernel &&
          kernel.keepQueue &&
          this.cancelReasons.get(mutex) === "error"
        ) {
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
    if (
      this._mutexMap instanceof Map &&
      this._cancelReason instanceof WeakMap
    ) {
      this._mutexMap = new MutexMap(this._cancelReason);
    } else {
      console.warn(
        "@jupyterlite/services' LiteKernelClient keeps no _mutexMap and _cancelReason: a failing cell tagged raises-exception stops Run all (see MutexMap in kernel/internal/browser/lite/web/kernel.js)",
      );
    }
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
    description:
      "The tensornb kernel: Go cells run in the instant engine, in WebAssembly.",
    autoStart: true,
    requires: [IKernelSpecs],
    activate: (app, kernelSpecs) => {
      const workerUrl = PageConfig.getOption(workerURLOption);
      kernelSpecs.register({
        spec: {
          name: kernelName,
          display_name: kernelDisplayName,
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
    description:
      "JupyterLite's kernel client, with a tensornb kernel's interrupt.",
    autoStart: true,
    requires: [IKernelSpecs],
    optional: [IServerSettings],
    provides: IKernelClient,
    activate: (app, kernelSpecs, serverSettings) =>
      new TensornbKernelClient({ kernelSpecs, serverSettings }),
  },
];
