package display

// MIME types of the forms a picture comes in.
const (
	MIMEPlain   = "text/plain"
	MIMEHTML    = "text/html"
	MIMESVG     = "image/svg+xml"
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
