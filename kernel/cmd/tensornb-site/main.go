// Command tensornb-site builds tensornb's static site, notebooks as
// pages whose cells run in the browser (package kernel/internal/browser/site) and
// in JupyterLab running in the browser (JupyterLite, package
// kernel/internal/browser/lite), and serves it for a preview:
//
//	tensornb-site [flags] check         check the notebooks, write nothing
//	tensornb-site [flags] build SITE    check them, then write the site into SITE
//	tensornb-site serve SITE [PORT]     serve SITE on 127.0.0.1:PORT (8000)
//
// The notebooks are the module's notebooks/, or every one under the
// folder -notebooks names. Before anything is written, each code cell is
// checked as the browser's engine will check it (site.Check), and each
// problem is printed, one a line; with a problem, nothing is written and
// the command exits with 1, unless -skip-problems leaves the notebooks
// with problems out.
//
// scripts/site bundles the page script and the JupyterLite app with npm
// first, then runs it.
package main

import (
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"time"

	"github.com/tensornb/tensornb/kernel/internal/browser/site"
)

func main() {
	module := flag.String("module", ".", "the tensornb module's directory (its notebooks and kernel/cmd/tensornb-wasm)")
	notebooks := flag.String("notebooks", "", "the folder of the notebooks: every .ipynb under it, in its sub-folders too (default: the module's notebooks/)")
	title := flag.String("title", "", "the index's title (default \""+site.DefaultTitle+"\")")
	skip := flag.Bool("skip-problems", false, "leave out the notebooks that have problems, and write the others")
	solutions := flag.Bool("solutions", false, "serve exercises in nbgrader's format with their solutions and hidden tests (the default serves the student's version)")
	flag.Usage = func() {
		fmt.Fprintf(os.Stderr, "usage:\n  tensornb-site [flags] check\n  tensornb-site [flags] build SITE\n  tensornb-site serve SITE [PORT]\nflags:\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	opts := site.Options{Notebooks: *notebooks, Title: *title, SkipProblems: *skip, Solutions: *solutions}
	args := flag.Args()
	var err error
	switch {
	case len(args) == 1 && args[0] == "check":
		err = check(*module, opts)
	case len(args) == 2 && args[0] == "build":
		err = build(*module, args[1], opts)
	case (len(args) == 2 || len(args) == 3) && args[0] == "serve":
		port := "8000"
		if len(args) == 3 {
			port = args[2]
		}
		err = serve(args[1], port)
	default:
		flag.Usage()
		os.Exit(2)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "tensornb-site:", err)
		os.Exit(1)
	}
}

// check checks the notebooks and prints their problems, as build does
// before it writes anything.
func check(module string, opts site.Options) error {
	src := opts.Folder(module)
	good, problems, err := site.Check(module, src)
	if err != nil {
		return err
	}
	report(problems, opts)
	if len(problems) > 0 && !opts.SkipProblems {
		return &site.ProblemsError{Problems: problems, Notebooks: len(good) + len(site.Named(problems))}
	}
	fmt.Printf("checked the notebooks in %s: %d can run in the browser\n", src, len(good))
	return nil
}

func build(module, dir string, opts site.Options) error {
	start := time.Now()
	problems, err := site.Write(module, dir, opts)
	report(problems, opts)
	if err != nil {
		return err
	}
	fmt.Printf("wrote the site into %s in %.1f s\n", dir, time.Since(start).Seconds())
	return nil
}

// report prints the problems, one a line, and with -skip-problems the
// notebooks left out.
func report(problems []site.Problem, opts site.Options) {
	for _, p := range problems {
		fmt.Fprintln(os.Stderr, p)
	}
	if opts.SkipProblems {
		for _, nb := range site.Named(problems) {
			fmt.Fprintf(os.Stderr, "left out: %s\n", nb)
		}
	}
}

func serve(dir, port string) error {
	if _, err := os.Stat(dir + "/index.html"); err != nil {
		return errors.New(dir + " holds no site (no index.html): build it first, with scripts/site " + dir)
	}
	ln, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", port))
	if err != nil {
		return err
	}
	fmt.Printf("serving %s at http://%s/ (Ctrl-C stops)\n", dir, ln.Addr())
	return http.Serve(ln, site.Handler(dir))
}
