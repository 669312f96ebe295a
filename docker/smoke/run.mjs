// The client of the image's smoke test (docker/image_test.go): it runs
// notebooks on a Jupyter server from outside, as JupyterLab does, with
// JupyterLab's own library for the server's REST API and the kernel
// websocket (@jupyterlab/services), and writes each notebook, with the
// outputs it got, into a directory where execute.py compare checks them
// against the stored ones.
//
//     node run.mjs --server URL --out DIR [--kernel NAME] NOTEBOOK...
//
// URL is the server's base (http://host:8888, or a JupyterHub user's
// http://hub/user/NAME); the token is JUPYTER_TOKEN's. NAME is the
// kernelspec, by default each notebook's own. The code cells run in
// order, each after the last one's reply, and the run of a notebook stops
// at an error in a cell without the tag raises-exception, as nbclient's
// does. A cell tagged instant-engine runs on the notebook's own
// kernelspec only: on another it is left out, and marked so in the
// notebook written, for compare to leave out too. Lines that start with
// "@" are for the test: "@first-output MS"
// when the first cell's first output arrives (MS since the epoch),
// "@notebook NAME CELLS SECONDS" when a notebook is done.
//
// It exits 1 with a message that says what went wrong when the server
// cannot be reached, a kernel does not start, dies or restarts, or a cell
// gives no reply within five minutes; 2 on wrong arguments.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import services from "@jupyterlab/services";

const { KernelManager, KernelSpecManager, ServerConnection } = services;

const TAG = "raises-exception";
const INSTANT = "instant-engine";

const tags = (cell) => (cell.metadata && cell.metadata.tags) || [];
const CELL_SECONDS = 300;
const START_SECONDS = 120;

function usage() {
  console.error(
    "usage: node run.mjs --server URL --out DIR [--kernel NAME] NOTEBOOK...",
  );
  process.exit(2);
}

const args = process.argv.slice(2);
const opts = {};
while (args.length && args[0].startsWith("--")) {
  const [flag, value] = args.splice(0, 2);
  if (value === undefined) usage();
  opts[flag.slice(2)] = value;
}
if (!opts.server || !opts.out || args.length === 0) usage();

const server = opts.server.replace(/\/*$/, "/");
const settings = ServerConnection.makeSettings({
  baseUrl: server,
  wsUrl: server.replace(/^http/, "ws"),
  token: process.env.JUPYTER_TOKEN || "",
  appendToken: true,
});

function fail(message) {
  console.error(`run.mjs: ${message}`);
  process.exit(1);
}

// text joins a notebook's multi-line field.
const text = (v) => (Array.isArray(v) ? v.join("") : v || "");

// within rejects with message unless promise settles in seconds.
function within(promise, seconds, message) {
  let timer;
  const late = new Promise((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`${message} within ${seconds} s`)),
      seconds * 1000,
    );
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

// watch returns a promise that rejects when the kernel dies or its
// websocket closes (what ends the message), and a function that stops
// watching.
function watch(kernel, what) {
  let stop;
  const broken = new Promise((_, reject) => {
    const onStatus = (_k, status) => {
      // The server restarts a kernel that died, up to five times, and the
      // library reports that as "autorestarting"; "dead" when the server
      // gives up. This client never asks for a restart.
      if (status === "dead" || status === "autorestarting") {
        reject(new Error(`the kernel ${kernel.name} died${what}`));
      }
    };
    const onConnection = (_k, status) => {
      if (status === "disconnected") {
        reject(
          new Error(`the websocket of the kernel ${kernel.name} closed${what}`),
        );
      }
    };
    kernel.statusChanged.connect(onStatus);
    kernel.connectionStatusChanged.connect(onConnection);
    stop = () => {
      kernel.statusChanged.disconnect(onStatus);
      kernel.connectionStatusChanged.disconnect(onConnection);
    };
  });
  broken.catch(() => {}); // observed by the race that uses it
  return [broken, stop];
}

// Outputs as nbformat stores them, from the iopub messages of one cell.
// displays maps a display id to the outputs that show it, in any cell, for
// update_display_data.
function collector(displays, onFirst) {
  const outputs = [];
  let clearOnNext = false;
  const add = (output, displayId) => {
    if (clearOnNext) {
      outputs.length = 0;
      clearOnNext = false;
    }
    outputs.push(output);
    if (displayId) {
      if (!displays.has(displayId)) displays.set(displayId, []);
      displays.get(displayId).push(output);
    }
    onFirst();
  };
  const onIOPub = (msg) => {
    const c = msg.content;
    switch (msg.header.msg_type) {
      case "stream":
        add({ output_type: "stream", name: c.name, text: c.text });
        break;
      case "display_data":
        add(
          {
            output_type: "display_data",
            data: c.data,
            metadata: c.metadata || {},
          },
          c.transient && c.transient.display_id,
        );
        break;
      case "execute_result":
        add(
          {
            output_type: "execute_result",
            execution_count: c.execution_count,
            data: c.data,
            metadata: c.metadata || {},
          },
          c.transient && c.transient.display_id,
        );
        break;
      case "error":
        add({
          output_type: "error",
          ename: c.ename,
          evalue: c.evalue,
          traceback: c.traceback,
        });
        break;
      case "update_display_data":
        for (const o of displays.get(c.transient && c.transient.display_id) ||
          []) {
          o.data = c.data;
          o.metadata = c.metadata || {};
        }
        break;
      case "clear_output":
        if (c.wait) clearOnNext = true;
        else outputs.length = 0;
        break;
    }
  };
  return [outputs, onIOPub];
}

async function runNotebook(kernels, path) {
  const nb = JSON.parse(readFileSync(path, "utf8"));
  const name = opts.kernel || nb.metadata.kernelspec.name;
  const cells = nb.cells.filter((c) => c.cell_type === "code");
  const started = Date.now();
  let kernel;
  try {
    kernel = await within(
      // Not a widget front end: the widgets' comms are left to the kernel.
      kernels.startNew({ name }, { handleComms: false }),
      START_SECONDS,
      `the server did not start the kernel ${name}`,
    );
  } catch (e) {
    fail(`${basename(path)}: starting the kernel ${name} failed: ${e.message}`);
  }
  const [broken, stopWatching] = watch(kernel, "");
  try {
    await Promise.race([
      within(
        kernel.info,
        START_SECONDS,
        `the kernel ${name} did not answer kernel_info`,
      ),
      broken,
    ]);
  } catch (e) {
    fail(`${basename(path)}: ${e.message} as it started`);
  }
  const displays = new Map();
  for (const [i, cell] of cells.entries()) {
    const source = text(cell.source);
    const first = (source.trim().split("\n")[0] || "").slice(0, 60);
    if (name !== nb.metadata.kernelspec.name && tags(cell).includes(INSTANT)) {
      // Its widgets need the instant engine: compare leaves it out too.
      cell.metadata.tensornb = {
        left_out: `tagged ${INSTANT}, not run on ${name}`,
      };
      console.log(
        `  ${basename(path)} [${i + 1}/${cells.length}] left out (${INSTANT}): ${first}`,
      );
      continue;
    }
    console.log(`  ${basename(path)} [${i + 1}/${cells.length}] ${first}`);
    const [outputs, onIOPub] = collector(displays, () => {
      if (!firstOutput) {
        firstOutput = Date.now();
        console.log(`@first-output ${firstOutput}`);
      }
    });
    const future = kernel.requestExecute({
      code: source,
      silent: false,
      store_history: true,
      allow_stdin: false,
      stop_on_error: true,
    });
    future.onIOPub = onIOPub;
    let reply;
    try {
      reply = await Promise.race([
        within(
          future.done,
          CELL_SECONDS,
          `cell ${i + 1} of ${basename(path)} gave no reply`,
        ),
        broken,
      ]);
    } catch (e) {
      fail(`${basename(path)}: ${e.message} (cell ${i + 1}: ${first})`);
    }
    cell.outputs = outputs;
    cell.execution_count = reply.content.execution_count ?? null;
    const tagged = tags(cell).includes(TAG);
    if (reply.content.status === "error" && !tagged) {
      console.error(
        `${path}: cell ${i + 1} raised ${reply.content.ename}: ${reply.content.evalue}; the run of this notebook stops there`,
      );
      break;
    }
  }
  stopWatching();
  await kernel.shutdown().catch(() => {});
  // The shutdown makes the manager refresh its list of running kernels. A
  // list that the server sends once the next notebook's kernel is asked
  // for, but before the server has it, would make the manager declare that
  // kernel dead as it starts: the refresh ends here, before the next start.
  await kernels.refreshRunning().catch(() => {});
  writeFileSync(
    join(opts.out, basename(path)),
    JSON.stringify(nb, null, 1) + "\n",
  );
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.log(`@notebook ${basename(path)} ${cells.length} ${seconds}`);
}

let firstOutput = 0;

async function main() {
  mkdirSync(opts.out, { recursive: true });
  const specs = new KernelSpecManager({ serverSettings: settings });
  try {
    await within(specs.ready, 60, `the server at ${server} did not answer`);
  } catch (e) {
    fail(`asking ${server} for its kernelspecs failed: ${e.message}`);
  }
  const kernels = new KernelManager({ serverSettings: settings });
  await kernels.ready;
  for (const path of args) await runNotebook(kernels, path);
  // The library's polls and reconnection timers would keep Node running.
  process.exit(0);
}

main().catch((e) => fail(e.stack || String(e)));
