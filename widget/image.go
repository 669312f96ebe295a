package widget

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"image"
	_ "image/gif"  // DecodeConfig reads the size of a GIF
	_ "image/jpeg" // and of a JPEG
	_ "image/png"  // and of a PNG
)

// An Image shows an encoded image: a PNG, a JPEG, a GIF or an SVG. Its
// bytes travel to the front end as a binary buffer, not as text.
type Image struct {
	*model
	st imageState
}

type imageState struct {
	dom
	Format string `json:"format"`
	Height string `json:"height"`
	Value  []byte `json:"value"`
	Width  string `json:"width"`
}

// NewImage returns a widget that shows data, an image encoded in format:
// "png", "jpeg", "gif" or "svg+xml".
func NewImage(data []byte, format string) *Image {
	i := &Image{st: imageState{dom: dom{Classes: []string{}}, Format: format, Value: bytes.Clone(data)}}
	i.model = open(i, kind{"ImageModel", "ImageView", controls, "2.0.0"})
	return i
}

// Value returns the encoded image.
func (i *Image) Value() []byte {
	return read(i, func(st *imageState) []byte { return bytes.Clone(st.Value) })
}

// SetValue replaces the image with data, encoded in the same format.
func (i *Image) SetValue(data []byte) {
	data = bytes.Clone(data)
	change(i, func(st *imageState) { st.Value = data })
}

func (i *Image) fields() any { return &i.st }

func (i *Image) check(any) error { return nil }

func (i *Image) changed(any) []func() { return nil }

func (i *Image) custom(any) ([]func(), error) { return nil, nil }

func (i *Image) text() string {
	return fmt.Sprintf("Image(format=%q, %d bytes)", i.st.Format, len(i.st.Value))
}

// still draws the image itself, at its own size where its encoding tells
// it, else in a 100-pixel square.
func (i *Image) still() still {
	w, h := 100, 100
	if c, _, err := image.DecodeConfig(bytes.NewReader(i.st.Value)); err == nil {
		w, h = c.Width, c.Height
	}
	uri := "data:image/" + i.st.Format + ";base64," + base64.StdEncoding.EncodeToString(i.st.Value)
	s := &sketch{w: float64(w), h: float64(h), body: fmt.Sprintf(`<image href="%s" width="%d" height="%d"/>`, esc(uri), w, h)}
	return still{html: fmt.Sprintf(`<img src="%s" width="%d" height="%d" alt="%s">`, esc(uri), w, h, esc(i.text())), svg: s}
}
