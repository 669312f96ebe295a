package gocompat

import (
	"fmt"
	"sync"
	"time"
)

// packageProbe is a program that tells whether an engine takes a cell
// with a package clause, and mainProbe one that tells whether it runs a
// cell's func main once, as go run runs a program's: it must print
// mainRan.
const (
	packageProbe = "package main\n\nfunc main() {}\n"
	mainProbe    = "package main\n\nimport \"fmt\"\n\nvar before = 1\n\nfunc main() { fmt.Println(\"main ran\") }\n\nfunc after() {}\n\nvar later = 2\n"
	mainRan      = "main ran\n"
)

// probeForm finds the form in which engine takes a program as a cell:
// as it is, if it can, and says why otherwise.
func probeForm(engine Engine, timeout time.Duration) (f Form, notes []string) {
	o := engine.Run(packageProbe, timeout)
	f.Package = o.Ename == "" && !o.TimedOut
	if !f.Package {
		notes = append(notes, fmt.Sprintf("The engine refuses a cell that starts with a package clause (`%s: %s`): each program's `package main` line is left empty.", o.Ename, markdownText(firstLine(o.Evalue))))
	}
	o = engine.Run(Cell(mainProbe, Form{Package: f.Package, Main: true}), timeout)
	f.Main = o.Ename == "" && !o.TimedOut && o.Output == mainRan
	if !f.Main {
		got := fmt.Sprintf("it printed %q", o.Output)
		if o.Ename != "" {
			got += fmt.Sprintf(" and failed (`%s: %s`)", o.Ename, markdownText(firstLine(o.Evalue)))
		}
		notes = append(notes, fmt.Sprintf("The engine does not run a cell's `func main` once, as `go run` runs a program's (given a main that prints %q between declarations, %s): each program's main is renamed `%s`, and a statement at the cell's end calls it.", mainRan, got, mainFunc))
	}
	return f, notes
}

// RunAll runs each program as one cell of a fresh session of engine,
// parallel at a time, each given timeout to run, and reports how each
// did. The programs are written as cells in the form probeForm finds,
// which the report says first if it is not the programs as they are.
func RunAll(name string, engine Engine, programs []Program, timeout time.Duration, parallel int) *Report {
	start := time.Now()
	r := &Report{Engine: name, Verdicts: make([]Verdict, len(programs))}
	form, notes := probeForm(engine, timeout)
	r.Notes = notes
	indexes := make(chan int)
	var wg sync.WaitGroup
	for range max(parallel, 1) {
		wg.Go(func() {
			for i := range indexes {
				o := engine.Run(Cell(programs[i].Source, form), timeout)
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
