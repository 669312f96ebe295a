// Package front is the Jupyter-facing half of the tensornb kernel: it
// serves the messaging protocol on the five ZeroMQ sockets of a connection
// file, signs and checks every message, keeps execution counts and
// history, answers is_complete itself, and runs cells on an Engine.
//
// The sockets are ZeroMQ's, through cgo, which a browser has not: built
// for js/wasm, the package holds only what engines and fronts share (the
// Engine and Output interfaces, the cells' errors, the messages' contents
// and is_complete), for the front a browser's Jupyter has.
package front
