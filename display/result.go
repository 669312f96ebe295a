package display

import (
	"fmt"
	"html"
	"strconv"

	"github.com/tensornb/tensornb/internal/displaysink"
	"github.com/tensornb/tensornb/tensor"
)

// Result shows the value of a cell's last expression the way a notebook
// shows the value a Python cell ends with. The tensornb kernel rewrites a
// cell that ends with an expression, x.Strides() say, into
// display.Result(x.Strides()); there is little reason to call it by hand.
//
// One value is shown: a Renderer as its bundle, a tensor as PyTorch prints
// it together with its layout card, anything else as Go prints it (strings
// quoted). A call that returns several values, or none, shows nothing, as
// Python shows nothing for a function that returns None.
func Result(values ...any) {
	if len(values) != 1 {
		return
	}
	b := resultBundle(values[0])
	if err := displaysink.Get()(b, "", true); err != nil {
		fmt.Println(b[MIMEPlain])
	}
}

func resultBundle(v any) Bundle {
	switch v := v.(type) {
	case Renderer:
		return v.Bundle()
	case *tensor.Tensor:
		if v == nil {
			return Bundle{MIMEPlain: "<nil>"}
		}
		card := card{x: v}.Bundle()
		repr := v.String()
		return Bundle{
			MIMEPlain: repr,
			MIMEHTML:  "<pre>" + html.EscapeString(repr) + "</pre>\n" + card[MIMEHTML],
		}
	case string:
		return Bundle{MIMEPlain: strconv.Quote(v)}
	}
	return Bundle{MIMEPlain: fmt.Sprint(v)}
}

// Value returns the picture a cell shows when its last expression is v,
// the one Result sends: a Renderer's own bundle, a tensor as PyTorch
// prints it with its layout card, anything else as Go prints it (strings
// quoted). Use it to show a value elsewhere as a cell would, such as in
// a widget's output area.
func Value(v any) Renderer { return resultBundle(v) }
