package display_test

import (
	"fmt"
	"testing"

	"github.com/tensornb/tensornb/display"
	"github.com/tensornb/tensornb/tensor"
)

// Every variadic function of display does the same with nothing passed as
// nil (a Go call) or as an empty slice (yaegi's calls, f(s...) with an
// empty s).
func TestVariadicNilEqualsEmpty(t *testing.T) {
	x := tensor.Float32.Arange(6).View(2, 3)
	forms := func(r display.Renderer) string { return fmt.Sprint(r.Bundle()[display.MIMEPlain]) }
	for name, f := range map[string]func(empty bool) string{
		"DecodeFlow": func(empty bool) string {
			cs := []tensor.Contract{}
			if !empty {
				cs = nil
			}
			return forms(display.DecodeFlow(cs...))
		},
		"Packing": func(empty bool) string {
			cs := []tensor.Contract{}
			if !empty {
				cs = nil
			}
			return forms(display.Packing(x.Flatten(), cs...))
		},
		"Views": func(empty bool) string {
			ns := []display.Named{}
			if !empty {
				ns = nil
			}
			return forms(display.Views(ns...))
		},
		"Lineage.Derive": func(empty bool) string {
			ps := []string{}
			if !empty {
				ps = nil
			}
			l := display.NewLineage()
			l.Add("x", x)
			l.Derive("y", x.T(), "T", ps...)
			return forms(l)
		},
	} {
		if withNil, withEmpty := f(false), f(true); withNil != withEmpty {
			t.Errorf("%s: nil gives %q, empty gives %q", name, withNil, withEmpty)
		}
	}
}
