package tensor_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/tensornb/tensornb/tensor"
)

// Rearrange splits and permutes without copying, and copies only when a
// merge cannot be expressed with strides.
func TestRearrangeViewOrCopy(t *testing.T) {
	x := tensor.Arange(2*3*12).Reshape(2, 3, 12)
	for _, tc := range []struct {
		pattern string
		sizes   tensor.Sizes
		view    bool
	}{
		{"b s (h r d) -> r b h s d", tensor.Sizes{"h": 2, "r": 2}, true},
		{"b s f -> (b s) f", nil, true},
		{"b s f -> b f s", nil, true},
		{"b s f -> (s b) f", nil, false},
		{"b s (h d) -> b s (d h)", tensor.Sizes{"h": 3}, false},
	} {
		y := tensor.Rearrange(x, tc.pattern, tc.sizes)
		if y.SharesStorage(x) != tc.view {
			t.Errorf("%s: SharesStorage = %v, want %v", tc.pattern, y.SharesStorage(x), tc.view)
		}
	}
}

func TestRearrangeErrors(t *testing.T) {
	x := tensor.Arange(24).Reshape(2, 3, 4)
	for _, tc := range []struct {
		pattern string
		sizes   tensor.Sizes
		want    string
	}{
		{"a b c", nil, `pattern "a b c" has no ->`},
		{"a b -> a b", nil, `pattern "a b -> a b" has 2 dimensions on the left, but the tensor has 3: shape (2, 3, 4)`},
		{"a b (c d) -> a b c d", tensor.Sizes{"c": 3}, "dimension 2 of size 4, (c d): cannot split into axis d: 4 is not a multiple of c = 3"},
		{"a b (c d) -> a b c d", nil, "axes c and d both have unknown sizes; give one of them"},
		{"a b (c d) -> a b c d", tensor.Sizes{"c": 2, "d": 3}, "the axes multiply to c·d = 2·3 = 6, not 4"},
		{"a b c -> a b c", tensor.Sizes{"b": 2}, "dimension 1 of size 3, (b): axis b is given size 2"},
		{"a b c -> a b c", tensor.Sizes{"e": 2}, `axis e is given a size but does not appear in "a b c -> a b c"`},
		{"a b c -> a b", nil, "axis c of \"a b c -> a b\" is missing on the right"},
		{"a b c -> a b c e", nil, "axis e appears on the right"},
		{"a b c -> a b c a", nil, "axis a appears twice on the right"},
		{"a a c -> a c", nil, "axis a appears twice on the left"},
		{"a 1 c -> a c", nil, "dimension 1 of size 3, (): a unit axis must have size 1"},
		{"a (b c -> a b c", nil, "unbalanced ("},
		{"a b) c -> a b c", nil, "unbalanced )"},
		{"a ((b) c) -> a b c", nil, "nested parentheses"},
		{"a b 2c -> a b c", nil, `"2c" is not an axis name`},
		{"... c -> c", nil, "has ... on one side only"},
		{"... b ... -> b", nil, "... appears twice"},
		{"a (... c) -> a c", nil, "... cannot stand inside parentheses"},
		{"a b c d ... -> a b c d ...", nil, "needs at least 4 dimensions, but the tensor has 3"},
	} {
		var err *tensor.Error
		if !errors.As(tensor.Try(func() { tensor.Rearrange(x, tc.pattern, tc.sizes) }), &err) ||
			err.Class != "ValueError" || !strings.Contains(err.Message, tc.want) {
			t.Errorf("%s: error %v, want a ValueError containing %q", tc.pattern, err, tc.want)
		}
	}
	// A 1 inside a group is a unit factor, as in einops.
	if got := tensor.Rearrange(x, "a b c -> a b (c 1)").Shape(); got[2] != 4 {
		t.Errorf("(c 1) gives shape %v", got)
	}
}
