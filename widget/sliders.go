package widget

import (
	"errors"
	"fmt"
	"math"

	"github.com/tensornb/tensornb/tensor"
)

// dom holds the attributes every widget drawn in the page has.
type dom struct {
	Classes  []string `json:"_dom_classes"`
	Tabbable *bool    `json:"tabbable"`
	Tooltip  *string  `json:"tooltip"`
}

// described holds the attributes of a control with a description.
type described struct {
	dom
	Description string `json:"description"`
	AllowHTML   bool   `json:"description_allow_html"`
	Disabled    bool   `json:"disabled"`
}

func newDescribed(description string) described {
	return described{dom: dom{Classes: []string{}}, Description: description}
}

// slide holds the attributes sliders share beside their numbers.
type slide struct {
	Behavior         string `json:"behavior"`
	ContinuousUpdate bool   `json:"continuous_update"`
	Orientation      string `json:"orientation"`
	Readout          bool   `json:"readout"`
	ReadoutFormat    string `json:"readout_format"`
}

func newSlide(format string) slide {
	return slide{Behavior: "drag-tap", ContinuousUpdate: true, Orientation: "horizontal", Readout: true, ReadoutFormat: format}
}

// An IntSlider picks an integer between a minimum and a maximum, in steps.
// A value outside the range, set in Go or sent by the front end, is
// clamped into it, as ipywidgets does.
type IntSlider struct {
	*model
	st       intSliderState
	onChange []func(int)
}

type intSliderState struct {
	described
	Value int `json:"value"`
	Min   int `json:"min"`
	Max   int `json:"max"`
	Step  int `json:"step"`
	slide
}

// NewIntSlider returns a slider labelled description, from min to max in
// steps of 1, at value. It panics with a ValueError if min > max.
func NewIntSlider(description string, value, min, max int) *IntSlider {
	s := &IntSlider{st: intSliderState{described: newDescribed(description), Value: value, Min: min, Max: max, Step: 1, slide: newSlide("d")}}
	mustCheck(s, "IntSlider")
	s.model = open(s, kind{"IntSliderModel", "IntSliderView", controls, "2.0.0"})
	return s
}

// Value returns the slider's value.
func (s *IntSlider) Value() int { return read(s, func(st *intSliderState) int { return st.Value }) }

// Min returns the least value.
func (s *IntSlider) Min() int { return read(s, func(st *intSliderState) int { return st.Min }) }

// Max returns the greatest value.
func (s *IntSlider) Max() int { return read(s, func(st *intSliderState) int { return st.Max }) }

// Step returns the step.
func (s *IntSlider) Step() int { return read(s, func(st *intSliderState) int { return st.Step }) }

// SetValue sets the value, clamped into the range, and runs the OnChange
// callbacks if it changed, as a move of the slider does.
func (s *IntSlider) SetValue(v int) { change(s, func(st *intSliderState) { st.Value = v }) }

// SetRange sets the least and greatest values, clamping the value into
// them. It panics with a ValueError if min > max.
func (s *IntSlider) SetRange(min, max int) {
	change(s, func(st *intSliderState) { st.Min, st.Max = min, max })
}

// SetStep sets the step. It panics with a ValueError unless step > 0.
func (s *IntSlider) SetStep(step int) { change(s, func(st *intSliderState) { st.Step = step }) }

// SetDescription sets the label.
func (s *IntSlider) SetDescription(d string) {
	change(s, func(st *intSliderState) { st.Description = d })
}

// SetDisabled makes the slider refuse (true) or accept the user's moves.
func (s *IntSlider) SetDisabled(disabled bool) {
	change(s, func(st *intSliderState) { st.Disabled = disabled })
}

// SetContinuousUpdate sets whether the front end sends the value while
// the slider is dragged (true, the default) or only when it is let go.
func (s *IntSlider) SetContinuousUpdate(on bool) {
	change(s, func(st *intSliderState) { st.ContinuousUpdate = on })
}

// SetReadout sets whether the value is written beside the slider.
func (s *IntSlider) SetReadout(on bool) { change(s, func(st *intSliderState) { st.Readout = on }) }

// OnChange adds f to the functions called with the new value after each
// change of it, from the front end or from SetValue.
func (s *IntSlider) OnChange(f func(v int)) {
	reg.Lock()
	s.onChange = append(s.onChange, f)
	reg.Unlock()
}

func (s *IntSlider) fields() any { return &s.st }

func (s *IntSlider) check(next any) error {
	st := next.(*intSliderState)
	if st.Min > st.Max {
		return fmt.Errorf("min %d is greater than max %d", st.Min, st.Max)
	}
	if st.Step <= 0 {
		return fmt.Errorf("step %d is not positive", st.Step)
	}
	st.Value = min(max(st.Value, st.Min), st.Max)
	return nil
}

func (s *IntSlider) changed(old any) []func() {
	if old.(*intSliderState).Value == s.st.Value {
		return nil
	}
	return later(s.onChange, s.st.Value)
}

func (s *IntSlider) custom(any) ([]func(), error) { return nil, nil }

func (s *IntSlider) text() string {
	st := &s.st
	return fmt.Sprintf("IntSlider(value=%d, min=%d, max=%d, step=%d, description=%q)", st.Value, st.Min, st.Max, st.Step, st.Description)
}

func (s *IntSlider) still() still {
	st := &s.st
	readout := ""
	if st.Readout {
		readout = fmt.Sprint(st.Value)
	}
	w, body := slider(fraction(float64(st.Value), float64(st.Min), float64(st.Max)), readout)
	return stillOf(labelled(st.Description, w, body, st.Disabled), s.text())
}

func (s *IntSlider) current() any { return s.Value() }

func (s *IntSlider) observe(f func()) { s.OnChange(func(int) { f() }) }

// A FloatSlider picks a number between a minimum and a maximum, in steps.
// A value outside the range is clamped into it, as ipywidgets does.
type FloatSlider struct {
	*model
	st       floatSliderState
	onChange []func(float64)
}

type floatSliderState struct {
	described
	Value float64 `json:"value"`
	Min   float64 `json:"min"`
	Max   float64 `json:"max"`
	Step  float64 `json:"step"`
	slide
}

// NewFloatSlider returns a slider labelled description, from min to max
// in steps of 0.1, at value, whose readout shows two decimals. It panics
// with a ValueError if min > max or any of them is NaN or infinite.
func NewFloatSlider(description string, value, min, max float64) *FloatSlider {
	s := &FloatSlider{st: floatSliderState{described: newDescribed(description), Value: value, Min: min, Max: max, Step: 0.1, slide: newSlide(".2f")}}
	mustCheck(s, "FloatSlider")
	s.model = open(s, kind{"FloatSliderModel", "FloatSliderView", controls, "2.0.0"})
	return s
}

// Value returns the slider's value.
func (s *FloatSlider) Value() float64 {
	return read(s, func(st *floatSliderState) float64 { return st.Value })
}

// Min returns the least value.
func (s *FloatSlider) Min() float64 {
	return read(s, func(st *floatSliderState) float64 { return st.Min })
}

// Max returns the greatest value.
func (s *FloatSlider) Max() float64 {
	return read(s, func(st *floatSliderState) float64 { return st.Max })
}

// Step returns the step.
func (s *FloatSlider) Step() float64 {
	return read(s, func(st *floatSliderState) float64 { return st.Step })
}

// SetValue sets the value, clamped into the range, and runs the OnChange
// callbacks if it changed, as a move of the slider does. It panics with a
// ValueError for NaN.
func (s *FloatSlider) SetValue(v float64) { change(s, func(st *floatSliderState) { st.Value = v }) }

// SetRange sets the least and greatest values, clamping the value into
// them. It panics with a ValueError if min > max.
func (s *FloatSlider) SetRange(min, max float64) {
	change(s, func(st *floatSliderState) { st.Min, st.Max = min, max })
}

// SetStep sets the step. It panics with a ValueError unless step > 0.
func (s *FloatSlider) SetStep(step float64) {
	change(s, func(st *floatSliderState) { st.Step = step })
}

// SetDescription sets the label.
func (s *FloatSlider) SetDescription(d string) {
	change(s, func(st *floatSliderState) { st.Description = d })
}

// SetDisabled makes the slider refuse (true) or accept the user's moves.
func (s *FloatSlider) SetDisabled(disabled bool) {
	change(s, func(st *floatSliderState) { st.Disabled = disabled })
}

// SetContinuousUpdate sets whether the front end sends the value while
// the slider is dragged (true, the default) or only when it is let go.
func (s *FloatSlider) SetContinuousUpdate(on bool) {
	change(s, func(st *floatSliderState) { st.ContinuousUpdate = on })
}

// SetReadout sets whether the value is written beside the slider.
func (s *FloatSlider) SetReadout(on bool) {
	change(s, func(st *floatSliderState) { st.Readout = on })
}

// OnChange adds f to the functions called with the new value after each
// change of it, from the front end or from SetValue.
func (s *FloatSlider) OnChange(f func(v float64)) {
	reg.Lock()
	s.onChange = append(s.onChange, f)
	reg.Unlock()
}

func (s *FloatSlider) fields() any { return &s.st }

func (s *FloatSlider) check(next any) error {
	st := next.(*floatSliderState)
	for _, v := range []float64{st.Value, st.Min, st.Max, st.Step} {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return errors.New("NaN and infinities are not values of a slider")
		}
	}
	if st.Min > st.Max {
		return fmt.Errorf("min %g is greater than max %g", st.Min, st.Max)
	}
	if st.Step <= 0 {
		return fmt.Errorf("step %g is not positive", st.Step)
	}
	st.Value = min(max(st.Value, st.Min), st.Max)
	return nil
}

func (s *FloatSlider) changed(old any) []func() {
	if old.(*floatSliderState).Value == s.st.Value {
		return nil
	}
	return later(s.onChange, s.st.Value)
}

func (s *FloatSlider) custom(any) ([]func(), error) { return nil, nil }

func (s *FloatSlider) text() string {
	st := &s.st
	return fmt.Sprintf("FloatSlider(value=%g, min=%g, max=%g, step=%g, description=%q)", st.Value, st.Min, st.Max, st.Step, st.Description)
}

func (s *FloatSlider) still() still {
	st := &s.st
	readout := ""
	if st.Readout {
		readout = fmt.Sprintf("%.2f", st.Value)
	}
	w, body := slider(fraction(st.Value, st.Min, st.Max), readout)
	return stillOf(labelled(st.Description, w, body, st.Disabled), s.text())
}

func (s *FloatSlider) current() any { return s.Value() }

func (s *FloatSlider) observe(f func()) { s.OnChange(func(float64) { f() }) }

// fraction returns how far v is from lo towards hi, 0 for an empty range.
func fraction(v, lo, hi float64) float64 {
	if hi <= lo {
		return 0
	}
	return (v - lo) / (hi - lo)
}

// mustCheck validates a new widget's state before its comm opens,
// panicking with a ValueError as its setters do.
func mustCheck(w syncer, name string) {
	reg.Lock()
	err := w.check(w.fields())
	reg.Unlock()
	if err != nil {
		panic(valueError(name, err))
	}
}

// valueError is the panic of a widget refusing a value set in Go.
func valueError(name string, err error) *tensor.Error {
	return &tensor.Error{Op: name, Class: tensor.ValueError, Message: err.Error()}
}
