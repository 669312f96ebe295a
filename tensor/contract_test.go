package tensor_test

import (
	"errors"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/tensornb/tensornb/tensor"
)

// predefinedContracts lists every predefined contract at a few sizes.
func predefinedContracts() []tensor.Contract {
	var cs []tensor.Contract
	for _, hd := range [][2]int{{1, 1}, {2, 3}, {3, 2}, {4, 1}} {
		cs = append(cs,
			tensor.InterleavedByHead(hd[0], hd[1]),
			tensor.BlockedByRole(hd[0], hd[1]),
			tensor.FusedQKV(hd[0], hd[1]),
			tensor.PixelUnshuffleChannels(hd[0], hd[1]))
	}
	return cs
}

// partNames returns the names Decode keys its parts by.
func partNames(c tensor.Contract) []string {
	if c.Role == "" {
		return []string{c.Name}
	}
	return c.Parts
}

// Decode agrees with the loop oracle on sentinel values, for the packed
// axis first, in the middle and last; its parts are views of the input;
// and Encode packs them back into the same values.
func TestContractDecodeMatchesOracle(t *testing.T) {
	for _, c := range predefinedContracts() {
		for _, tc := range []struct {
			shape []int
			axis  int
		}{
			{[]int{c.Len()}, 0},
			{[]int{2, c.Len()}, -1},
			{[]int{2, 3, c.Len()}, 2},
			{[]int{c.Len(), 2}, 0},
			{[]int{2, c.Len(), 3}, 1},
		} {
			x := tensor.Arange(tensor.Shape(tc.shape).Numel()).Reshape(tc.shape...)
			parts := c.Decode(x, tc.axis)
			if err := c.Check(x, tc.axis, parts); err != nil {
				t.Errorf("%s on %v axis %d: %v", c, tc.shape, tc.axis, err)
			}
			names := partNames(c)
			if got := slices.Sorted(maps.Keys(parts)); !slices.Equal(got, slices.Sorted(slices.Values(names))) {
				t.Errorf("%s: Decode gave parts %v, want %v", c, got, names)
			}
			ordered := make([]*tensor.Tensor, len(names))
			for i, name := range names {
				if !parts[name].SharesStorage(x) {
					t.Errorf("%s: part %s is a copy, want a view", c, name)
				}
				ordered[i] = parts[name]
			}
			if back := c.Encode(tc.axis, ordered...); !back.Equal(x) {
				t.Errorf("%s on %v axis %d: Encode(Decode(x)) = %v, want %v", c, tc.shape, tc.axis, back, x)
			}
		}
	}
}

// The article's Q/K example: the tensor was packed interleaved by head.
// Decoding it that way matches the oracle; decoding it as blocked by role
// gives parts of the very same shape that fail the check.
func TestContractWrongDecodeFailsCheck(t *testing.T) {
	const b, s, heads, dHead = 1, 2, 2, 3
	x := tensor.Float32.Arange(b*s*heads*2*dHead).Reshape(b, s, heads*2*dHead)
	right := tensor.InterleavedByHead(heads, dHead)
	wrong := tensor.BlockedByRole(heads, dHead)

	good := right.Decode(x, -1)
	if err := right.Check(x, -1, good); err != nil {
		t.Fatalf("interleaved decode: %v", err)
	}
	if got := good["K"].Select(0, 0).Select(0, 0).Select(0, 0); !got.Equal(tensor.New([]float32{3, 4, 5})) {
		t.Errorf("K of head 0 = %v, want [3, 4, 5]", got)
	}
	bad := wrong.Decode(x, -1)
	for _, role := range []string{"Q", "K"} {
		if !slices.Equal(bad[role].Shape(), good[role].Shape()) {
			t.Errorf("%s: blocked shape %v differs from interleaved %v", role, bad[role].Shape(), good[role].Shape())
		}
	}
	err := right.Check(x, -1, bad)
	if err == nil {
		t.Fatal("the blocked decode of an interleaved tensor passed the interleaved check")
	}
	if !strings.Contains(err.Error(), "part K differs") {
		t.Errorf("check error %q does not name part K", err)
	}
	// As in the article, head 0's query happens to coincide.
	if !bad["Q"].Select(2, 0).Equal(good["Q"].Select(2, 0)) {
		t.Error("head 0's query should coincide under both decodes")
	}
}

// The PixelUnshuffle contract describes the channels PixelUnshuffle makes:
// decoding them gives the p×p block offsets of each input channel.
func TestPixelUnshuffleContract(t *testing.T) {
	const n, c, h, w, p = 2, 3, 8, 8, 2
	img := tensor.Arange(n*c*h*w).Reshape(n, c, h, w)
	out := img.PixelUnshuffle(p)
	got := tensor.PixelUnshuffleChannels(c, p).Decode(out, 1)["PixelUnshuffle channels"]
	want := img.Reshape(n, c, h/p, p, w/p, p).Permute(0, 1, 3, 5, 2, 4)
	if !got.Equal(want) {
		t.Errorf("decoded channels %v, want %v", got.Shape(), want.Shape())
	}
}

func TestContractMeaningAndPosition(t *testing.T) {
	c := tensor.InterleavedByHead(2, 3)
	if got := c.Meaning(9); got["h"] != 1 || got["r"] != 1 || got["d"] != 0 {
		t.Errorf("Meaning(9) = %v, want h=1 r=1 d=0", got)
	}
	for _, c := range predefinedContracts() {
		for i := range c.Len() {
			if back := c.Position(c.Meaning(i)); back != i {
				t.Errorf("%s: Position(Meaning(%d)) = %d", c, i, back)
			}
		}
	}
	if got := tensor.FusedQKV(2, 4).String(); got != "fused QKV (r h d)" {
		t.Errorf("String = %q", got)
	}
}

func TestContractErrors(t *testing.T) {
	c := tensor.InterleavedByHead(2, 3)
	x := tensor.Arange(10)
	for _, tc := range []struct {
		name string
		f    func()
		want string
	}{
		{"wrong length", func() { c.Decode(x, 0) }, "interleaved by head (h r d) packs 12 positions, but axis 0 of the tensor of shape (10,) has 10"},
		{"scalar", func() { c.Oracle(tensor.Scalar(1.0), 0) }, "the tensor is a scalar"},
		{"axis", func() { c.Decode(tensor.Arange(12), 1) }, "Dimension out of range"},
		{"meaning", func() { c.Meaning(12) }, "position 12 is out of range"},
		{"position missing", func() { c.Position(map[string]int{"h": 0, "r": 0}) }, "do not give axis d"},
		{"position range", func() { c.Position(map[string]int{"h": 2, "r": 0, "d": 0}) }, "coordinate h=2 is out of range"},
		{"encode count", func() { c.Encode(0, tensor.Arange(6)) }, "has 2 parts but 1 tensors were given"},
		{"encode shapes", func() { c.Encode(0, tensor.Zeros(2, 3), tensor.Zeros(3, 2)) }, "part K has shape (3, 2) but part Q has (2, 3)"},
		{"pattern", func() { tensor.NewContract("x", "h r d", tensor.Sizes{"h": 1, "r": 1, "d": 1}, "") }, "must be one group"},
		{"size", func() { tensor.NewContract("x", "(h d)", tensor.Sizes{"h": 2}, "") }, "axis d needs a size"},
		{"role", func() { tensor.NewContract("x", "(h d)", tensor.Sizes{"h": 2, "d": 2}, "r", "Q") }, "role axis r is not one of"},
		{"parts", func() { tensor.NewContract("x", "(r d)", tensor.Sizes{"r": 2, "d": 2}, "r", "Q") }, "axis r has 2 values but 1 part names"},
	} {
		err := tensor.Try(tc.f)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want it to contain %q", tc.name, err, tc.want)
		}
	}
}

// A Contract literal that is not whole is refused by every method that
// reads its axes, with an error that names the field, never an index out
// of range.
func TestBrokenContractLiterals(t *testing.T) {
	x := tensor.Arange(12)
	for _, c := range []struct {
		contract tensor.Contract
		names    string // what the error must name
	}{
		{tensor.Contract{Name: "short", Axes: []string{"h", "r", "d"}, Sizes: []int{2, 6}}, "Sizes gives 2"},
		{tensor.Contract{Name: "long", Axes: []string{"h"}, Sizes: []int{2, 6}}, "Axes names 1"},
		{tensor.Contract{Name: "no parts", Axes: []string{"r", "d"}, Sizes: []int{2, 6}, Role: "r"}, "Parts names 0"},
		{tensor.Contract{Name: "stray role", Axes: []string{"r", "d"}, Sizes: []int{2, 6}, Role: "q", Parts: []string{"Q", "K"}}, "Role q"},
		{tensor.Contract{Name: "parts, no role", Axes: []string{"r", "d"}, Sizes: []int{2, 6}, Parts: []string{"Q", "K"}}, "Role is empty"},
		{tensor.Contract{Name: "zero", Axes: []string{"r", "d"}, Sizes: []int{0, 6}}, "Sizes[0]"},
		{tensor.Contract{Name: "twice", Axes: []string{"d", "d"}, Sizes: []int{2, 6}}, "Axes[1]"},
		{tensor.Contract{Name: "empty"}, "Axes is empty"},
		{tensor.Contract{Name: "huge", Axes: []string{"a", "b"}, Sizes: []int{1 << 40, 1 << 40}}, "more positions"},
	} {
		if err := c.contract.Validate(); err == nil || !strings.Contains(err.Error(), c.names) {
			t.Errorf("%s: Validate = %v, want an error naming %q", c.contract.Name, err, c.names)
		}
		calls := map[string]func(){
			"Meaning":  func() { c.contract.Meaning(0) },
			"Position": func() { c.contract.Position(map[string]int{"h": 0, "r": 0, "d": 0}) },
			"Decode":   func() { c.contract.Decode(x, 0) },
			"Oracle":   func() { c.contract.Oracle(x, 0) },
			"Check":    func() { _ = c.contract.Check(x, 0, nil) },
			"Encode":   func() { c.contract.Encode(0, x) },
		}
		for name, call := range calls {
			err := tensor.Try(call)
			var e *tensor.Error
			if !errors.As(err, &e) || !strings.Contains(e.Message, c.names) {
				t.Errorf("%s of %s: %v, want the error naming %q", name, c.contract.Name, err, c.names)
			}
		}
	}
}
