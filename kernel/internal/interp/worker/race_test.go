//go:build race

package worker

// raceEnabled reports whether the tests run with the race detector.
const raceEnabled = true
