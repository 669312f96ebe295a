// Package worker runs the instant engine's sessions on a server, each in
// a worker process of its own, so that a panic in a goroutine, memory
// exhausted or an interrupt ends the worker and not the kernel: the
// kernel's command starts the worker as `tensornb worker DIR`, whose main
// calls Serve (worker.go), and an Engine (engine.go) talks to it over
// three pipes: requests, events and a crash report. The Engine replays
// the cells that had run when a worker is replaced, and words its end
// (notes.go). Host is the session a server gives a worker, which
// NewSession makes.
//
// # Replay
//
// The Engine records each cell that ran to its end without an error.
// When a worker is replaced, after an interrupt or a crash, the next cell
// first replays those cells in a new worker, in order and with their
// outputs hidden, so that what they declared is there again, and says on
// stderr which cells it replayed. A replay stops at a cell that fails, at
// an interrupt, and at [DefaultReplayLimit]. A cell that ended the worker
// is never replayed, nor one that started a goroutine whose panic ended
// it: the worker runs each cell under a profiler label (cellLabel) that
// the crash report names.
//
// # Limits
//
// The worker may use half of the machine's memory, or of its control
// group's limit, or TENSORNB_MEMORY_LIMIT bytes (memory.go); a cell that
// takes more ends with a MemoryError, and the next cell replays. What
// cells print is captured from file descriptor 1 and os.Stderr
// (capture_linux.go), so that compiled code's output is caught too.
package worker
