// worker.js runs the tensornb instant engine, tensornb.wasm, in a Web
// Worker. The files it fetches lie beside it (see Build in package
// kernel/internal/browser); the messages it exchanges with the page are in that
// package's doc:
//
//   page → worker  {id, code, count}                       run a cell, as execution count count (if given)
//                  {id, type: "complete", code, cursor_pos} complete at cursor_pos (characters)
//                  {id, type: "inspect", code, cursor_pos,  inspect the name there
//                   detail_level}
//   worker → page  {type: "ready", ms, compiled, init,     the engine started, its session
//                   session, warm}                          ready for cells
//                  {id, type: "iopub", msg_type, content}  an output of cell id
//                  {id, type: "reply", content, ms}        its execute_reply
//                  {id, type: "complete_reply", content}   the complete_reply's content, as
//                                                          the kernel's front sends it
//                  {id, type: "inspect_reply", content}    the inspect_reply's content (with
//                                                          the doc comment, from docs/PATH.json)
//                  {type: "exit", code, fatal}             the engine ended; fatal is the Go
//                                                          runtime's "fatal error: ..." or
//                                                          "panic: ..." line, if it wrote one
//                  {type: "error", message}                it could not start
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
    runtimeErrors += decoder.decode(buf, {stream: true});
  }
  return writeSync.call(this, fd, buf);
};

const go = new Go();
go.exit = (code) => {
  const fatal = /^(fatal error|panic): .*$/m.exec(runtimeErrors);
  postMessage({type: "exit", code, fatal: fatal ? fatal[0] : ""});
};

const ready = WebAssembly.instantiateStreaming(fetch("tensornb.wasm"), go.importObject).then(async ({instance}) => {
  const compiled = performance.now() - started;
  go.run(instance); // runs main until it waits, having made globalThis.tensornb
  const init = performance.now() - started;
  const at = await tensornb.start(exportData, docData);
  postMessage({type: "ready", ms: performance.now() - started, compiled, init,
    session: at.session - started, warm: at.warm - started});
});
ready.catch((e) => postMessage({type: "error", message: String(e)}));

// Cells run one after another, in the order they came; a completion or
// an inspection waits only for the engine (and, in it, for a running
// cell to end).
let queue = ready;
onmessage = (event) => {
  const {id, type, code} = event.data;
  if (type === "complete" || type === "inspect") {
    ready.then(() => type === "complete"
      ? tensornb.complete(code, event.data.cursor_pos)
      : tensornb.inspect(code, event.data.cursor_pos, event.data.detail_level || 0)
    ).then((content) => postMessage({id, type: type + "_reply", content}), (e) => {
      postMessage({id, type: type + "_reply", content: {status: "error", ename: "EngineError", evalue: String(e), traceback: [String(e)]}});
    });
    return;
  }
  queue = queue.then(async () => {
    const start = performance.now();
    const content = await tensornb.execute(code, (msgType, content) => {
      postMessage({id, type: "iopub", msg_type: msgType, content});
    }, event.data.count);
    postMessage({id, type: "reply", content, ms: performance.now() - start});
  }).catch((e) => {
    const evalue = String(e);
    postMessage({id, type: "reply", content: {status: "error", ename: "EngineError", evalue, traceback: [evalue]}});
  });
};
