// runcell.js runs one cell in a fresh session of the browser's instant
// engine, under Node.js rather than in a page's Web Worker:
//
//	node runcell.js DIR < cell.go
//
// DIR holds what kernel/internal/browser's Build writes (the engine, Go's
// wasm_exec.js and the export data); the cell is read from standard
// input. File descriptor 3 gets the line "ready" once the session is
// ready, which starts the cell's time, then one line of JSON: what the
// cell wrote to its stdout and stderr, in order, and its execute_reply's
// content, {output, reply}; or, if the engine ended instead (a crash),
// {exit, fatal}, with the Go runtime's "fatal error: …" or "panic: …"
// line. Package gocompat runs it (node.go).
"use strict";

const nodeFS = require("fs");
const nodePath = require("path");

const dir = process.argv[2];

// wasm_exec.js writes the program's file descriptors through globalThis.fs,
// which the engine wraps to capture the cell's output.
globalThis.fs = nodeFS;
globalThis.path = nodePath;
require(nodePath.resolve(dir, "wasm_exec.js"));

// The Go runtime writes why it ends with fs.writeSync on file descriptor
// 2, which the engine does not capture: the start of it is kept, for the
// line that says why.
let runtimeErrors = "";
const writeSync = nodeFS.writeSync;
nodeFS.writeSync = function (fd, buf, ...rest) {
  if (fd === 2 && runtimeErrors.length < 65536) {
    runtimeErrors += Buffer.from(buf).toString();
  }
  return writeSync.call(this, fd, buf, ...rest);
};

// answer writes the result to file descriptor 3 and ends the process.
function answer(result) {
  writeSync(3, JSON.stringify(result) + "\n");
  process.exit(0);
}

// exportData reads the export data of the package at an import path, or
// gives null if the build has none.
async function exportData(importPath) {
  return buildFile("exports", importPath + ".a");
}

// stdSource reads the source of the standard package at an import path,
// the zip the build wrote for the engine to write generic and newer
// names from (as the page's worker fetches it), or gives null.
async function stdSource(importPath) {
  return buildFile("std", importPath + ".zip");
}

// buildFile reads a file of the build, or gives null if it has none.
async function buildFile(sub, name) {
  try {
    return await nodeFS.promises.readFile(nodePath.join(dir, sub, name));
  } catch {
    return null;
  }
}

async function main() {
  const code = nodeFS.readFileSync(0, "utf8");
  const go = new Go();
  go.exit = (exit) => {
    const fatal = /^(fatal error|panic): .*$/m.exec(runtimeErrors);
    answer({ exit, fatal: fatal ? fatal[0] : "" });
  };
  const wasm = await nodeFS.promises.readFile(
    nodePath.join(dir, "tensornb.wasm"),
  );
  const { instance } = await WebAssembly.instantiate(wasm, go.importObject);
  go.run(instance); // runs main until it waits, having made globalThis.tensornb
  await globalThis.tensornb.start(exportData, async () => null, stdSource);
  writeSync(3, "ready\n");
  let output = "";
  const publish = (msgType, content) => {
    if (msgType === "stream") {
      output += content.text;
    }
  };
  const reply = await globalThis.tensornb.execute(code, publish);
  answer({ output, reply });
}

main().catch((e) => {
  answer({ exit: -1, fatal: String(e) });
});
