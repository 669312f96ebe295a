package display_test

import (
	"bytes"
	"encoding/base64"
	"encoding/xml"
	"flag"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/tensornb/tensornb/display"
	"github.com/tensornb/tensornb/internal/displaysink"
	"github.com/tensornb/tensornb/tensor"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden from the current output")

// The article examples the goldens draw.
func articleMatrix() *tensor.Tensor { return tensor.Float32.Arange(12).View(3, 4) }

// qkContracts are the article's two stories for two heads of two
// features.
var qkContracts = []tensor.Contract{tensor.InterleavedByHead(2, 2), tensor.BlockedByRole(2, 2)}

// goldenCases are small pictures whose every form is compared with a file.
func goldenCases() map[string]display.Renderer {
	a := articleMatrix()
	return map[string]display.Renderer{
		"strip_slice":       display.Strip(a.Index(":, 1::2")),
		"strip_expand":      display.Strip(tensor.Float32.Arange(3).View(3, 1).Expand(3, 4)),
		"grid_slice":        display.Grid(a.Index(":, 1::2")),
		"grid_scalar":       display.Grid(tensor.Scalar(3.5)),
		"grid_vector":       display.ValueGrid(tensor.Arange(5)),
		"offsets_transpose": display.OffsetGrid(tensor.Arange(24).View(2, 3, 4).Transpose(0, 1)),
		"card_transpose":    display.Card(tensor.Float32.Arange(24).View(2, 3, 4).Transpose(1, 2)),
		"layout_crop":       display.Layout(tensor.Arange(12).View(3, 4).Index("1:, 1:")),
		"views_article": display.Views(
			display.Named{Name: "a", Tensor: a},
			display.Named{Name: "a.T", Tensor: a.T()},
			display.Named{Name: "a[:, 1::2]", Tensor: a.Index(":, 1::2")},
			display.Named{Name: "a.T.contiguous()", Tensor: a.T().Contiguous()}),
		"broadcast_expand": display.Broadcast(tensor.Float32.Arange(3).View(3, 1).Expand(3, 4)),
		"packing_qk":       display.Packing(tensor.New([]float32{10, 11, 20, 21, 30, 31, 40, 41}), qkContracts...),
		"compare_stride": display.Compare(
			display.Named{Name: "expected", Tensor: a.Index(":, 1::2")},
			display.Named{Name: "yours", Tensor: a.AsStrided([]int{3, 2}, []int{4, 1}, 1)}),
	}
}

func TestGolden(t *testing.T) {
	for name, r := range goldenCases() {
		t.Run(name, func(t *testing.T) {
			b := r.Bundle()
			for ext, mime := range map[string]string{"txt": display.MIMEPlain, "svg": display.MIMESVG} {
				checkGolden(t, filepath.Join("testdata", "golden", name+"."+ext), b[mime])
			}
			if svg := htmlImage(t, b[display.MIMEHTML]); svg != b[display.MIMESVG] {
				t.Errorf("the HTML form's image is not the SVG picture:\n%s", svg)
			}
		})
	}
}

// htmlImagePattern finds an <img> with an SVG data URI in HTML.
var htmlImagePattern = regexp.MustCompile(`<img src="data:image/svg\+xml;base64,([A-Za-z0-9+/=]*)"`)

// htmlImage returns the SVG document that the HTML form shows as an image.
func htmlImage(t *testing.T, html string) string {
	t.Helper()
	m := htmlImagePattern.FindStringSubmatch(html)
	if m == nil {
		t.Fatalf("no SVG image in the HTML form:\n%.300s", html)
	}
	svg, err := base64.StdEncoding.DecodeString(m[1])
	if err != nil {
		t.Fatal(err)
	}
	return string(svg)
}

func checkGolden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./display -run Golden -update to write it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from the golden file; got:\n%s", path, got)
	}
}

// externalURL finds references a page would fetch: src=, href= and url()
// with http(s), and any http(s) URL other than an XML namespace.
var externalURL = regexp.MustCompile(`(?i)(src|href)\s*=\s*["']?\s*(https?:|//)|url\(\s*["']?https?:`)

// checkForms checks what every bundle must satisfy: a text form, SVG that
// parses as XML, HTML that fetches nothing, and a bounded size.
func checkForms(t *testing.T, name string, b display.Bundle) {
	t.Helper()
	if strings.TrimSpace(b[display.MIMEPlain]) == "" {
		t.Errorf("%s: empty text/plain form", name)
	}
	if svg, ok := b[display.MIMESVG]; ok {
		dec := xml.NewDecoder(strings.NewReader(svg))
		for {
			_, err := dec.Token()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Errorf("%s: the SVG is not well-formed XML: %v", name, err)
				break
			}
		}
	}
	for mime, content := range b {
		if externalURL.MatchString(content) {
			t.Errorf("%s: %s refers to an external URL: %s", name, mime, externalURL.FindString(content))
		}
		withoutNamespace := strings.ReplaceAll(content, `xmlns="http://www.w3.org/2000/svg"`, "")
		if strings.Contains(withoutNamespace, "http://") || strings.Contains(withoutNamespace, "https://") {
			t.Errorf("%s: %s contains a URL", name, mime)
		}
		if len(content) > 200_000 {
			t.Errorf("%s: %s is %d bytes, more than the 200 KB bound", name, mime, len(content))
		}
	}
}

func TestForms(t *testing.T) {
	for name, r := range goldenCases() {
		checkForms(t, name, r.Bundle())
	}
}

// Pictures of huge tensors are summarized and stay small, whatever the
// size of the tensor and of its storage.
func TestLargeTensorsAreSummarized(t *testing.T) {
	big := tensor.Float32.Arange(1000*1000).View(1000, 1000)
	huge := tensor.Scalar(1.5).Expand(100, 100, 100, 100)
	for name, r := range map[string]display.Renderer{
		"layout 1000x1000":     display.Layout(big),
		"views of 1000x1000":   display.Views(display.Named{Name: "big", Tensor: big}, display.Named{Name: "big.T", Tensor: big.T()}),
		"broadcast 1000x1000":  display.Broadcast(big.Index(":, 3:")),
		"layout 4-d broadcast": display.Layout(huge),
		"offsets 4-d":          display.OffsetGrid(huge),
		"broadcast 4-d":        display.Broadcast(huge),
		"strip of a slice":     display.Strip(big.Index("500:, 700:")),
	} {
		b := r.Bundle()
		checkForms(t, name, b)
		if !strings.Contains(b[display.MIMEPlain], "…") {
			t.Errorf("%s: no sign of summarizing in the text form", name)
		}
	}
}

func TestPackingRefusesMismatch(t *testing.T) {
	err := tensor.Try(func() { display.Packing(tensor.Arange(6), qkContracts...).Bundle() })
	if err == nil || !strings.Contains(err.Error(), "interleaved by head (h r d) packs 8 positions, but the axis has 6") {
		t.Fatalf("Packing of 6 values under an 8-position contract: %v", err)
	}
}

// recorder is a Sink that keeps what it is sent.
type recorder struct {
	bundles []display.Bundle
	ids     []string
	err     error
}

func (r *recorder) Display(b map[string]string, id string, _ bool) error {
	r.bundles, r.ids = append(r.bundles, display.Bundle(b)), append(r.ids, id)
	return r.err
}

func TestShowAndUpdateUseTheSink(t *testing.T) {
	rec := &recorder{}
	displaysink.Set(rec.Display)
	defer displaysink.Set(nil)
	x := articleMatrix()
	display.Show(display.Card(x))
	display.Update("layout", display.Grid(x))
	if len(rec.bundles) != 2 || rec.ids[0] != "" || rec.ids[1] != "layout" {
		t.Fatalf("sink got ids %q", rec.ids)
	}
	if rec.bundles[1][display.MIMEPlain] != display.Grid(x).Bundle()[display.MIMEPlain] {
		t.Fatal("the sink did not get the picture's bundle")
	}
}

// captureStdout runs f and returns what it printed.
func captureStdout(t *testing.T, f func()) string {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	saved := os.Stdout
	os.Stdout = w
	f()
	os.Stdout = saved
	w.Close()
	var buf bytes.Buffer
	if _, err := io.Copy(&buf, r); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

func TestShowPrintsTextOutsideANotebook(t *testing.T) {
	if os.Getenv("GONB_PIPE") != "" {
		t.Skip("running under GoNB")
	}
	x := articleMatrix()
	out := captureStdout(t, func() { display.Show(display.Card(x)) })
	if out != display.Card(x).Bundle()[display.MIMEPlain]+"\n" {
		t.Fatalf("Show printed %q", out)
	}
}

func TestFailingSinkLosesNoOutput(t *testing.T) {
	displaysink.Set((&recorder{err: io.ErrClosedPipe}).Display)
	defer displaysink.Set(nil)
	x := articleMatrix()
	out := captureStdout(t, func() { display.Show(display.Grid(x)) })
	if !strings.Contains(out, display.Grid(x).Bundle()[display.MIMEPlain]) {
		t.Fatalf("a failing sink lost the output: %q", out)
	}
}

// Views does bounded work: it compares the values of two copies, and
// walks the slots two views read, only for tensors of modest size, and
// says so otherwise.
func TestViewsBoundTheirWork(t *testing.T) {
	overlapping := func() *tensor.Tensor {
		return tensor.Arange(6000).AsStrided(tensor.Shape{1000, 1000, 1000}, tensor.Strides{1, 2, 3}, 0)
	}
	x := overlapping()
	text := display.Views(display.Named{Name: "x", Tensor: x}, display.Named{Name: "copy", Tensor: overlapping()},
		display.Named{Name: "x again", Tensor: x}).Bundle()[display.MIMEPlain]
	for _, want := range []string{
		"x and copy: separate storages (S1, S2): too many elements to compare their values",
		"x and x again: views of one storage (S1) whose spans overlap, with too many elements to tell whether they read the same slots",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("Views does not say %q:\n%s", want, text)
		}
	}
}

// Value gives the bundle Result sends for the same value.
func TestValueIsWhatResultShows(t *testing.T) {
	rec := &recorder{}
	displaysink.Set(rec.Display)
	defer displaysink.Set(nil)
	x := articleMatrix()
	for _, v := range []any{x, display.Card(x), "rows", 42, (*tensor.Tensor)(nil)} {
		rec.bundles = nil
		display.Result(v)
		got := display.Value(v).Bundle()
		if len(rec.bundles) != 1 || len(got) != len(rec.bundles[0]) {
			t.Fatalf("%T: Value gave %d forms, Result sent %v", v, len(got), rec.bundles)
		}
		for mime, text := range rec.bundles[0] {
			if got[mime] != text {
				t.Errorf("%T: Value's %s differs from Result's", v, mime)
			}
		}
	}
	if got := display.Value("rows").Bundle()[display.MIMEPlain]; got != `"rows"` {
		t.Errorf(`Value("rows") shows %s, want "rows" quoted`, got)
	}
}
