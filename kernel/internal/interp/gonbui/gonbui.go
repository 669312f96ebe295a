// Package gonbui is the display API of GoNB's package gonbui
// (github.com/janpfeifer/gonb/gonbui) for the instant engine: a cell
// that imports gonbui calls these functions in its place, and they show
// their HTML, Markdown, images and scripts as GoNB shows them, through
// the session's display sink where GoNB writes to its pipe. The names of
// gonbui that talk to GoNB itself (Open, SendData, RequestInput,
// OnCommValueUpdate) are not here: a cell that uses one is refused,
// saying so.
package gonbui

import (
	"bytes"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"image"
	"image/png"
	"os"

	"github.com/tensornb/tensornb/internal/displaysink"
)

// IsNotebook is true: the cell runs in a notebook, as GoNB's programs
// do.
var IsNotebook = true

// Debug makes Logf write.
var Debug bool

// Logf writes a debugging message to standard error if Debug is set.
func Logf(format string, args ...any) {
	if Debug {
		fmt.Fprintf(os.Stderr, format+"\n", args...)
	}
}

// Error returns nil: the instant engine has no pipe to GoNB to break.
func Error() error { return nil }

// Sync returns at once: the instant engine delivers each display before
// the call that showed it returns.
func Sync() {}

// UniqueID returns a new random id of 8 hexadecimal digits, for the id
// of an HTML element or of a display to update.
func UniqueID() string {
	var b [4]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// UniqueId is UniqueID.
func UniqueId() string { return UniqueID() }

// show sends a display of one form, new, or replacing the display of that
// id if id is not empty.
func show(mime, data, id string) {
	_ = displaysink.Get()(map[string]string{mime: data}, id, false)
}

// DisplayHTML shows html.
func DisplayHTML(html string) { show("text/html", html, "") }

// DisplayHtml is DisplayHTML.
func DisplayHtml(html string) { DisplayHTML(html) }

// DisplayHTMLF shows the HTML that fmt.Sprintf makes of its arguments.
func DisplayHTMLF(htmlFormat string, args ...any) { DisplayHTML(fmt.Sprintf(htmlFormat, args...)) }

// DisplayHtmlf is DisplayHTMLF.
func DisplayHtmlf(htmlFormat string, args ...any) { DisplayHTMLF(htmlFormat, args...) }

// DisplayMarkdown shows markdown, which the front end renders.
func DisplayMarkdown(markdown string) { show("text/markdown", markdown, "") }

// UpdateHTML shows html in the display of that id: it replaces what the
// display showed, or makes the display if there is none yet.
func UpdateHTML(id, html string) { show("text/html", html, id) }

// UpdateHtml is UpdateHTML.
func UpdateHtml(id, html string) { UpdateHTML(id, html) }

// UpdateMarkdown shows markdown in the display of that id, as
// UpdateHTML shows HTML.
func UpdateMarkdown(id, markdown string) { show("text/markdown", markdown, id) }

// DisplayPNG shows an image encoded as PNG.
func DisplayPNG(png []byte) { show("image/png", base64.StdEncoding.EncodeToString(png), "") }

// DisplayPng is DisplayPNG.
func DisplayPng(png []byte) { DisplayPNG(png) }

// DisplayImage shows img, encoded as PNG; the error is the encoder's.
func DisplayImage(img image.Image) error {
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		return err
	}
	DisplayPNG(buf.Bytes())
	return nil
}

// DisplaySVG shows an SVG image, inside a div of HTML, as GoNB does.
func DisplaySVG(svg string) { DisplayHTML("<div>" + svg + "</div>") }

// DisplaySvg is DisplaySVG.
func DisplaySvg(svg string) { DisplaySVG(svg) }

// ScriptJavascript runs js in the front end, where it runs scripts.
func ScriptJavascript(js string) { show("application/javascript", js, "") }

// EmbedImageAsPNGSrc returns img as a data URL of its PNG encoding, for
// the src attribute of an HTML img element.
func EmbedImageAsPNGSrc(img image.Image) (string, error) {
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		return "", fmt.Errorf("failed to encode image as PNG: %w", err)
	}
	return "data:image/png;base64," + base64.StdEncoding.EncodeToString(buf.Bytes()), nil
}
