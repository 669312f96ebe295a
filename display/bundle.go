package display

// MIME types of the forms a picture comes in.
const (
	MIMEPlain   = "text/plain"
	MIMEHTML    = "text/html"
	MIMESVG     = "image/svg+xml"
	MIMEPNG     = "image/png" // base64-encoded, as Jupyter carries it
	MIMEMermaid = "text/vnd.mermaid"
)

// A Bundle holds one picture in several forms, keyed by MIME type, as the
// data of a Jupyter display_data message does. A front end shows the
// richest form it supports.
type Bundle map[string]string

// A Renderer draws itself as a Bundle. Every picture in this package is a
// Renderer, and so can be any type of a caller's.
type Renderer interface {
	Bundle() Bundle
}

// Bundle returns b itself, so that a hand-made Bundle can be shown.
func (b Bundle) Bundle() Bundle { return b }

// String returns the text/plain form.
func (b Bundle) String() string { return b[MIMEPlain] }

// Metadata returns the display metadata that goes with the bundle: a PNG
// form is "unconfined", shown at its own size, as its SVG form is (Notebook
// 6 would otherwise shrink a wide picture to the width of the column, and
// its text with it; the output scrolls instead).
func (b Bundle) Metadata() map[string]any {
	md := map[string]any{}
	if _, ok := b[MIMEPNG]; ok {
		md[MIMEPNG] = map[string]any{"unconfined": true}
	}
	return md
}
