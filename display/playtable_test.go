//go:build !js

package display_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/tensornb/tensornb/display"
	"github.com/tensornb/tensornb/tensor"
)

// The playground's layout arithmetic is written twice: in playlayout.go,
// and in playlayout.js for the page, which must answer any setting
// without a kernel (the top of playlayout.js says why Go cannot answer
// for it beforehand). The table below is the one source the two are held
// to: settings of the playground over several tensors, each with the
// state playlayout.go computes for it. TestPlaygroundTable checks that
// the table is what Go says today and that Go's states are right by
// package tensor; TestPlaygroundTableInBrowser replays every setting
// through playlayout.js and wants the same states. After a change to
// playlayout.go, rewrite the table with go generate ./display (or go test
// ./display -run '^TestPlaygroundTable$' -update), then make playlayout.js
// agree.

// playTablePath is the table, as JSON: one line for each tensor and one
// for each state.
var playTablePath = filepath.Join("testdata", "playground", "table.json")

// A playTableBase is one playground in the table: the tensor it starts
// from, a key of playBases, and what it calls it, with the data its script
// gets, and the states of the settings tried on it.
type playTableBase struct {
	Key    string              `json:"key"`
	Name   string              `json:"name"` // "" for x
	Base   display.PlayBase    `json:"base"`
	States []display.PlayState `json:"states"`
}

// playTableKinds, playTableOps and playTableScans are what the table's
// states must cover between them: every kind of layout, every op and
// every verdict of the scan.
var (
	playTableKinds = []string{"negative", "out-of-bounds", "overlapping", "contiguous", "view", "strided"}
	playTableOps   = []string{"identity", "permute", "view", "index", "diagonal", "expand", "unfold"}
	playTableScans = []string{"out", "repeats", "jumps", "steps"}
)

// makePlayTable draws the table's settings: for each base, named as the
// browser test names the article's matrix or not, its presets, random
// settings, and layouts made by view ops of it under either rules.
func makePlayTable() []playTableBase {
	rng := rand.New(rand.NewPCG(36, 2))
	bases := playBases()
	var table []playTableBase
	add := func(key, name string) {
		x := bases[key]
		tb := playTableBase{Key: key, Name: name, Base: display.PlayBaseOf(x, name)}
		layouts := []display.PlayLayout{}
		for _, p := range display.PlayPresets(x, name) {
			layouts = append(layouts, p.Layout)
		}
		for range 40 {
			layouts = append(layouts, playRandomLayout(rng, tb.Base.Storage))
		}
		if x == nil {
			x = tensor.Arange(12).View(3, 4)
		}
		for made := 0; made < 40; {
			if l, _, ok := playOpLayout(rng, x); ok {
				l.NumPy = rng.IntN(5) == 0
				layouts = append(layouts, l)
				made++
			}
		}
		for _, l := range layouts {
			tb.States = append(tb.States, display.PlayClassify(bases[key], name, l))
		}
		table = append(table, tb)
	}
	for _, key := range slices.Sorted(maps.Keys(bases)) {
		add(key, "")
	}
	add("article", "a")
	return table
}

// encodePlayTable writes the table as JSON, a line for each base and for
// each state, so that a change shows as the lines of the states it
// changes.
func encodePlayTable(t *testing.T, table []playTableBase) []byte {
	t.Helper()
	var b bytes.Buffer
	line := func(v any) string {
		raw, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		return string(raw)
	}
	b.WriteString("[\n")
	for i, tb := range table {
		fmt.Fprintf(&b, `{"key": %s, "name": %s, "base": %s, "states": [`, line(tb.Key), line(tb.Name), line(tb.Base))
		for j, st := range tb.States {
			b.WriteString("\n" + line(st))
			if j < len(tb.States)-1 {
				b.WriteString(",")
			}
		}
		b.WriteString("]}")
		if i < len(table)-1 {
			b.WriteString(",")
		}
		b.WriteString("\n")
	}
	b.WriteString("]\n")
	return b.Bytes()
}

// readPlayTable reads the table, refusing fields a state does not have.
func readPlayTable(t *testing.T) []playTableBase {
	t.Helper()
	raw, err := os.ReadFile(playTablePath)
	if err != nil {
		t.Fatalf("%v (go generate ./display writes it)", err)
	}
	var table []playTableBase
	d := json.NewDecoder(bytes.NewReader(raw))
	d.DisallowUnknownFields()
	if err := d.Decode(&table); err != nil {
		t.Fatalf("%s: %v", playTablePath, err)
	}
	return table
}

// The table of settings is what playlayout.go says of them today (or,
// with -update, is written anew), Go's states in it are right by package
// tensor, and they cover every kind, op and scan.
func TestPlaygroundTable(t *testing.T) {
	if *update {
		if err := os.MkdirAll(filepath.Dir(playTablePath), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(playTablePath, encodePlayTable(t, makePlayTable()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	const stale = " (the table is stale: go generate ./display writes it anew)"
	bases := playBases()
	seen := map[string]bool{}
	rows := 0
	for _, tb := range readPlayTable(t) {
		x, ok := bases[tb.Key]
		if !ok {
			t.Fatalf("the table's base %q is not one of playBases", tb.Key)
		}
		if got, want := mustJSON(t, tb.Base), mustJSON(t, display.PlayBaseOf(x, tb.Name)); got != want {
			t.Errorf("%s: the table's base is\n%s\nGo makes\n%s%s", tb.Key, got, want, stale)
		}
		for _, st := range tb.States {
			where := fmt.Sprintf("%s %q, layout %+v", tb.Key, tb.Name, st.Layout)
			if got, want := mustJSON(t, st), mustJSON(t, display.PlayClassify(x, tb.Name, st.Layout)); got != want {
				t.Errorf("%s: the table holds\n%s\nGo computes\n%s%s", where, got, want, stale)
				continue
			}
			checkPlayState(t, x, tb.Name, st.Layout, st)
			seen["kind "+st.Kind], seen["op "+st.Op], seen["scan "+st.Scan] = true, true, true
			rows++
		}
	}
	for prefix, want := range map[string][]string{"kind ": playTableKinds, "op ": playTableOps, "scan ": playTableScans} {
		for _, w := range want {
			if !seen[prefix+w] {
				t.Errorf("no state of the table has %s%s: draw more settings in makePlayTable", prefix, w)
			}
		}
	}
	t.Logf("%d states checked", rows)
}

// mustJSON encodes v.
func mustJSON(t *testing.T, v any) string {
	t.Helper()
	raw, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(raw)
}

// playReplayJS makes playlayout.js's arithmetic for a base and returns
// the state classify gives for each layout, as JSON.
const playReplayJS = `(function (arithmeticOf, base, layouts) {
  const play = arithmeticOf(base);
  return layouts.map(function (l) { return JSON.stringify(play.classify(l)); });
})(%s, %s, %s)`

// Every setting of the table, replayed through the page's script,
// playlayout.js, gives the state the table holds.
func TestPlaygroundTableInBrowser(t *testing.T) {
	table := readPlayTable(t)
	ctx := browser(t)
	errs := openPage(t, ctx, pageOf())
	for _, tb := range table {
		layouts := make([]display.PlayLayout, len(tb.States))
		for i, st := range tb.States {
			layouts[i] = st.Layout
		}
		got := evaluate[[]string](t, ctx, fmt.Sprintf(playReplayJS, display.PlayLayoutJS, mustJSON(t, tb.Base), mustJSON(t, layouts)))
		if len(got) != len(tb.States) {
			t.Fatalf("%s: %d states for %d layouts", tb.Key, len(got), len(tb.States))
		}
		for i, raw := range got {
			samePlayState(t, fmt.Sprintf("%s %q, layout %+v: playlayout.js", tb.Key, tb.Name, layouts[i]), decodePlayState(t, raw), tb.States[i])
		}
	}
	checkNoJSErrors(t, errs)
}
