//go:build !js

package display_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/tensornb/tensornb/display"
	"github.com/tensornb/tensornb/tensor"
)

// playBases are tensors a playground starts from: the article's matrix,
// views that are not contiguous or start past slot 0, other ranks, other
// dtypes, and an expanded tensor.
func playBases() map[string]*tensor.Tensor {
	return map[string]*tensor.Tensor{
		"article":   tensor.Float32.Arange(12).View(3, 4),
		"transpose": tensor.Arange(12).View(4, 3).T(),
		"crop":      tensor.Arange(30).View(5, 6).Index("1:4, 1:5"),
		"vector":    tensor.Float64.Arange(8),
		"cube":      tensor.Arange(24).View(2, 3, 4),
		"4d":        tensor.Arange(16).View(2, 2, 2, 2),
		"expanded":  tensor.Arange(4).Expand(3, 4),
		"bool":      tensor.Arange(6).View(2, 3).Gt(2),
		"blank":     nil,
	}
}

// goLine evaluates a Go line the playground writes, a chain of method
// calls on x (or tensor.Arange) with integer, string and slice literal
// arguments, by reflection on package tensor: the line as a student would
// paste it, without an interpreter.
func goLine(t *testing.T, x *tensor.Tensor, name, line string) (y *tensor.Tensor, err error) {
	t.Helper()
	expr, perr := parser.ParseExpr(line)
	if perr != nil {
		t.Fatalf("the Go line %q does not parse: %v", line, perr)
	}
	funcs := map[string]reflect.Value{"Arange": reflect.ValueOf(tensor.Arange), "Cat": reflect.ValueOf(tensor.Cat)}
	var eval func(e ast.Expr) reflect.Value
	call := func(f reflect.Value, args []ast.Expr) reflect.Value {
		ft := f.Type()
		in := make([]reflect.Value, len(args))
		for i, a := range args {
			v := eval(a)
			want := ft.In(min(i, ft.NumIn()-1))
			if ft.IsVariadic() && i >= ft.NumIn()-1 {
				want = want.Elem()
			}
			in[i] = v.Convert(want)
		}
		out := f.Call(in)
		if len(out) != 1 {
			t.Fatalf("%q: a call returns %d values", line, len(out))
		}
		return out[0]
	}
	eval = func(e ast.Expr) reflect.Value {
		switch e := e.(type) {
		case *ast.Ident:
			if e.Name != name {
				t.Fatalf("%q: unknown name %s", line, e.Name)
			}
			return reflect.ValueOf(x)
		case *ast.BasicLit:
			switch e.Kind {
			case token.INT:
				v, _ := strconv.Atoi(e.Value)
				return reflect.ValueOf(v)
			case token.STRING:
				v, _ := strconv.Unquote(e.Value)
				return reflect.ValueOf(v)
			}
		case *ast.UnaryExpr:
			if e.Op == token.SUB {
				return reflect.ValueOf(-int(eval(e.X).Int()))
			}
		case *ast.CompositeLit:
			switch typ := e.Type.(*ast.ArrayType).Elt.(type) {
			case *ast.Ident: // []int
				var xs []int
				for _, el := range e.Elts {
					xs = append(xs, int(eval(el).Int()))
				}
				return reflect.ValueOf(xs)
			case *ast.StarExpr: // []*tensor.Tensor
				_ = typ
				var ts []*tensor.Tensor
				for _, el := range e.Elts {
					ts = append(ts, eval(el).Interface().(*tensor.Tensor))
				}
				return reflect.ValueOf(ts)
			}
		case *ast.CallExpr:
			sel := e.Fun.(*ast.SelectorExpr)
			if pkg, ok := sel.X.(*ast.Ident); ok && pkg.Name == "tensor" {
				return call(funcs[sel.Sel.Name], e.Args)
			}
			recv := eval(sel.X)
			m := recv.MethodByName(sel.Sel.Name)
			if !m.IsValid() {
				t.Fatalf("%q: no method %s", line, sel.Sel.Name)
			}
			return call(m, e.Args)
		}
		t.Fatalf("%q: cannot evaluate %T", line, e)
		return reflect.Value{}
	}
	err = tensor.Try(func() { y = eval(expr).Interface().(*tensor.Tensor) })
	return y, err
}

// checkPlayState checks what the playground of x says of layout l against
// package tensor: the slot of every position, the reads of every slot, the
// kind of layout, PyTorch's refusals word for word, and that the Go line
// makes exactly this layout (or fails as tensor's as_strided does).
func checkPlayState(t *testing.T, x *tensor.Tensor, name string, l display.PlayLayout, st display.PlayState) {
	t.Helper()
	where := fmt.Sprintf("layout %+v (%s)", l, st.Kind)
	called := name
	if called == "" {
		called = "x"
	}
	y, err := goLine(t, x, called, st.Go)
	negative := slices.ContainsFunc(l.Strides, func(s int) bool { return s < 0 })
	// Addresses and reads, by tensor where tensor can make the layout,
	// and by the formula where it cannot.
	n := 1
	for _, s := range l.Shape {
		n *= s
	}
	reads := make([]int, l.Storage)
	outside := false
	for k := range n {
		idx := make([]int, len(l.Shape))
		rest := k
		for d := len(l.Shape) - 1; d >= 0; d-- {
			idx[d] = rest % l.Shape[d]
			rest /= l.Shape[d]
		}
		addr := l.Offset
		for d, i := range idx {
			addr += i * l.Strides[d]
		}
		if err == nil {
			addr = y.Address(idx...)
		}
		if addr != st.Addresses[k] {
			t.Fatalf("%s: position %v reads slot %d, the playground says %d", where, idx, addr, st.Addresses[k])
		}
		if addr < 0 || addr >= l.Storage {
			if !outside && !slices.Equal(idx, st.Outside) {
				t.Errorf("%s: the first position outside is %v, the playground says %v", where, idx, st.Outside)
			}
			outside = true
			continue
		}
		reads[addr]++
	}
	if !outside && st.Outside != nil {
		t.Errorf("%s: the playground names %v outside, but every position is inside", where, st.Outside)
	}
	if !slices.Equal(reads, st.Reads) {
		t.Errorf("%s: reads %v, the playground says %v", where, reads, st.Reads)
	}
	shared := slices.ContainsFunc(reads, func(r int) bool { return r > 1 })
	var want string
	switch {
	case negative && !l.NumPy:
		want = "negative"
	case outside:
		want = "out-of-bounds"
	case shared:
		want = "overlapping"
	case playContiguous(l):
		want = "contiguous"
	case st.Op != "":
		want = "view"
	default:
		want = "strided"
	}
	if st.Kind != want {
		t.Errorf("%s: kind %q, want %q", where, st.Kind, want)
	}
	var terr *tensor.Error
	switch {
	case negative || outside && !l.NumPy:
		if !errors.As(err, &terr) {
			t.Fatalf("%s: the Go line %q does not fail (%v)", where, st.Go, err)
		}
		if !negative || !l.NumPy {
			if msg := "as_strided refuses it: RuntimeError: " + terr.Message; st.Detail != msg {
				t.Errorf("%s: the detail says\n%q\nand tensor says\n%q", where, st.Detail, msg)
			}
		}
		return
	case outside:
		if err == nil {
			t.Errorf("%s: the Go line %q makes a layout out of bounds", where, st.Go)
		}
		return
	}
	if err != nil {
		t.Fatalf("%s: the Go line %q fails: %v", where, st.Go, err)
	}
	if !slices.Equal(y.Shape(), l.Shape) || !slices.Equal(y.Strides(), l.Strides) || y.StorageOffset() != l.Offset || y.Storage().Len() != l.Storage {
		t.Errorf("%s: the Go line %q makes %v %v offset %d over %d slots", where, st.Go, y.Shape(), y.Strides(), y.StorageOffset(), y.Storage().Len())
	}
	if x != nil && l.Storage == x.Storage().Len() && !y.SharesStorage(x) {
		t.Errorf("%s: the Go line %q does not read x's storage", where, st.Go)
	}
	if shared {
		err := tensor.Try(func() { y.CopyFrom(y.Clone()) })
		if !errors.As(err, &terr) || !strings.HasSuffix(st.Detail, "RuntimeError: "+terr.Message) {
			t.Errorf("%s: CopyFrom says %v; the detail says %q", where, err, st.Detail)
		}
	}
}

// playContiguous asks tensor whether l is contiguous. A stride of a
// dimension of size 1 never takes effect: tensor, which has no negative
// strides, is asked with those strides 0.
func playContiguous(l display.PlayLayout) bool {
	strides := slices.Clone(l.Strides)
	for d, s := range l.Shape {
		if s == 1 {
			strides[d] = 0
		}
	}
	if slices.ContainsFunc(strides, func(s int) bool { return s < 0 }) {
		return false
	}
	var contiguous bool
	if err := tensor.Try(func() {
		contiguous = tensor.Zeros(1<<12).AsStrided(l.Shape, strides, 0).IsContiguous()
	}); err != nil {
		panic(err)
	}
	return contiguous
}

// playRandomLayout draws a setting within the controls' bounds: mostly
// small strides and offsets, so that every kind of layout comes up.
func playRandomLayout(rng *rand.Rand, storage int) display.PlayLayout {
	lim := display.PlayLimits
	l := display.PlayLayout{Storage: storage, NumPy: rng.IntN(4) == 0}
	if rng.IntN(3) == 0 {
		l.Storage = 1 + rng.IntN(lim[0])
	}
	dims := 1 + rng.IntN(lim[2])
	cells := 1
	for range dims {
		size := 1 + rng.IntN(min(6, lim[1]/cells))
		cells *= size
		stride := rng.IntN(9) - 1
		if rng.IntN(8) == 0 {
			stride = rng.IntN(2*lim[3]+1) - lim[3]
		}
		if !l.NumPy && rng.IntN(3) > 0 {
			stride = max(stride, 0)
		}
		l.Shape, l.Strides = append(l.Shape, size), append(l.Strides, stride)
	}
	l.Offset = rng.IntN(min(l.Storage+3, lim[4]+1))
	// Mostly, an offset that keeps every address inside the storage.
	lo, hi := 0, 0
	for d, size := range l.Shape {
		lo, hi = lo+min(0, (size-1)*l.Strides[d]), hi+max(0, (size-1)*l.Strides[d])
	}
	if span := hi - lo + 1; span <= l.Storage && rng.IntN(4) > 0 {
		l.Offset = -lo + rng.IntN(l.Storage-span+1)
	}
	return l
}

// playOpLayout makes a layout by a view op of x, in tensor, or reports
// false if the op drawn does not apply.
func playOpLayout(rng *rand.Rand, x *tensor.Tensor) (display.PlayLayout, string, bool) {
	r := x.Dim()
	var y *tensor.Tensor
	var what string
	randSlice := func(size int) string {
		start, step := rng.IntN(size), 1+rng.IntN(3)
		stop := start + 1 + rng.IntN(size-start)
		switch rng.IntN(4) {
		case 0:
			return ":"
		case 1:
			return fmt.Sprint(rng.IntN(size))
		case 2:
			return fmt.Sprintf("%d::%d", start, step)
		}
		return fmt.Sprintf("%d:%d:%d", start, stop, step)
	}
	err := tensor.Try(func() {
		switch rng.IntN(7) {
		case 0:
			what = "permute"
			perm := rng.Perm(r)
			y = x.Permute(perm...)
		case 1:
			parts := make([]string, r)
			for d := range r {
				parts[d] = randSlice(x.Size(d))
			}
			what = "index " + strings.Join(parts, ", ")
			y = x.Index(strings.Join(parts, ", "))
		case 2:
			d1, d2 := rng.IntN(r), rng.IntN(r)
			k := rng.IntN(5) - 2
			what = fmt.Sprintf("diagonal %d %d %d", k, d1, d2)
			y = x.Diagonal(k, d1, d2)
		case 3:
			what = "expand of a select"
			sizes := append([]int{2 + rng.IntN(3)}, x.Shape()[1:]...)
			y = x.Select(0, rng.IntN(x.Size(0))).Expand(sizes...)
		case 4:
			d := rng.IntN(r)
			size, step := 1+rng.IntN(x.Size(d)), 1+rng.IntN(x.Size(d))
			what = fmt.Sprintf("unfold %d %d %d", d, size, step)
			y = x.Unfold(d, size, step)
		case 5:
			what = "flat unfold"
			f := x.View(-1)
			size := 1 + rng.IntN(min(f.Size(0), 5))
			y = f.Unfold(0, size, 1+rng.IntN(size))
		case 6:
			what = "view"
			y = x.View(-1, x.Size(-1))
		}
	})
	if err != nil || y.Numel() == 0 || y.Numel() > display.PlayLimits[1] || y.Dim() == 0 || y.Dim() > display.PlayLimits[2] {
		return display.PlayLayout{}, "", false
	}
	return display.PlayLayout{Storage: x.Storage().Len(), Shape: y.Shape(), Strides: y.Strides(), Offset: y.StorageOffset()}, what, true
}

// The playground's arithmetic agrees with package tensor for thousands of
// random settings over every base, and names an op for the layouts view
// ops of x make.
func TestPlaygroundAgreesWithTensor(t *testing.T) {
	rng := rand.New(rand.NewPCG(16, 2))
	kinds, ops := map[string]int{}, map[string]int{}
	bases := playBases()
	names := slices.Sorted(maps.Keys(bases))
	for _, name := range names {
		x := bases[name]
		storage := 12
		if x != nil {
			storage = x.Storage().Len()
		}
		for range 600 {
			l := playRandomLayout(rng, storage)
			st := display.PlayClassify(x, "", l)
			checkPlayState(t, x, "", l, st)
			kinds[st.Kind]++
			ops[st.Op]++
		}
		if x == nil {
			continue
		}
		named, missed := 0, 0
		for range 400 {
			l, what, ok := playOpLayout(rng, x)
			if !ok {
				continue
			}
			st := display.PlayClassify(x, "", l)
			checkPlayState(t, x, "", l, st)
			named++
			if st.Op == "" {
				missed++
				t.Errorf("%s: %s makes %+v, and the playground names no op (%s)", name, what, l, st.Kind)
			}
		}
		t.Logf("%s: %d layouts made by ops, %d without a name", name, named, missed)
	}
	t.Logf("kinds of random settings: %v; ops: %v", kinds, ops)
}

// playDriveJS sets a playground's controls to a layout as a reader
// would: the rules button, add and remove buttons until the rank is
// right, every size to 1 (so no intermediate shape passes the bound on
// positions), then the storage length, the offset, and each size and
// stride, each typed value followed by its input and change events. It
// returns the element's data-state.
const playDriveJS = `(function (id, target) {
  const root = document.getElementById(id);
  function q(sel) {
    const n = root.querySelector(sel);
    if (!n) { throw new Error("no " + sel); }
    return n;
  }
  function type(sel, v) {
    const input = q(sel);
    input.value = String(v);
    input.dispatchEvent(new Event("input", { bubbles: true }));
    input.dispatchEvent(new Event("change", { bubbles: true }));
  }
  q('[data-rules="' + (target.numpy ? "numpy" : "pytorch") + '"]').click();
  let rank = root.querySelectorAll('input[data-field="size"]').length;
  for (; rank < target.shape.length; rank++) { q('[data-action="add"]').click(); }
  for (; rank > target.shape.length; rank--) { q('[data-remove="' + (rank - 1) + '"]').click(); }
  for (let d = 0; d < rank; d++) { type('input[data-field="size"][data-dim="' + d + '"]', 1); }
  type('input[data-field="storage"]', target.storage);
  type('input[data-field="offset"]', target.offset);
  target.shape.forEach(function (size, d) {
    type('input[data-field="size"][data-dim="' + d + '"]', size);
    type('input[data-field="stride"][data-dim="' + d + '"]', target.strides[d]);
  });
  return root.getAttribute("data-state");
})(%q, %s)`

// playPageState reads what a playground shows.
func playPageState(t *testing.T, ctx context.Context, id string) display.PlayState {
	t.Helper()
	return decodePlayState(t, evaluate[string](t, ctx, fmt.Sprintf(`document.getElementById(%q).getAttribute("data-state") || ""`, id)))
}

func decodePlayState(t *testing.T, raw string) display.PlayState {
	t.Helper()
	var st display.PlayState
	if err := json.Unmarshal([]byte(raw), &st); err != nil {
		t.Fatalf("the page's state %q: %v", raw, err)
	}
	return st
}

// samePlayState compares the page's state with Go's, as JSON.
func samePlayState(t *testing.T, where string, page, want display.PlayState) bool {
	t.Helper()
	a, _ := json.Marshal(page)
	b, _ := json.Marshal(want)
	if string(a) != string(b) {
		t.Errorf("%s: the page shows\n%s\nGo computes\n%s", where, a, b)
		return false
	}
	return true
}

// A playTarget is a playground on a test page and the tensor it starts
// from.
type playTarget struct {
	id   string
	x    *tensor.Tensor // nil for the blank playground
	base *tensor.Tensor // x, or the blank playground's arange
	name string
}

// drivePlayground sets a playground's controls to l and checks that it
// shows the layout and everything Go computes for it.
func drivePlayground(t *testing.T, ctx context.Context, p playTarget, l display.PlayLayout) display.PlayState {
	t.Helper()
	target, _ := json.Marshal(l)
	raw, err := chromedp.Run(ctx, chromedp.Evaluate[string](fmt.Sprintf(playDriveJS, p.id, target)))
	if err != nil {
		t.Fatalf("driving %s to %+v: %v", p.id, l, err)
	}
	page := decodePlayState(t, raw)
	want := display.PlayClassify(p.x, p.name, l)
	samePlayState(t, fmt.Sprintf("%s set to %+v", p.id, l), page, want)
	return page
}

// runPlayScan scans the layout shown with no delay between steps and
// checks the trail of slots and the verdict against Go's walk.
func runPlayScan(t *testing.T, ctx context.Context, id string, want display.PlayState) {
	t.Helper()
	scanToEnd(t, ctx, id, "#"+id+" .tp-scan")
	type scanned struct {
		Scan    string   `json:"scan"`
		Trail   []string `json:"trail"`
		Kinds   []string `json:"kinds"`
		Summary string   `json:"summary"`
	}
	got := evaluate[scanned](t, ctx, fmt.Sprintf(`(function (r) {
  const chips = Array.from(r.querySelectorAll(".tp-trail .tp-chip"));
  return { scan: r.getAttribute("data-scan"), trail: chips.map(function (c) { return c.textContent; }),
    kinds: chips.map(function (c) { return c.className.replace("tp-chip tp-step-", ""); }), summary: r.querySelector(".tp-summary").textContent };
})(document.getElementById(%q))`, id))
	var trail []string
	for _, a := range want.Addresses {
		trail = append(trail, strconv.Itoa(a))
	}
	if got.Scan != want.Scan || got.Summary != want.Summary || !slices.Equal(got.Trail, trail) || !slices.Equal(got.Kinds, want.Steps) {
		t.Errorf("%s: the scan shows %+v, want %s %q, trail %q, steps %q", id, got, want.Scan, want.Summary, trail, want.Steps)
	}
}

// playSetting draws one of the settings the browser test drives: a
// random one, one made by a view op of the base, or a preset with one
// control changed.
func playSetting(rng *rand.Rand, p playTarget, presets []display.PlayPreset) display.PlayLayout {
	storage := p.base.Storage().Len()
	switch rng.IntN(3) {
	case 0:
		for {
			if l, _, ok := playOpLayout(rng, p.base); ok {
				l.NumPy = rng.IntN(5) == 0
				return l
			}
		}
	case 1:
		l := presets[rng.IntN(len(presets))].Layout
		l.Shape, l.Strides = slices.Clone(l.Shape), slices.Clone(l.Strides)
		d := rng.IntN(len(l.Shape))
		switch rng.IntN(4) {
		case 0:
			l.Strides[d] += rng.IntN(5) - 2
		case 1:
			l.Offset = max(0, l.Offset+rng.IntN(5)-2)
		case 2:
			l.Storage = max(1, l.Storage+rng.IntN(7)-3)
		case 3:
			l.Shape[d] = max(1, l.Shape[d]-1)
		}
		return l
	}
	return playRandomLayout(rng, storage)
}

func TestPlaygroundInBrowser(t *testing.T) {
	ctx := browser(t)
	a := tensor.Float32.Arange(12).View(3, 4)
	pa := display.Named{Name: "a", Tensor: a}.Playground().Bundle()[display.MIMEHTML]
	pb := display.Playground(nil).Bundle()[display.MIMEHTML]
	targets := []playTarget{
		{id: liveID(t, pa), x: a, base: a, name: "a"},
		{id: liveID(t, pb), base: tensor.Arange(12).View(3, 4)},
	}
	page := pageOf(pa, display.Explorer(a).Bundle()[display.MIMEHTML], pb)
	errs := openPage(t, ctx, page)
	for _, p := range targets {
		if !evaluate[bool](t, ctx, fmt.Sprintf(
			`(function (r) { return r.hasAttribute("data-ready") && !r.querySelector(".tp-fallback"); })(document.getElementById(%q))`, p.id)) {
			t.Fatalf("playground %s did not start", p.id)
		}
		presets := display.PlayPresets(p.x, p.name)
		samePlayState(t, p.id+" at the start", playPageState(t, ctx, p.id), display.PlayClassify(p.x, p.name, presets[0].Layout))
	}

	// 200 settings through the controls, alternating between the two
	// playgrounds; the one not driven must not change.
	rng := rand.New(rand.NewPCG(16, 200))
	kinds, ops := map[string]int{}, map[string]int{}
	for n := range 200 {
		p, other := targets[n%2], targets[1-n%2]
		before := playPageState(t, ctx, other.id)
		l := playSetting(rng, p, display.PlayPresets(p.x, p.name))
		st := drivePlayground(t, ctx, p, l)
		checkPlayState(t, p.x, p.name, l, display.PlayClassify(p.x, p.name, l))
		kinds[st.Kind]++
		ops[st.Op]++
		if after := playPageState(t, ctx, other.id); !reflect.DeepEqual(before, after) {
			t.Fatalf("setting %s changed %s", p.id, other.id)
		}
	}
	t.Logf("200 settings through the controls: kinds %v, ops %v", kinds, ops)

	// Typing with the keyboard, as a reader does, reaches the same state.
	p := targets[0]
	drivePlayground(t, ctx, p, display.PlayLayout{Storage: 12, Shape: []int{3, 4}, Strides: []int{4, 1}})
	for _, c := range []struct {
		dim  int
		keys string
		want []int
		kind string
	}{
		{1, "\b2", []int{4, 2}, "out-of-bounds"},
		{0, "\b-4", []int{-4, 2}, "negative"},
		{0, "\b\b1", []int{1, 2}, "overlapping"},
		{1, "\b12", []int{1, 12}, "out-of-bounds"},
		{1, "\b\b-", []int{1, 1}, "overlapping"},
		{1, "3", []int{1, -3}, "negative"},
	} {
		sel := "#" + p.id + fmt.Sprintf(` input[data-field="stride"][data-dim="%d"]`, c.dim)
		if err := chromedp.Do(ctx, chromedp.Click(sel), chromedp.KeyEvent("\ue010"), chromedp.SendKeys(sel, c.keys)); err != nil {
			t.Fatal(err)
		}
		typed := display.PlayLayout{Storage: 12, Shape: []int{3, 4}, Strides: c.want}
		if st := playPageState(t, ctx, p.id); samePlayState(t, "typing "+c.keys, st, display.PlayClassify(a, "a", typed)) && st.Kind != c.kind {
			t.Errorf("%v: %s, want %s", typed, st.Kind, c.kind)
		}
	}

	// Each preset, its state, its scan and a screenshot.
	for _, p := range targets {
		for _, pr := range display.PlayPresets(p.x, p.name) {
			click(t, ctx, fmt.Sprintf(`#%s [data-preset="%s"]`, p.id, pr.Key))
			want := display.PlayClassify(p.x, p.name, pr.Layout)
			samePlayState(t, p.id+" preset "+pr.Key, playPageState(t, ctx, p.id), want)
			runPlayScan(t, ctx, p.id, want)
			if p.x != nil {
				saveElementShot(t, ctx, p.id, filepath.Join("playground", pr.Key+".png"))
			}
		}
	}

	// Playgrounds inserted as JupyterLab (twice: two views of one output
	// share an id) and Notebook 6 insert outputs start and answer apart.
	insertInFrontEnds(t, ctx, display.Playground(tensor.Arange(6).View(2, 3)).Bundle()[display.MIMEHTML],
		display.Playground(tensor.Arange(6).View(2, 3)).Bundle()[display.MIMEHTML], "pg-")
	for _, c := range []string{"pg-lab-2", "pg-classic"} {
		click(t, ctx, "."+c+` [data-preset="transpose"]`)
	}
	gos := evaluate[[]string](t, ctx,
		`Array.from(document.querySelectorAll(".pg-lab-1 .tp-go, .pg-lab-2 .tp-go, .pg-classic .tp-go"), function (g) { return g.textContent; })`)
	if want := []string{"x", "x.T()", "x.T()"}; !slices.Equal(gos, want) {
		t.Errorf("Go lines of the inserted playgrounds: %q, want %q", gos, want)
	}

	// Leave the broadcast row of a, with a cell clicked, on screen.
	for _, sel := range []string{` [data-rules="pytorch"]`, ` [data-preset="broadcast"]`, ` .tp-cell[data-index="2,1"]`} {
		click(t, ctx, "#"+targets[0].id+sel)
	}
	read, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS("#"+targets[0].id+" .tp-read-line")))
	if want := "[2, 1] reads slot 0 + 2·0 + 1·1 = 1 (value 1.)"; err != nil || read != want {
		t.Errorf("the broadcast row's cell [2, 1]: %q, want %q (%v)", read, want, err)
	}
	savePageShot(t, ctx, "playground.png")
	checkNoJSErrors(t, errs)
}

func TestPlaygroundGolden(t *testing.T) {
	b := display.Playground(tensor.Float32.Arange(12).View(3, 4)).Bundle()
	for ext, mime := range map[string]string{"txt": display.MIMEPlain, "svg": display.MIMESVG} {
		checkGolden(t, filepath.Join("testdata", "golden", "playground."+ext), b[mime])
	}
}

// Every base, named or not, and every hostile tensor and name, gives
// well-formed forms within the size bound: a live playground whose HTML
// holds a still picture and one script, or a refusal without a script.
func TestPlaygroundForms(t *testing.T) {
	for name, x := range playBases() {
		for _, r := range []display.Renderer{display.Playground(x), display.Named{Name: "y", Tensor: x}.Playground()} {
			b := r.Bundle()
			checkForms(t, name, b)
			checkLegible(t, name, b[display.MIMESVG])
			page := b[display.MIMEHTML]
			if strings.Count(page, "</script") != 1 || !strings.Contains(page, `class="tp-fallback"><div style="overflow-x:auto;max-width:100%"><img src="data:image/svg+xml;base64,`) {
				t.Errorf("%s: the HTML is not a still picture and one script", name)
			}
		}
	}
	y := display.Named{Name: "y", Tensor: tensor.Arange(12).View(3, 4)}.Playground().Bundle()[display.MIMEPlain]
	for _, want := range []string{"Stride playground of y (int64, shape (3, 4)) over a storage of 12 slots", "Go: y\n", "→ A view PyTorch makes: y.T → Go: y.T()", "Go: y.Index(\"0\").Expand(3, 4)"} {
		if !strings.Contains(y, want) {
			t.Errorf("the named playground's text lacks %q:\n%s", want, y)
		}
	}
	for _, h := range hostileTensors {
		var x *tensor.Tensor
		if tensor.Try(func() { x = h.make() }) != nil {
			continue
		}
		b := display.Playground(x).Bundle()
		checkForms(t, h.name, b)
		if b[display.MIMESVG] == "" && strings.Contains(b[display.MIMEHTML], "<script") {
			t.Errorf("%s: a refusal carries a script", h.name)
		}
	}
	small := tensor.Arange(6).View(2, 3)
	for _, name := range hostileNames {
		b := display.Named{Name: name, Tensor: small}.Playground().Bundle()
		checkForms(t, fmt.Sprintf("%.20q", name), b)
		if page := b[display.MIMEHTML]; strings.Count(page, "</script") != 1 || strings.Contains(page, "<b>") {
			t.Errorf("%.20q: the name is markup in the HTML form", name)
		}
		if strings.ContainsAny(b[display.MIMEPlain], "\x00\x1b") {
			t.Errorf("%.20q: the text form holds a control character", name)
		}
	}
	for name, c := range map[string]struct {
		x    *tensor.Tensor
		want string
	}{
		"0-d":      {tensor.Scalar(1), "The stride playground starts from tensors of 1 to 4 dimensions, and x has 0"},
		"5-d":      {tensor.Zeros(1, 1, 1, 1, 2), "The stride playground starts from tensors of 1 to 4 dimensions, and x has 5"},
		"empty":    {tensor.Zeros(3, 0), "The stride playground draws 1 to 256 elements, and x has 0 (shape (3, 0))"},
		"big":      {tensor.Zeros(17, 17), "The stride playground draws 1 to 256 elements, and x has 289"},
		"big view": {tensor.Zeros(9, 9).Index(":2, :2"), "The stride playground draws storages of at most 64 slots, and x is over one of 81"},
	} {
		b := display.Playground(c.x).Bundle()
		checkForms(t, name, b)
		if !strings.HasPrefix(b[display.MIMEPlain], c.want) || strings.Contains(b[display.MIMEHTML], "<script") {
			t.Errorf("%s: %q", name, b[display.MIMEPlain])
		}
	}
}

// Without its script, as an untrusted notebook or a sanitizer shows it,
// the HTML form is the still picture of x's layout; JupyterLab's own
// renderer runs the script of a trusted output and drops it from an
// untrusted one.
func TestPlaygroundWithoutScript(t *testing.T) {
	ctx := browser(t)
	b := display.Playground(tensor.Float32.Arange(12).View(3, 4)).Bundle()
	static := regexp.MustCompile(`(?s)<script>.*</script>`).ReplaceAllString(b[display.MIMEHTML], "")
	errs := openPage(t, ctx, pageOf(static))
	type still struct {
		Ready  bool    `json:"ready"`
		Width  float64 `json:"width"`
		Height float64 `json:"height"`
		Note   string  `json:"note"`
	}
	s := evaluate[still](t, ctx, `(async function () {
  const r = document.querySelector(".tnb-playground"), img = r.querySelector(".tp-fallback img");
  await img.decode();
  return { ready: r.hasAttribute("data-ready"), width: img.naturalWidth, height: img.naturalHeight, note: r.querySelector(".tp-fallback").textContent };
})()`)
	if s.Ready || s.Width < 400 || s.Height < 200 || !strings.Contains(s.Note, "run the cell, or trust the notebook") {
		t.Errorf("the HTML form without its script shows %+v", s)
	}
	checkNoJSErrors(t, errs)

	ctx, errs = openLab(t)
	bundle, _ := json.Marshal(b)
	type shown struct {
		MIME   string `json:"mimeType"`
		Ready  bool   `json:"ready"`
		Images int    `json:"images"`
		Kind   string `json:"kind"`
	}
	for _, trusted := range []bool{true, false} {
		o := evaluate[shown](t, ctx, fmt.Sprintf(`(async function () {
  const r = await window.renderBundle(%s, %t, "playground");
  const out = document.getElementById(r.id), pg = out.querySelector(".tnb-playground");
  const imgs = Array.from(out.querySelectorAll("img"));
  for (const img of imgs) { await img.decode(); }
  return { mimeType: r.mimeType, ready: !!pg && pg.hasAttribute("data-ready"), images: imgs.filter(function (i) { return i.naturalWidth > 0; }).length,
    kind: pg ? pg.getAttribute("data-kind") || "" : "" };
})()`, bundle, trusted))
		savePageShot(t, ctx, labShotName("playground", trusted))
		switch {
		case o.MIME != display.MIMEHTML:
			t.Errorf("trusted=%t: JupyterLab shows %s", trusted, o.MIME)
		case trusted && (!o.Ready || o.Kind != "contiguous"):
			t.Errorf("trusted: the playground did not start: %+v", o)
		case !trusted && (o.Ready || o.Images != 1):
			t.Errorf("untrusted: want the still picture and no script, got %+v", o)
		}
	}
	checkNoJSErrors(t, errs)
}
