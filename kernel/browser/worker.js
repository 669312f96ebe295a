// worker.js runs the tensornb instant engine, tensornb.wasm, in a Web
// Worker. The files it fetches lie beside it (see Build in package
// kernel/browser); the messages it exchanges with the page are in that
// package's doc:
//
//   page → worker  {id, code}                              run a cell
//   worker → page  {type: "ready", ms, compiled, init}     the engine started
//                  {id, type: "iopub", msg_type, content}  an output of cell id
//                  {id, type: "reply", content, ms}        its execute_reply
//                  {type: "exit", code}                    the engine ended
//                  {type: "error", message}                it could not start
"use strict";

importScripts("wasm_exec.js");

const started = performance.now();

// exportData fetches the export data of the package at an import path,
// which the engine's type checker asks for the first time a cell imports
// it; null if there is none.
async function exportData(path) {
  const response = await fetch("exports/" + path + ".a");
  if (!response.ok) {
    return null;
  }
  return new Uint8Array(await response.arrayBuffer());
}

const go = new Go();
go.exit = (code) => postMessage({type: "exit", code});

const ready = WebAssembly.instantiateStreaming(fetch("tensornb.wasm"), go.importObject).then(({instance}) => {
  const compiled = performance.now() - started;
  go.run(instance); // runs main until it waits, having made globalThis.tensornb
  const init = performance.now() - started;
  tensornb.start(exportData);
  postMessage({type: "ready", ms: performance.now() - started, compiled, init});
});
ready.catch((e) => postMessage({type: "error", message: String(e)}));

// Cells run one after another, in the order they came.
let queue = ready;
onmessage = (event) => {
  const {id, code} = event.data;
  queue = queue.then(async () => {
    const start = performance.now();
    const content = await tensornb.execute(code, (msgType, content) => {
      postMessage({id, type: "iopub", msg_type: msgType, content});
    });
    postMessage({id, type: "reply", content, ms: performance.now() - start});
  }).catch((e) => {
    const evalue = String(e);
    postMessage({id, type: "reply", content: {status: "error", ename: "EngineError", evalue, traceback: [evalue]}});
  });
};
