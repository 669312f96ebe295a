package worker

// The words of a worker's end and of the replay after it: the Engine
// says them on the next cell's stderr and in the errors of the cells that
// ended. The browser's engine (kernel/internal/browser/engine.js), which
// replaces its Web Worker as the Engine replaces its worker, says the
// same from kernel/internal/browser/shared.js, which go generate makes
// from these (TestSharedJS there fails when it is out of date). Each %s
// is filled in by fmt.Sprintf here and in the same way there: they hold
// no other verb.

// The names of the errors of a cell whose worker ended: it ran out of
// memory, or anything else.
const (
	MemoryError     = "MemoryError"
	InterpreterDied = "InterpreterDied"
)

// The values of cells' errors.
const (
	// CellInterrupted is an interrupted cell's.
	CellInterrupted = "the cell was interrupted; the interpreter was restarted, and the next cell first replays the cells that had run without an error, to rebuild what they declared"
	// CellRanOut is a MemoryError's, with how the cell ran out of memory.
	CellRanOut = "the cell ran %s"
	// ReplayInterrupted is the Interrupted error's of the cell whose
	// replay was interrupted.
	ReplayInterrupted = "the replay of the earlier cells was interrupted, so this cell did not run, and what earlier cells declared is gone: run them again"
)

// RestartNote ends the traceback of a cell whose worker ended.
const RestartNote = "The next cell starts a new interpreter and first replays the earlier cells that ran without an error (not this one), to rebuild what they declared."

// Why the last worker ended, as the next cell's note says it.
const (
	LostInterrupt     = "a cell was interrupted"
	LostRunning       = "the interpreter ended while running a cell"
	LostBetween       = "the interpreter ended between cells"
	LostBetweenReport = "the interpreter ended between cells (%s)" // the first line of the Go runtime's report
	LostMemoryRunning = "the last cell ran %s"                     // how it ran out of memory
	LostMemoryBetween = "the interpreter ran %s between cells"
)

// The notes of a replay, on the stderr of the cell it is for: why the
// worker ended (a Lost…), and the cells it replays, by names.
const (
	NothingToReplay = "tensornb: %s; the interpreter was restarted, and no earlier cell had run without an error, so there was nothing to replay.\n"
	// Replaying is followed by one of the notes below, on its line; its
	// last %s says which cells are skipped, if any.
	Replaying = "tensornb: %s; the interpreter was restarted. Replaying what had run without an error, %s, with outputs hidden%s… "
	// ReplayFailed names the cell that failed, its error, and the cells
	// from it on.
	ReplayFailed = "stopped: %s failed when replayed (%s), so what %s declared is missing: run them again.\n"
	// ReplayEnded names the cell that ended the worker, and its error.
	ReplayEnded = "stopped: %s ended the interpreter when replayed (%s), so what earlier cells declared is gone: run them again.\n"
	// ReplayTooLong gives the limit, and the cell that ran at the time.
	ReplayTooLong           = "stopped: the replay took longer than %s, its limit, during %s, so what earlier cells declared is gone: run them again.\n"
	ReplayInterruptedDuring = "interrupted during %s.\n"
	// ReplayDone gives the seconds the replay took, to 2 decimals.
	ReplayDone = "done in %s s.\n"
	// ReplayDoneSlowest gives them to 1 decimal, then the seconds of the
	// slowest cell, and its name.
	ReplayDoneSlowest = "done in %s s, %s s of it in %s: a replay runs everything again, sleeps and long loops too.\n"
)
