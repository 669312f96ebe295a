package tensor_test

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/tensornb/tensornb/tensor"
)

// The fixtures are written by testdata/gen_fixtures.py from PyTorch and
// NumPy; see that script for what each field means.
type fixtureFile struct {
	Torch      string
	Chains     []chainCase
	Pairs      []pairCase
	Broadcasts []broadcastCase
	Grads      []gradCase
	Linspace   []struct {
		DType      string
		Start, End float64
		Steps      int
		Values     []value
	}
}

type inputSpec struct {
	Kind   string
	Shape  []int
	DType  string
	Start  value
	Values []value
}

type fixtureError struct {
	Class   string
	Message string
}

type chainCase struct {
	Name      string
	Input     inputSpec
	Ops       [][]any
	Error     *fixtureError
	Tolerance bool
	Expect    *struct {
		DType         string
		Shape         []int
		Strides       []int
		Offset        int
		Values        []value
		Contiguous    bool
		SharesStorage *bool   `json:"shares_storage"`
		RootValues    []value `json:"root_values"`
		Repr          string
		ByteStrides   []int `json:"byte_strides"`
	}
}

type pairCase struct {
	Name   string
	Input  inputSpec
	A, B   [][]any
	Expect struct {
		SharesMemory   bool `json:"shares_memory"`
		MayShareMemory bool `json:"may_share_memory"`
		SharesStorage  bool `json:"shares_storage"`
	}
}

type broadcastCase struct {
	Name   string
	Shapes [][]int
	Error  *fixtureError
	Expect *struct{ Shape []int }
}

func loadFixtures(t *testing.T) *fixtureFile {
	t.Helper()
	f, err := os.Open("testdata/fixtures.json")
	if err != nil {
		t.Fatalf("%v (regenerate with /usr/bin/python3 tensor/testdata/gen_fixtures.py)", err)
	}
	defer f.Close()
	dec := json.NewDecoder(f)
	dec.UseNumber()
	var fx fixtureFile
	if err := dec.Decode(&fx); err != nil {
		t.Fatal(err)
	}
	return &fx
}

var dtypes = map[string]tensor.DType{
	"float32": tensor.Float32, "float64": tensor.Float64, "int64": tensor.Int64, "int32": tensor.Int32,
	"uint8": tensor.Uint8, "bool": tensor.Bool, "float16": tensor.Float16, "bfloat16": tensor.BFloat16,
}

// makeInput builds the tensor an input spec describes, as the generator's
// make_input does: float64 values converted to the dtype.
func makeInput(s inputSpec) *tensor.Tensor {
	n := tensor.Shape(s.Shape).Numel()
	if x, ok := exactInput(s, n); ok {
		return x
	}
	vals := make([]float64, n)
	for i := range vals {
		if s.Kind == "arange" {
			vals[i] = number(s.Start) + float64(i)
			if s.DType == "bool" {
				vals[i] = math.Mod(vals[i], 2)
			}
		} else {
			vals[i] = number(s.Values[i])
		}
	}
	var x *tensor.Tensor
	if len(s.Shape) == 0 {
		x = tensor.Float64.Scalar(vals[0])
	} else {
		x = tensor.New(vals, s.Shape...)
	}
	return x.To(dtypes[s.DType])
}

// A value is one element in a fixture: a JSON number, or "nan", "inf" or
// "-inf" as a string.
type value string

func (v *value) UnmarshalJSON(b []byte) error {
	*v = value(strings.Trim(string(b), `"`))
	return nil
}

// exactInput builds an integer input from exact int64 values, as the
// generator does, when its values are all integers.
func exactInput(s inputSpec, n int) (*tensor.Tensor, bool) {
	dt := dtypes[s.DType]
	if dt.IsFloatingPoint() || dt == tensor.Bool {
		return nil, false
	}
	vals := make([]int64, n)
	for i := range vals {
		if s.Kind == "arange" {
			start, err := strconv.ParseInt(string(s.Start), 10, 64)
			if err != nil {
				return nil, false
			}
			vals[i] = start + int64(i)
			continue
		}
		v, err := strconv.ParseInt(string(s.Values[i]), 10, 64)
		if err != nil {
			return nil, false
		}
		vals[i] = v
	}
	if len(s.Shape) == 0 {
		return tensor.Int64.Scalar(vals[0]).To(dt), true
	}
	return tensor.New(vals, s.Shape...).To(dt), true
}

func number(n value) float64 {
	switch n {
	case "nan":
		return math.NaN()
	case "inf":
		return math.Inf(1)
	case "-inf":
		return math.Inf(-1)
	case "true":
		return 1
	case "false":
		return 0
	}
	f, err := strconv.ParseFloat(string(n), 64)
	if err != nil {
		panic(err)
	}
	return f
}

// Arguments arrive from JSON as float64, json.Number, nil, []any or maps.
func argInt(a any) int {
	switch v := a.(type) {
	case json.Number:
		i, err := v.Int64()
		if err != nil {
			panic(fmt.Sprintf("fixture argument %v is not an int", v))
		}
		return int(i)
	case nil:
		return tensor.End
	}
	panic(fmt.Sprintf("fixture argument %#v is not an int", a))
}

func argInts(args []any) []int {
	out := make([]int, len(args))
	for i, a := range args {
		out[i] = argInt(a)
	}
	return out
}

func argList(a any) []int { return argInts(a.([]any)) }

func argFloat(a any) float64 { return number(value(a.(json.Number))) }

// argScalar is a Python number as the Go value a cell would pass for it:
// an int for an int (as -5 and 300 are written), a float64 otherwise, so
// that writes convert, and refuse, as PyTorch does for each kind.
func argScalar(a any) any {
	if s, ok := a.(string); ok { // "nan", "inf", "-inf"
		return number(value(s))
	}
	n := a.(json.Number)
	if i, err := strconv.ParseInt(string(n), 10, 64); err == nil {
		return int(i)
	}
	return number(value(n))
}

// gradState holds the tensors a gradient case made, as the generator's
// GRAD does: the leaves that require grad, in order, and the tensors saved
// by name.
var gradState struct {
	leaves []*tensor.Tensor
	saved  map[string]*tensor.Tensor
}

// operand builds an operation's second operand.
func operand(spec any, root *tensor.Tensor) any {
	m := spec.(map[string]any)
	switch {
	case m["int"] != nil:
		return argInt(m["int"])
	case m["float"] != nil:
		return argFloat(m["float"])
	case m["bool"] != nil:
		return m["bool"].(bool)
	case m["input"] != nil:
		raw, _ := json.Marshal(m["input"])
		var s inputSpec
		if err := json.Unmarshal(raw, &s); err != nil {
			panic(err)
		}
		x := makeInput(s)
		if m["grad"] == true {
			x.SetRequiresGrad(true)
			gradState.leaves = append(gradState.leaves, x)
		}
		return x
	case m["saved"] != nil:
		return gradState.saved[m["saved"].(string)]
	case m["root"] != nil:
		x := root
		for _, op := range m["root"].([]any) {
			x = applyOp(x, root, op.([]any))
		}
		return x
	}
	panic(fmt.Sprintf("unknown operand %v", spec))
}

func operandTensor(spec any, root *tensor.Tensor) *tensor.Tensor {
	return operand(spec, root).(*tensor.Tensor)
}

// pick is the generator's pick, Python's result[i] on the tuple a split
// returns: a position past its end is Python's IndexError, which the
// fixture records, not the package's.
func pick(ts []*tensor.Tensor, i int) *tensor.Tensor {
	if i < 0 {
		i += len(ts)
	}
	if i < 0 || i >= len(ts) {
		panic(&tensor.Error{Op: "pick", Class: "IndexError", Message: "tuple index out of range"})
	}
	return ts[i]
}

func inputTensor(a any) *tensor.Tensor { return operandTensor(map[string]any{"input": a}, nil) }

// applyOp applies one fixture operation to x, as the generator's apply does
// in PyTorch.
func applyOp(x, root *tensor.Tensor, op []any) *tensor.Tensor {
	name, args := op[0].(string), op[1:]
	switch name {
	case "view":
		return x.View(argInts(args)...)
	case "reshape":
		return x.Reshape(argInts(args)...)
	case "transpose":
		return x.Transpose(argInt(args[0]), argInt(args[1]))
	case "permute":
		return x.Permute(argInts(args)...)
	case "T": // NumPy's and PyTorch's .T: every dimension reversed
		return x.ReverseDims()
	case "t":
		return x.T()
	case "mT":
		return x.MT()
	case "movedim":
		return x.MoveDim(argInt(args[0]), argInt(args[1]))
	case "squeeze":
		return x.Squeeze(argInts(args)...)
	case "unsqueeze":
		return x.Unsqueeze(argInt(args[0]))
	case "narrow":
		return x.Narrow(argInt(args[0]), argInt(args[1]), argInt(args[2]))
	case "slice":
		return x.Slice(argInt(args[0]), argInt(args[1]), argInt(args[2]), argInt(args[3]))
	case "select":
		return x.Select(argInt(args[0]), argInt(args[1]))
	case "unfold":
		return x.Unfold(argInt(args[0]), argInt(args[1]), argInt(args[2]))
	case "diagonal":
		return x.Diagonal(argInt(args[0]), argInt(args[1]), argInt(args[2]))
	case "expand":
		return x.Expand(argInts(args)...)
	case "broadcast_to":
		return x.BroadcastTo(argInts(args)...)
	case "as_strided":
		return x.AsStrided(argList(args[0]), argList(args[1]), argInt(args[2]))
	case "chunk":
		return pick(x.Chunk(argInt(args[0]), argInt(args[1])), argInt(args[2]))
	case "split":
		return pick(x.Split(argInt(args[0]), argInt(args[1])), argInt(args[2]))
	case "split_sizes":
		return pick(x.SplitSizes(argList(args[0]), argInt(args[1])), argInt(args[2]))
	case "tensor_split":
		return pick(x.TensorSplit(argInt(args[0]), argInt(args[1])), argInt(args[2]))
	case "tensor_split_at":
		return pick(x.TensorSplitAt(argList(args[0]), argInt(args[1])), argInt(args[2]))
	case "unbind":
		return pick(x.Unbind(argInt(args[0])), argInt(args[1]))
	case "unflatten":
		return x.Unflatten(argInt(args[0]), argList(args[1])...)
	case "flatten":
		return x.Flatten(argInts(args)...)
	case "ravel":
		return x.Ravel()
	case "flatten_copy":
		return x.FlattenCopy()
	case "contiguous":
		return x.Contiguous()
	case "clone":
		return x.Clone()
	case "repeat":
		return x.Repeat(argInts(args)...)
	case "tile":
		return x.Tile(argInts(args)...)
	case "index_select":
		return x.IndexSelect(argInt(args[0]), inputTensor(args[1]))
	case "gather":
		return x.Gather(argInt(args[0]), inputTensor(args[1]))
	case "masked_select":
		return x.MaskedSelect(inputTensor(args[0]))
	case "index":
		return x.Index(args[0].(string))
	case "to":
		return x.To(dtypes[args[0].(string)])
	case "add":
		return x.Add(operand(args[0], root))
	case "sub":
		return x.Sub(operand(args[0], root))
	case "mul":
		return x.Mul(operand(args[0], root))
	case "div":
		return x.Div(operand(args[0], root))
	case "eq":
		return x.Eq(operand(args[0], root))
	case "ne":
		return x.Ne(operand(args[0], root))
	case "lt":
		return x.Lt(operand(args[0], root))
	case "le":
		return x.Le(operand(args[0], root))
	case "gt":
		return x.Gt(operand(args[0], root))
	case "ge":
		return x.Ge(operand(args[0], root))
	case "neg":
		return x.Neg()
	case "add_":
		return x.AddInPlace(operand(args[0], root))
	case "sub_":
		return x.SubInPlace(operand(args[0], root))
	case "mul_":
		return x.MulInPlace(operand(args[0], root))
	case "div_":
		return x.DivInPlace(operand(args[0], root))
	case "fill_":
		return x.Fill(argScalar(args[0]))
	case "copy_":
		return x.CopyFrom(operandTensor(args[0], root))
	case "setitem":
		x.Set(argScalar(args[1]), argList(args[0])...)
		return x
	case "sum", "mean", "max", "min":
		dims, keep := argList(args[0]), args[1].(bool)
		reduce := map[string][2]func(...int) *tensor.Tensor{
			"sum":  {x.Sum, x.SumKeepDim},
			"mean": {x.Mean, x.MeanKeepDim},
			"max":  {x.Max, x.MaxKeepDim},
			"min":  {x.Min, x.MinKeepDim},
		}[name]
		if keep {
			return reduce[1](dims...)
		}
		return reduce[0](dims...)
	case "argmax", "argmin":
		keep := args[1].(bool)
		var dims []int
		if args[0] != nil {
			dims = []int{argInt(args[0])}
		}
		switch {
		case name == "argmax" && keep:
			return x.ArgmaxKeepDim(dims[0])
		case name == "argmax":
			return x.Argmax(dims...)
		case keep:
			return x.ArgminKeepDim(dims[0])
		}
		return x.Argmin(dims...)
	case "matmul":
		return x.Matmul(operandTensor(args[0], root))
	case "pixel_shuffle":
		return x.PixelShuffle(argInt(args[0]))
	case "pixel_unshuffle":
		return x.PixelUnshuffle(argInt(args[0]))
	case "rearrange":
		// args[2] is the PyTorch chain the pattern stands for.
		sizes := tensor.Sizes{}
		for name, v := range args[1].(map[string]any) {
			sizes[name] = argInt(v)
		}
		return tensor.Rearrange(x, args[0].(string), sizes)
	case "amax", "amin":
		// With no dims, the generator calls max() or min() of all elements.
		if len(argList(args[0])) == 0 && name == "amax" {
			return x.Max()
		} else if len(argList(args[0])) == 0 {
			return x.Min()
		}
		return applyOp(x, root, append([]any{map[string]string{"amax": "max", "amin": "min"}[name]}, args...))
	case "cat", "stack":
		ts := []*tensor.Tensor{x}
		for _, o := range args[0].([]any) {
			ts = append(ts, operandTensor(o, root))
		}
		if name == "cat" {
			return tensor.Cat(ts, argInt(args[1]))
		}
		return tensor.Stack(ts, argInt(args[1]))
	case "save":
		gradState.saved[args[0].(string)] = x
		return x
	case "load":
		return gradState.saved[args[0].(string)]
	case "on":
		// Apply a chain to a saved tensor (or the input) for its effects.
		t := root
		if args[0] != "root" {
			t = gradState.saved[args[0].(string)]
		}
		for _, op := range args[1].([]any) {
			t = applyOp(t, root, op.([]any))
		}
		return x
	case "no_grad":
		tensor.NoGrad(func() {
			for _, op := range args[0].([]any) {
				x = applyOp(x, root, op.([]any))
			}
		})
		return x
	case "detach":
		return x.Detach()
	case "requires_grad_":
		return x.SetRequiresGrad(args[0].(bool))
	case "retain_grad":
		return x.RetainGrad()
	case "decode":
		sizes := map[string]int{}
		for k, v := range args[1].(map[string]any) {
			sizes[k] = argInt(v)
		}
		contract := map[string]func() tensor.Contract{
			"interleaved": func() tensor.Contract { return tensor.InterleavedByHead(sizes["h"], sizes["d"]) },
			"blocked":     func() tensor.Contract { return tensor.BlockedByRole(sizes["h"], sizes["d"]) },
			"fused_qkv":   func() tensor.Contract { return tensor.FusedQKV(sizes["h"], sizes["d"]) },
			"pixel":       func() tensor.Contract { return tensor.PixelUnshuffleChannels(sizes["c"], sizes["h"]) },
		}[args[0].(string)]()
		parts := contract.Decode(x, argInt(args[2]))
		if contract.Role == "" {
			return parts[contract.Name]
		}
		return parts[contract.Parts[argInt(args[3])]]
	}
	panic("unknown fixture operation " + name)
}

// run applies the ops and returns the result, or the *tensor.Error they
// panicked with. Any other panic fails the test: no input may make the
// package panic with a Go runtime error.
func run(t *testing.T, f func() *tensor.Tensor) (result *tensor.Tensor, err *tensor.Error) {
	t.Helper()
	defer func() {
		if r := recover(); r != nil {
			e, ok := r.(*tensor.Error)
			if !ok {
				t.Fatalf("panic that is not a *tensor.Error: %v", r)
			}
			err = e
		}
	}()
	return f(), nil
}

func TestFixturesChains(t *testing.T) {
	fx := loadFixtures(t)
	if len(fx.Chains) < 500 {
		t.Fatalf("only %d chain fixtures", len(fx.Chains))
	}
	for _, c := range fx.Chains {
		t.Run(c.Name, func(t *testing.T) {
			root := makeInput(c.Input)
			got, err := run(t, func() *tensor.Tensor {
				x := root
				for _, op := range c.Ops {
					x = applyOp(x, root, op)
				}
				return x
			})
			if c.Error != nil {
				checkError(t, err, c.Error)
				return
			}
			if err != nil {
				t.Fatalf("PyTorch succeeds, we fail: %v", err)
			}
			e := c.Expect
			if got.DType().String() != e.DType || !slices.Equal(got.Shape(), e.Shape) || !slices.Equal(got.Strides(), e.Strides) || got.StorageOffset() != e.Offset {
				t.Fatalf("layout: got %s %v strides %v offset %d, PyTorch %s %v strides %v offset %d",
					got.DType(), got.Shape(), got.Strides(), got.StorageOffset(), e.DType, e.Shape, e.Strides, e.Offset)
			}
			checkValues(t, "values", got, e.Values, c.Tolerance)
			checkValues(t, "input after the ops", root, e.RootValues, false)
			if got.IsContiguous() != e.Contiguous {
				t.Errorf("IsContiguous = %v, PyTorch %v", got.IsContiguous(), e.Contiguous)
			}
			if e.SharesStorage != nil && got.SharesStorage(root) != *e.SharesStorage {
				t.Errorf("SharesStorage(input) = %v, PyTorch %v", got.SharesStorage(root), *e.SharesStorage)
			}
			if e.ByteStrides != nil && !slices.Equal(got.ByteStrides(), e.ByteStrides) {
				t.Errorf("ByteStrides = %v, NumPy %v", got.ByteStrides(), e.ByteStrides)
			}
			if !c.Tolerance && got.String() != e.Repr {
				t.Errorf("String:\n%s\nPyTorch:\n%s", got, e.Repr)
			}
		})
	}
}

func checkError(t *testing.T, err *tensor.Error, want *fixtureError) {
	t.Helper()
	if err == nil {
		t.Fatalf("PyTorch raises %s: %s; we do not", want.Class, want.Message)
	}
	// The generator keeps the first line of PyTorch's message.
	if first, _, _ := strings.Cut(err.Message, "\n"); err.Class != want.Class || first != want.Message {
		t.Fatalf("error:\n got %s: %s\nwant %s: %s", err.Class, err.Message, want.Class, want.Message)
	}
}

// checkValues compares x's elements with the expected ones: exactly (NaN
// equal to NaN), or within float32 rounding when the case says so.
func checkValues(t *testing.T, what string, x *tensor.Tensor, want []value, tolerance bool) {
	t.Helper()
	if x.Numel() != len(want) {
		t.Fatalf("%s: %d elements, PyTorch %d", what, x.Numel(), len(want))
	}
	if !x.DType().IsFloatingPoint() {
		got := x.Int64s()
		for i, w := range want {
			wi, err := strconv.ParseInt(string(w), 10, 64)
			if err != nil || got[i] != wi {
				t.Fatalf("%s[%d] = %d, PyTorch %s (all: %v)", what, i, got[i], w, got)
			}
		}
		return
	}
	got := x.Float64s()
	for i, w := range want {
		g, wf := got[i], number(w)
		same := g == wf || (math.IsNaN(g) && math.IsNaN(wf))
		if !same && tolerance {
			same = math.Abs(g-wf) <= 1e-5*math.Max(1, math.Abs(wf))
		}
		if !same {
			t.Fatalf("%s[%d] = %v, PyTorch %v (all: %v)", what, i, g, wf, got)
		}
	}
}

func TestFixturesPairs(t *testing.T) {
	fx := loadFixtures(t)
	for _, c := range fx.Pairs {
		t.Run(c.Name, func(t *testing.T) {
			root := makeInput(c.Input)
			a, b := root, root
			for _, op := range c.A {
				a = applyOp(a, root, op)
			}
			for _, op := range c.B {
				b = applyOp(b, root, op)
			}
			if got := a.SharesMemory(b); got != c.Expect.SharesMemory {
				t.Errorf("SharesMemory = %v, np.shares_memory %v", got, c.Expect.SharesMemory)
			}
			if got := a.MayShareMemory(b); got != c.Expect.MayShareMemory {
				t.Errorf("MayShareMemory = %v, np.may_share_memory %v", got, c.Expect.MayShareMemory)
			}
			if got := a.SharesStorage(b); got != c.Expect.SharesStorage {
				t.Errorf("SharesStorage = %v, PyTorch %v", got, c.Expect.SharesStorage)
			}
		})
	}
}

func TestFixturesBroadcastShapes(t *testing.T) {
	fx := loadFixtures(t)
	for _, c := range fx.Broadcasts {
		t.Run(c.Name, func(t *testing.T) {
			shapes := make([]tensor.Shape, len(c.Shapes))
			for i, s := range c.Shapes {
				shapes[i] = s
			}
			var got tensor.Shape
			_, err := run(t, func() *tensor.Tensor { got = tensor.BroadcastShapes(shapes...); return nil })
			if c.Error != nil {
				checkError(t, err, c.Error)
				return
			}
			if err != nil || !slices.Equal(got, c.Expect.Shape) {
				t.Fatalf("BroadcastShapes = %v (%v), PyTorch %v", got, err, c.Expect.Shape)
			}
		})
	}
}

func TestFixturesLinspace(t *testing.T) {
	fx := loadFixtures(t)
	failures := 0
	for _, c := range fx.Linspace {
		got := dtypes[c.DType].Linspace(c.Start, c.End, c.Steps)
		want := make([]float64, len(c.Values))
		for i, v := range c.Values {
			want[i] = number(v)
		}
		if !slices.Equal(got.Float64s(), want) {
			failures++
			if failures <= 10 {
				t.Errorf("%s.Linspace(%v, %v, %d):\n got %v\nwant %v", c.DType, c.Start, c.End, c.Steps, got.Float64s(), want)
			}
		}
	}
	if failures > 0 {
		t.Errorf("%d of %d Linspace cases differ from PyTorch", failures, len(fx.Linspace))
	}
}
