package widget

import (
	"fmt"
	"reflect"

	"github.com/tensornb/tensornb/display"
	"github.com/tensornb/tensornb/tensor"
)

// A Control is a widget with a value that Interact can pass to a
// function: an IntSlider gives an int, a FloatSlider a float64, a
// Dropdown (its label) and a Text a string, a Checkbox a bool.
type Control interface {
	Widget
	// current returns the value.
	current() any
	// observe adds f to the functions called after each change of the value.
	observe(f func())
}

// Interact calls f with the values of controls, one parameter each in
// order, now and after each change of any of them, and shows what f
// returns in an output area under the controls, replacing what it showed
// before, as ipywidgets' interact does. It returns the box of the
// controls and the output area, for the cell to show.
//
// f returns nothing, one value, or a value and an error. The output area
// shows the value as a cell shows its result (see display.Value), or the
// error if it is not nil; nothing for no value. If f panics, the output
// area shows the panic as an error's text, and the controls go on working.
//
// Interact panics with a TypeError if f is not a function, its parameters
// do not take the controls' values (an int for an IntSlider, and so on),
// or it returns something else.
func Interact(f any, controls ...Control) *Box {
	fv := reflect.ValueOf(f)
	checkInteract(fv, controls)
	out := NewOutput()
	run := func() {
		args := make([]reflect.Value, len(controls))
		for i, c := range controls {
			args[i] = reflect.ValueOf(c.current())
		}
		out.replace(interactResult(fv, args)...)
	}
	for _, c := range controls {
		c.observe(run)
	}
	run()
	children := make([]Widget, 0, len(controls)+1)
	for _, c := range controls {
		children = append(children, c)
	}
	return NewVBox(append(children, out)...)
}

// checkInteract panics with a TypeError unless f can take the controls'
// values and returns what Interact shows.
func checkInteract(f reflect.Value, controls []Control) {
	fail := func(format string, args ...any) {
		panic(&tensor.Error{Op: "Interact", Class: tensor.TypeError, Message: fmt.Sprintf(format, args...)})
	}
	if f.Kind() != reflect.Func || f.IsNil() {
		fail("f is %T, not a function", f.Interface())
	}
	t := f.Type()
	if t.IsVariadic() || t.NumIn() != len(controls) {
		fail("f takes %d parameters (%s), but there are %d controls: give it one parameter per control", t.NumIn(), t, len(controls))
	}
	for i, c := range controls {
		if c == nil {
			fail("control %d is nil", i+1)
		}
		if got, want := t.In(i), reflect.TypeOf(c.current()); got != want {
			fail("parameter %d of f is %s, but control %d, %s, gives %s", i+1, got, i+1, c, want)
		}
	}
	errType := reflect.TypeFor[error]()
	if t.NumOut() > 2 || t.NumOut() == 2 && t.Out(1) != errType {
		fail("f returns %s: return nothing, one value, or a value and an error", t)
	}
}

// interactResult calls f with args and returns the outputs that show what
// it returned, or how it panicked.
func interactResult(f reflect.Value, args []reflect.Value) (outs []any) {
	defer func() {
		if r := recover(); r != nil {
			outs = []any{stream("stderr", panicText(r)+"\n")}
		}
	}()
	results := f.Call(args)
	if len(results) == 2 && !results[1].IsNil() {
		results = results[1:]
	} else if len(results) == 2 {
		results = results[:1]
	}
	if len(results) == 0 {
		return nil
	}
	v := results[0]
	if v.Kind() == reflect.Interface && v.IsNil() {
		return nil
	}
	return []any{displayData(display.Value(v.Interface()).Bundle())}
}
