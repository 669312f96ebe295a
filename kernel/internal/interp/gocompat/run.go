package gocompat

import (
	"sync"
	"time"
)

// RunAll runs each program as one cell of a fresh session of engine,
// parallel at a time, each given timeout to run, and reports how each
// did. Each program is the cell as it is, package clause and func main
// included, as a person would paste it.
func RunAll(name string, engine Engine, programs []Program, timeout time.Duration, parallel int) *Report {
	start := time.Now()
	r := &Report{Engine: name, Verdicts: make([]Verdict, len(programs))}
	indexes := make(chan int)
	var wg sync.WaitGroup
	for range max(parallel, 1) {
		wg.Go(func() {
			for i := range indexes {
				o := engine.Run(programs[i].Source, timeout)
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
