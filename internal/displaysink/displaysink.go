// Package displaysink is where package display sends the bundles it
// shows: the kernel's hook, apart from what cells call, the way
// database/sql/driver sits beside database/sql. An engine that runs cells
// in its own process sets its sink (Set); a compiled cell's program keeps
// display's default, which sends to GoNB when the program runs under it
// and prints the text form otherwise. Cells cannot import it: the
// instant engine has no table of it, and a compiled cell's module may not
// import another module's internal packages.
package displaysink

import "sync"

// A Func delivers a bundle, its forms by MIME type (a display.Bundle), to
// a front end. id is empty for a new output; otherwise the output with
// that id is created or replaced in place. result is set for the value of
// a cell's last expression, which a notebook shows as the cell's Out[n].
type Func func(bundle map[string]string, id string, result bool) error

// The metadata keys of a display that a compiled cell's program sends
// through GoNB's pipe, which the compiled kernel reads back.
const (
	// ResultMetadata marks a bundle as the value of a cell's last
	// expression: the kernel shows it as the cell's result, Out[n],
	// rather than as a display.
	ResultMetadata = "tensornb/result"
	// JSONMetadata carries a bundle's metadata, as JSON text, through
	// GoNB's pipe, which cannot send nested maps; the compiled kernel puts
	// it back in place before the display reaches the notebook.
	JSONMetadata = "tensornb/metadata"
)

var sink struct {
	sync.Mutex
	set, fallback Func
}

// Set makes f the destination of display's Show, Update and Result: an
// engine that runs cells itself sets its own. Set(nil) restores the
// default.
func Set(f Func) {
	sink.Lock()
	sink.set = f
	sink.Unlock()
}

// SetDefault makes f the destination while none is Set: package display
// sets its own as it starts.
func SetDefault(f Func) {
	sink.Lock()
	sink.fallback = f
	sink.Unlock()
}

// Get returns the destination: the one Set, or else the default. A sink
// that does more before each display can pass the bundle on to the one
// Get returned before it was Set.
func Get() Func {
	sink.Lock()
	defer sink.Unlock()
	if sink.set != nil {
		return sink.set
	}
	return sink.fallback
}
