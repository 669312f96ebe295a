package docker

import (
	"encoding/json"
	"fmt"
	"html"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tensornb/tensornb/internal/browsertest"
)

// labVersion is the version of the JupyterLab a server serves at /lab,
// as its page gives it (page config's appVersion), as JupyterLab's own
// server and the stand-in's (scripts/jupyterlab/config.py) both give it.
func (it *imageTest) labVersion(s server) (string, error) {
	code, body, err := s.get(it.ctx, "/lab", nil)
	if err != nil || code != 200 {
		return "", fmt.Errorf("GET %slab: HTTP %d %v: %.200s", s.base, code, err, body)
	}
	m := regexp.MustCompile(`(?s)<script id="jupyter-config-data" type="application/json">(.*?)</script>`).FindSubmatch(body)
	if m == nil {
		return "", fmt.Errorf("GET %slab: the page has no JupyterLab configuration (jupyter-config-data): %.200s", s.base, body)
	}
	var config struct {
		AppVersion string `json:"appVersion"`
	}
	if err := json.Unmarshal([]byte(html.UnescapeString(string(m[1]))), &config); err != nil {
		return "", fmt.Errorf("GET %slab: its configuration: %v", s.base, err)
	}
	return config.AppVersion, nil
}

// atLeast tells whether the version (4.6.4, 4.5.0rc1) is major.minor or
// later.
func atLeast(version string, major, minor int) bool {
	f := strings.SplitN(version, ".", 3)
	if len(f) < 2 {
		return false
	}
	a, errA := strconv.Atoi(f[0])
	b, errB := strconv.Atoi(strings.TrimRightFunc(f[1], func(r rune) bool { return r < '0' || r > '9' }))
	return errA == nil && errB == nil && (a > major || a == major && b >= minor)
}

// checkFrontends fails unless the Binder run's server serves JupyterLab
// 4.1 or later at /lab, which draws Mermaid, and, on the pinned base, has
// Notebook 7.1 or later (the stand-in's jupyter notebook serves the same
// JupyterLab, as Notebook 7's server does at /lab).
func (it *imageTest) checkFrontends(c *container, s server) error {
	version, err := it.labVersion(s)
	if err != nil {
		return &failure{step: "binder: front ends", problem: err.Error(), log: c.logs(),
			todo: "the image's jupyter notebook must serve JupyterLab at /lab, as Notebook 7 does"}
	}
	if !atLeast(version, 4, 1) {
		return &failure{step: "binder: front ends", command: "GET " + s.base + "lab", problem: fmt.Sprintf("the server's JupyterLab is %q, older than 4.1, which draws Mermaid", version),
			todo: "pin a newer base-notebook (or, on the stand-in, build tensornb's JupyterLab again)"}
	}
	notebook := "Notebook 7 not checked: the stand-in has none, its jupyter notebook serves JupyterLab"
	if it.sum.bases == "pinned" {
		out, err := it.pm.run(it.ctx, "exec", c.name, "python3", "-c", "import notebook; print(notebook.__version__)")
		if err != nil || !atLeast(out, 7, 1) {
			return &failure{step: "binder: front ends", command: "podman exec " + c.name + " python3 -c 'import notebook…'", problem: fmt.Sprintf("Notebook is %q (%v), older than 7.1, which draws Mermaid", out, err),
				todo: "pin a newer base-notebook"}
		}
		notebook = "Notebook " + out
	}
	it.prog.say("binder: front ends: JupyterLab %s at /lab; %s", version, notebook)
	return nil
}

// testLab drives the Binder run's JupyterLab in Chromium, as a Binder
// user meets it: the tour, 01 and 02 run with Run All Cells on the
// tensornb kernel, every cell answered as it should be and shown; 01's
// lineage drawn by JupyterLab's Mermaid; 02's explorer answers a click
// and its slider redraws its picture through the Go callback. The
// harness (browsertest.LabJS) reaches JupyterLab through what tensornb's
// JupyterLab gives a page (window.jupyterapp, data-tnb-lab): on the
// pinned base, whose JupyterLab is docker-stacks' build, it is not run,
// and the summary says so.
func (it *imageTest) testLab(t *testing.T, b *binderRun) {
	if it.sum.bases == "pinned" {
		it.setLab("JupyterLab not driven in Chromium (the pinned base's is docker-stacks' build)")
		it.prog.say("binder: JupyterLab in Chromium: not run on the pinned base, whose JupyterLab does not expose its app to the test's harness")
		return
	}
	version, err := it.labVersion(b.s)
	if err != nil {
		it.fail(t, &failure{step: "binder: JupyterLab", problem: err.Error(), log: b.c.logs()})
	}
	start := time.Now()
	ctx := browsertest.StartUntilDeadline(t)
	lab := browsertest.OpenLab(t, ctx, b.s.base+"lab?token="+b.s.token)
	notebooks := []struct {
		name  string
		check func()
	}{
		{"00-tour.ipynb", func() {}},
		{"01-flat-buffer-and-a-promise.ipynb", lab.CheckMermaid},
		{"02-strides-and-storage.ipynb", lab.CheckWidgets},
	}
	for _, nb := range notebooks {
		lab.Open("notebooks/"+nb.name, "tensornb")
		lab.RunAll()
		nb.check()
		it.prog.say("binder: JupyterLab in Chromium: %s run and checked, %.0f s after the navigation", nb.name, time.Since(start).Seconds())
	}
	lab.Screenshot("image/jupyterlab-02-slider.png")
	lab.Leave()
	if !t.Failed() {
		it.setLab(fmt.Sprintf("JupyterLab %s in Chromium: %d notebooks run, Mermaid, widgets live", version, len(notebooks)))
		it.prog.say("binder: JupyterLab in Chromium: Mermaid drawn, the explorer answers, the slider redraws (%s)", time.Since(start).Round(time.Second))
	}
}

// setLab sets what the summary says of the browser's run.
func (it *imageTest) setLab(s string) {
	it.mu.Lock()
	it.sum.lab = s
	it.mu.Unlock()
}
