package tensor

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// A Contract is the packing promise of one packed axis: which named axes
// it packs, slowest first, so that position i holds the element with the
// mixed-radix coordinates of i. One of the axes may name the parts the
// axis carries (the role of each position: query, key, value); decoding
// splits the axis into those parts.
//
// View and Reshape check the address contract only; a Contract states the
// other one, what each position means, so that it can be checked against
// a slow decode that cannot be wrong (Oracle) and drawn.
type Contract struct {
	Name  string   // e.g. "interleaved by head"
	Axes  []string // packed axes, slowest first, e.g. h r d
	Sizes []int    // the size of each axis
	// Role is the axis whose values are the parts, "" if there are none;
	// Parts names its values, e.g. {"Q", "K"}.
	Role  string
	Parts []string
}

// NewContract makes a contract from an einops-style group, "(h r d)",
// and the axes' sizes. role names the parts' axis ("" for none) and parts
// its values.
func NewContract(name, pattern string, sizes Sizes, role string, parts ...string) Contract {
	groups, err := parseSide(pattern)
	if err != nil || len(groups) != 1 {
		failValue("contract", "contract %q: %q must be one group of axes such as (h r d)", name, pattern)
	}
	c := Contract{Name: name, Axes: groups[0].axes, Role: role, Parts: parts}
	for _, a := range c.Axes {
		v, ok := sizes[a]
		if !ok || v <= 0 {
			failValue("contract", "contract %q: axis %s needs a size above 0", name, a)
		}
		c.Sizes = append(c.Sizes, v)
	}
	if role != "" {
		r := slices.Index(c.Axes, role)
		if r < 0 {
			failValue("contract", "contract %q: the role axis %s is not one of %s", name, role, pattern)
		}
		if len(parts) != c.Sizes[r] {
			failValue("contract", "contract %q: axis %s has %d values but %d part names were given", name, role, c.Sizes[r], len(parts))
		}
	}
	return c
}

// InterleavedByHead is the packing [h0_q, h0_k, h1_q, h1_k, …]: for each
// head, its query then its key, each dHead long: (h r d).
func InterleavedByHead(heads, dHead int) Contract {
	return NewContract("interleaved by head", "(h r d)", Sizes{"h": heads, "r": 2, "d": dHead}, "r", "Q", "K")
}

// BlockedByRole is the packing [all Q ‖ all K]: every head's query, then
// every head's key: (r h d).
func BlockedByRole(heads, dHead int) Contract {
	return NewContract("blocked by role", "(r h d)", Sizes{"r": 2, "h": heads, "d": dHead}, "r", "Q", "K")
}

// FusedQKV is nanoGPT's fused projection [Q ‖ K ‖ V]: the three roles in
// blocks, each the heads one after another: (r h d).
func FusedQKV(heads, dHead int) Contract {
	return NewContract("fused QKV", "(r h d)", Sizes{"r": 3, "h": heads, "d": dHead}, "r", "Q", "K", "V")
}

// PixelUnshuffleChannels is the channel order PixelUnshuffle(p) makes from
// c channels: channel c·p² + ih·p + iw holds the pixel at row ih, column
// iw of each p×p block of input channel c: (c ih iw). It has no parts.
func PixelUnshuffleChannels(channels, p int) Contract {
	return NewContract("PixelUnshuffle channels", "(c ih iw)", Sizes{"c": channels, "ih": p, "iw": p}, "")
}

// Validate reports whether c is whole, as NewContract makes contracts: an
// axis name and a size above 0 for each axis, no axis named twice, and,
// with a role, the role one of the axes with a name for each of its
// values (without one, no part names). A Contract written as a literal may
// not be; its methods refuse it with Validate's error.
func (c Contract) Validate() error {
	invalid := func(format string, args ...any) error {
		return newError("contract", ValueError, "contract %q: "+format, append([]any{c.Name}, args...)...)
	}
	if len(c.Axes) != len(c.Sizes) {
		return invalid("Axes names %d axes but Sizes gives %d sizes", len(c.Axes), len(c.Sizes))
	}
	if len(c.Axes) == 0 {
		return invalid("Axes is empty: a contract packs at least one axis")
	}
	numel := 1
	for a, name := range c.Axes {
		if name == "" || slices.Index(c.Axes, name) != a {
			return invalid("Axes[%d] is %q: each axis needs a name of its own", a, name)
		}
		if c.Sizes[a] <= 0 {
			return invalid("Sizes[%d], the size of axis %s, is %d: it must be above 0", a, name, c.Sizes[a])
		}
		if numel > math.MaxInt/c.Sizes[a] {
			return invalid("Sizes %v pack more positions than an int can count", c.Sizes)
		}
		numel *= c.Sizes[a]
	}
	if c.Role == "" {
		if len(c.Parts) > 0 {
			return invalid("Parts %q are given but Role is empty: name the axis whose values they are", c.Parts)
		}
		return nil
	}
	r := slices.Index(c.Axes, c.Role)
	if r < 0 {
		return invalid("Role %s is not one of Axes %v", c.Role, c.Axes)
	}
	if len(c.Parts) != c.Sizes[r] {
		return invalid("Role axis %s has %d values but Parts names %d", c.Role, c.Sizes[r], len(c.Parts))
	}
	return nil
}

// mustBeValid refuses an invalid contract with Validate's error.
func (c Contract) mustBeValid() {
	if err := c.Validate(); err != nil {
		panic(err)
	}
}

// Len returns how many positions the packed axis has.
func (c Contract) Len() int { return Shape(c.Sizes).Numel() }

// String writes the contract as its name and pattern.
func (c Contract) String() string { return c.Name + " (" + strings.Join(c.Axes, " ") + ")" }

// Meaning returns the coordinates of flat position i on each axis.
func (c Contract) Meaning(i int) map[string]int {
	c.mustBeValid()
	if i < 0 || i >= c.Len() {
		failIndex("meaning", "position %d is out of range for %s, which packs %d positions", i, c, c.Len())
	}
	coords := map[string]int{}
	for a := len(c.Axes) - 1; a >= 0; a-- {
		coords[c.Axes[a]] = i % c.Sizes[a]
		i /= c.Sizes[a]
	}
	return coords
}

// Position is Meaning's inverse: the flat position of the given
// coordinates, which must name every axis.
func (c Contract) Position(coords map[string]int) int {
	c.mustBeValid()
	pos := 0
	for a, name := range c.Axes {
		v, ok := coords[name]
		if !ok {
			failIndex("position", "coordinates %v do not give axis %s of %s", coords, name, c)
		}
		if v < 0 || v >= c.Sizes[a] {
			failIndex("position", "coordinate %s=%d is out of range for %s, where %s has size %d", name, v, c, name, c.Sizes[a])
		}
		pos = pos*c.Sizes[a] + v
	}
	return pos
}

// checkAxis refuses an axis of x the contract does not describe, and
// returns it wrapped.
func (c Contract) checkAxis(op string, x *Tensor, axis int) int {
	c.mustBeValid()
	mustArg(op, x)
	if x.Dim() == 0 {
		fail(op, "%s packs %d positions along an axis, but the tensor is a scalar", c, c.Len())
	}
	axis = wrapDim(op, axis, x.Dim())
	if x.Size(axis) != c.Len() {
		fail(op, "%s packs %d positions, but axis %d of the tensor of shape %v has %d",
			c, c.Len(), axis, x.Shape(), x.Size(axis))
	}
	return axis
}

// View: Decode splits axis of x into the contract's axes, as views: one per
// part, keyed by the part's name, with the role axis removed; or, for a
// contract without parts, the whole split keyed by the contract's name.
//
//	parts := tensor.InterleavedByHead(2, 3).Decode(x, -1) // parts["Q"], parts["K"]: (…, h, d)
func (c Contract) Decode(x *Tensor, axis int) map[string]*Tensor {
	axis = c.checkAxis("decode", x, axis)
	split := x.Unflatten(axis, c.Sizes...)
	if c.Role == "" {
		return map[string]*Tensor{c.Name: split}
	}
	r := axis + slices.Index(c.Axes, c.Role)
	out := map[string]*Tensor{}
	for v, name := range c.Parts {
		out[name] = split.Select(r, v)
	}
	return out
}

// Copy: Oracle decodes like Decode, but with plain loops over every element
// and the contract's Meaning: the slow reference to check a fast decode
// against. Its results are copies.
func (c Contract) Oracle(x *Tensor, axis int) map[string]*Tensor {
	axis = c.checkAxis("oracle", x, axis)
	outer, inner := x.shape[:axis], x.shape[axis+1:]
	// Each part's shape: the other dimensions, with the axis replaced by
	// the contract's axes other than the role.
	partAxes, partSizes := c.partAxes()
	shape := append(append(append([]int{}, outer...), partSizes...), inner...)
	names := c.Parts
	if c.Role == "" {
		names = []string{c.Name}
	}
	out := map[string]*Tensor{}
	for _, name := range names {
		out[name] = newTensor(x.DType(), shape)
	}
	outerN, innerN := Shape(outer).Numel(), Shape(inner).Numel()
	for o := range outerN {
		for i := range c.Len() {
			meaning := c.Meaning(i)
			name := c.Name
			if c.Role != "" {
				name = c.Parts[meaning[c.Role]]
			}
			p := 0 // the position within the part, in its axes' order
			for a, ax := range partAxes {
				p = p*partSizes[a] + meaning[ax]
			}
			for j := range innerN {
				src := x.Address(unravel(x.shape, (o*c.Len()+i)*innerN+j)...)
				dst := (o*Shape(partSizes).Numel()+p)*innerN + j
				copyElementAt(out[name].storage, dst, x.storage, src)
			}
		}
	}
	return out
}

// unravel turns a row-major flat index into an index of shape.
func unravel(shape []int, flat int) []int {
	idx := make([]int, len(shape))
	for d := len(shape) - 1; d >= 0; d-- {
		idx[d] = flat % shape[d]
		flat /= shape[d]
	}
	return idx
}

// Check decodes axis of x with the Oracle and compares decoded, a fast
// decode, with it: the promise checked. It returns nil if every part
// matches, and otherwise an error naming the first part that differs.
func (c Contract) Check(x *Tensor, axis int, decoded map[string]*Tensor) error {
	want := c.Oracle(x, axis)
	names := make([]string, 0, len(want))
	for name := range want {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		got, ok := decoded[name]
		if !ok {
			return fmt.Errorf("%s: the decode has no part %s", c, name)
		}
		if !got.Equal(want[name]) {
			return fmt.Errorf("%s: part %s differs from the oracle's: got %v, want %v", c, name, got, want[name])
		}
	}
	return nil
}

// Copy: Encode packs parts, given in the order of c.Parts (or the one split
// tensor of a contract without parts), into a new tensor whose axis holds
// them packed by the contract: Decode's inverse. axis counts in the packed
// result, as in Decode; in the parts, the contract's axes other than the
// role sit there in order.
//
//	x := c.Encode(-1, parts["Q"], parts["K"])
func (c Contract) Encode(axis int, parts ...*Tensor) *Tensor {
	c.mustBeValid()
	names := c.Parts
	if c.Role == "" {
		names = []string{c.Name}
	}
	if len(parts) != len(names) {
		fail("encode", "%s has %d parts but %d tensors were given", c, len(names), len(parts))
	}
	for _, p := range parts {
		mustArg("encode", p)
	}
	// The contract's axes the parts carry, and where they sit.
	axes, sizes := c.partAxes()
	first := wrapDim("encode", axis, parts[0].Dim()-len(sizes)+1)
	for i, p := range parts {
		if !slices.Equal(p.shape, parts[0].shape) {
			fail("encode", "%s: part %s has shape %v but part %s has %v", c, names[i], p.Shape(), names[0], parts[0].Shape())
		}
	}
	if first+len(sizes) > parts[0].Dim() || !slices.Equal(parts[0].shape[first:first+len(sizes)], sizes) {
		fail("encode", "%s: parts of shape %v do not hold the axes %v of sizes %v at dimension %d",
			c, parts[0].Shape(), axes, sizes, first)
	}
	// Stack the parts on a new role axis where the role sits in the
	// contract (a copy of the one part if there is no role), then merge
	// the contract's axes.
	joined := Cat(parts, first)
	if c.Role != "" {
		joined = Stack(parts, first+slices.Index(c.Axes, c.Role))
	}
	return joined.Flatten(first, first+len(c.Axes)-1)
}

// partAxes returns the contract's axes other than the role, the axes
// each decoded part keeps, and their sizes.
func (c Contract) partAxes() (axes []string, sizes []int) {
	for a, name := range c.Axes {
		if name != c.Role {
			axes, sizes = append(axes, name), append(sizes, c.Sizes[a])
		}
	}
	return axes, sizes
}
