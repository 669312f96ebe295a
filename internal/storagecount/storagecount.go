// Package storagecount counts the storages package tensor allocates, so
// that package check can tell whether a student's function copied or made
// a view: it is the checks' hook, apart from tensor's API, which cells
// call.
package storagecount

import "sync/atomic"

var allocated atomic.Int64

// Add counts one storage allocated.
func Add() { allocated.Add(1) }

// Allocated returns how many storages tensor has allocated since the
// program started: two readings around a piece of code differ if it made
// a copy, and not if it made only views.
func Allocated() int64 { return allocated.Load() }
