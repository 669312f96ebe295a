package tensor_test

import (
	"errors"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/tensornb/tensornb/internal/storagecount"
	"github.com/tensornb/tensornb/tensor"
)

// panicOf calls f and returns what it panicked with, or nil.
func panicOf(f func()) (r any) {
	defer func() { r = recover() }()
	f()
	return nil
}

// callWithZeroArgs calls method with zero values for every parameter and
// no variadic arguments.
func callWithZeroArgs(method reflect.Value) {
	t := method.Type()
	n := t.NumIn()
	if t.IsVariadic() {
		n--
	}
	args := make([]reflect.Value, n)
	for i := range args {
		args[i] = reflect.Zero(t.In(i))
	}
	method.Call(args)
}

// Every method on a nil or zero *Tensor refuses with a *tensor.Error
// rather than a nil dereference; String prints "<nil>".
func TestNilTensorMethods(t *testing.T) {
	for _, x := range []*tensor.Tensor{nil, new(tensor.Tensor)} {
		v := reflect.ValueOf(x)
		for i := range v.NumMethod() {
			name := v.Type().Method(i).Name
			if name == "String" {
				continue
			}
			r := panicOf(func() { callWithZeroArgs(v.Method(i)) })
			if _, ok := r.(*tensor.Error); !ok {
				t.Errorf("%s on %#v: panicked with %v, want a *tensor.Error", name, x, r)
			}
		}
	}
	var x *tensor.Tensor
	if got := x.String(); got != "<nil>" {
		t.Errorf("nil String() = %q", got)
	}
}

// Methods that take other tensors refuse nil ones with a *tensor.Error;
// SetGrad(nil) alone is meaningful (it clears the gradient).
// A nil or zero *Storage reads as an empty one: every method answers, or
// refuses with a *tensor.Error (an index out of bounds), and never panics
// otherwise.
func TestNilStorageMethods(t *testing.T) {
	for _, s := range []*tensor.Storage{nil, new(tensor.Storage)} {
		if s.Len() != 0 || s.NBytes() != 0 || s.DataPtr() != 0 {
			t.Errorf("%#v: Len %d, NBytes %d, DataPtr %d; want an empty storage", s, s.Len(), s.NBytes(), s.DataPtr())
		}
		v := reflect.ValueOf(s)
		for i := range v.NumMethod() {
			name := v.Type().Method(i).Name
			if r := panicOf(func() { callWithZeroArgs(v.Method(i)) }); r != nil {
				if _, ok := r.(*tensor.Error); !ok {
					t.Errorf("%s on %#v: panicked with %v, want an answer or a *tensor.Error", name, s, r)
				}
			}
		}
	}
}

func TestNilTensorArguments(t *testing.T) {
	x := tensor.Arange(6)
	v := reflect.ValueOf(x)
	tensorType := reflect.TypeOf(x)
	checked := 0
	for i := range v.NumMethod() {
		m := v.Method(i)
		takesTensor := false
		for j := range m.Type().NumIn() {
			takesTensor = takesTensor || m.Type().In(j) == tensorType
		}
		if !takesTensor || v.Type().Method(i).Name == "SetGrad" {
			continue
		}
		checked++
		r := panicOf(func() { callWithZeroArgs(m) })
		if _, ok := r.(*tensor.Error); !ok {
			t.Errorf("%s(nil): panicked with %v, want a *tensor.Error", v.Type().Method(i).Name, r)
		}
	}
	if checked < 10 {
		t.Fatalf("only %d methods take a *Tensor; the reflection walk is broken", checked)
	}
	for _, op := range []func(){
		func() { x.Add((*tensor.Tensor)(nil)) },
		func() { x.Add([]int{1}) },
		func() { tensor.New(map[int]int{}) },
		func() { tensor.Scalar("3") },
		func() { tensor.Cat([]*tensor.Tensor{x, nil}, 0) },
		func() { tensor.Stack([]*tensor.Tensor{nil}, 0) },
	} {
		if _, ok := panicOf(op).(*tensor.Error); !ok {
			t.Errorf("bad operand did not panic with a *tensor.Error")
		}
	}
}

func TestTry(t *testing.T) {
	err := tensor.Try(func() { tensor.Arange(6).View(4) })
	var e *tensor.Error
	if !errors.As(err, &e) || e.Op != "view" || e.Class != "RuntimeError" || !strings.Contains(e.Message, "invalid for input of size 6") {
		t.Fatalf("Try = %#v", err)
	}
	if err := tensor.Try(func() {}); err != nil {
		t.Fatalf("Try of a quiet function = %v", err)
	}
	r := panicOf(func() { _ = tensor.Try(func() { panic("not ours") }) })
	if r != "not ours" {
		t.Fatalf("Try swallowed a foreign panic: %v", r)
	}
}

// Sizes too large to allocate are refused with a message, not left to Go's
// allocator (whose failure would be a runtime panic or a fatal error).
func TestHugeSizesRefused(t *testing.T) {
	for name, op := range map[string]func(){
		"zeros":      func() { tensor.Zeros(1<<21, 1<<21) },
		"overflow":   func() { tensor.Zeros(1<<32, 1<<32, 1<<32) },
		"arange":     func() { tensor.Float64.Arange(0, 1e300) },
		"arange nan": func() { tensor.Float64.Arange(0, 1, math.NaN()) },
		"repeat":     func() { tensor.Arange(4).Repeat(math.MaxInt / 2) },
		"expand add": func() { tensor.Arange(1).Expand(1<<30, 1<<20).Add(1) },
		"linspace":   func() { tensor.Linspace(0, 1, 1<<50) },
		"split":      func() { tensor.Arange(4).TensorSplit(math.MaxInt, 0) },
		"as_strided": func() { tensor.Arange(4).AsStrided(tensor.Shape{2}, tensor.Strides{1}, math.MaxInt) },
		"big stride": func() { tensor.Arange(4).AsStrided(tensor.Shape{3}, tensor.Strides{math.MaxInt / 2}, 0) },
		"shuffle":    func() { tensor.Zeros(1, 4, 2, 2).PixelShuffle(1 << 32) },
		"shuffle 0":  func() { tensor.Zeros(1, 0, 2, 2).PixelShuffle(1 << 32) },
		"chunks":     func() { tensor.Zeros(0).Chunk(math.MaxInt, 0) },
		"no memory":  func() { tensor.Scalar(1.0).Expand(1<<20, 1<<20).Contiguous() },
	} {
		if _, ok := panicOf(op).(*tensor.Error); !ok {
			t.Errorf("%s: want a *tensor.Error", name)
		}
	}
	// A huge view costs nothing: it is only arithmetic.
	e := tensor.Arange(1).Expand(1<<30, 1<<20)
	if e.Numel() != 1<<50 || e.Strides().String() != "(0, 0)" {
		t.Fatalf("huge expand: %v %v", e.Shape(), e.Strides())
	}
}

func TestSliceExtremes(t *testing.T) {
	x := tensor.Arange(10)
	for _, c := range []struct{ start, stop, step, want int }{
		{0, tensor.End, math.MaxInt, 1},
		{math.MinInt, math.MaxInt, 3, 4},
		{-3, math.MinInt, 1, 0},
		{9, tensor.End, math.MaxInt, 1},
	} {
		if got := x.Slice(0, c.start, c.stop, c.step).Numel(); got != c.want {
			t.Errorf("x[%d:%d:%d] has %d elements, want %d", c.start, c.stop, c.step, got, c.want)
		}
	}
}

func TestManualSeed(t *testing.T) {
	tensor.ManualSeed(7)
	a := tensor.Randn(1000)
	tensor.ManualSeed(7)
	b := tensor.Randn(1000)
	if !a.Equal(b) {
		t.Fatal("the same seed gave different values")
	}
	tensor.ManualSeed(8)
	if tensor.Randn(1000).Equal(a) {
		t.Fatal("different seeds gave the same values")
	}
	tensor.ManualSeed(1)
	u := tensor.Rand(100000)
	if lo, hi := u.Min().Item(), u.Max().Item(); lo < 0 || hi >= 1 {
		t.Fatalf("Rand outside [0, 1): %v..%v", lo, hi)
	}
	n := tensor.Float64.Randn(100000)
	mean := n.Mean().Item()
	std := math.Sqrt(n.Sub(mean).Mul(n.Sub(mean)).Mean().Item())
	if math.Abs(mean) > 0.02 || math.Abs(std-1) > 0.02 {
		t.Fatalf("Randn mean %v, std %v", mean, std)
	}
	for _, dt := range []tensor.DType{tensor.Float16, tensor.BFloat16} {
		if hi := dt.Rand(10000).Max().Item(); hi >= 1 {
			t.Fatalf("%s Rand reached %v", dt, hi)
		}
	}
	if _, ok := panicOf(func() { tensor.Int64.Rand(3) }).(*tensor.Error); !ok {
		t.Fatal("Rand of an integer dtype did not refuse")
	}
}

func TestConstructors(t *testing.T) {
	for _, c := range []struct {
		x     *tensor.Tensor
		dtype tensor.DType
		shape string
		vals  []float64
	}{
		{tensor.Arange(3), tensor.Int64, "(3,)", []float64{0, 1, 2}},
		{tensor.Arange(2, 8, 3), tensor.Int64, "(2,)", []float64{2, 5}},
		{tensor.Float32.Arange(0, 1, 0.25), tensor.Float32, "(4,)", []float64{0, 0.25, 0.5, 0.75}},
		{tensor.Float64.Arange(5, 0, -2), tensor.Float64, "(3,)", []float64{5, 3, 1}},
		{tensor.Linspace(0, 1, 5), tensor.Float32, "(5,)", []float64{0, 0.25, 0.5, 0.75, 1}},
		{tensor.Linspace(2, 3, 1), tensor.Float32, "(1,)", []float64{2}},
		{tensor.Full(7.5, 2), tensor.Float32, "(2,)", []float64{7.5, 7.5}},
		{tensor.Full(7, 2), tensor.Int64, "(2,)", []float64{7, 7}},
		{tensor.Full(true, 1), tensor.Bool, "(1,)", []float64{1}},
		{tensor.Int32.Full(2.9, 1), tensor.Int32, "(1,)", []float64{2}},
		{tensor.Int32.Ones(1, 2), tensor.Int32, "(1, 2)", []float64{1, 1}},
		{tensor.Empty(0, 3), tensor.Float32, "(0, 3)", nil},
		{tensor.Scalar(3), tensor.Int64, "()", []float64{3}},
		{tensor.Scalar(2.5), tensor.Float32, "()", []float64{2.5}},
		{tensor.Scalar(true), tensor.Bool, "()", []float64{1}},
		{tensor.New([]int{1, 2, 3, 4}, 2, 2), tensor.Int64, "(2, 2)", []float64{1, 2, 3, 4}},
		{tensor.New([]bool{true, false}), tensor.Bool, "(2,)", []float64{1, 0}},
		{tensor.New([]uint8{255}), tensor.Uint8, "(1,)", []float64{255}},
	} {
		if c.x.DType() != c.dtype || c.x.Shape().String() != c.shape || !slices.Equal(c.x.Float64s(), c.vals) && len(c.vals) > 0 {
			t.Errorf("got %s %v %v, want %s %s %v", c.x.DType(), c.x.Shape(), c.x.Float64s(), c.dtype, c.shape, c.vals)
		}
	}
	for name, op := range map[string]func(){
		"new size":       func() { tensor.New([]float32{1, 2, 3}, 2, 2) },
		"new negative":   func() { tensor.New([]float32{}, -1) },
		"arange sign":    func() { tensor.Arange(5, 0) },
		"arange zero":    func() { tensor.Arange(0, 5, 0) },
		"arange args":    func() { tensor.Arange() },
		"linspace steps": func() { tensor.Linspace(0, 1, -1) },
		"bad dtype":      func() { tensor.DType(42).Zeros(1) },
	} {
		if _, ok := panicOf(op).(*tensor.Error); !ok {
			t.Errorf("%s: want a *tensor.Error", name)
		}
	}
	// New copies its data.
	data := []float32{1, 2}
	x := tensor.New(data)
	data[0] = 9
	if x.At(0) != 1 {
		t.Fatal("New shares the caller's slice")
	}
}

func TestAddressesAndBase(t *testing.T) {
	x := tensor.Float64.Arange(12).View(3, 4)
	root := x.Base()
	if root == nil || root.IsView() || !x.IsView() {
		t.Fatalf("View of an Arange: base %v, IsView %v", root, x.IsView())
	}
	s := x.Index("1:, 1::2")
	if s.Base() != root {
		t.Fatal("a view of a view does not report the owning tensor as its base")
	}
	if got := s.DataPtr() - x.Storage().DataPtr(); got != uintptr(s.StorageOffset()*8) {
		t.Fatalf("DataPtr - storage base = %d, want offset %d × 8 bytes", got, s.StorageOffset())
	}
	c := s.Clone()
	if c.IsView() || c.Base() != nil || c.SharesStorage(x) {
		t.Fatal("a clone reports itself as a view")
	}
	if x.Storage().Len() != 12 || x.Storage().NBytes() != 96 || x.Storage().DType() != tensor.Float64 || x.Storage().At(5) != 5 {
		t.Fatal("storage accessors")
	}
	if _, ok := panicOf(func() { x.Storage().At(12) }).(*tensor.Error); !ok {
		t.Fatal("Storage.At out of range did not refuse")
	}
	if x.Device() != "cpu" || x.ElementSize() != 8 || x.Dim() != 2 || x.Size(-1) != 4 || x.Stride(0) != 4 {
		t.Fatal("introspection")
	}
	if tensor.Zeros(0).Storage().DataPtr() != 0 || tensor.Zeros(0).DataPtr() != 0 {
		t.Fatal("an empty storage has a data pointer")
	}
}

func TestElementAccess(t *testing.T) {
	x := tensor.Int64.Arange(6).View(2, 3)
	if x.At(-1, -1) != 5 || tensor.Scalar(4).Item() != 4 {
		t.Fatal("At with negative indices")
	}
	for name, op := range map[string]func(){
		"too few":    func() { x.At(1) },
		"too many":   func() { x.At(1, 1, 1) },
		"range":      func() { x.Set(1, 2, 0) },
		"item":       func() { x.Item() },
		"item empty": func() { tensor.Zeros(0).Item() },
		"0-d size":   func() { tensor.Scalar(1.0).Size(0) },
		"0-d stride": func() { tensor.Scalar(1.0).Stride(-1) },
		"uint64":     func() { x.Add(uint64(1 << 63)) },
	} {
		if _, ok := panicOf(op).(*tensor.Error); !ok {
			t.Errorf("%s: want a *tensor.Error", name)
		}
	}
	// Go integers stay exact, as Python's do in PyTorch.
	x.Set(int64(1<<53+1), 0, 0)
	if x.Int64s()[0] != 1<<53+1 || tensor.Arange(1<<60, 1<<60+2).Int64s()[1] != 1<<60+1 {
		t.Fatal("integers beyond 2^53 lost precision")
	}
	big := tensor.New([]int64{math.MaxInt64, math.MinInt64})
	if got := big.Int64s(); got[0] != math.MaxInt64 || got[1] != math.MinInt64 {
		t.Fatalf("Int64s lost precision: %v", got)
	}
	if got := big.To(tensor.Int32).To(tensor.Int64).Int64s(); got[0] != -1 || got[1] != 0 {
		t.Fatalf("int64 → int32 does not wrap as C does: %v", got)
	}
}

func TestAllClose(t *testing.T) {
	a := tensor.New([]float32{1, 2, float32(math.Inf(1))})
	b := tensor.New([]float32{1, 2.00001, float32(math.Inf(1))})
	if !a.AllClose(b) || a.Equal(b) {
		t.Fatal("AllClose/Equal of nearly equal tensors")
	}
	if a.AllClose(tensor.New([]float32{1, 2.1, float32(math.Inf(1))})) {
		t.Fatal("AllClose of different tensors")
	}
	if a.AllClose(tensor.New([]float32{1, 2, float32(math.Inf(-1))})) {
		t.Fatal("AllClose of +inf and -inf")
	}
	if !tensor.New([]float32{1, 1}).AllClose(tensor.New([]float32{1})) {
		t.Fatal("AllClose does not broadcast")
	}
	if tensor.Zeros(2).Equal(tensor.Zeros(2, 1)) {
		t.Fatal("Equal of different shapes")
	}
}

// loopValues reads every element of x by computing its address by hand,
// the slow reference for the fast copy kernels.
func loopValues(x *tensor.Tensor) []float64 {
	var out []float64
	idx := make([]int, x.Dim())
	for range x.Numel() {
		addr := x.StorageOffset()
		for d, i := range idx {
			addr += i * x.Stride(d)
		}
		out = append(out, x.Storage().At(addr))
		for d := x.Dim() - 1; d >= 0; d-- {
			idx[d]++
			if idx[d] < x.Size(d) {
				break
			}
			idx[d] = 0
		}
	}
	return out
}

// Copies large enough to take the tiled and parallel paths give the values
// a loop over addresses gives.
func TestLargeCopiesMatchLoops(t *testing.T) {
	for _, dt := range []tensor.DType{tensor.Float32, tensor.Float64, tensor.Int32, tensor.Uint8, tensor.Float16} {
		base := tensor.Float64.Arange(3*70*300).To(dt).View(3, 70, 300)
		for name, x := range map[string]*tensor.Tensor{
			"transpose":     base.Transpose(1, 2),
			"permute":       base.Permute(2, 0, 1),
			"stepped":       base.Index(":, 1::3, ::2").Transpose(0, 2),
			"expanded":      base.Select(1, 5).Unsqueeze(1).Expand(3, 40, 300).Transpose(1, 2),
			"odd transpose": base.Index(":, :67, :299").MT(),
			"big transpose": tensor.Float64.Arange(600*530).To(dt).View(600, 530).T(),
			"channels last": base.Permute(1, 2, 0),                              // an innermost dimension of 3
			"pairs last":    base.Index(":2").Permute(1, 2, 0).Index("::3, 1:"), // of 2, strided
			// Sources that interleave the rows of a short dimension.
			"channels first": base.Permute(1, 2, 0).Contiguous().Permute(2, 0, 1),
			"pairs split":    base.View(3, 70, 150, 2).Permute(0, 3, 1, 2),
			"one row split":  base.Index("0, 0").View(150, 2).T(),
		} {
			want := loopValues(x)
			for op, got := range map[string]*tensor.Tensor{
				"Contiguous": x.Contiguous(),
				"Clone":      x.Clone(),
				"Reshape":    x.Reshape(-1),
				"Add":        x.Add(0),
				"To":         x.To(tensor.Float64),
			} {
				if !slices.Equal(got.Float64s(), want) {
					t.Errorf("%s %s: %s differs from the address loop", dt, name, op)
				}
			}
		}
	}
}

// Moving a short dimension last (channels last) copies each destination
// row from that many source rows read side by side: every count up to past
// the largest such count, each word size, a batch dimension, and source
// rows that are stepped through rather than adjacent.
func TestChannelsLastCopiesMatchLoops(t *testing.T) {
	for _, dt := range []tensor.DType{tensor.Float32, tensor.Float64, tensor.Uint8, tensor.Float16} {
		for c := 1; c <= 10; c++ {
			base := tensor.Float64.Arange(float64(2*c*37*29)).To(dt).View(2, c, 37, 29)
			for name, x := range map[string]*tensor.Tensor{
				"batch":   base.Permute(0, 2, 3, 1),
				"cropped": base.Index(":, :, 1:, 2:").Permute(0, 2, 3, 1),
				"single":  base.Select(0, 1).Permute(1, 2, 0),
			} {
				want := loopValues(x)
				if got := x.Contiguous().Float64s(); !slices.Equal(got, want) {
					t.Errorf("%s, %d channels, %s: Contiguous differs from the address loop", dt, c, name)
				}
			}
		}
	}
}

// Reading out or unbinding a tensor far larger than memory (an expanded
// scalar, a zero-size tensor with a huge dimension) is refused with the
// allocator's message before anything is allocated: no makeslice panic,
// no fatal out-of-memory.
func TestHugeReadsAreRefused(t *testing.T) {
	big := func(n int) *tensor.Tensor { return tensor.Scalar(float32(1)).Expand(n) }
	for name, call := range map[string]func(){
		"Float64s of 2^62":    func() { big(1 << 62).Float64s() },
		"Int64s of 2^62":      func() { big(1 << 62).Int64s() },
		"Float64s of 2^33":    func() { big(1 << 33).Float64s() },
		"AllClose of 2^62":    func() { big(1 << 62).AllClose(big(1 << 62)) },
		"Unbind of 2^62":      func() { tensor.Zeros(0, 1<<62).Unbind(1) },
		"Unbind of 2^40":      func() { tensor.Zeros(0, 1<<40).Unbind(1) },
		"Int64s of 2^40 ints": func() { tensor.Int64.Zeros(1).Expand(1 << 40).Int64s() },
		"Split of 2^62 by 1":  func() { tensor.Zeros(0, 1<<62).Split(1, 1) },
		"Chunk into 2^62":     func() { big(1<<62).Chunk(1<<62, 0) },
		"MaskedSelect of 2^41": func() {
			tensor.Arange(3).Expand(1<<40, 3).MaskedSelect(tensor.New([]bool{true, false, true}))
		},
		"IndexSelect by 2^33": func() { tensor.Arange(3).IndexSelect(0, tensor.Int64.Zeros(1).Expand(1<<33)) },
	} {
		err := tensor.Try(call)
		var e *tensor.Error
		if !errors.As(err, &e) || !strings.Contains(e.Message, "can't allocate memory") {
			t.Errorf("%s: %v, want the allocator's refusal", name, err)
		}
	}
}

// A request whose size in bytes does not fit in 64 bits says what it
// asked for, not the wrapped product (it said "0 bytes" for 2^62 views).
func TestOverflowingRequestIsNamed(t *testing.T) {
	err := tensor.Try(func() { tensor.Zeros(0, 1<<62).Split(1, 1) })
	if err == nil || !strings.Contains(err.Error(), "you tried to allocate 4611686018427387904 × ") {
		t.Errorf("Split into 2^62 views: %v", err)
	}
}

// Constructors refuse, in PyTorch 1.13's words, numbers past their
// dtype's range and dtypes PyTorch's CPU kernels do not implement; a
// tensor cannot be its own gradient. (The messages are PyTorch's, from
// running each call in torch 1.13; writes and conversions are in the
// generated fixtures.)
func TestConstructorsRefuseWhatPyTorchRefuses(t *testing.T) {
	for name, c := range map[string]struct {
		call func()
		want string
	}{
		"torch.full((2,), 300, dtype=torch.uint8)":         {func() { tensor.Uint8.Full(300, 2) }, "value cannot be converted to type uint8_t without overflow"},
		"torch.linspace(-5, 300, 10, dtype=torch.uint8)":   {func() { tensor.Uint8.Linspace(-5, 300, 10) }, "value cannot be converted to type uint8_t without overflow"},
		"torch.linspace(0, 1e30, 5, dtype=torch.int64)":    {func() { tensor.Int64.Linspace(0, 1e30, 5) }, "value cannot be converted to type int64_t without overflow"},
		"torch.linspace(0, 300, 4, dtype=torch.uint8)":     {func() { tensor.Uint8.Linspace(0, 300, 4) }, "value cannot be converted to type uint8_t without overflow"},
		"torch.linspace(0, 1, 5, dtype=torch.bool)":        {func() { tensor.Bool.Linspace(0, 1, 5) }, `"linspace_cpu" not implemented for 'Bool'`},
		"torch.arange(0, 10, dtype=torch.bool)":            {func() { tensor.Bool.Arange(0, 10) }, `"arange_cpu" not implemented for 'Bool'`},
		"torch.zeros(3, dtype=torch.float16).fill_(70000)": {func() { tensor.Float16.Full(70000, 3) }, "value cannot be converted to type at::Half without overflow"},
		"x.grad = x":               {func() { x := tensor.Ones(3).SetRequiresGrad(true); x.SetGrad(x) }, "can't assign Variable as its own grad"},
		"torch.zeros(2, 3, 4).t()": {func() { tensor.Zeros(2, 3, 4).T() }, "t() expects a tensor with <= 2 dimensions, but self is 3D"},
	} {
		var e *tensor.Error
		if err := tensor.Try(c.call); !errors.As(err, &e) || e.Message != c.want || e.Class != "RuntimeError" {
			t.Errorf("%s: %v, want RuntimeError: %s", name, err, c.want)
		}
	}
	// What PyTorch accepts: -1 wraps into uint8, infinities stay.
	if got := tensor.Uint8.Full(-1, 2).Int64s(); got[0] != 255 {
		t.Errorf("Uint8.Full(-1) = %v, want 255s", got)
	}
	if got := tensor.Float16.Full(math.Inf(1), 1).Item(); !math.IsInf(got, 1) {
		t.Errorf("Float16.Full(+Inf) = %v", got)
	}
}

// A write whose result would depend on the order in which elements are
// written is refused with PyTorch's overlap messages, where PyTorch 1.13
// writes element by element: Arange(5).Unfold(0, 2, 1).add_(1) gives it
// [1, 3, 4, 5, 5], and x[::2].copy_(x[:3]) gives [0, 1, 1, 3, 1, 5]
// (NumPy, which buffers, gives [1, 2, 3, 4, 5] and [0, 1, 1, 3, 2, 5]).
// Writes that do not depend on the order go on: x.add_(x), a copy between
// disjoint views of one storage, a stepped view that overlaps nothing.
func TestOrderDependentWritesAreRefused(t *testing.T) {
	const internal = "unsupported operation: more than one element of the written-to tensor refers to a single memory location. Please clone() the tensor before performing the operation."
	const partial = "unsupported operation: some elements of the input tensor and the written-to tensor refer to a single memory location. Please clone() the tensor before performing the operation."
	refused := map[string]struct {
		call func()
		want string
	}{
		"Unfold windows add_":  {func() { tensor.Arange(5).Unfold(0, 2, 1).AddInPlace(1) }, internal},
		"Unfold windows copy_": {func() { tensor.Arange(5).Unfold(0, 3, 1).CopyFrom(tensor.Zeros(3, 3)) }, internal},
		"x[::2].copy_(x[:3])":  {func() { x := tensor.Arange(6); x.Index("::2").CopyFrom(x.Index(":3")) }, partial},
		"x[1:].add_(x[:-1])":   {func() { x := tensor.Arange(6); x.Index("1:").AddInPlace(x.Index(":-1")) }, partial},
		"x[::2].mul_(x[2:][::2])": {func() {
			x := tensor.Arange(7)
			x.Index("::2").Narrow(0, 0, 2).MulInPlace(x.Index("2::2").Narrow(0, 0, 2))
		}, partial},
	}
	for name, c := range refused {
		var e *tensor.Error
		if err := tensor.Try(c.call); !errors.As(err, &e) || e.Message != c.want {
			t.Errorf("%s: %v, want %q", name, err, c.want)
		}
	}
	x := tensor.Arange(6)
	x.AddInPlace(x)
	x.Index("::2").CopyFrom(x.Index("1::2"))
	x.Index("::3").AddInPlace(1)
	if got, want := x.String(), "tensor([ 3,  2,  6,  7, 10, 10])"; got != want {
		t.Errorf("order-free writes: %s, want %s", got, want)
	}
}

// The count of storages allocated (package storagecount, which package
// check reads) counts what copies allocate and leaves views alone.
func TestStoragesAllocated(t *testing.T) {
	x := tensor.Arange(12).View(3, 4)
	count := func(f func()) int64 {
		before := storagecount.Allocated()
		f()
		return storagecount.Allocated() - before
	}
	views := map[string]func(){
		"T":                              func() { x.T() },
		"View":                           func() { x.View(4, 3) },
		"Index":                          func() { x.Index("1:, ::2") },
		"Expand":                         func() { x.Select(0, 0).Expand(5, 4) },
		"AsStrided":                      func() { x.AsStrided([]int{3}, []int{5}, 0) },
		"Reshape of a contiguous tensor": func() { x.Reshape(2, 6) },
	}
	copies := map[string]func(){
		"Contiguous of a transpose": func() { x.T().Contiguous() },
		"Clone":                     func() { x.Clone() },
		"Reshape of a transpose":    func() { x.T().Reshape(12) },
		"Arange":                    func() { tensor.Arange(3) },
	}
	for name, f := range views {
		if n := count(f); n != 0 {
			t.Errorf("%s allocated %d storages, want 0", name, n)
		}
	}
	for name, f := range copies {
		if n := count(f); n != 1 {
			t.Errorf("%s allocated %d storages, want 1", name, n)
		}
	}
}
