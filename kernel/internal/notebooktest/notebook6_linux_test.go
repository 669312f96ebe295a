package notebooktest

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"math"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/tensornb/tensornb/internal/browsertest"
	"github.com/tensornb/tensornb/internal/nbformat"
	"github.com/tensornb/tensornb/kernel/internal/jupytertest"
)

// TestNotebook6Untrusted opens every saved notebook, without running it,
// in the real classic Notebook 6 UI (Debian's jupyter-notebook) as someone
// who has just downloaded it does: the notebook is not trusted, so
// Notebook sanitizes the HTML of its outputs and will not show SVG. Every
// picture must still be laid out there, not read as run-on text:
//
//   - each known label of the picture (the texts of its SVG form, or the
//     names in a lineage) is drawn on its own, as an element or text of its
//     own in the page or as a text of an SVG image;
//   - no two drawn labels overlap, and each lies inside the output area;
//   - the picture's colours (the fills of its SVG form's boxes) are painted
//     in the output;
//   - the page raises no JavaScript errors.
//
// Full-page screenshots go to artifacts/notebook6/.
func TestNotebook6Untrusted(t *testing.T) {
	jupytertest.Require(t, "notebook")
	env := jupytertest.Install(t)
	dir := t.TempDir()
	paths := notebookPaths(t)
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(p)), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	server := startNotebook6(t, env, dir)
	for _, p := range paths {
		name := filepath.Base(p)
		t.Run(strings.TrimSuffix(name, ".ipynb"), func(t *testing.T) {
			checkNotebook6(t, server, name, pictures(t, readNotebook(t, p)))
		})
	}
}

// checkNotebook6 opens the notebook name on the server and checks each of
// its pictures.
func checkNotebook6(t *testing.T, server notebook6, name string, pics []picture) {
	ctx := browsertest.StartUntilDeadline(t)
	errs := server.open(t, ctx, name)
	t.Cleanup(func() { server.shutDownKernels(t) })
	trust, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById("notification_trusted").textContent.trim() + " / " + Jupyter.notebook.trusted`))
	if err != nil {
		t.Fatal(err)
	}
	if trust != "Not Trusted / false" {
		t.Fatalf("the notebook should open untrusted, as a downloaded notebook does; Notebook shows %q", trust)
	}
	shot := fullScreenshot(t, ctx)
	browsertest.SaveArtifact(t, filepath.Join("notebook6", strings.TrimSuffix(name, ".ipynb")+".png"), shot)
	page, err := png.Decode(bytes.NewReader(shot))
	if err != nil {
		t.Fatal(err)
	}
	for _, pic := range pics {
		checkPicture(t, ctx, page, pic)
	}
	if e := errs.All(); len(e) > 0 {
		t.Errorf("JavaScript errors on the page:\n%s", strings.Join(e, "\n"))
	}
}

// A picture is a display or a result in a saved notebook that draws
// something, with what must be seen of it.
type picture struct {
	cell, output int // the cell's index in the notebook, the output's in the cell
	kind         string
	labels       []string // texts that must each be drawn on their own
	colours      []colour // colours that must be painted, where they lie on screen
	pngSVG       string   // the SVG form its PNG form was drawn from, or ""
}

func (p picture) String() string {
	return fmt.Sprintf("cell %d, output %d (%s)", p.cell, p.output, p.kind)
}

var (
	showCall    = regexp.MustCompile(`display\.Show\((?:display\.(\w+)|(\w+))`)
	mermaidNode = regexp.MustCompile(`\["([^"<]+)<br>`)
	svgInHTML   = regexp.MustCompile(`(?s)<svg.*?</svg>`)
	spaces      = regexp.MustCompile(`\s+`)
)

// pictures lists the notebook's pictures: every display or result with an
// SVG form, an SVG inside its HTML, or a Mermaid form. Each takes the
// kind of the display.Show call it comes from, in the order of the cell's
// calls, or "result" for a cell's value.
func pictures(t *testing.T, nb notebook) []picture {
	t.Helper()
	var pics []picture
	for i, c := range nb.Cells {
		src := nbformat.Text(c.Source)
		var kinds []string
		for _, m := range showCall.FindAllStringSubmatch(src, -1) {
			switch {
			case m[1] != "":
				kinds = append(kinds, m[1])
			case strings.Contains(src, "display.NewLineage"):
				kinds = append(kinds, "Lineage")
			default:
				kinds = append(kinds, m[2])
			}
		}
		shown := 0
		for j, o := range c.Outputs {
			if o.OutputType != "display_data" && o.OutputType != "execute_result" {
				continue
			}
			kind := "result"
			if o.OutputType == "display_data" {
				kind = "display"
				if shown < len(kinds) {
					kind = kinds[shown]
				}
				shown++
			}
			pic := picture{cell: i, output: j, kind: kind}
			svg := nbformat.Text(o.Data["image/svg+xml"])
			if nbformat.Text(o.Data["image/png"]) != "" {
				pic.pngSVG = svg // display's PNG shows its SVG (display's TestDiagramPNG checks that)
			}
			if svg == "" {
				svg = svgInHTML.FindString(nbformat.Text(o.Data["text/html"]))
			}
			switch mermaid := nbformat.Text(o.Data["text/vnd.mermaid"]); {
			case svg != "":
				var err error
				if pic.labels, pic.colours, err = readSVG(svg); err != nil {
					t.Fatalf("cell %d, output %d: its SVG: %v", i, j, err)
				}
			case mermaid != "":
				for _, m := range mermaidNode.FindAllStringSubmatch(mermaid, -1) {
					if !slices.Contains(pic.labels, m[1]) {
						pic.labels = append(pic.labels, m[1])
					}
				}
			default:
				continue
			}
			if len(pic.labels) == 0 {
				t.Fatalf("%v: no labels found in its forms", pic)
			}
			pics = append(pics, pic)
		}
	}
	return pics
}

// A colour a picture paints: its fill, and how that fill looks with its
// opacity over white (equal to the fill when it is opaque). A drawing may
// paint either.
type colour struct {
	fill, overWhite color.RGBA
	left            float64 // the x of the leftmost box of that colour, in the picture
}

func (c colour) String() string {
	return fmt.Sprintf("#%02x%02x%02x", c.fill.R, c.fill.G, c.fill.B)
}

// readSVG returns the distinct texts of an SVG picture's <text> elements
// (spaces collapsed), and the distinct colours of its <rect> boxes of at
// least 8×8 units filled with a colour that is not a grey.
func readSVG(svg string) (labels []string, colours []colour, err error) {
	d := xml.NewDecoder(strings.NewReader(svg))
	seenLabel := map[string]bool{}
	seenColour := map[[2]color.RGBA]int{} // the index of each colour in colours
	var text strings.Builder
	inText := 0
	for {
		tok, err := d.Token()
		if err == io.EOF {
			return labels, colours, nil
		}
		if err != nil {
			return nil, nil, err
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			if tok.Name.Local == "text" {
				inText++
				text.Reset()
			}
			if tok.Name.Local == "rect" {
				if c, ok := rectColour(tok.Attr); ok {
					if i, seen := seenColour[[2]color.RGBA{c.fill, c.overWhite}]; seen {
						colours[i].left = min(colours[i].left, c.left)
					} else {
						seenColour[[2]color.RGBA{c.fill, c.overWhite}] = len(colours)
						colours = append(colours, c)
					}
				}
			}
		case xml.CharData:
			if inText > 0 {
				text.Write(tok)
			}
		case xml.EndElement:
			if tok.Name.Local == "text" {
				inText--
				if l := collapse(text.String()); l != "" && !seenLabel[l] {
					seenLabel[l] = true
					labels = append(labels, l)
				}
			}
		}
	}
}

// collapse trims s and turns its runs of spaces into one space.
func collapse(s string) string {
	return strings.TrimSpace(spaces.ReplaceAllString(s, " "))
}

// rectColour returns the colour of a <rect> of at least 8×8 filled with an
// #rrggbb colour that is not a grey: greys (white too) are left out, as
// the page's own and the edges of black text on white are grey.
func rectColour(attrs []xml.Attr) (colour, bool) {
	var fill string
	var x, w, h float64
	opacity := 1.0
	for _, a := range attrs {
		switch a.Name.Local {
		case "fill":
			fill = strings.ToLower(a.Value)
		case "x":
			x, _ = strconv.ParseFloat(a.Value, 64)
		case "width":
			w, _ = strconv.ParseFloat(a.Value, 64)
		case "height":
			h, _ = strconv.ParseFloat(a.Value, 64)
		case "fill-opacity", "opacity":
			if o, err := strconv.ParseFloat(a.Value, 64); err == nil {
				opacity *= o
			}
		}
	}
	if w < 8 || h < 8 || len(fill) != 7 || fill[0] != '#' {
		return colour{}, false
	}
	rgb, err := hex.DecodeString(fill[1:])
	if err != nil || rgb[0] == rgb[1] && rgb[1] == rgb[2] {
		return colour{}, false
	}
	over := func(v byte) uint8 { return uint8(math.Round(float64(v)*opacity + 255*(1-opacity))) }
	return colour{
		fill:      color.RGBA{rgb[0], rgb[1], rgb[2], 255},
		overWhite: color.RGBA{over(rgb[0]), over(rgb[1]), over(rgb[2]), 255},
		left:      x,
	}, true
}

// A rendering is what notebook6.js measured of one output.
type rendering struct {
	Found   bool   `json:"found"`
	Classes string `json:"classes"`
	HTML    string `json:"html"`
	Area    *box   `json:"area"`
	Visible *box   `json:"visible"`
	Images  []struct {
		Src      string  `json:"src"`
		Loaded   bool    `json:"loaded"`
		W        float64 `json:"w"`
		NaturalW float64 `json:"naturalW"`
	} `json:"images"`
	Boxes   []box    `json:"boxes"`
	Missing []string `json:"missing"`
}

// A box is a rectangle of the page, in CSS pixels; Text names what is
// drawn in it.
type box struct {
	X    float64 `json:"x"`
	Y    float64 `json:"y"`
	W    float64 `json:"w"`
	H    float64 `json:"h"`
	Text string  `json:"text"`
}

func (b box) String() string {
	return fmt.Sprintf("%q at (%.0f, %.0f) %.0f×%.0f", b.Text, b.X, b.Y, b.W, b.H)
}

// overlaps reports whether a and b share more than a 2-pixel sliver.
func (b box) overlaps(o box) bool {
	return min(b.X+b.W, o.X+o.W)-max(b.X, o.X) > 2 && min(b.Y+b.H, o.Y+o.H)-max(b.Y, o.Y) > 2
}

// inside reports whether b lies within o, give or take a pixel.
func (b box) inside(o box) bool {
	return b.X >= o.X-1 && b.Y >= o.Y-1 && b.X+b.W <= o.X+o.W+1 && b.Y+b.H <= o.Y+o.H+1
}

// measureJS is testdata/notebook6.js, read once.
var measureJS string

// checkPicture measures how Notebook drew pic and checks that it is laid
// out; page is a screenshot of the whole page.
func checkPicture(t *testing.T, ctx context.Context, page image.Image, pic picture) {
	t.Helper()
	if measureJS == "" {
		data, err := os.ReadFile(filepath.Join("testdata", "notebook6.js"))
		if err != nil {
			t.Fatal(err)
		}
		// An expression, which Prettier ends with a semicolon, as a statement.
		measureJS = strings.TrimSuffix(strings.TrimSpace(string(data)), ";")
	}
	labels, _ := json.Marshal(pic.labels)
	pngSVG, _ := json.Marshal(pic.pngSVG)
	js := fmt.Sprintf("(%s)(%d, %d, %s, %s)", measureJS, pic.cell, pic.output, labels, pngSVG)
	r, err := chromedp.Run(ctx, chromedp.Evaluate[rendering](js))
	if err != nil {
		t.Fatalf("%v: measuring it: %v", pic, err)
	}
	if !r.Found {
		t.Errorf("%v: Notebook shows no output area for it", pic)
		return
	}
	var problems []string
	for _, img := range r.Images {
		if !img.Loaded {
			problems = append(problems, fmt.Sprintf("an image (%s...) did not load", img.Src))
		}
		if img.W < img.NaturalW-1 {
			problems = append(problems, fmt.Sprintf("an image (%s...) of %.0f pixels is shrunk to %.0f", img.Src, img.NaturalW, img.W))
		}
	}
	if len(r.Missing) > 0 {
		problems = append(problems, fmt.Sprintf("%d of its %d labels are not drawn on their own: %s", len(r.Missing), len(pic.labels), quoteSome(r.Missing)))
	}
	for i, b := range r.Boxes {
		if !b.inside(*r.Area) {
			problems = append(problems, fmt.Sprintf("label %v lies outside the output area %v", b, *r.Area))
		}
		for _, o := range r.Boxes[i+1:] {
			if b.overlaps(o) {
				problems = append(problems, fmt.Sprintf("labels %v and %v overlap", b, o))
			}
		}
	}
	var painted, unpainted, scrolledAway []string
	for _, c := range pic.colours {
		// A picture wider than the output scrolls: a colour whose boxes
		// all lie past the visible width is not on the screenshot.
		if c.left > r.Visible.W-16 {
			scrolledAway = append(scrolledAway, c.String())
			continue
		}
		if countColour(page, *r.Visible, c) >= 16 {
			painted = append(painted, c.String())
		} else {
			unpainted = append(unpainted, c.String())
		}
	}
	if len(unpainted) > 0 {
		problems = append(problems, fmt.Sprintf("colours not painted: %s (painted: %s)", strings.Join(unpainted, " "), strings.Join(painted, " ")))
	}
	t.Logf("%v: shown as %q; %d of %d labels drawn on their own; colours painted %d of %d (%d scrolled out of view); %d images; HTML starts %q",
		pic, r.Classes, len(pic.labels)-len(r.Missing), len(pic.labels), len(painted), len(pic.colours), len(scrolledAway), len(r.Images), r.HTML[:min(len(r.HTML), 120)])
	if len(problems) > 0 {
		t.Errorf("%v is not laid out in untrusted Notebook 6 (shown as %q):\n  %s", pic, r.Classes, strings.Join(problems, "\n  "))
	}
}

// quoteSome quotes the first few of list.
func quoteSome(list []string) string {
	const most = 6
	var q []string
	for i, s := range list {
		if i == most {
			q = append(q, fmt.Sprintf("and %d more", len(list)-most))
			break
		}
		q = append(q, strconv.Quote(s))
	}
	return strings.Join(q, ", ")
}

// countColour counts the pixels of img within the box b (CSS pixels, at a
// device scale of 1) painted in c, as its fill or its fill over white,
// give or take 1 in each channel for rounding.
func countColour(img image.Image, b box, c colour) int {
	near := func(p, q color.RGBA) bool {
		d := func(x, y uint8) bool { return max(x, y)-min(x, y) <= 1 }
		return d(p.R, q.R) && d(p.G, q.G) && d(p.B, q.B)
	}
	area := image.Rect(int(b.X), int(b.Y), int(b.X+b.W), int(b.Y+b.H)).Intersect(img.Bounds())
	n := 0
	for y := area.Min.Y; y < area.Max.Y; y++ {
		for x := area.Min.X; x < area.Max.X; x++ {
			p := color.RGBAModel.Convert(img.At(x, y)).(color.RGBA)
			if near(p, c.fill) || near(p, c.overWhite) {
				n++
			}
		}
	}
	return n
}

// fullScreenshot makes the browser window as tall as the notebook, so that
// Notebook's scrolling panel shows every cell at once, and takes a
// screenshot of it.
func fullScreenshot(t *testing.T, ctx context.Context) []byte {
	t.Helper()
	const height = `Math.ceil(document.getElementById("header").getBoundingClientRect().height + document.getElementById("notebook").scrollHeight + 20)`
	h, err := chromedp.Run(ctx, chromedp.Evaluate[int64](height))
	if err != nil {
		t.Fatal(err)
	}
	const shown = `(function () { var s = document.getElementById("site"); return s.scrollHeight <= s.clientHeight + 1; })()`
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1280, h), chromedp.Poll[chromedp.Void](shown)); err != nil {
		t.Fatalf("making the window %d pixels tall: %v", h, err)
	}
	shot, err := chromedp.Run(ctx, chromedp.FullScreenshot(100)) // PNG
	if err != nil {
		t.Fatal(err)
	}
	return shot
}

// notebook6 is a Jupyter server started for a test: Notebook 6's, or
// the jupyter_server that serves JupyterLab (startJupyterLab).
type notebook6 struct {
	url   string // with a trailing slash
	token string
}

// serverHangAfter bounds the waits for the Notebook server to start and to
// stop on SIGTERM. It takes seconds, on a loaded machine tens of them;
// only a server that never starts or stops takes minutes, so the bound is
// no timing assertion.
const serverHangAfter = 5 * time.Minute

// startNotebook6 starts Debian's classic Notebook server on a free
// loopback port, with a token, serving dir, and stops it when the test
// ends. Its home, config, data and runtime directories are fresh, so no
// notebook is trusted and no settings of the machine's apply; env points
// it at the installed tensornb kernel.
func startNotebook6(t *testing.T, env []string, dir string) notebook6 {
	t.Helper()
	server, version := startServer(t, env, "Notebook", "nbserver", func(port int, token string) []string {
		return []string{jupytertest.Python, "-m", "notebook", "--no-browser", "--ip=127.0.0.1", "--port=" + strconv.Itoa(port), "--port-retries=0",
			"--NotebookApp.token=" + token, "--notebook-dir=" + dir}
	})
	if !strings.HasPrefix(version, "6.") {
		t.Fatalf("this test is for the classic Notebook 6; the server is Notebook %q", version)
	}
	t.Logf("Jupyter Notebook %s at %s", version, server.url)
	return server
}

// startServer starts a Jupyter server, whose command line argv gives,
// on a free loopback port with a token, as startNotebook6 describes,
// and returns it and the version its API gives. It waits for the file
// the server writes once it listens, info-PID.json in its runtime
// directory, and calls it what in errors.
func startServer(t *testing.T, env []string, what, info string, argv func(port int, token string) []string) (notebook6, string) {
	t.Helper()
	scratch := t.TempDir()
	var dirs []string
	for _, d := range []string{"home", "config", "data", "runtime"} {
		path := filepath.Join(scratch, d)
		if err := os.Mkdir(path, 0o755); err != nil {
			t.Fatal(err)
		}
		dirs = append(dirs, path)
	}
	secret := make([]byte, 16)
	if _, err := rand.Read(secret); err != nil {
		t.Fatal(err)
	}
	token := hex.EncodeToString(secret)
	port := freePort(t)
	args := argv(port, token)
	if os.Geteuid() == 0 {
		args = append(args, "--allow-root") // as CI containers run
	}
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Env = append(env, "HOME="+dirs[0], "JUPYTER_CONFIG_DIR="+dirs[1], "JUPYTER_DATA_DIR="+dirs[2], "JUPYTER_RUNTIME_DIR="+dirs[3])
	cmd.Env = append(cmd.Env, goCaches(t)...)
	var log bytes.Buffer
	cmd.Stdout, cmd.Stderr = &log, &log
	// Its own process group, to kill what is left of it; SIGTERM if the
	// test binary dies first.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGTERM}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	server := notebook6{url: fmt.Sprintf("http://127.0.0.1:%d/", port), token: token}
	t.Cleanup(func() {
		server.shutDownKernels(t)
		cmd.Process.Signal(syscall.SIGTERM) // the server shuts its kernels down and exits
		select {
		case <-exited:
		case <-time.After(serverHangAfter):
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			<-exited
			t.Errorf("the %s server did not stop on SIGTERM; killed it. Its log:\n%s", what, log.String())
		}
	})
	// The server writes its info file once it listens.
	infoFile := filepath.Join(dirs[3], fmt.Sprintf("%s-%d.json", info, cmd.Process.Pid))
	deadline := time.Now().Add(serverHangAfter)
	for {
		if _, err := os.Stat(infoFile); err == nil {
			break
		}
		select {
		case <-exited:
			t.Fatalf("the %s server exited:\n%s", what, log.String())
		case <-time.After(100 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("the %s server did not start in %v:\n%s", what, serverHangAfter, log.String())
		}
	}
	var status struct {
		Version string `json:"version"`
	}
	server.api(t, "GET", "api", &status)
	return server, status.Version
}

// goCaches returns the environment that keeps Go's build and module
// caches where this machine has them, for a server whose home is new: a
// user's kernel finds the cache that scripts/install warmed, and so the
// first cell that imports tensor does not build it again (30 s here,
// minutes on a loaded machine).
func goCaches(t *testing.T) []string {
	t.Helper()
	out, err := exec.Command("go", "env", "GOCACHE", "GOMODCACHE").Output()
	if err != nil {
		t.Fatalf("go env: %v", err)
	}
	dirs := strings.Fields(string(out))
	if len(dirs) != 2 {
		t.Fatalf("go env GOCACHE GOMODCACHE printed %q", out)
	}
	return []string{"GOCACHE=" + dirs[0], "GOMODCACHE=" + dirs[1]}
}

// freePort returns a loopback TCP port that is free now.
func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// api calls the server's REST API and decodes its JSON answer into out,
// unless out is nil.
func (s notebook6) api(t *testing.T, method, path string, out any) {
	t.Helper()
	req, err := http.NewRequest(method, s.url+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "token "+s.token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode/100 != 2 {
		t.Fatalf("%s %s: %s\n%s", method, path, resp.Status, body)
	}
	if out != nil {
		if err := json.Unmarshal(body, out); err != nil {
			t.Fatalf("%s %s: %v", method, path, err)
		}
	}
}

// shutDownKernels stops the kernels Notebook started for the notebooks it
// opened: it starts one for each, though nothing is run here.
func (s notebook6) shutDownKernels(t *testing.T) {
	var kernels []struct {
		ID string `json:"id"`
	}
	s.api(t, "GET", "api/kernels", &kernels)
	for _, k := range kernels {
		s.api(t, "DELETE", "api/kernels/"+k.ID, nil)
	}
}

// open opens the notebook name in the browser and waits until Notebook
// has loaded it and drawn its outputs; it returns the page's JavaScript
// errors.
func (s notebook6) open(t *testing.T, ctx context.Context, name string) *browsertest.Errors {
	t.Helper()
	errs := browsertest.OpenURL(t, ctx, s.url+"notebooks/"+name+"?token="+s.token)
	const loaded = `window.Jupyter && Jupyter.notebook && Jupyter.notebook._fully_loaded === true`
	if err := chromedp.Do(ctx, chromedp.Poll[chromedp.Void](loaded, chromedp.WithPollingTimeout(0))); err != nil {
		t.Fatalf("Notebook did not load %s: %v\nJavaScript errors: %s", name, err, strings.Join(errs.All(), "\n"))
	}
	return errs
}
