package site

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/profiler"
	"github.com/chromedp/chromedp"

	"github.com/tensornb/tensornb/internal/browsertest"
	"github.com/tensornb/tensornb/kernel/internal/browser"
	"github.com/tensornb/tensornb/kernel/internal/browser/lite"
	"github.com/tensornb/tensornb/kernel/internal/interp/worker"
)

// The timing report of a first visit to the site's JupyterLab (see
// TestLabTimes and docs/site.md).
var (
	labTimes   = flag.String("lab-times", "", "for TestLabTimes: comma-separated built sites to time in turn (\"this\" builds one from this checkout)")
	labRuns    = flag.Int("lab-runs", 3, "for TestLabTimes: visits to each site")
	labWarm    = flag.Int("lab-warm", 10, "for TestLabTimes: runs of the warm cell in each visit")
	labAgain   = flag.Bool("lab-again", false, "for TestLabTimes: after each first visit, visit again in the same browser (its cache and storage kept) and time that too")
	labProfile = flag.String("lab-profile", "", "for TestLabTimes: a directory for each visit's profile of the page's main thread (SITE-RUN.cpuprofile, which Chromium's DevTools open)")
)

// labTimesNotebook is the notebook each visit opens.
const labTimesNotebook = "00-tour.ipynb"

// labWarmCell is the cell run again and again for the warm cell's time:
// the tour's second cell (a view, a print and a picture), which runs on
// what its first declared.
const labWarmCell = `y := x.Transpose(1, 2)
fmt.Println("strides", x.Strides(), "->", y.Strides(), "| same storage?", y.SharesStorage(x))
display.Show(display.Layout(y))`

// labTimesJS is added to each page before its scripts: it waits for the
// app, for the notebook's panel and its kernel to be idle, runs the
// notebook's first code cell (the imports and the first tensor) and then
// the warm cell again and again, and resolves window.tnbLabTimes to the
// times, in ms since the navigation started.
const labTimesJS = `if (/\/lab\/(index\.html)?$/.test(location.pathname)) {
// The time each cell took in the engine's worker, from its reply.
window.tnbWorkerMS = [];
const NativeWorker = window.Worker;
window.Worker = function (...args) {
  const w = new NativeWorker(...args);
  w.addEventListener("message", (e) => {
    if (e.data && e.data.type === "reply") {
      tnbWorkerMS.push(e.data.ms);
    }
  });
  return w;
};
window.tnbLabTimes = (async () => {
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  const now = () => performance.now();
  const path = %s, first = %s, warm = %s, warmRuns = %d;
  while (!document.body || document.body.dataset.tnbLab !== "restored") {
    if (document.body && document.body.dataset.tnbLab === "failed") {
      throw new Error("the app did not start");
    }
    await sleep(5);
  }
  const restored = now();
  const app = window.jupyterapp;
  let panel = null;
  while (!(panel = Array.from(app.shell.widgets("main")).find((w) => w.context && w.context.path === path))) {
    await sleep(5);
  }
  await panel.context.ready;
  const opened = now();
  await panel.sessionContext.ready;
  const kernel = panel.sessionContext.session.kernel;
  while (kernel.status !== "idle") {
    await sleep(5);
  }
  const idle = now();
  const run = async (code) => {
    const t0 = now();
    const reply = await kernel.requestExecute({ code }).done;
    if (reply.content.status !== "ok") {
      throw new Error("the cell failed: " + reply.content.ename + ": " + reply.content.evalue);
    }
    return now() - t0;
  };
  const firstMS = await run(first);
  const firstDone = now();
  const warmMS = [];
  for (let i = 0; i < warmRuns; i++) {
    warmMS.push(await run(warm));
  }
  const nav = performance.getEntriesByType("navigation")[0];
  const res = (name) => {
    const e = performance.getEntriesByType("resource").find((r) => r.name.endsWith(name));
    return e ? e.responseEnd : -1;
  };
  const ready = performance.getEntriesByName("tnb-engine-ready")[0];
  return {
    domContentLoaded: nav.domContentLoadedEventEnd,
    load: nav.loadEventEnd,
    labJS: res("/lab.js"),
    restored,
    opened,
    idle,
    engineReady: ready ? ready.startTime : -1,
    engine: ready ? ready.detail : null,
    firstMS,
    firstDone,
    warmMS,
    warmWorkerMS: tnbWorkerMS.slice(-warmRuns),
  };
})();
}`

// A labVisit is what labTimesJS resolves to.
type labVisit struct {
	DOMContentLoaded, Load, LabJS, Restored, Opened, Idle, EngineReady float64
	Engine                                                             *engineStart
	FirstMS, FirstDone                                                 float64
	WarmMS                                                             []float64
	WarmWorkerMS                                                       []float64 // in the worker
}

// TestLabTimes prints how long a first visit to the site's JupyterLab
// takes, with an empty cache, to open the tour with its kernel ready and
// to run cells: for each site of -lab-times (a built site's directory,
// or "this" for one built from this checkout), -lab-runs visits, each in
// a new browser with a new profile, the sites in turn (A, B, A, B...,
// as the machine's load drifts), then each site's medians. It asserts
// no time: the machine is shared. Without -lab-times it is skipped (CI
// does not run it):
//
//	go test -run TestLabTimes ./kernel/internal/browser/site -args -lab-times=/tmp/a,/tmp/b -lab-runs=5
func TestLabTimes(t *testing.T) {
	if *labTimes == "" {
		t.Skip("give -lab-times=SITE[,SITE...] (see docs/site.md)")
	}
	browsertest.Require(t)
	tour, err := ReadNotebook(filepath.Join(moduleDir, "notebooks", labTimesNotebook))
	if err != nil {
		t.Fatal(err)
	}
	var first string
	for _, c := range tour.Cells {
		if c.Type == "code" {
			first = c.Source
			break
		}
	}
	script := fmt.Sprintf(labTimesJS, jsString(labTimesNotebook), jsString(first), jsString(labWarmCell), *labWarm)

	sites := strings.Split(*labTimes, ",")
	urls := make([]string, len(sites))
	for i, dir := range sites {
		if dir == "this" {
			dir = t.TempDir()
			if _, err := Write(moduleDir, dir, Options{}); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := os.Stat(filepath.Join(dir, lite.Dir, "index.html")); err != nil {
			t.Fatalf("%s is not a built site: %v", sites[i], err)
		}
		srv := httptest.NewServer(Handler(dir))
		t.Cleanup(srv.Close)
		urls[i] = srv.URL + "/" + lite.NotebookURL(labTimesNotebook)
	}

	visits := make([][]labVisit, len(sites))
	agains := make([][]labVisit, len(sites))
	for run := 0; run < *labRuns; run++ {
		for i, u := range urls {
			t.Run(fmt.Sprintf("%d/%d", i, run), func(t *testing.T) {
				profile := ""
				if *labProfile != "" {
					profile = filepath.Join(*labProfile, fmt.Sprintf("%d-%d.cpuprofile", i, run))
				}
				v, again := visitLab(t, u, script, profile)
				visits[i] = append(visits[i], v)
				t.Logf("%s: %s", sites[i], v)
				if again != nil {
					agains[i] = append(agains[i], *again)
					t.Logf("%s, again: %s", sites[i], again)
				}
			})
		}
	}
	server := serverWarm(first)
	t.Logf("the same warm cell on the server's instant engine: median %.2f ms", server)
	for i, vs := range visits {
		t.Logf("%s, median of %d visits: %s", sites[i], len(vs), medianVisit(vs))
		if len(agains[i]) > 0 {
			t.Logf("%s, median of %d visits again: %s", sites[i], len(agains[i]), medianVisit(agains[i]))
		}
	}
}

// visitLab opens url in a new browser, with labTimesJS, and returns its
// times; with a profile file, it writes the page's CPU profile there.
// With -lab-again it opens url once more in the same browser and returns
// that visit's times too, after checking that the notebook, open at the
// first visit and restored with JupyterLab's workspace, is open once.
func visitLab(t *testing.T, url, script, profile string) (first labVisit, again *labVisit) {
	// A measurement, on a machine whose load drifts: a slow visit is a
	// figure to report, and only one that never ends runs into the
	// session's end, shortly before go test's -timeout.
	ctx := browsertest.StartUntilDeadline(t)
	add := chromedp.Func(func(ctx context.Context, target *chromedp.Target) error {
		_, err := cdp.Call(ctx, target, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: script})
		if err == nil && profile != "" {
			if _, err = cdp.Call(ctx, target, profiler.Enable, cdp.Empty{}); err == nil {
				_, err = cdp.Call(ctx, target, profiler.Start, cdp.Empty{})
			}
		}
		return err
	})
	if err := chromedp.Do(ctx, chromedp.Navigate("about:blank"), add); err != nil {
		t.Fatal(err)
	}
	errs := browsertest.OpenURL(t, ctx, url)
	raw, err := chromedp.Run(ctx, chromedp.Evaluate[json.RawMessage]("window.tnbLabTimes", chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("timing %s: %v\n%s", url, err, strings.Join(errs.All(), "\n"))
	}
	if err := json.Unmarshal(raw, &first); err != nil {
		t.Fatal(err)
	}
	if profile != "" {
		stop := chromedp.Func(func(ctx context.Context, target *chromedp.Target) error {
			r, err := cdp.Call(ctx, target, profiler.Stop, cdp.Empty{})
			if err != nil {
				return err
			}
			data, err := json.Marshal(r.Profile)
			if err != nil {
				return err
			}
			if err := os.MkdirAll(filepath.Dir(profile), 0o755); err != nil {
				return err
			}
			return os.WriteFile(profile, data, 0o644)
		})
		if err := chromedp.Do(ctx, stop); err != nil {
			t.Fatalf("the page's profile: %v", err)
		}
	}
	if e := errs.All(); len(e) > 0 {
		t.Errorf("JavaScript errors on the page:\n%s", strings.Join(e, "\n"))
	}
	if !*labAgain {
		return first, nil
	}
	// The cells ran on the kernel, not in the notebook, which is
	// unchanged: JupyterLab lets the page go without asking.
	errs = browsertest.OpenURL(t, ctx, url)
	raw, err = chromedp.Run(ctx, chromedp.Evaluate[json.RawMessage]("window.tnbLabTimes", chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("timing %s again: %v\n%s", url, err, strings.Join(errs.All(), "\n"))
	}
	again = &labVisit{}
	if err := json.Unmarshal(raw, again); err != nil {
		t.Fatal(err)
	}
	open := fmt.Sprintf(`Array.from(jupyterapp.shell.widgets("main")).filter((w) => w.context && w.context.path === %s).length`, jsString(labTimesNotebook))
	if n, err := chromedp.Run(ctx, chromedp.Evaluate[int](open)); err != nil || n != 1 {
		t.Errorf("at the second visit, %s is open in %d tabs (%v), want 1", labTimesNotebook, n, err)
	}
	if e := errs.All(); len(e) > 0 {
		t.Errorf("JavaScript errors on the page, visited again:\n%s", strings.Join(e, "\n"))
	}
	return first, again
}

func (v labVisit) String() string {
	engine := "engine's start not reported"
	if e := v.Engine; e != nil {
		engine = fmt.Sprintf("engine ready %.0f ms (in its worker: compiled %.0f, Go's init %.0f, session %.0f, warm %.0f)", v.EngineReady, e.Compiled, e.Init, e.Session, e.Warm)
	}
	warm := fmt.Sprintf("warm cell median %.1f ms (in the worker %.1f)", browsertest.Median(v.WarmMS), browsertest.Median(v.WarmWorkerMS))
	if n := len(v.WarmMS); n >= 10 {
		// Whether the cell speeds up as V8 optimizes the engine's code.
		warm += fmt.Sprintf(" (its first %d runs' median %.1f ms, its last %d's %.1f)", n/2, browsertest.Median(v.WarmMS[:n/2]), n-n/2, browsertest.Median(v.WarmMS[n/2:]))
	}
	return fmt.Sprintf("DOMContentLoaded %.0f ms, lab.js %.0f, JupyterLab restored %.0f, notebook open %.0f, kernel idle %.0f, %s; first cell %.0f ms (done at %.0f); %s",
		v.DOMContentLoaded, v.LabJS, v.Restored, v.Opened, v.Idle, engine, v.FirstMS, v.FirstDone, warm)
}

// medianVisit returns a visit whose every time is the median of that
// time over vs (the warm cell's: the median of each visit's medians).
func medianVisit(vs []labVisit) labVisit {
	med := func(f func(labVisit) float64) float64 {
		var xs []float64
		for _, v := range vs {
			xs = append(xs, f(v))
		}
		return browsertest.Median(xs)
	}
	m := labVisit{
		DOMContentLoaded: med(func(v labVisit) float64 { return v.DOMContentLoaded }),
		Load:             med(func(v labVisit) float64 { return v.Load }),
		LabJS:            med(func(v labVisit) float64 { return v.LabJS }),
		Restored:         med(func(v labVisit) float64 { return v.Restored }),
		Opened:           med(func(v labVisit) float64 { return v.Opened }),
		Idle:             med(func(v labVisit) float64 { return v.Idle }),
		EngineReady:      med(func(v labVisit) float64 { return v.EngineReady }),
		FirstMS:          med(func(v labVisit) float64 { return v.FirstMS }),
		FirstDone:        med(func(v labVisit) float64 { return v.FirstDone }),
		WarmMS:           []float64{med(func(v labVisit) float64 { return browsertest.Median(v.WarmMS) })},
		WarmWorkerMS:     []float64{med(func(v labVisit) float64 { return browsertest.Median(v.WarmWorkerMS) })},
	}
	if vs[0].Engine != nil {
		e := *vs[0].Engine
		e.Compiled = med(func(v labVisit) float64 { return engineOf(v).Compiled })
		e.Init = med(func(v labVisit) float64 { return engineOf(v).Init })
		e.Session = med(func(v labVisit) float64 { return engineOf(v).Session })
		e.Warm = med(func(v labVisit) float64 { return engineOf(v).Warm })
		m.Engine = &e
	}
	return m
}

// engineStart is what the worker says of the engine's start, in ms
// since the worker began.
type engineStart struct{ MS, Compiled, Init, Session, Warm float64 }

func engineOf(v labVisit) engineStart {
	if v.Engine == nil {
		return engineStart{}
	}
	return *v.Engine
}

// serverWarm runs the tour's first cell and then the warm cell
// *labWarm times on the server's instant engine and returns the warm
// cell's median, in ms.
func serverWarm(first string) float64 {
	e := worker.NewEngine(os.Args[0], "-test.run=^$")
	e.Env = []string{"TENSORNB_TEST_WORKER=1"}
	defer func() { _ = e.Shutdown(false) }()
	var ms []float64
	for i := 0; i <= *labWarm; i++ {
		code := labWarmCell
		if i == 0 {
			code = first
		}
		ctx, cancel := context.WithTimeout(context.Background(), hangAfter)
		start := time.Now()
		browser.Execute(ctx, e, code, i+1, browser.Host{Publish: func(string, map[string]any) {}})
		if i > 0 {
			ms = append(ms, float64(time.Since(start).Microseconds())/1000)
		}
		cancel()
	}
	return browsertest.Median(ms)
}
