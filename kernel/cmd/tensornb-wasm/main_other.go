//go:build !js

package main

import (
	"fmt"
	"os"
)

// Built for anything but js, the command only says what it is for, so
// that the package builds, vets and tests everywhere.
func main() {
	fmt.Fprintln(os.Stderr, "tensornb-wasm runs in a browser's Web Worker: build it with GOOS=js GOARCH=wasm, or with kernel/internal/browser's Build, which writes the files a page needs beside it")
	os.Exit(2)
}
