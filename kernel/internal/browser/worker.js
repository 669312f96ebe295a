// worker.js runs the tensornb instant engine, tensornb.wasm, in a Web
// Worker. The files it fetches lie beside it (see Build in package
// kernel/internal/browser); the messages it exchanges with the page are
// listed in that package's doc (doc.go), which TestMessages checks
// against this file and engine.js.
"use strict";

importScripts("wasm_exec.js");

const started = performance.now();

// exportData fetches the export data of the package at an import path,
// which the engine's type checker asks for the first time a cell imports
// it; null if there is none.
async function exportData(path) {
  return fetchBytes("exports/" + path + ".a");
}

// docData fetches the doc comments of the package at an import path, the
// first time a cell's inspection names it; null if there are none.
async function docData(path) {
  return fetchBytes("docs/" + path + ".json");
}

// stdSource fetches the source of the standard package at an import
// path, a zip of its files, the first time a cell uses a generic or newer
// name of it, which the engine writes from that source; null if there is
// none.
async function stdSource(path) {
  return fetchBytes("std/" + path + ".zip");
}

async function fetchBytes(url) {
  const response = await fetch(url);
  if (!response.ok) {
    return null;
  }
  return new Uint8Array(await response.arrayBuffer());
}

// The Go runtime writes why it ends (out of memory, a panic outside any
// cell) to file descriptor 2 with fs.writeSync, which the engine's
// capture of the cells' output does not see; the first 64 KB of it are
// kept, for the exit message to say why (nothing else writes there, and
// the line that says why comes first, before the goroutines' stacks).
let runtimeErrors = "";
const writeSync = fs.writeSync;
const decoder = new TextDecoder();
fs.writeSync = function (fd, buf) {
  if (fd === 2 && runtimeErrors.length < 65536) {
    runtimeErrors += decoder.decode(buf, { stream: true });
  }
  return writeSync.call(this, fd, buf);
};

const go = new Go();
go.exit = (code) => {
  const fatal = /^(fatal error|panic): .*$/m.exec(runtimeErrors);
  postMessage({ type: "exit", code, fatal: fatal ? fatal[0] : "" });
};

const ready = WebAssembly.instantiateStreaming(
  fetch("tensornb.wasm"),
  go.importObject,
).then(async ({ instance }) => {
  const compiled = performance.now() - started;
  go.run(instance); // runs main until it waits, having made globalThis.tensornb
  const init = performance.now() - started;
  const at = await tensornb.start(exportData, docData, stdSource);
  postMessage({
    type: "ready",
    ms: performance.now() - started,
    compiled,
    init,
    session: at.session - started,
    warm: at.warm - started,
  });
});
ready.catch((e) => postMessage({ type: "error", message: String(e) }));

// Cells run one after another, in the order they came, and so do the
// page's comm messages, between them; a completion or an inspection
// waits only for the engine (and, in it, for a running cell to end), a
// verdict only for the engine, and an input reply goes at once to the
// cell that waits for it.
let queue = ready;
const inputs = new Map(); // a waiting cell's id → the resolve of its line
onmessage = (event) => {
  const m = event.data;
  switch (m.type) {
    case "complete":
      answer(
        () => tensornb.complete(m.code, m.cursor_pos),
        (content) => postMessage({ id: m.id, type: "complete_reply", content }),
      );
      return;
    case "inspect":
      answer(
        () => tensornb.inspect(m.code, m.cursor_pos, m.detail_level || 0),
        (content) => postMessage({ id: m.id, type: "inspect_reply", content }),
      );
      return;
    case "verdict":
      answer(
        () =>
          tensornb
            .verdict(m.nbgrader, m.outputs)
            .then((verdict) => ({ status: "ok", verdict })),
        (content) => postMessage({ id: m.id, type: "verdict_reply", content }),
      );
      return;
    case "input_reply": {
      const resolve = inputs.get(m.id);
      inputs.delete(m.id);
      if (resolve) {
        resolve(String(m.value));
      }
      return;
    }
    case "comm":
      run(m.id, (publish) =>
        tensornb.comm(m.msg_type, m.content, m.metadata, m.buffers, publish),
      );
      return;
  }
  const id = m.id;
  // A cell that reads a line asks the page for it, and waits; a page that
  // takes no input (allow_stdin false) gets none, and the cell fails at
  // once with StdinNotImplementedError.
  const input = m.allow_stdin
    ? (prompt, password) =>
        new Promise((resolve) => {
          inputs.set(id, resolve);
          postMessage({ id, type: "input_request", prompt, password });
        })
    : undefined;
  run(id, (publish) => tensornb.execute(m.code, publish, m.count, input));
};

// run queues the work of message id, which start starts with a publish
// function that posts its outputs, and posts its reply when it is done. A
// comm message's buffers (ArrayBuffers the engine made) are transferred.
function run(id, start) {
  const publish = (msgType, content, metadata, buffers) => {
    postMessage(
      { id, type: "iopub", msg_type: msgType, content, metadata, buffers },
      buffers || [],
    );
  };
  queue = queue
    .then(async () => {
      const begin = performance.now();
      const content = await start(publish);
      postMessage({
        id,
        type: "reply",
        content,
        ms: performance.now() - begin,
      });
    })
    .catch((e) => {
      const evalue = String(e);
      postMessage({
        id,
        type: "reply",
        content: {
          status: "error",
          ename: "EngineError",
          evalue,
          traceback: [evalue],
        },
        ms: 0,
      });
    });
}

// answer posts, with post, the reply's content that ask gives once the
// engine is ready, or an error's if either fails.
function answer(ask, post) {
  ready.then(ask).then(post, (e) => {
    post({
      status: "error",
      ename: "EngineError",
      evalue: String(e),
      traceback: [String(e)],
    });
  });
}
