package tensor

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// Sizes gives the sizes of named axes in a Rearrange pattern or a
// Contract.
type Sizes map[string]int

// View or copy: Rearrange reorders and regroups x's dimensions as an einops
// pattern says: the left side names x's dimensions, a parenthesized group
// naming a dimension packed from several axes, slowest first; the right
// side names the result's. Axes can be split, merged, permuted, and unit
// axes ("1" or "()") added or removed; "..." stands for any number of
// dimensions kept as they are; sizes gives the axes that cannot be
// inferred.
//
//	tensor.Rearrange(x, "b s (h r d) -> r b h s d", tensor.Sizes{"h": 2, "r": 2})
//	tensor.Rearrange(x, "... (h d) -> ... h d", tensor.Sizes{"h": 4})
//
// Splitting and permuting never copy; merging does only when the strides
// cannot express it, as with Reshape, so the result is a view whenever
// possible and x.SharesStorage(result) tells which. Errors name the axis
// and the sizes that disagree.
func Rearrange(x *Tensor, pattern string, sizes ...Sizes) *Tensor {
	mustArg("Rearrange", x)
	known := Sizes{}
	for _, s := range sizes {
		for k, v := range s {
			known[k] = v
		}
	}
	left, right, err := parsePattern(pattern, x.Dim())
	if err != nil {
		failValue("rearrange", "%s", err)
	}
	if len(left) != x.Dim() {
		failValue("rearrange", "pattern %q has %d dimensions on the left, but the tensor has %d: shape %v", pattern, len(left), x.Dim(), x.Shape())
	}

	// Split every left dimension into its axes.
	var names []string
	var axisSizes []int
	for d, group := range left {
		groupSizes, err := resolveGroup(group, x.Size(d), known)
		if err != nil {
			failValue("rearrange", "dimension %d of size %d, %s: %s", d, x.Size(d), group, err)
		}
		for i, name := range group.axes {
			names = append(names, name)
			axisSizes = append(axisSizes, groupSizes[i])
		}
	}
	for _, name := range slices.Sorted(maps.Keys(known)) {
		if !slices.Contains(names, name) {
			failValue("rearrange", "axis %s is given a size but does not appear in %q", name, pattern)
		}
	}
	split := x.Reshape(axisSizes...)

	// Permute the axes into the right side's order.
	var order, shape []int
	used := make([]bool, len(names))
	for _, group := range right {
		size := 1
		for _, name := range group.axes {
			i := slices.Index(names, name)
			if i < 0 {
				failValue("rearrange", "axis %s appears on the right of %q but not on the left", name, pattern)
			}
			if used[i] {
				failValue("rearrange", "axis %s appears twice on the right of %q", name, pattern)
			}
			used[i] = true
			order = append(order, i)
			size *= axisSizes[i]
		}
		shape = append(shape, size)
	}
	for i, u := range used {
		if !u {
			failValue("rearrange", "axis %s of %q is missing on the right; rearrange keeps every axis", names[i], pattern)
		}
	}
	return split.Permute(order...).Reshape(shape...)
}

// An axisGroup is one dimension of a pattern side: the axes packed into it,
// slowest first; none for a unit dimension.
type axisGroup struct {
	axes []string
}

func (g axisGroup) String() string { return "(" + strings.Join(g.axes, " ") + ")" }

func (g axisGroup) isEllipsis() bool { return len(g.axes) == 1 && g.axes[0] == "..." }

// parsePattern reads "left -> right" into its two sides, for a tensor
// of ndim dimensions: an ellipsis becomes the dimensions it stands for,
// named "…0", "…1" and so on.
func parsePattern(pattern string, ndim int) (left, right []axisGroup, err error) {
	l, r, ok := strings.Cut(pattern, "->")
	if !ok {
		return nil, nil, fmt.Errorf("pattern %q has no ->", pattern)
	}
	if left, err = parseSide(l); err != nil {
		return nil, nil, fmt.Errorf("left side of %q: %w", pattern, err)
	}
	if right, err = parseSide(r); err != nil {
		return nil, nil, fmt.Errorf("right side of %q: %w", pattern, err)
	}
	el, er := slices.IndexFunc(left, axisGroup.isEllipsis), slices.IndexFunc(right, axisGroup.isEllipsis)
	if (el < 0) != (er < 0) {
		return nil, nil, fmt.Errorf("pattern %q has ... on one side only", pattern)
	}
	if el >= 0 {
		n := ndim - (len(left) - 1)
		if n < 0 {
			return nil, nil, fmt.Errorf("pattern %q needs at least %d dimensions, but the tensor has %d", pattern, len(left)-1, ndim)
		}
		dims := make([]axisGroup, n)
		for i := range dims {
			dims[i] = axisGroup{axes: []string{"…" + strconv.Itoa(i)}}
		}
		left = slices.Concat(left[:el], dims, left[el+1:])
		right = slices.Concat(right[:er], dims, right[er+1:])
	}
	seen := map[string]bool{}
	for _, g := range left {
		for _, a := range g.axes {
			if seen[a] {
				return nil, nil, fmt.Errorf("axis %s appears twice on the left of %q", a, pattern)
			}
			seen[a] = true
		}
	}
	return left, right, nil
}

// parseSide reads one side: names, "1" and "()" for unit dimensions,
// groups in parentheses, and at most one "..." outside them.
func parseSide(side string) ([]axisGroup, error) {
	var groups []axisGroup
	var open *axisGroup
	for _, tok := range strings.Fields(strings.NewReplacer("(", " ( ", ")", " ) ", "...", " ... ").Replace(side)) {
		switch {
		case tok == "..." && open != nil:
			return nil, fmt.Errorf("... cannot stand inside parentheses")
		case tok == "...":
			if slices.IndexFunc(groups, axisGroup.isEllipsis) >= 0 {
				return nil, fmt.Errorf("... appears twice")
			}
			groups = append(groups, axisGroup{axes: []string{"..."}})
		case tok == "(":
			if open != nil {
				return nil, fmt.Errorf("nested parentheses")
			}
			open = &axisGroup{}
		case tok == ")":
			if open == nil {
				return nil, fmt.Errorf("unbalanced )")
			}
			groups = append(groups, *open)
			open = nil
		case tok == "1":
			if open == nil {
				groups = append(groups, axisGroup{})
			}
		case isAxisName(tok):
			if open != nil {
				open.axes = append(open.axes, tok)
			} else {
				groups = append(groups, axisGroup{axes: []string{tok}})
			}
		default:
			return nil, fmt.Errorf("%q is not an axis name", tok)
		}
	}
	if open != nil {
		return nil, fmt.Errorf("unbalanced (")
	}
	return groups, nil
}

func isAxisName(s string) bool {
	for i, r := range s {
		if r != '_' && (r < 'a' || r > 'z') && (r < 'A' || r > 'Z') && (i == 0 || r < '0' || r > '9') {
			return false
		}
	}
	return s != ""
}

// resolveGroup works out the sizes of a group's axes from the size of the
// dimension they pack and the known sizes; one axis may be unknown.
func resolveGroup(g axisGroup, size int, known Sizes) ([]int, error) {
	sizes := make([]int, len(g.axes))
	unknown, product := -1, 1
	for i, a := range g.axes {
		v, ok := known[a]
		switch {
		case !ok && unknown >= 0:
			return nil, fmt.Errorf("axes %s and %s both have unknown sizes; give one of them", g.axes[unknown], a)
		case !ok:
			unknown = i
		case v <= 0:
			return nil, fmt.Errorf("axis %s has size %d", a, v)
		default:
			sizes[i] = v
			product *= v
		}
	}
	if len(g.axes) == 0 && size != 1 {
		return nil, fmt.Errorf("a unit axis must have size 1")
	}
	if unknown >= 0 {
		if product == 0 || size%product != 0 {
			return nil, fmt.Errorf("cannot split into axis %s: %d is not a multiple of %s", g.axes[unknown], size, productOf(g, sizes, unknown))
		}
		sizes[unknown] = size / product
		product = size
	}
	if product != size && len(g.axes) == 1 {
		return nil, fmt.Errorf("axis %s is given size %d", g.axes[0], product)
	}
	if product != size {
		return nil, fmt.Errorf("the axes multiply to %s = %d, not %d", productOf(g, sizes, -1), product, size)
	}
	return sizes, nil
}

// productOf writes the known sizes of a group as a product: h·r = 2·2.
func productOf(g axisGroup, sizes []int, skip int) string {
	var names, values []string
	for i, a := range g.axes {
		if i != skip {
			names = append(names, a)
			values = append(values, strconv.Itoa(sizes[i]))
		}
	}
	if len(names) == 0 {
		return "1"
	}
	return strings.Join(names, "·") + " = " + strings.Join(values, "·")
}
