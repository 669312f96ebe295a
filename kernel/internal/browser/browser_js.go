package browser

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"syscall/js"
	"time"

	"github.com/tensornb/tensornb/kernel/internal/front"
	"github.com/tensornb/tensornb/kernel/internal/interp"
)

// Serve makes the engine JavaScript's, as globalThis.tensornb, then waits
// forever, as a Go program in a page must to keep answering:
//
//	tensornb.start(exportData, docData, stdSource)
//
// starts a session, whose checker gets the export data of the package at
// an import path from exportData(path), a Promise of its bytes (a
// Uint8Array or an ArrayBuffer), or of null if there is none, its
// inspections the doc comments of a package from docData(path), likewise
// (the JSON Build writes; without docData, they have none), and its
// lowering the source of a standard package from stdSource(path), the
// zip Build writes (without stdSource, cells cannot use slices, maps,
// iter or the generic names of the others); it returns
// a Promise of {session, warm}, the times (performance.now()) when the
// session was made and when it had imported the packages cells use most
// (fmt, tensor, display), after which it is ready;
//
//	tensornb.execute(code, publish, count, input)
//
// runs a cell after those before it, as execution count count (if given;
// the next of the engine's own otherwise: a page that restarts engines
// keeps the count going, as a Jupyter kernel does across an interrupt),
// calls publish(msgType, content, metadata, buffers) for each of its
// outputs as it is made (a comm message of its widgets has metadata and
// an Array of ArrayBuffers; the others have neither), asks input(prompt,
// password), a function that returns a Promise of the line typed, for
// each line the cell reads (without input, a cell that reads fails at
// once with StdinNotImplementedError), and returns a Promise of its
// execute_reply's content;
//
//	tensornb.comm(msgType, content, metadata, buffers, publish)
//
// delivers a comm message from the page (comm_open, comm_msg or
// comm_close; buffers an Array of ArrayBuffers, DataViews or typed
// arrays, or undefined) to the widgets, whose callbacks run then, after
// the cell that runs ends; what they print, show and send goes to
// publish, as a cell's, and it returns a Promise of {status: "ok"} or of
// the error's status, ename, evalue and traceback;
//
//	tensornb.complete(code, cursorPos)
//	tensornb.inspect(code, cursorPos, detailLevel)
//
// return Promises of the complete_reply's and the inspect_reply's
// content for the name at cursorPos (in characters) in code, with the
// names the cells before declared;
//
//	tensornb.verdict(nbgrader, outputs)
//
// returns a Promise of how a test cell of an exercise did, from its
// nbgrader metadata (undefined or null if it has none) and its outputs
// as nbformat stores them: {passed, points, max, feedback}, as Verdict
// gives it, by the rule tensornb grade scores by; or of null if the cell
// is no test cell. It needs no session, and takes no lock that a running
// cell holds.
//
// What the program writes to its standard output and error (file
// descriptors 1 and 2, through globalThis.fs, which wasm_exec.js makes)
// is the running cell's stdout and stderr, as a worker process's are on
// the server. The Go runtime's own reports (a crash) still go to the
// console.
func Serve() {
	k := &kernel{}
	js.Global().Set("tensornb", js.ValueOf(map[string]any{
		"start":    js.FuncOf(k.start),
		"execute":  js.FuncOf(k.execute),
		"comm":     js.FuncOf(k.comm),
		"complete": js.FuncOf(k.complete),
		"inspect":  js.FuncOf(k.inspect),
		"verdict":  js.FuncOf(verdict),
	}))
	select {}
}

// A kernel is the engine and the execution count.
type kernel struct {
	mu     sync.Mutex // held while a cell runs
	engine *interp.Local
	count  int

	once    sync.Once
	warm    chan struct{} // closed once the session is made and warm
	session float64       // performance.now() when it was made
	warmed  float64       // and when it was warm
}

// start is tensornb.start.
func (k *kernel) start(_ js.Value, args []js.Value) any {
	if len(args) < 1 || args[0].Type() != js.TypeFunction {
		panic("tensornb.start needs a function that fetches export data")
	}
	load := args[0]
	var docs interp.DocData
	if len(args) > 1 && args[1].Type() == js.TypeFunction {
		loadDocs := args[1]
		docs = func(path string) (io.ReadCloser, error) { return fetched(loadDocs, path, "the doc comments") }
	}
	var std func(path string) (io.ReadCloser, error)
	if len(args) > 2 && args[2].Type() == js.TypeFunction {
		loadStd := args[2]
		std = func(path string) (io.ReadCloser, error) { return fetched(loadStd, path, "the source") }
	}
	k.once.Do(func() {
		k.mu.Lock()
		defer k.mu.Unlock()
		exports := func(path string) (io.ReadCloser, error) { return fetched(load, path, "the export data") }
		k.engine = interp.NewLocal(instantHost(exports, docs, std))
		capture(1, k.engine.Stdout())
		capture(2, k.engine.Stderr())
		k.warm = make(chan struct{})
		// Start may wait for export data: not in a callback.
		go func() {
			defer close(k.warm)
			k.engine.Start()
			k.session = now()
			k.engine.Warmed()
			k.warmed = now()
		}()
	})
	return promise(func() (any, error) {
		<-k.warm
		return js.ValueOf(map[string]any{"session": k.session, "warm": k.warmed}), nil
	})
}

// now is performance.now(), the page's (or the worker's) clock.
func now() float64 { return js.Global().Get("performance").Call("now").Float() }

// execute is tensornb.execute.
func (k *kernel) execute(_ js.Value, args []js.Value) any {
	code := args[0].String()
	publish := js.Undefined()
	if len(args) > 1 {
		publish = args[1]
	}
	count := 0
	if len(args) > 2 && args[2].Type() == js.TypeNumber {
		count = args[2].Int()
	}
	input := js.Undefined()
	if len(args) > 3 {
		input = args[3]
	}
	return promise(func() (any, error) {
		k.mu.Lock()
		defer k.mu.Unlock()
		if k.engine == nil {
			return nil, fmt.Errorf("tensornb.start was not called")
		}
		k.count++
		if count > 0 {
			k.count = count
		}
		reply := Execute(context.Background(), k.engine, code, k.count, host(publish, input))
		return toJS(reply), nil
	})
}

// comm is tensornb.comm.
func (k *kernel) comm(_ js.Value, args []js.Value) any {
	for len(args) < 5 {
		args = append(args, js.Undefined())
	}
	m := front.CommMessage{
		Type:     args[0].String(),
		Content:  json.RawMessage(stringify(args[1], "{}")),
		Metadata: json.RawMessage(stringify(args[2], "")),
		Buffers:  goBuffers(args[3]),
	}
	publish := args[4]
	return promise(func() (any, error) {
		engine, err := k.started()
		if err != nil {
			return nil, err
		}
		return toJS(Comm(context.Background(), engine, m, host(publish, js.Undefined()))), nil
	})
}

// host is the Host of a cell or a comm message whose outputs go to
// publish (a JavaScript function, or undefined), and whose input comes
// from input (likewise: undefined if the page takes none).
func host(publish, input js.Value) Host {
	h := Host{
		Publish: func(msgType string, content map[string]any) {
			if publish.Type() == js.TypeFunction {
				publish.Invoke(msgType, toJS(content))
			}
		},
		Comm: func(m front.CommMessage) {
			if publish.Type() != js.TypeFunction {
				return
			}
			metadata := js.ValueOf(map[string]any{})
			if len(m.Metadata) > 0 {
				metadata = js.Global().Get("JSON").Call("parse", string(m.Metadata))
			}
			buffers := js.Global().Get("Array").New()
			for _, b := range m.Buffers {
				array := js.Global().Get("Uint8Array").New(len(b))
				js.CopyBytesToJS(array, b)
				buffers.Call("push", array.Get("buffer"))
			}
			publish.Invoke(m.Type, js.Global().Get("JSON").Call("parse", string(m.Content)), metadata, buffers)
		},
	}
	if input.Type() == js.TypeFunction {
		h.Input = func(ctx context.Context, prompt string, password bool) (string, error) {
			return typed(ctx, input, prompt, password)
		}
	}
	return h
}

// typed calls input(prompt, password) and waits for the line its Promise
// gives, or for ctx. The goroutine that waits lets the worker's event
// loop run, so the page's answer arrives as any message does.
func typed(ctx context.Context, input js.Value, prompt string, password bool) (string, error) {
	type result struct {
		line string
		err  error
	}
	done := make(chan result, 1)
	then := js.FuncOf(func(_ js.Value, args []js.Value) any {
		done <- result{line: args[0].String()}
		return nil
	})
	defer then.Release()
	catch := js.FuncOf(func(_ js.Value, args []js.Value) any {
		done <- result{err: errors.New(js.Global().Get("String").Invoke(args[0]).String())}
		return nil
	})
	defer catch.Release()
	input.Invoke(prompt, password).Call("then", then, catch)
	select {
	case r := <-done:
		return r.line, r.err
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

// stringify returns v as JSON, or empty if v is undefined or null.
func stringify(v js.Value, empty string) string {
	if v.IsUndefined() || v.IsNull() {
		return empty
	}
	return js.Global().Get("JSON").Call("stringify", v).String()
}

// goBuffers copies the bytes of an Array of ArrayBuffers, DataViews or
// typed arrays.
func goBuffers(v js.Value) [][]byte {
	if v.IsUndefined() || v.IsNull() {
		return nil
	}
	var buffers [][]byte
	for i := range v.Length() {
		b := v.Index(i)
		var array js.Value
		if js.Global().Get("ArrayBuffer").Call("isView", b).Bool() {
			array = js.Global().Get("Uint8Array").New(b.Get("buffer"), b.Get("byteOffset"), b.Get("byteLength"))
		} else {
			array = js.Global().Get("Uint8Array").New(b)
		}
		data := make([]byte, array.Length())
		js.CopyBytesToGo(data, array)
		buffers = append(buffers, data)
	}
	return buffers
}

// complete is tensornb.complete.
func (k *kernel) complete(_ js.Value, args []js.Value) any {
	code, cursor := args[0].String(), args[1].Int()
	return k.ask(func(ctx context.Context, engine *interp.Local) map[string]any {
		return Complete(ctx, engine, code, cursor)
	})
}

// inspect is tensornb.inspect.
func (k *kernel) inspect(_ js.Value, args []js.Value) any {
	code, cursor, detail := args[0].String(), args[1].Int(), 0
	if len(args) > 2 && args[2].Type() == js.TypeNumber {
		detail = args[2].Int()
	}
	return k.ask(func(ctx context.Context, engine *interp.Local) map[string]any {
		return Inspect(ctx, engine, code, cursor, detail)
	})
}

// verdict is tensornb.verdict.
func verdict(_ js.Value, args []js.Value) any {
	for len(args) < 2 {
		args = append(args, js.Undefined())
	}
	metadata, outputs := stringify(args[0], ""), stringify(args[1], "")
	return promise(func() (any, error) {
		v, err := Verdict([]byte(metadata), []byte(outputs))
		if err != nil {
			return nil, err
		}
		return toJS(v), nil
	})
}

// ask returns a Promise of the reply content question gives, asked of the
// started session with 10 seconds to answer.
func (k *kernel) ask(question func(context.Context, *interp.Local) map[string]any) any {
	return promise(func() (any, error) {
		engine, err := k.started()
		if err != nil {
			return nil, err
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		return toJS(question(ctx, engine)), nil
	})
}

// started returns the engine, once tensornb.start made it.
func (k *kernel) started() (*interp.Local, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.engine == nil {
		return nil, fmt.Errorf("tensornb.start was not called")
	}
	return k.engine, nil
}

// promise returns a Promise of what run returns, run in a goroutine of
// its own: the JavaScript callback that calls promise must not block, or
// the page's event loop, which fetches and timers need, stops with it.
func promise(run func() (any, error)) js.Value {
	var executor js.Func
	executor = js.FuncOf(func(_ js.Value, args []js.Value) any {
		resolve, reject := args[0], args[1]
		go func() {
			defer executor.Release()
			v, err := run()
			if err != nil {
				reject.Invoke(js.Global().Get("Error").New(err.Error()))
				return
			}
			resolve.Invoke(v)
		}()
		return nil
	})
	return js.Global().Get("Promise").New(executor)
}

// toJS makes a message's content (or a verdict) a JavaScript value,
// through JSON, as the front's messages are made: js.ValueOf takes no
// []string.
func toJS(content any) js.Value {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(content); err != nil {
		return js.ValueOf(map[string]any{"error": err.Error()})
	}
	return js.Global().Get("JSON").Call("parse", b.String())
}

// fetched calls load(path) and waits for its Promise of what, of the
// package at path.
func fetched(load js.Value, path, what string) (io.ReadCloser, error) {
	type result struct {
		data []byte
		err  error
	}
	done := make(chan result, 1)
	then := js.FuncOf(func(_ js.Value, args []js.Value) any {
		v := args[0]
		if v.IsNull() || v.IsUndefined() {
			done <- result{err: fmt.Errorf("no %s for %s", strings.TrimPrefix(what, "the "), path)}
			return nil
		}
		array := js.Global().Get("Uint8Array").New(v)
		data := make([]byte, array.Length())
		js.CopyBytesToGo(data, array)
		done <- result{data: data}
		return nil
	})
	defer then.Release()
	catch := js.FuncOf(func(_ js.Value, args []js.Value) any {
		done <- result{err: fmt.Errorf("%s of %s: %s", what, path, js.Global().Get("String").Invoke(args[0]).String())}
		return nil
	})
	defer catch.Release()
	load.Invoke(path).Call("then", then, catch)
	select {
	case r := <-done:
		if r.err != nil {
			return nil, r.err
		}
		return io.NopCloser(bytes.NewReader(r.data)), nil
	case <-time.After(time.Minute):
		return nil, fmt.Errorf("%s of %s did not arrive within a minute", what, path)
	}
}

// capture makes what Go writes to file descriptor fd go to w: it wraps
// globalThis.fs.write, through which the syscall package writes (the
// runtime's own prints go to fs.writeSync, which stays as it is).
func capture(fd int, w io.Writer) {
	fs := js.Global().Get("fs")
	write := fs.Get("write")
	fs.Set("write", js.FuncOf(func(this js.Value, args []js.Value) any {
		// write(fd, buf, offset, length, position, callback)
		if len(args) == 6 && args[0].Int() == fd && args[4].IsNull() {
			buf, offset, length, callback := args[1], args[2].Int(), args[3].Int(), args[5]
			p := make([]byte, length)
			js.CopyBytesToGo(p, buf.Call("subarray", offset, offset+length))
			_, _ = w.Write(p)
			callback.Invoke(js.Null(), length)
			return nil
		}
		passed := make([]any, len(args))
		for i, a := range args {
			passed[i] = a
		}
		return write.Call("apply", this, passed)
	}))
}
