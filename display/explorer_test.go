//go:build !js

package display_test

import (
	"context"
	"fmt"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/tensornb/tensornb/display"
	"github.com/tensornb/tensornb/tensor"
)

// explorerCase is one mode of an explorer, with the tensor it shows made
// here with package tensor as the article makes it.
type explorerCase struct {
	key    string         // the mode's data-mode
	x      *tensor.Tensor // the tensor shown
	buffer string         // the buffer x reads
	from   *tensor.Tensor // for a copy, the view of A its values came from
	scan   string         // the pattern a scan reports
}

// explorerCases returns the modes of the explorer of a, whose own scan
// reports baseScan.
func explorerCases(a *tensor.Tensor, baseScan string) []explorerCase {
	t := a.T()
	return []explorerCase{
		{"base", a, "A", nil, baseScan},
		{"transpose", t, "A", nil, "jumps"},
		{"slice", a.Slice(1, 1, tensor.End, 2), "A", nil, "jumps"},
		{"expand", a.Select(0, 0).Expand(a.Size(0), a.Size(1)), "A", nil, "repeats"},
		{"copy", t.Contiguous(), "B", t, "steps"},
	}
}

func TestExplorerGolden(t *testing.T) {
	b := display.Explorer(tensor.Float32.Arange(12).View(3, 4)).Bundle()
	for ext, mime := range map[string]string{"txt": display.MIMEPlain, "svg": display.MIMESVG} {
		checkGolden(t, filepath.Join("testdata", "golden", "explorer."+ext), b[mime])
	}
}

func TestExplorerForms(t *testing.T) {
	for name, a := range map[string]*tensor.Tensor{
		"article":   tensor.Float32.Arange(12).View(3, 4),
		"crop":      tensor.Arange(30).View(5, 6).Index("1:4, 1:5"),
		"transpose": tensor.Arange(12).View(4, 3).T(),
		"16x16":     tensor.Randn(16, 16),
		"bool":      tensor.Arange(6).View(2, 3).Gt(2),
	} {
		b := display.Explorer(a).Bundle()
		checkForms(t, name, b)
		html := b[display.MIMEHTML]
		if strings.Contains(html, "http://") || strings.Contains(html, "https://") {
			t.Errorf("%s: the HTML holds a URL", name)
		}
		if n := strings.Count(html, "</script"); n != 1 {
			t.Errorf("%s: the HTML closes %d script elements, want the explorer's one", name, n)
		}
		for _, mime := range []string{display.MIMEPlain, display.MIMEHTML, display.MIMESVG} {
			if b[mime] == "" {
				t.Errorf("%s: no %s form", name, mime)
			}
		}
	}
}

// Every bundle is a new explorer on the page, with an id of its own.
func TestExplorerIDsDiffer(t *testing.T) {
	e := display.Explorer(tensor.Arange(12).View(3, 4))
	first, second := liveID(t, e.Bundle()[display.MIMEHTML]), liveID(t, e.Bundle()[display.MIMEHTML])
	if first == second {
		t.Fatalf("two bundles of one explorer share the id %s", first)
	}
}

// When a.T is already contiguous, contiguous() copies nothing and the
// copy mode reads A.
func TestExplorerCopyOfContiguousTranspose(t *testing.T) {
	text := display.Explorer(tensor.Arange(12).View(4, 3).T()).Bundle()[display.MIMEPlain]
	for _, want := range []string{
		"as given: a (3,4):(1,3), offset 0, not contiguous, reads A",
		"contiguous copy: a.T.contiguous() (4,3):(3,1), offset 0, contiguous, reads A\na.T is already contiguous",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the text form lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "B:") {
		t.Errorf("the text form draws a buffer B though nothing was copied:\n%s", text)
	}
}

// unnamedA finds where an explorer calls its matrix a (a.T, a[0], a's, a
// has, a (3,4):(4,1)), not where a is an article (a step, a 3×4 matrix).
var unnamedA = regexp.MustCompile(`\ba(\.|\[|'s|,| is | has | \()`)

// A Named explorer calls the matrix by its name wherever an unnamed one
// calls it a: title, expressions, sentences, text form, still picture.
func TestNamedExplorer(t *testing.T) {
	x := tensor.Float32.Arange(12).View(3, 4)
	if n := len(unnamedA.FindAllString(display.Explorer(x).Bundle()[display.MIMEPlain], -1)); n < 9 {
		t.Fatalf("the unnamed explorer's text form calls its matrix a only %d times; the pattern is wrong", n)
	}
	b := display.Named{Name: longName, Tensor: x}.Explorer().Bundle()
	checkForms(t, "named explorer", b)
	checkLegible(t, "named explorer", b[display.MIMESVG])
	text, svg, page := b[display.MIMEPlain], strings.ReplaceAll(b[display.MIMESVG], "&#39;", "'"), b[display.MIMEHTML]
	_, data, _ := strings.Cut(page, `", {"buffers"`)
	for _, f := range []struct {
		name, form string
		wants      []string
	}{
		{"text", text, []string{"Explorer of " + longName + ", a 3×4 float32 matrix over storage A:", "A: the storage of " + longName + ", 12 slots",
			"contiguous: " + longName + " (3,4):(4,1)", "transpose: " + longName + ".T (4,3):(1,4)", "stepped slice: " + longName + "[:, 1::2] (3,2):(4,2)",
			"expand: " + longName + "[0].expand(3, 4) (3,4):(0,1)", "contiguous copy: " + longName + ".T.contiguous() (4,3):(3,1)",
			"that " + longName + ".T reads at the same position", "copied from the A slots that " + longName + ".T reads:"}},
		{"SVG", svg, []string{"Explorer of " + longName + ", (3,4):(4,1)", "storage of " + longName + ": 12 × float32 (48 bytes); " + longName + "'s 12 elements"}},
		{"script's data", data, []string{`"expr":"` + longName + `.T"`, `"expr":"` + longName + `[:, 1::2]"`, `"title":"A: the storage of ` + longName + `, 12 slots"`}},
		{"HTML", page, []string{`alt="Explorer of ` + longName + `, (3,4):(4,1)"`, "explore " + longName + "&#39;s other layouts."}},
	} {
		for _, want := range f.wants {
			if !strings.Contains(f.form, want) {
				t.Errorf("the named explorer's %s does not say %q", f.name, want)
			}
		}
		if m := unnamedA.FindAllString(f.form, -1); len(m) > 0 {
			t.Errorf("the named explorer's %s still calls its matrix a: %q", f.name, m)
		}
	}
	why := display.Named{Name: "big", Tensor: tensor.Zeros(17, 3)}.Explorer().Bundle()[display.MIMEPlain]
	if want := "and big has shape (17, 3); a larger matrix can be explored through a slice, such as big.Index"; !strings.Contains(why, want) {
		t.Errorf("a named refusal says %q, want %q", why, want)
	}
	noName := display.Named{Tensor: x}.Explorer().Bundle()[display.MIMEPlain]
	if noName != display.Explorer(x).Bundle()[display.MIMEPlain] {
		t.Errorf("an explorer with no name is not the unnamed one:\n%s", noName)
	}
}

func TestExplorerRefusals(t *testing.T) {
	err := tensor.Try(func() { display.Explorer(tensor.Arange(24).View(2, 3, 4)).Bundle() })
	if err == nil || !strings.Contains(err.Error(), "explorer expects a matrix (a 2-D tensor), got a tensor of shape (2, 3, 4)") {
		t.Errorf("the explorer of a 3-D tensor: %v", err)
	}
	for name, c := range map[string]struct {
		a    *tensor.Tensor
		want string
	}{
		"too big":   {tensor.Zeros(17, 3), "The explorer draws matrices of 2 to 16 rows and columns, and a has shape (17, 3)"},
		"one row":   {tensor.Zeros(1, 5), "The explorer draws matrices of 2 to 16 rows and columns, and a has shape (1, 5)"},
		"big store": {tensor.Zeros(40, 40).Index(":3, :3"), "The explorer draws storages of at most 256 slots, and a is a view into one of 1600"},
	} {
		b := display.Explorer(c.a).Bundle()
		checkForms(t, name, b)
		if !strings.HasPrefix(b[display.MIMEPlain], c.want) || !strings.Contains(b[display.MIMEHTML], c.want) {
			t.Errorf("%s: the explorer says %q", name, b[display.MIMEPlain])
		}
		if strings.Contains(b[display.MIMEHTML], "<script") {
			t.Errorf("%s: a refusal carries a script", name)
		}
	}
}

// explorerState is what an explorer in the page shows.
type explorerState struct {
	Ready    bool     `json:"ready"`
	Fallback bool     `json:"fallback"` // the text shown before the script runs is still there
	Mode     string   `json:"mode"`
	Cells    []string `json:"cells"` // data-index of the highlighted cells
	Slots    []string `json:"slots"` // buffer:slot of the highlighted slots
	From     []string `json:"from"`  // buffer:slot of the slots a copy came from
	Read     string   `json:"read"`
	Formula  string   `json:"formula"`
	Scan     string   `json:"scan"`
	Verdict  string   `json:"verdict"`
	Trail    []string `json:"trail"` // the slots a scan has read
}

const explorerStateJS = `(function (root) {
  function slots(sel) {
    return Array.from(root.querySelectorAll(sel), function (s) {
      return s.closest(".tx-buffer").getAttribute("data-buffer") + ":" + s.getAttribute("data-slot");
    });
  }
  function text(sel) { const n = root.querySelector(sel); return n ? n.textContent : ""; }
  return {
    ready: root.hasAttribute("data-ready"),
    fallback: root.querySelector(".tx-fallback") !== null,
    mode: root.getAttribute("data-mode") || "",
    cells: Array.from(root.querySelectorAll(".tx-cell.tx-on"), function (c) { return c.getAttribute("data-index"); }),
    slots: slots(".tx-slot.tx-on"),
    from: slots(".tx-slot.tx-from"),
    read: text(".tx-read-line"),
    formula: text(".tx-formula"),
    scan: root.getAttribute("data-scan") || "",
    verdict: text(".tx-verdict"),
    trail: Array.from(root.querySelectorAll(".tx-trail .tx-chip"), function (c) { return c.textContent; })
  };
})(document.getElementById(%q))`

// explorerStateOf reads what the explorer with the given id shows.
func explorerStateOf(t *testing.T, ctx context.Context, id string) explorerState {
	t.Helper()
	return evaluate[explorerState](t, ctx, fmt.Sprintf(explorerStateJS, id))
}

// checkExplorerCell clicks the cell idx of the mode shown and checks the slot
// highlighted and the formula against package tensor's Address.
func checkExplorerCell(t *testing.T, ctx context.Context, id string, m explorerCase, idx []int) {
	t.Helper()
	i, j := idx[0], idx[1]
	click(t, ctx, fmt.Sprintf(`#%s .tx-cell[data-index="%d,%d"]`, id, i, j))
	s := explorerStateOf(t, ctx, id)
	addr := m.x.Address(i, j)
	where := fmt.Sprintf("explorer %s, mode %s, cell [%d, %d]", id, m.key, i, j)
	if want := []string{fmt.Sprintf("%d,%d", i, j)}; !slices.Equal(s.Cells, want) {
		t.Errorf("%s: highlighted cells %q, want %q", where, s.Cells, want)
	}
	if want := []string{fmt.Sprintf("%s:%d", m.buffer, addr)}; !slices.Equal(s.Slots, want) {
		t.Errorf("%s: highlighted slots %q, want %q (Address)", where, s.Slots, want)
	}
	formula := fmt.Sprintf("%d + %d·%d + %d·%d = %d", m.x.StorageOffset(), i, m.x.Stride(0), j, m.x.Stride(1), addr)
	if s.Formula != formula {
		t.Errorf("%s: formula %q, want %q", where, s.Formula, formula)
	}
	var from []string
	if m.from != nil {
		from = []string{fmt.Sprintf("A:%d", m.from.Address(i, j))}
	}
	if !slices.Equal(s.From, from) {
		t.Errorf("%s: slots marked as copied from %q, want %q", where, s.From, from)
	}
}

// runExplorerScan scans the mode shown with no delay between steps, waits for
// the verdict and checks it and the trail of slots read.
func runExplorerScan(t *testing.T, ctx context.Context, id string, m explorerCase) explorerState {
	t.Helper()
	scanToEnd(t, ctx, id, "#"+id+" .tx-scan")
	s := explorerStateOf(t, ctx, id)
	if s.Scan != m.scan {
		t.Errorf("explorer %s, mode %s: the scan reports %q, want %q", id, m.key, s.Scan, m.scan)
	}
	var trail []string
	for i := range m.x.Size(0) {
		for j := range m.x.Size(1) {
			trail = append(trail, fmt.Sprint(m.x.Address(i, j)))
		}
	}
	if !slices.Equal(s.Trail, trail) {
		t.Errorf("explorer %s, mode %s: the scan read %q, want %q", id, m.key, s.Trail, trail)
	}
	return s
}

// exploreAllModes selects every mode of an explorer, clicks cells and scans.
func exploreAllModes(t *testing.T, ctx context.Context, id string, modes []explorerCase) {
	t.Helper()
	for _, m := range modes {
		click(t, ctx, fmt.Sprintf(`#%s .tx-mode[data-mode="%s"]`, id, m.key))
		if s := explorerStateOf(t, ctx, id); s.Mode != m.key {
			t.Errorf("explorer %s shows mode %q after its %s button was clicked", id, s.Mode, m.key)
		}
		rows, cols := m.x.Size(0), m.x.Size(1)
		for _, idx := range [][]int{{0, 1}, {1, 0}, {rows - 1, cols - 1}} {
			checkExplorerCell(t, ctx, id, m, idx)
		}
		runExplorerScan(t, ctx, id, m)
	}
}

func TestExplorerInBrowser(t *testing.T) {
	ctx := browser(t)
	a1 := tensor.Float32.Arange(12).View(3, 4)
	a2 := tensor.Arange(30).View(5, 6).Index("1:4, 1:5") // a crop: offset 7, strides (6, 1)
	e1, e2 := display.Explorer(a1).Bundle()[display.MIMEHTML], display.Explorer(a2).Bundle()[display.MIMEHTML]
	id1, id2 := liveID(t, e1), liveID(t, e2)
	page := pageOf(e1, display.Layout(a1.T()).Bundle()[display.MIMEHTML], e2, display.Grid(a2).Bundle()[display.MIMEHTML])
	errs := openPage(t, ctx, page)

	for _, id := range []string{id1, id2} {
		s := explorerStateOf(t, ctx, id)
		if !s.Ready || s.Fallback || s.Mode != "base" {
			t.Fatalf("explorer %s did not start: %+v", id, s)
		}
	}

	// The article's examples, word for word.
	modes1 := explorerCases(a1, "steps")
	click(t, ctx, "#"+id1+` .tx-mode[data-mode="slice"]`)
	click(t, ctx, "#"+id1+` .tx-cell[data-index="1,0"]`)
	if s := explorerStateOf(t, ctx, id1); s.Formula != "1 + 1·4 + 0·2 = 5" || s.Read != "a[:, 1::2][1, 0] reads A[5] (value 5.)" {
		t.Errorf("a[:, 1::2][1, 0]: %q and %q", s.Read, s.Formula)
	}
	click(t, ctx, "#"+id1+` .tx-mode[data-mode="transpose"]`)
	if s := explorerStateOf(t, ctx, id1); s.Read != "a.T[1, 0] reads A[1] (value 1.)" {
		t.Errorf("switching to the transpose kept [1, 0] selected? %q", s.Read)
	}
	click(t, ctx, "#"+id1+` .tx-cell[data-index="0,1"]`)
	if s := explorerStateOf(t, ctx, id1); s.Read != "a.T[0, 1] reads A[4] (value 4.)" || s.Formula != "0 + 0·1 + 1·4 = 4" {
		t.Errorf("a.T[0, 1]: %q and %q", s.Read, s.Formula)
	}
	if s := runExplorerScan(t, ctx, id1, modes1[1]); s.Verdict != "Jumps: the reads skip through storage by +4, -7 instead of moving one slot at a time." {
		t.Errorf("the transpose's verdict: %q", s.Verdict)
	}
	click(t, ctx, "#"+id1+` .tx-mode[data-mode="copy"]`)
	click(t, ctx, "#"+id1+` .tx-cell[data-index="0,1"]`)
	if s := explorerStateOf(t, ctx, id1); s.Read != "a.T.contiguous()[0, 1] reads B[1] (value 4.), copied from A[4]" ||
		s.Formula != "0 + 0·3 + 1·1 = 1" || !slices.Equal(s.Slots, []string{"B:1"}) || !slices.Equal(s.From, []string{"A:4"}) {
		t.Errorf("a.T.contiguous()[0, 1]: %+v", s)
	}

	// Clicks in explorer 1 leave explorer 2 as it was.
	click(t, ctx, "#"+id2+` .tx-mode[data-mode="expand"]`)
	click(t, ctx, "#"+id2+` .tx-cell[data-index="2,1"]`)
	before := explorerStateOf(t, ctx, id2)
	exploreAllModes(t, ctx, id1, modes1)
	if after := explorerStateOf(t, ctx, id2); !reflect.DeepEqual(after, before) {
		t.Errorf("explorer 2 changed while explorer 1 was used:\nbefore %+v\nafter  %+v", before, after)
	}
	exploreAllModes(t, ctx, id2, explorerCases(a2, "jumps"))

	// Explorers inserted as JupyterLab and Notebook 6 insert outputs start
	// and respond, and so do two views of one output in JupyterLab, which
	// share an id.
	insertInFrontEnds(t, ctx, display.Explorer(tensor.Arange(6).View(2, 3)).Bundle()[display.MIMEHTML],
		display.Explorer(tensor.Arange(6).View(2, 3)).Bundle()[display.MIMEHTML], "")
	click(t, ctx, `.lab-2 .tx-cell[data-index="1,2"]`)
	click(t, ctx, `.classic .tx-cell[data-index="1,1"]`)
	formulas := evaluate[[]string](t, ctx,
		`Array.from(document.querySelectorAll(".lab-1 .tx-formula, .lab-2 .tx-formula, .classic .tx-formula"), function (f) { return f.textContent; })`)
	if want := []string{"0 + 0·3 + 0·1 = 0", "0 + 1·3 + 2·1 = 5", "0 + 1·3 + 1·1 = 4"}; !slices.Equal(formulas, want) {
		t.Errorf("explorers inserted like JupyterLab (twice) and Notebook 6: formulas %q, want %q", formulas, want)
	}

	// A named explorer's script writes the name where it would write a, as
	// text: markup in the name is not markup in the page.
	named := display.Named{Name: "y<b>", Tensor: tensor.Arange(6).View(2, 3)}.Explorer().Bundle()[display.MIMEHTML]
	insertLikeFrontEnd(t, ctx, named, "lab", "named")
	namedID := liveID(t, named)
	click(t, ctx, "#"+namedID+` .tx-mode[data-mode="transpose"]`)
	click(t, ctx, "#"+namedID+` .tx-cell[data-index="2,1"]`)
	if s := explorerStateOf(t, ctx, namedID); s.Read != "y<b>.T[2, 1] reads A[5] (value 5)" {
		t.Errorf("the named explorer's transpose, cell [2, 1]: %q", s.Read)
	}
	labels := evaluate[[]string](t, ctx, fmt.Sprintf(
		`(function (r) { return [r.querySelector(".tx-head").textContent, r.querySelector(".tx-buffer-title").textContent, String(r.querySelectorAll("b").length)]; })(document.getElementById(%q))`, namedID))
	if want := []string{"y<b>.T: layout (3,2):(1,3), offset 0, not contiguous, reads A", "A: the storage of y<b>, 6 slots", "0"}; !slices.Equal(labels, want) {
		t.Errorf("the named explorer's heading, storage title and <b> elements: %q, want %q", labels, want)
	}

	// Leave the article's copy mode and an expand scan on screen.
	click(t, ctx, "#"+id1+` .tx-mode[data-mode="copy"]`)
	click(t, ctx, "#"+id1+` .tx-cell[data-index="0,1"]`)
	click(t, ctx, "#"+id2+` .tx-mode[data-mode="expand"]`)
	runExplorerScan(t, ctx, id2, explorerCases(a2, "jumps")[3])
	savePageShot(t, ctx, "explorer.png")
	checkNoJSErrors(t, errs)
}
