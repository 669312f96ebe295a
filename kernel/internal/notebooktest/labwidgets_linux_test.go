package notebooktest

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/tensornb/tensornb/internal/browsertest"
	"github.com/tensornb/tensornb/kernel/internal/install"
	"github.com/tensornb/tensornb/kernel/internal/jupytertest"
)

// labHarness is the display package's JupyterLab page directory, whose
// widgets.html runs cells on a Jupyter server with JupyterLab's widget
// manager.
var labHarness = filepath.Join("..", "..", "..", "display", "testdata", "lab")

// TestLabWidgets runs widgets on the real server kernel in JupyterLab's
// own front-end code: the display package's JupyterLab page
// (widgets.html) starts a tensornb kernel on Debian's Jupyter server
// through @jupyterlab/services, runs cells through JupyterLab's output
// area, and draws their widgets with JupyterLab's widget manager
// (@jupyter-widgets/jupyterlab-manager). The Interact's slider must be
// drawn, and typing a value into it must redraw the picture below it;
// a click on a button must run its Go callback, which changes its label.
// The page raises no JavaScript errors. A screenshot goes to
// artifacts/lab/widgets-kernel.png.
func TestLabWidgets(t *testing.T) {
	jupytertest.Require(t, "notebook")
	browsertest.Require(t)
	if _, err := os.Stat(filepath.Join(labHarness, "dist", "widgets.js")); err != nil {
		msg := "JupyterLab's page is not built (npm ci --prefix display/testdata/lab && npm run --prefix display/testdata/lab build; scripts/test does it): " + err.Error()
		if os.Getenv("TENSORNB_REQUIRE_BROWSER") != "" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	env := jupytertest.Install(t)
	server := startNotebook6(t, env, t.TempDir())

	// The page and the server's API on one loopback origin, as JupyterLab
	// is served by the server it talks to.
	api, err := url.Parse(server.url)
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/api/", httputil.NewSingleHostReverseProxy(api)) // WebSockets too
	mux.Handle("/", http.FileServer(http.Dir(labHarness)))
	site := httptest.NewServer(mux)
	t.Cleanup(site.Close)

	ctx := browsertest.StartUntilDeadline(t)
	errs := browsertest.OpenURL(t, ctx, site.URL+"/widgets.html")
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool]("window.tnbLabWidgets !== undefined", chromedp.WithPollingTimeout(0))); err != nil {
		t.Fatalf("the page's script did not load: %v\n%s", err, strings.Join(errs.All(), "\n"))
	}
	evalJS := func(js string) string {
		t.Helper()
		v, err := chromedp.Run(ctx, chromedp.Evaluate[string](js, chromedp.EvalAwaitPromise))
		if err != nil {
			t.Fatalf("%s: %v\nJavaScript errors: %q", js, err, errs.All())
		}
		return v
	}
	token, _ := json.Marshal(server.token)
	if name := evalJS("tnbLabWidgets.start(" + string(token) + ", true)"); name != install.Name {
		t.Fatalf("the page started kernel %q, not %q", name, install.Name)
	}
	defer evalJS("tnbLabWidgets.stop().then(() => '')")
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](browsertest.WidgetJS)); err != nil {
		t.Fatal(err)
	}
	run := func(i int) {
		t.Helper()
		code, _ := json.Marshal(browsertest.WidgetCells[i])
		if status := evalJS("tnbLabWidgets.run(" + string(code) + ")"); status != "ok" {
			t.Fatalf("cell %d: the kernel answered %q\n%s", i, status, evalJS("document.body.innerText"))
		}
	}
	poll := func(js, what string) {
		t.Helper()
		if _, err := chromedp.Run(ctx, chromedp.Poll[bool](js, chromedp.WithPollingInterval(50*time.Millisecond), chromedp.WithPollingTimeout(0))); err != nil {
			t.Fatalf("%s: %v\nthe page shows: %q\nJavaScript errors: %q", what, err, evalJS("document.body.innerText"), errs.All())
		}
	}

	run(0)
	poll(`document.querySelector(".widget-slider .widget-readout") !== null && tnbWidgetTest.picture() !== ""`, "the Interact's slider and picture are not drawn")
	before := evalJS("tnbWidgetTest.picture()")
	evalJS("tnbWidgetTest.slide(6), ''")
	beforeJS, _ := json.Marshal(before)
	poll(`tnbWidgetTest.picture() !== "" && tnbWidgetTest.picture() !== `+string(beforeJS), "moving the slider did not redraw the picture")

	run(1)
	poll(`tnbWidgetTest.label() === "click me"`, "the button is not drawn")
	evalJS("tnbWidgetTest.click(), ''")
	poll(`tnbWidgetTest.label() === "clicked 1"`, "a click did not run the button's callback")

	browsertest.SaveScreenshot(t, ctx, filepath.Join("lab", "widgets-kernel.png"))
	if e := errs.All(); len(e) > 0 {
		t.Errorf("JavaScript errors on the page:\n%s", strings.Join(e, "\n"))
	}
}
