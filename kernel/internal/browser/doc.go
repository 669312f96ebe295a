// Package browser runs the instant engine (kernel/internal/interp) in a browser,
// with no server: compiled to WebAssembly (GOOS=js GOARCH=wasm), in a Web
// Worker, a session interprets cells in the page's own process, taking
// the types of the packages they import from export data the page
// fetches.
//
// Built for js/wasm, the package is the engine's JavaScript API (Serve,
// which kernel/cmd/tensornb-wasm runs). Elsewhere it is the build of the files a
// page needs (Build): the engine, Go's wasm_exec.js, worker.js, the
// export data, and the packages' doc comments, which export data lacks.
// Both send a cell's outputs and reply, and the replies to
// completions and inspections, as the kernel's front sends them on
// ZeroMQ, with the same contents (Execute, Complete, Inspect).
//
// The engine has tensor, display and, of the standard library, only the
// packages of symbols.BrowserStandard (host_js.go): a cell that
// uses another is refused, with an error that names it and says that the
// kernel in Jupyter has it. Build writes the export data of those
// packages alone, and their source, one zip a package, from which the
// engine's lowering (kernel/internal/interp/lower) writes their generic
// names and those newer than the interpreter's copy, as the server's
// engine does from GOROOT; a page fetches a package's zip the first time
// a cell needs it.
//
// worker.js runs the engine in a Web Worker and speaks with the page in
// these messages (TestMessages checks that worker.js, engine.js and the
// site's page send and read these and no others):
//
//	page → worker
//	  {id, code, count, allow_stdin}
//	      run a cell, as execution count count (if given); with allow_stdin,
//	      a line it reads is asked of the page (input_request), otherwise
//	      the cell fails at once with StdinNotImplementedError
//	  {id, type: "input_reply", value}
//	      the line typed for cell id's input_request
//	  {id, type: "comm", msg_type, content, metadata, buffers}
//	      a comm_open, comm_msg or comm_close of the page's widget manager
//	      (buffers: ArrayBuffers or DataViews), delivered to the widgets
//	      after the cells sent before it; its callbacks' outputs come back
//	      as iopub messages of id, then a reply
//	  {id, type: "complete", code, cursor_pos}
//	      the completions at cursor_pos (in characters)
//	  {id, type: "inspect", code, cursor_pos, detail_level}
//	      what is known of the name at cursor_pos
//	  {id, type: "verdict", nbgrader, outputs}
//	      how a test cell of an exercise did, from its nbgrader metadata
//	      and its outputs as nbformat stores them (Verdict)
//	worker → page
//	  {type: "ready", ms, compiled, init, session, warm}
//	      the engine started and its session is ready for cells, ms after
//	      the worker started (its code compiled at compiled ms, Go's
//	      initialization done at init ms, the session made at session ms,
//	      and fmt, tensor and display imported for its type checker at
//	      warm ms)
//	  {type: "error", message}
//	      the engine could not start (the site's page sends it to itself
//	      when worker.js does not load)
//	  {id, type: "iopub", msg_type, content, metadata, buffers}
//	      an output of cell (or comm message) id, as it is made; a
//	      comm_open, comm_msg or comm_close of the widgets has the
//	      message's metadata and its binary buffers (ArrayBuffers,
//	      transferred), the others neither
//	  {id, type: "input_request", prompt, password}
//	      cell id reads a line: it waits for the page's input_reply (an
//	      interrupt ends the worker, and the wait with it)
//	  {id, type: "reply", content, ms}
//	      its execute_reply (for a comm message, {status: "ok"} or the
//	      error's status, ename, evalue and traceback), and how long it ran
//	  {id, type: "complete_reply", content}
//	      the complete_reply's content, as the front sends it (matches with
//	      their types)
//	  {id, type: "inspect_reply", content}
//	      the inspect_reply's content: the declaration and its doc comment,
//	      as text/plain and text/markdown
//	  {id, type: "verdict_reply", content}
//	      status "ok" and the verdict, {passed, points, max, feedback},
//	      or null if the cell is no test cell (or an error's status,
//	      ename, evalue and traceback)
//	  {type: "exit", code, fatal}
//	      the engine ended (a crash), and with it the session; fatal is the
//	      Go runtime's "fatal error: …" or "panic: …" line, if it wrote one
//
// engine.js is the page's side of worker.js, which the site's pages and
// its JupyterLite kernel both bundle: it runs cells in order, ends the
// worker to interrupt a cell, and then replays the cells that ran
// without an error in the new one, as the server's engine (worker's
// Engine) does. Its words, and the other values the page's JavaScript
// shares with Go, are in shared.js, which go generate makes from the Go
// (TestSharedJS fails when it is out of date).
package browser
