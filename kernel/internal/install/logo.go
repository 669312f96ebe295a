package install

import (
	"fmt"
	"image"
	"image/color"
	"strings"
)

// logoShapes calls draw for each rectangle of the logo, in a 64×64 frame:
// the idea of the project, a 3×4 grid of cells over a strip of storage
// slots, one cell and the slot it reads highlighted.
func logoShapes(draw func(x, y, w, h int, fill color.RGBA)) {
	navy := color.RGBA{0x1e, 0x3a, 0x8a, 0xff}
	cell, slot, lit := color.RGBA{0x93, 0xc5, 0xfd, 0xff}, color.RGBA{0xdb, 0xea, 0xfe, 0xff}, color.RGBA{0xfb, 0xbf, 0x24, 0xff}
	draw(0, 0, 64, 64, navy)
	for r := range 3 {
		for c := range 4 {
			fill := cell
			if r == 1 && c == 2 {
				fill = lit
			}
			draw(8+c*12, 8+r*12, 10, 10, fill)
		}
	}
	for s := range 12 {
		fill := slot
		if s == 6 {
			fill = lit
		}
		draw(8+s*4, 48, 3, 8, fill)
	}
}

// logoSVG draws the logo as SVG.
func logoSVG() string {
	var b strings.Builder
	b.WriteString(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">` + "\n")
	logoShapes(func(x, y, w, h int, c color.RGBA) {
		fmt.Fprintf(&b, `<rect x="%d" y="%d" width="%d" height="%d" fill="#%02x%02x%02x"/>`+"\n", x, y, w, h, c.R, c.G, c.B)
	})
	b.WriteString("</svg>\n")
	return b.String()
}

// logoPNG paints the logo at size×size pixels.
func logoPNG(size int) image.Image {
	img := image.NewRGBA(image.Rect(0, 0, size, size))
	scale := float64(size) / 64
	logoShapes(func(x, y, w, h int, c color.RGBA) {
		for py := int(float64(y) * scale); py < int(float64(y+h)*scale); py++ {
			for px := int(float64(x) * scale); px < int(float64(x+w)*scale); px++ {
				img.Set(px, py, c)
			}
		}
	})
	return img
}
