//go:build js && wasm

// Command tensornb-wasm is the instant engine for a browser: built with
// GOOS=js GOARCH=wasm, it runs in a Web Worker (kernel/internal/browser's
// worker.js) and interprets cells there, with no server. browser.Build
// builds it, with the files a page needs beside it.
package main

import "github.com/tensornb/tensornb/kernel/internal/browser"

func main() { browser.Serve() }
