package tensor_test

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/tensornb/tensornb/tensor"
)

// outcome describes what calling f did: its results as printed, or what
// it panicked with.
func outcome(f func() []reflect.Value) (s string) {
	defer func() {
		if r := recover(); r != nil {
			s = fmt.Sprint("panic: ", r)
		}
	}()
	tensor.ManualSeed(1) // the same random numbers for both calls
	for _, v := range f() {
		if x, ok := v.Interface().(*tensor.Tensor); ok && x != nil {
			s += fmt.Sprint(x, x.Strides(), x.StorageOffset(), " ")
			continue
		}
		s += fmt.Sprint(v.Interface(), " ")
	}
	return s
}

// argFor is a fixed argument of type t for calling any method.
func argFor(t reflect.Type, x *tensor.Tensor) reflect.Value {
	switch {
	case t == reflect.TypeOf(x):
		return reflect.ValueOf(x)
	case t.Kind() == reflect.Interface:
		return reflect.ValueOf(1)
	}
	return reflect.Zero(t)
}

// A variadic parameter given nothing is the same whether it arrives as nil
// (a Go call) or as an empty slice (yaegi, and f(s...) with an empty s):
// every variadic method of Tensor and DType, and every variadic function,
// does the same for both.
func TestVariadicNilEqualsEmpty(t *testing.T) {
	x := tensor.Float32.Arange(6).View(2, 3)
	checked := 0
	for _, recv := range []reflect.Value{reflect.ValueOf(x), reflect.ValueOf(tensor.Float64), reflect.ValueOf(tensor.InterleavedByHead(2, 3))} {
		for i := range recv.NumMethod() {
			m, name := recv.Method(i), recv.Type().Method(i).Name
			mt := m.Type()
			if !mt.IsVariadic() {
				continue
			}
			args := make([]reflect.Value, mt.NumIn())
			for j := range mt.NumIn() - 1 {
				args[j] = argFor(mt.In(j), x)
			}
			last := mt.In(mt.NumIn() - 1)
			call := func(v reflect.Value) func() []reflect.Value {
				return func() []reflect.Value {
					args[len(args)-1] = v
					return m.CallSlice(args)
				}
			}
			withNil, withEmpty := outcome(call(reflect.Zero(last))), outcome(call(reflect.MakeSlice(last, 0, 0)))
			if withNil != withEmpty {
				t.Errorf("%v.%s: nil gives %q, empty gives %q", recv.Type(), name, withNil, withEmpty)
			}
			checked++
		}
	}
	functions := map[string]func(empty bool) []reflect.Value{
		"New": func(empty bool) []reflect.Value {
			return values(tensor.New([]float32{1, 2, 3}, ints(empty)...))
		},
		"Arange":          func(empty bool) []reflect.Value { return values(tensor.Arange(ints(empty)...)) },
		"Zeros":           func(empty bool) []reflect.Value { return values(tensor.Zeros(ints(empty)...)) },
		"Ones":            func(empty bool) []reflect.Value { return values(tensor.Ones(ints(empty)...)) },
		"Full":            func(empty bool) []reflect.Value { return values(tensor.Full(2, ints(empty)...)) },
		"Empty":           func(empty bool) []reflect.Value { return values(tensor.Empty(ints(empty)...).Shape()) },
		"Rand":            func(empty bool) []reflect.Value { return values(tensor.Rand(ints(empty)...).Shape()) },
		"Randn":           func(empty bool) []reflect.Value { return values(tensor.Randn(ints(empty)...).Shape()) },
		"BroadcastShapes": func(empty bool) []reflect.Value { return values(tensor.BroadcastShapes(shapes(empty)...)) },
		"NewContract": func(empty bool) []reflect.Value {
			parts := []string{}
			if !empty {
				parts = nil
			}
			return values(tensor.NewContract("c", "(h d)", tensor.Sizes{"h": 2}, "h", parts...).String())
		},
		"Rearrange": func(empty bool) []reflect.Value {
			sizes := []tensor.Sizes{}
			if !empty {
				sizes = nil
			}
			return values(tensor.Rearrange(x, "a b -> b a", sizes...))
		},
	}
	for name, f := range functions {
		withNil, withEmpty := outcome(func() []reflect.Value { return f(false) }), outcome(func() []reflect.Value { return f(true) })
		if withNil != withEmpty {
			t.Errorf("%s: nil gives %q, empty gives %q", name, withNil, withEmpty)
		}
		checked++
	}
	if checked < 40 {
		t.Fatalf("only %d variadic functions checked; the walk is broken", checked)
	}
}

func values(vs ...any) []reflect.Value {
	out := make([]reflect.Value, len(vs))
	for i, v := range vs {
		out[i] = reflect.ValueOf(v)
	}
	return out
}

func ints(empty bool) []int {
	if empty {
		return []int{}
	}
	return nil
}

func shapes(empty bool) []tensor.Shape {
	if empty {
		return []tensor.Shape{}
	}
	return nil
}
