package widget

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// A Dropdown picks one of a list of options, each a label. The front end
// and the model speak of the option's index; Value is its label.
type Dropdown struct {
	*model
	st       dropdownState
	onChange []func(string)
}

type dropdownState struct {
	described
	Labels []string `json:"_options_labels"`
	Index  int      `json:"index"`
}

// NewDropdown returns a dropdown labelled description that offers
// options, with the first one picked. It panics with a ValueError if
// there are none.
func NewDropdown(description string, options ...string) *Dropdown {
	d := &Dropdown{st: dropdownState{described: newDescribed(description), Labels: slices.Clone(options)}}
	mustCheck(d, "Dropdown")
	d.model = open(d, kind{"DropdownModel", "DropdownView", controls, "2.0.0"})
	return d
}

// Value returns the label of the picked option.
func (d *Dropdown) Value() string {
	return read(d, func(st *dropdownState) string { return st.Labels[st.Index] })
}

// Index returns the index of the picked option.
func (d *Dropdown) Index() int { return read(d, func(st *dropdownState) int { return st.Index }) }

// Options returns the labels of the options.
func (d *Dropdown) Options() []string {
	return read(d, func(st *dropdownState) []string { return slices.Clone(st.Labels) })
}

// SetValue picks the first option labelled label, and runs the OnChange
// callbacks if the value changed. It panics with a ValueError if no
// option has that label.
func (d *Dropdown) SetValue(label string) {
	change(d, func(st *dropdownState) {
		st.Index = slices.Index(st.Labels, label)
		if st.Index < 0 {
			st.Index = len(st.Labels) // for check to refuse, naming it
		}
	})
}

// SetIndex picks option i. It panics with a ValueError if there is none.
func (d *Dropdown) SetIndex(i int) { change(d, func(st *dropdownState) { st.Index = i }) }

// SetOptions replaces the options, keeping the picked label if it is
// still one of them and picking the first option otherwise. It panics
// with a ValueError if there are none.
func (d *Dropdown) SetOptions(options ...string) {
	change(d, func(st *dropdownState) {
		picked := ""
		if st.Index >= 0 && st.Index < len(st.Labels) {
			picked = st.Labels[st.Index]
		}
		st.Labels = slices.Clone(options)
		st.Index = max(slices.Index(st.Labels, picked), 0)
	})
}

// SetDescription sets the label beside the dropdown.
func (d *Dropdown) SetDescription(desc string) {
	change(d, func(st *dropdownState) { st.Description = desc })
}

// SetDisabled makes the dropdown refuse (true) or accept the user's picks.
func (d *Dropdown) SetDisabled(disabled bool) {
	change(d, func(st *dropdownState) { st.Disabled = disabled })
}

// OnChange adds f to the functions called with the picked label after
// each change of it, from the front end or from Go.
func (d *Dropdown) OnChange(f func(v string)) {
	reg.Lock()
	d.onChange = append(d.onChange, f)
	reg.Unlock()
}

func (d *Dropdown) fields() any { return &d.st }

func (d *Dropdown) check(next any) error {
	st := next.(*dropdownState)
	if len(st.Labels) == 0 {
		return errors.New("a dropdown needs at least one option")
	}
	if st.Index < 0 || st.Index >= len(st.Labels) {
		return fmt.Errorf("no option %d: there are %d (%s)", st.Index, len(st.Labels), quoteAll(st.Labels))
	}
	return nil
}

func (d *Dropdown) changed(old any) []func() {
	o := old.(*dropdownState)
	v := d.st.Labels[d.st.Index]
	if o.Index < len(o.Labels) && o.Labels[o.Index] == v {
		return nil
	}
	return later(d.onChange, v)
}

func (d *Dropdown) custom(any) ([]func(), error) { return nil, nil }

func (d *Dropdown) text() string {
	st := &d.st
	return fmt.Sprintf("Dropdown(options=[%s], value=%q, description=%q)", quoteAll(st.Labels), st.Labels[st.Index], st.Description)
}

func (d *Dropdown) still() still {
	st := &d.st
	w, body := field(st.Labels[st.Index], false, true)
	return stillOf(labelled(st.Description, w, body, st.Disabled), d.text())
}

func (d *Dropdown) current() any { return d.Value() }

func (d *Dropdown) observe(f func()) { d.OnChange(func(string) { f() }) }

// quoteAll quotes each label, joined by commas.
func quoteAll(labels []string) string {
	q := make([]string, len(labels))
	for i, l := range labels {
		q[i] = fmt.Sprintf("%q", l)
	}
	return strings.Join(q, ", ")
}

// A Checkbox is a yes-or-no control.
type Checkbox struct {
	*model
	st       checkboxState
	onChange []func(bool)
}

type checkboxState struct {
	described
	Indent bool `json:"indent"`
	Value  bool `json:"value"`
}

// NewCheckbox returns a checkbox labelled description, ticked if value.
func NewCheckbox(description string, value bool) *Checkbox {
	c := &Checkbox{st: checkboxState{described: newDescribed(description), Indent: true, Value: value}}
	c.model = open(c, kind{"CheckboxModel", "CheckboxView", controls, "2.0.0"})
	return c
}

// Value reports whether the box is ticked.
func (c *Checkbox) Value() bool { return read(c, func(st *checkboxState) bool { return st.Value }) }

// SetValue ticks the box or clears it, and runs the OnChange callbacks if
// that changed it.
func (c *Checkbox) SetValue(v bool) { change(c, func(st *checkboxState) { st.Value = v }) }

// SetDescription sets the label.
func (c *Checkbox) SetDescription(d string) {
	change(c, func(st *checkboxState) { st.Description = d })
}

// SetDisabled makes the checkbox refuse (true) or accept the user's clicks.
func (c *Checkbox) SetDisabled(disabled bool) {
	change(c, func(st *checkboxState) { st.Disabled = disabled })
}

// OnChange adds f to the functions called with the new value after each
// change of it, from the front end or from SetValue.
func (c *Checkbox) OnChange(f func(v bool)) {
	reg.Lock()
	c.onChange = append(c.onChange, f)
	reg.Unlock()
}

func (c *Checkbox) fields() any { return &c.st }

func (c *Checkbox) check(any) error { return nil }

func (c *Checkbox) changed(old any) []func() {
	if old.(*checkboxState).Value == c.st.Value {
		return nil
	}
	return later(c.onChange, c.st.Value)
}

func (c *Checkbox) custom(any) ([]func(), error) { return nil, nil }

func (c *Checkbox) text() string {
	return fmt.Sprintf("Checkbox(value=%t, description=%q)", c.st.Value, c.st.Description)
}

func (c *Checkbox) still() still {
	st := &c.st
	tick := ""
	if st.Value {
		tick = fmt.Sprintf(`<path d="M3 14 l4 4 l8 -9" fill="none" stroke="%s" stroke-width="2"/>`, accent)
	}
	body := fmt.Sprintf(`<rect x="0.5" y="6.5" width="15" height="15" rx="2" fill="#ffffff" stroke="%s"/>%s<text x="22" y="18" fill="%s">%s</text>`,
		frame, tick, ink, esc(st.Description))
	w := 22 + textWidth(st.Description)
	indent := ""
	if st.Indent {
		indent = " " // an empty description column, as ipywidgets indents
	}
	s := labelled(indent, w, body, st.Disabled)
	return stillOf(s, c.text())
}

func (c *Checkbox) current() any { return c.Value() }

func (c *Checkbox) observe(f func()) { c.OnChange(func(bool) { f() }) }

// A Text is a one-line text box.
type Text struct {
	*model
	st       textState
	onChange []func(string)
}

type textState struct {
	described
	ContinuousUpdate bool   `json:"continuous_update"`
	Placeholder      string `json:"placeholder"`
	Value            string `json:"value"`
}

// NewText returns a text box labelled description, holding value.
func NewText(description, value string) *Text {
	t := &Text{st: textState{described: newDescribed(description), ContinuousUpdate: true, Placeholder: "\u200b", Value: value}}
	t.model = open(t, kind{"TextModel", "TextView", controls, "2.0.0"})
	return t
}

// Value returns the text.
func (t *Text) Value() string { return read(t, func(st *textState) string { return st.Value }) }

// SetValue sets the text, and runs the OnChange callbacks if it changed.
func (t *Text) SetValue(v string) { change(t, func(st *textState) { st.Value = v }) }

// SetPlaceholder sets the grey text shown while the box is empty.
func (t *Text) SetPlaceholder(p string) { change(t, func(st *textState) { st.Placeholder = p }) }

// SetDescription sets the label.
func (t *Text) SetDescription(d string) { change(t, func(st *textState) { st.Description = d }) }

// SetDisabled makes the box refuse (true) or accept the user's typing.
func (t *Text) SetDisabled(disabled bool) {
	change(t, func(st *textState) { st.Disabled = disabled })
}

// SetContinuousUpdate sets whether the front end sends the text as it is
// typed (true, the default) or only on Enter or leaving the box.
func (t *Text) SetContinuousUpdate(on bool) {
	change(t, func(st *textState) { st.ContinuousUpdate = on })
}

// OnChange adds f to the functions called with the new text after each
// change of it, from the front end or from SetValue.
func (t *Text) OnChange(f func(v string)) {
	reg.Lock()
	t.onChange = append(t.onChange, f)
	reg.Unlock()
}

func (t *Text) fields() any { return &t.st }

func (t *Text) check(any) error { return nil }

func (t *Text) changed(old any) []func() {
	if old.(*textState).Value == t.st.Value {
		return nil
	}
	return later(t.onChange, t.st.Value)
}

// custom ignores the "submit" event a front end sends on Enter.
func (t *Text) custom(any) ([]func(), error) { return nil, nil }

func (t *Text) text() string {
	return fmt.Sprintf("Text(value=%q, placeholder=%q, description=%q)", t.st.Value, strings.Trim(t.st.Placeholder, "\u200b"), t.st.Description)
}

func (t *Text) still() still {
	st := &t.st
	shown, grey := st.Value, false
	if shown == "" {
		shown, grey = strings.Trim(st.Placeholder, "\u200b"), true
	}
	w, body := field(shown, grey, false)
	return stillOf(labelled(st.Description, w, body, st.Disabled), t.text())
}

func (t *Text) current() any { return t.Value() }

func (t *Text) observe(f func()) { t.OnChange(func(string) { f() }) }

// A Button calls its OnClick functions when clicked.
type Button struct {
	*model
	st      buttonState
	onClick []func()
}

type buttonState struct {
	dom
	ButtonStyle string `json:"button_style"`
	Description string `json:"description"`
	Disabled    bool   `json:"disabled"`
	Icon        string `json:"icon"`
}

// NewButton returns a button labelled description.
func NewButton(description string) *Button {
	b := &Button{st: buttonState{dom: dom{Classes: []string{}}, Description: description}}
	b.model = open(b, kind{"ButtonModel", "ButtonView", controls, "2.0.0"})
	return b
}

// OnClick adds f to the functions called at each click.
func (b *Button) OnClick(f func()) {
	reg.Lock()
	b.onClick = append(b.onClick, f)
	reg.Unlock()
}

// Click calls the OnClick functions, as a click does.
func (b *Button) Click() {
	reg.Lock()
	calls := slices.Clone(b.onClick)
	reg.Unlock()
	for _, f := range calls {
		f()
	}
}

// SetDescription sets the label.
func (b *Button) SetDescription(d string) {
	change(b, func(st *buttonState) { st.Description = d })
}

// SetDisabled makes the button refuse (true) or accept clicks.
func (b *Button) SetDisabled(disabled bool) {
	change(b, func(st *buttonState) { st.Disabled = disabled })
}

func (b *Button) fields() any { return &b.st }

func (b *Button) check(any) error { return nil }

func (b *Button) changed(any) []func() { return nil }

// custom runs the OnClick functions for a click event.
func (b *Button) custom(content any) ([]func(), error) {
	c, _ := content.(map[string]any)
	event, _ := c["event"].(string)
	if event != "click" {
		return nil, fmt.Errorf("widget: Button %s: unknown custom message %s", b.id, mustJSON(content))
	}
	return slices.Clone(b.onClick), nil
}

func (b *Button) text() string { return fmt.Sprintf("Button(description=%q)", b.st.Description) }

func (b *Button) still() still {
	st := &b.st
	w := max(textWidth(st.Description)+24, 48)
	body := fmt.Sprintf(`<rect x="0.5" y="2.5" width="%s" height="23" rx="2" fill="%s" stroke="%s"/><text x="%s" y="18" text-anchor="middle" fill="%s">%s</text>`,
		num(w-1), paper, frame, num(w/2), ink, esc(st.Description))
	return stillOf(labelled("", w, body, st.Disabled), b.text())
}
