// Command tensornb installs and runs the tensornb Jupyter kernel:
//
//	tensornb install [-prefix DIR | -sys-prefix]    build the tools, write the kernelspec
//	tensornb uninstall [-prefix DIR | -sys-prefix] [-purge]
//	tensornb kernel [-engine gonb] CONNECTION_FILE  what the kernelspecs run
//	tensornb worker [-sandbox] DIR                  the instant engine's interpreter process
//	tensornb guard                                  kills what a kernel started once it ends
//	tensornb assign SOURCE STUDENT                  the student's version of an exercise
//	tensornb grade [-json] [-timeout D] [-image IMAGE] SOURCE SUBMISSION...
//	tensornb version
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"

	"github.com/tensornb/tensornb"
	"github.com/tensornb/tensornb/kernel/internal/front"
	"github.com/tensornb/tensornb/kernel/internal/install"
	"github.com/tensornb/tensornb/kernel/internal/interp"
	"github.com/tensornb/tensornb/kernel/internal/interp/worker"
	"github.com/tensornb/tensornb/kernel/internal/procs"
	"github.com/tensornb/tensornb/kernel/internal/wire"
)

const usage = `tensornb: a Jupyter kernel for literate tensor notebooks in Go

usage:
  tensornb install [-prefix DIR | -sys-prefix]   build the pinned tools, install the kernel "Go (tensornb)"
  tensornb uninstall [-prefix DIR | -sys-prefix] [-purge]
  tensornb kernel [-engine gonb] CONNECTION_FILE run the kernel (Jupyter does this); -engine gonb
                                                 compiles every cell with GoNB, as "Go (tensornb, compiled)" does
  tensornb worker [-sandbox] DIR                 the instant engine's interpreter (the kernel starts it)
  tensornb guard                                 kills what a kernel started once it ends (the kernel starts it)
  tensornb assign SOURCE STUDENT                 write the student's version of an exercise in nbgrader's
                                                 format (a notebook, or every notebook of a folder)
  tensornb grade [-json] [-timeout D] [-feedback DIR] [-jobs N] [-image IMAGE|auto|none] SOURCE SUBMISSION...
                                                 grade submissions against the teacher's notebook SOURCE,
                                                 each in a sandboxed instant engine of its own: in a container
                                                 of the tensornb image (podman), with no network, where one is here
  tensornb classroom-workflow SOURCE SUBMISSION  print a GitHub Classroom autograding workflow: a step a test cell
                                                 of SOURCE, grading the student's notebook at SUBMISSION
  tensornb version
`

func main() {
	if len(os.Args) < 2 {
		fmt.Fprint(os.Stderr, usage)
		os.Exit(2)
	}
	var err error
	switch cmd, args := os.Args[1], os.Args[2:]; cmd {
	case "install":
		err = installCmd(args)
	case "uninstall":
		err = uninstallCmd(args)
	case "kernel":
		err = kernelCmd(args)
	case "worker":
		err = workerCmd(args)
	case "assign":
		err = assignCmd(args)
	case "grade":
		err = gradeCmd(args)
	case "classroom-workflow":
		err = workflowCmd(args)
	case "guard":
		err = procs.Tag(os.Getenv(procs.Var)).Guard(os.Stdin)
	case "version":
		fmt.Println("tensornb", tensornb.Version)
	case "help", "-h", "-help", "--help":
		fmt.Print(usage)
	default:
		fmt.Fprintf(os.Stderr, "tensornb: unknown command %q\n\n%s", cmd, usage)
		os.Exit(2)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "tensornb: %v\n", err)
		os.Exit(1)
	}
}

// layoutFlags reads -prefix and -sys-prefix into a Layout.
func layoutFlags(name string, args []string, more func(*flag.FlagSet)) (install.Layout, error) {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	prefix := fs.String("prefix", "", "install under `DIR` (DIR/share/jupyter/kernels) instead of for the current user")
	sysPrefix := fs.Bool("sys-prefix", false, "install under the prefix of the Python that runs Jupyter (python3's sys.prefix)")
	if more != nil {
		more(fs)
	}
	if err := fs.Parse(args); err != nil {
		return install.Layout{}, err
	}
	switch {
	case *prefix != "" && *sysPrefix:
		return install.Layout{}, fmt.Errorf("give -prefix or -sys-prefix, not both")
	case *sysPrefix:
		out, err := exec.Command("python3", "-c", "import sys; print(sys.prefix)").Output()
		if err != nil {
			return install.Layout{}, fmt.Errorf("asking python3 for sys.prefix: %w (is Jupyter's Python installed?)", err)
		}
		return install.PrefixLayout(strings.TrimSpace(string(out))), nil
	case *prefix != "":
		return install.PrefixLayout(*prefix), nil
	}
	return install.UserLayout()
}

func installCmd(args []string) error {
	l, err := layoutFlags("install", args, nil)
	if err != nil {
		return err
	}
	if err := install.Install(l, warm, os.Stderr); err != nil {
		return fmt.Errorf("install failed: %w", err)
	}
	fmt.Fprint(os.Stderr, installedMessage(l))
	return nil
}

func uninstallCmd(args []string) error {
	var purge *bool
	l, err := layoutFlags("uninstall", args, func(fs *flag.FlagSet) {
		purge = fs.Bool("purge", false, "also remove the tools and source install put in the installation's home (what its "+install.ManifestName+" lists)")
	})
	if err != nil {
		return err
	}
	return install.Uninstall(l, *purge, os.Stderr)
}

// kernelCmd serves one notebook's kernel. The installation is the one the
// running binary belongs to: <home>/bin/tensornb.
func kernelCmd(args []string) error {
	fs := flag.NewFlagSet("kernel", flag.ContinueOnError)
	engineName := fs.String("engine", "instant", "`instant` (interpreted cells, %%gonb to compile one) or gonb (every cell compiled)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	args = fs.Args()
	if os.Getenv("GOMAXPROCS") == "" {
		// The kernel's process relays messages between the client and
		// its worker (or GoNB), which run the cells: one processor's
		// worth of goroutines keeps up with it, and a class's kernels
		// then spend less CPU waking idle threads to look for work
		// (docs/capacity.md). The worker keeps every processor.
		runtime.GOMAXPROCS(1)
	}
	if len(args) != 1 || (*engineName != "instant" && *engineName != "gonb") {
		return fmt.Errorf("usage: tensornb kernel [-engine instant|gonb] CONNECTION_FILE")
	}
	conn, err := wire.ReadConnection(args[0])
	if err != nil {
		return err
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}
	home := filepath.Dir(filepath.Dir(self))
	// Everything the kernel starts carries a tag under its own, and a
	// guard kills it all when the kernel ends, even with SIGKILL, as
	// shutdown_kernel(now=True) ends it.
	os.Setenv(procs.Var, string(procs.New()))
	guard := exec.Command(self, "guard")
	guard.Stderr = os.Stderr
	stopGuard, err := procs.StartGuard(guard)
	if err != nil {
		return fmt.Errorf("starting the guard: %w", err)
	}
	defer stopGuard()
	var gonbLog io.Writer
	if os.Getenv("TENSORNB_DEBUG") != "" {
		gonbLog = os.Stderr
	}
	layout := install.Layout{Home: home}
	var engine front.Engine
	banner := "tensornb " + tensornb.Version + ": Go notebooks for tensors"
	if *engineName == "gonb" {
		compiled := newCompiledEngine(layout, kernelID(args[0]), gonbLog)
		go compiled.Start() // while the user writes the first cell
		engine, banner = compiled, banner+" (every cell compiled by GoNB)"
	} else {
		instant := newEngine(layout, kernelID(args[0]), gonbLog)
		go instant.Instant.Start()
		// GoNB, and the gopls it starts, wait for the first %%gonb cell
		// (or its completion, or a comm for GoNB's widgets): most
		// notebooks of this kernelspec have none, and together they
		// would be most of a kernel's memory and of its start's work
		// (docs/capacity.md).
		engine, banner = instant, banner+" (cells interpreted; %%gonb compiles one with GoNB)"
	}
	k, err := front.New(conn, engine, front.Info{
		Implementation: "tensornb",
		Version:        tensornb.Version,
		GoVersion:      goVersion(),
		Banner:         banner,
		HelpLinks: []front.HelpLink{
			{Text: "tensornb", URL: "https://github.com/tensornb/tensornb"},
			{Text: "Go documentation", URL: "https://go.dev/doc/"},
			{Text: "GoNB", URL: "https://github.com/janpfeifer/gonb"},
			{Text: "yaegi", URL: "https://github.com/traefik/yaegi"},
		},
	})
	if err != nil {
		return err
	}
	if v, ok := os.LookupEnv("TENSORNB_OUTPUT_LIMIT"); ok {
		limit, err := strconv.ParseInt(v, 10, 64)
		if err != nil || limit < 0 {
			return fmt.Errorf("TENSORNB_OUTPUT_LIMIT=%q: want a whole number of MiB, 0 for no limit", v)
		}
		k.SetOutputLimit(limit << 20)
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	// A kernel whose client died without shutting it down (a notebook
	// server killed, say) ends as a signal ends it: the engines shut
	// down, the guard kills what is left, and the kernel exits 0.
	ctx, orphaned := context.WithCancel(ctx)
	defer orphaned()
	// Its standard error may be a pipe whose reader died with the
	// client: a write there fails rather than ending the kernel before
	// its engines are shut down. (A handler, not an ignored signal, which
	// the engines' processes would inherit.)
	signal.Notify(make(chan os.Signal, 1), syscall.SIGPIPE)
	watchParent(ctx, os.Getenv("JPY_PARENT_PID"), parentPoll, func(why string) {
		fmt.Fprintf(os.Stderr, "tensornb: shutting down: %s\n", why)
		orphaned()
	})
	interrupts := make(chan os.Signal, 1)
	signal.Notify(interrupts, os.Interrupt)
	go func() {
		for range interrupts {
			k.Interrupt()
		}
	}()
	defer engine.Shutdown(false)
	if err := k.Run(ctx); ctx.Err() == nil {
		return err
	}
	return nil // ended by a signal, as asked
}

// workerCmd is the instant engine's interpreter process: DIR is the
// installation's module source, where it finds type information. With
// -sandbox its cells may use no package that reaches files, processes or
// the network (tensornb grade's workers).
func workerCmd(args []string) error {
	fs := flag.NewFlagSet("worker", flag.ContinueOnError)
	sandbox := fs.Bool("sandbox", false, "refuse the packages that reach files, processes or the network")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return fmt.Errorf("usage: tensornb worker [-sandbox] DIR (the kernel starts it)")
	}
	var options []func(*interp.Session)
	if *sandbox {
		options = append(options, interp.Sandboxed)
	}
	return worker.Serve(fs.Arg(0), os.NewFile(worker.RequestsFD, "requests"), os.NewFile(worker.EventsFD, "events"), os.NewFile(worker.CrashFD, "crash"), options...)
}

// kernelID returns the id Jupyter gave the kernel, which it writes into
// the connection file's name: kernel-<id>.json.
func kernelID(connectionFile string) string {
	base := filepath.Base(connectionFile)
	if id, ok := strings.CutPrefix(strings.TrimSuffix(base, ".json"), "kernel-"); ok {
		return id
	}
	return ""
}

// goVersion is the version of the go command that compiles cells, as
// language_info reports it: "1.26.8".
func goVersion() string {
	out, err := exec.Command("go", "env", "GOVERSION").Output()
	if err != nil {
		return strings.TrimPrefix(runtime.Version(), "go")
	}
	return strings.TrimPrefix(strings.TrimSpace(string(out)), "go")
}
