//go:build !race

package interp

// raceEnabled reports whether the tests run with the race detector.
const raceEnabled = false
