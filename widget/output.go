package widget

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"html"
	"slices"
	"strings"

	"github.com/tensornb/tensornb/display"
	"github.com/tensornb/tensornb/internal/nbformat"
)

// An Output is an output area inside a widget: a list of outputs, as a
// cell's, that Go fills and clears. The list is part of the widget's state
// (outputs in nbformat's form), so the front end draws what it holds
// whenever it draws the widget.
type Output struct {
	*model
	st outputState
}

type outputState struct {
	dom
	MsgID   string `json:"msg_id"`
	Outputs []any  `json:"outputs"`
}

// NewOutput returns an empty output area.
func NewOutput() *Output {
	o := &Output{st: outputState{dom: dom{Classes: []string{}}, Outputs: []any{}}}
	o.model = open(o, kind{"OutputModel", "OutputView", outputs, "1.0.0"})
	return o
}

// Show adds r's picture to the outputs, as display.Show adds it to a
// cell's.
func (o *Output) Show(r display.Renderer) {
	out := displayData(r.Bundle()) // before the lock: a widget's Bundle takes it
	change(o, func(st *outputState) { st.Outputs = append(slices.Clip(st.Outputs), out) })
}

// Write adds p to the outputs as text, as a cell's standard output
// shows it; an Output is an io.Writer, for fmt.Fprintln.
func (o *Output) Write(p []byte) (int, error) {
	text := string(p)
	change(o, func(st *outputState) {
		outs := slices.Clone(st.Outputs)
		if n := len(outs); n > 0 {
			if last, ok := outs[n-1].(map[string]any); ok && last["output_type"] == "stream" && last["name"] == "stdout" {
				outs[n-1] = map[string]any{"output_type": "stream", "name": "stdout", "text": nbformat.Text(last["text"]) + text}
				st.Outputs = outs
				return
			}
		}
		st.Outputs = append(outs, stream("stdout", text))
	})
	return len(p), nil
}

// Clear empties the outputs.
func (o *Output) Clear() { o.replace() }

// replace sets the outputs to outs in one update.
func (o *Output) replace(outs ...any) {
	change(o, func(st *outputState) { st.Outputs = append([]any{}, outs...) })
}

// displayData returns b as a display_data output. The values of JSON MIME
// types, such as a widget's view, are objects in a notebook, not text.
func displayData(b display.Bundle) map[string]any {
	data := map[string]any{}
	for mime, v := range b {
		var obj any
		if isJSON(mime) && json.Unmarshal([]byte(v), &obj) == nil {
			data[mime] = obj
		} else {
			data[mime] = v
		}
	}
	return map[string]any{"output_type": "display_data", "data": data, "metadata": b.Metadata()}
}

// isJSON reports whether mime's values are JSON.
func isJSON(mime string) bool { return mime == "application/json" || strings.HasSuffix(mime, "+json") }

// stream returns text as a stream output of the stream name.
func stream(name, text string) map[string]any {
	return map[string]any{"output_type": "stream", "name": name, "text": text}
}

func (o *Output) fields() any { return &o.st }

func (o *Output) check(any) error { return nil }

func (o *Output) changed(any) []func() { return nil }

func (o *Output) custom(any) ([]func(), error) { return nil, nil }

func (o *Output) text() string {
	if len(o.st.Outputs) == 0 {
		return "Output()"
	}
	var b strings.Builder
	b.WriteString("Output(\n")
	for _, out := range o.st.Outputs {
		b.WriteString(indent(outputText(out)) + "\n")
	}
	b.WriteString(")")
	return b.String()
}

// outputText returns an output's text form.
func outputText(out any) string {
	m, _ := out.(map[string]any)
	switch m["output_type"] {
	case "stream":
		return strings.TrimSuffix(nbformat.Text(m["text"]), "\n")
	case "error":
		return fmt.Sprintf("%v: %v", m["ename"], m["evalue"])
	}
	data, _ := m["data"].(map[string]any)
	return nbformat.Text(data[display.MIMEPlain])
}

// indent indents each line of text by two spaces.
func indent(text string) string {
	return "  " + strings.ReplaceAll(text, "\n", "\n  ")
}

func (o *Output) still() still {
	parts := make([]still, len(o.st.Outputs))
	for i, out := range o.st.Outputs {
		parts[i] = outputStill(out)
	}
	if len(parts) == 0 {
		return still{svg: &sketch{}}
	}
	return stacked(parts, false, o.text())
}

// outputStill draws one output: a display's SVG form if it has one, its
// text form if that is all it has, and a stream as text.
func outputStill(out any) still {
	m, _ := out.(map[string]any)
	switch m["output_type"] {
	case "stream", "error":
		text := outputText(out)
		color := ink
		if m["name"] == "stderr" || m["output_type"] == "error" {
			color = "#b91c1c"
		}
		return still{html: "<pre>" + html.EscapeString(text) + "</pre>", svg: textLines(text, color)}
	}
	data, _ := m["data"].(map[string]any)
	text := nbformat.Text(data[display.MIMEPlain])
	s := still{html: "<pre>" + html.EscapeString(text) + "</pre>"}
	if png := nbformat.Text(data[display.MIMEPNG]); png != "" {
		s.html = fmt.Sprintf(`<img src="data:image/png;base64,%s" alt="%s">`, strings.TrimSpace(png), html.EscapeString(firstLine(text)))
	}
	svg := nbformat.Text(data[display.MIMESVG])
	if svg != "" {
		s.svg, _ = embedSVG(svg)
		s.html = fmt.Sprintf(`<img src="data:image/svg+xml;base64,%s" alt="%s">`, base64.StdEncoding.EncodeToString([]byte(svg)), html.EscapeString(firstLine(text)))
	}
	if h := nbformat.Text(data[display.MIMEHTML]); h != "" {
		s.html = h
	}
	if s.svg == nil && len(data) == 1 && text != "" {
		s.svg = textLines(text, ink)
	}
	return s
}

// firstLine returns text up to its first newline.
func firstLine(text string) string {
	line, _, _ := strings.Cut(text, "\n")
	return line
}
