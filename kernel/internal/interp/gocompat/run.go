package gocompat

import (
	"fmt"
	"sync"
	"time"
)

// wholeProbe is a program of a package clause and an empty main, which
// tells whether an engine takes a cell with a package clause.
const wholeProbe = "package main\n\nfunc main() {}\n"

// RunAll runs each program as one cell of a fresh session of engine,
// parallel at a time, each given timeout to run, and reports how each
// did. If the engine refuses a package clause in a cell, each program's
// is left out (see Cell), and the report says so first.
func RunAll(name string, engine Engine, programs []Program, timeout time.Duration, parallel int) *Report {
	start := time.Now()
	r := &Report{Engine: name, Verdicts: make([]Verdict, len(programs))}
	probe := engine.Run(wholeProbe, timeout)
	whole := probe.Ename == "" && !probe.TimedOut
	if !whole {
		r.Notes = append(r.Notes, fmt.Sprintf("The engine refuses a cell that starts with a package clause (`%s: %s`): each program's `package main` line is left empty.", probe.Ename, markdownText(firstLine(probe.Evalue))))
	}
	indexes := make(chan int)
	var wg sync.WaitGroup
	for range max(parallel, 1) {
		wg.Go(func() {
			for i := range indexes {
				o := engine.Run(Cell(programs[i].Source, whole), timeout)
				r.Verdicts[i] = Classify(programs[i], o, timeout.String())
			}
		})
	}
	for i := range programs {
		indexes <- i
	}
	close(indexes)
	wg.Wait()
	r.Seconds = time.Since(start).Seconds()
	return r
}
