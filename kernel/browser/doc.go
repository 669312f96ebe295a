// Package browser runs the instant engine (kernel/interp) in a browser,
// with no server: compiled to WebAssembly (GOOS=js GOARCH=wasm), in a Web
// Worker, a session interprets cells in the page's own process, taking
// the types of the packages they import from export data the page
// fetches.
//
// Built for js/wasm, the package is the engine's JavaScript API (Serve,
// which cmd/tensornb-wasm runs). Elsewhere it is the build of the files a
// page needs (Build): the engine, Go's wasm_exec.js, worker.js, and the
// export data. Both send a cell's outputs and reply as the kernel's front
// sends them on ZeroMQ, with the same contents (Execute).
//
// worker.js runs the engine in a Web Worker and speaks with the page in
// messages:
//
//	page → worker  {id, code}                              run a cell
//	worker → page  {type: "ready", ms, compiled, init}     the engine started, ms after the worker did
//	                                                        (its code compiled at compiled ms, Go's
//	                                                        initialization done at init ms)
//	               {id, type: "iopub", msg_type, content}  an output of cell id, as it is made
//	               {id, type: "reply", content, ms}        its execute_reply, and how long it ran
//	               {type: "exit", code}                    the engine ended (a crash), and with it the session
package browser
