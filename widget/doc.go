// Package widget makes Jupyter widgets in Go: sliders, a dropdown, a
// checkbox, a text box, a button, an image, output areas and boxes, which
// JupyterLab's own widget manager draws and keeps in step with the Go
// values, and Interact, which reruns a function as its controls move. It
// speaks version 2.1.0 of ipywidgets' protocol, with the models of
// ipywidgets 8 (@jupyter-widgets/controls 2.0.0, @jupyter-widgets/output
// 1.0.0).
//
// # Making widgets
//
// [NewIntSlider], [NewFloatSlider], [NewDropdown], [NewCheckbox],
// [NewText], [NewButton], [NewImage] and [NewOutput] each open a widget
// at once; [NewHBox] and [NewVBox] lay widgets out. A cell shows a
// widget by ending with it, or with display.Show: every [Widget] is a
// display.Renderer. Setters such as [IntSlider.SetValue] change the
// widget in the front end too, and getters such as [IntSlider.Value] read
// what the user left it at.
//
// # Callbacks
//
// [IntSlider.OnChange] and its kin run a function with the new value
// after each change, whether the user made it or Go did; a value from
// the front end is checked first, and clamped into a slider's range as
// ipywidgets clamps it. [Button.OnClick] runs a function at each click.
// A callback may create and change widgets.
//
// [Interact] calls a function with the values of its controls (each a
// [Control]), at once and after each change, and shows what the function
// returns below them:
//
//	x := tensor.Arange(12)
//	widget.Interact(func(cols int) *tensor.Tensor { return x.View(-1, cols) },
//		widget.NewIntSlider("cols", 3, 1, 12))
//
// # The engine's side
//
// Widgets need a program that stays alive between cells, so that the
// front end's messages find it: the instant engine of the "Go (tensornb)"
// kernel. That engine carries the widgets' comm messages to the front
// end, and hands them the front end's between cells, through a hook of
// its own, which cells do not see. A widget made where no engine carries
// them panics with a RuntimeError that says so.
//
// # Still pictures
//
// Beside its live view, a widget's bundle holds a still picture of it as
// it stands, as HTML with no script and, where every part can be, as
// SVG: what GitHub, nbconvert and an untrusted notebook show, and what a
// saved notebook keeps. Layout and style models are not sent: the front
// end draws a widget without them.
package widget
