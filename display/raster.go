package display

import (
	"bytes"
	"cmp"
	"encoding/base64"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"math"
	"slices"
	"strconv"
	"sync"

	xfont "golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gomono"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
	"golang.org/x/image/vector"
)

// The raster form of a picture is a PNG drawn from the same marks as its
// SVG form, for the places that show no SVG and no HTML: an untrusted
// Notebook 6 ignores image/svg+xml but shows image/png. Text is set in Go
// Mono, the monospaced face of the Go fonts, so the picture looks the
// same on every machine.

// A canvas is the image a picture's marks are drawn on. Each shape is
// rasterized in a window of its own size (begin), so that drawing costs
// what the shape covers, not the whole picture.
type canvas struct {
	img    *image.RGBA
	z      *vector.Rasterizer
	window image.Rectangle // of the shape being drawn, in the image
	face   xfont.Face
}

var monoFace = sync.OnceValue(func() xfont.Face {
	f, err := opentype.Parse(gomono.TTF)
	if err != nil {
		panic("display: the Go Mono font does not parse: " + err.Error())
	}
	face, err := opentype.NewFace(f, &opentype.FaceOptions{Size: fontSize, DPI: 72, Hinting: xfont.HintingNone})
	if err != nil {
		panic("display: the Go Mono face: " + err.Error())
	}
	return face
})

// Bounds of the raster form. A picture of more pixels than rasterMax, or
// whose PNG would take more than rasterMaxBytes, has none: drawing it
// would take too long, and no reader could take in a picture of that
// size in a notebook's column anyway (its text and SVG forms remain).
const (
	rasterMax      = 3_000_000
	rasterMaxBytes = 150_000
)

// png returns the picture as a PNG image, base64-encoded as a Jupyter
// bundle carries it, and whether it is within the bounds of the raster
// form.
func (s *svgDoc) png() (string, bool) {
	w, h := s.pixels()
	if w*h > rasterMax {
		return "", false
	}
	c := &canvas{img: newImage(w, h), z: vector.NewRasterizer(0, 0), face: monoFace()}
	for _, m := range s.marks {
		m(c)
	}
	var b bytes.Buffer
	if err := (&png.Encoder{CompressionLevel: png.DefaultCompression}).Encode(&b, paletted(c.img)); err != nil {
		panic("display: encoding a PNG in memory: " + err.Error())
	}
	if base64.StdEncoding.EncodedLen(b.Len()) > rasterMaxBytes {
		return "", false
	}
	return base64.StdEncoding.EncodeToString(b.Bytes()), true
}

// rgb reads a colour written #rrggbb.
func rgb(hex string) color.RGBA {
	v, _ := strconv.ParseUint(hex[1:], 16, 32)
	return color.RGBA{uint8(v >> 16), uint8(v >> 8), uint8(v), 0xff}
}

// tint returns hex at the given opacity over paper.
func tint(hex string, opacity float64) color.RGBA {
	c, p := rgb(hex), rgb(paper)
	mix := func(a, b uint8) uint8 { return uint8(math.Round(float64(a)*opacity + float64(b)*(1-opacity))) }
	return color.RGBA{mix(c.R, p.R), mix(c.G, p.G), mix(c.B, p.B), 0xff}
}

// begin starts a shape that lies within x0 ≤ x ≤ x1, y0 ≤ y ≤ y1.
func (c *canvas) begin(x0, y0, x1, y1 float64) {
	c.beginIn(image.Rect(int(math.Floor(x0))-1, int(math.Floor(y0))-1, int(math.Ceil(x1))+1, int(math.Ceil(y1))+1))
}

// beginIn starts a shape drawn only within the window w: what lies
// outside is clipped.
func (c *canvas) beginIn(w image.Rectangle) {
	c.window = w.Intersect(c.img.Bounds())
	c.z.Reset(c.window.Dx(), c.window.Dy())
}

// moveTo, lineTo and quadTo add to the shape's outline, in the image's
// coordinates.
func (c *canvas) moveTo(x, y float64) {
	c.z.MoveTo(float32(x-float64(c.window.Min.X)), float32(y-float64(c.window.Min.Y)))
}

func (c *canvas) lineTo(x, y float64) {
	c.z.LineTo(float32(x-float64(c.window.Min.X)), float32(y-float64(c.window.Min.Y)))
}

func (c *canvas) quadTo(bx, by, x, y float64) {
	ox, oy := float64(c.window.Min.X), float64(c.window.Min.Y)
	c.z.QuadTo(float32(bx-ox), float32(by-oy), float32(x-ox), float32(y-oy))
}

// fill closes the shape and paints it in col.
func (c *canvas) fill(col color.RGBA) {
	c.z.ClosePath()
	c.z.Draw(c.img, c.window, image.NewUniform(col), image.Point{})
}

// roundRect adds a box with rounded corners to the path.
func (c *canvas) roundRect(r rect, radius float64) {
	radius = max(0, min(radius, r.w/2, r.h/2))
	x0, y0, x1, y1, k := r.x, r.y, r.x+r.w, r.y+r.h, radius
	c.moveTo(x0+k, y0)
	c.lineTo(x1-k, y0)
	c.quadTo(x1, y0, x1, y0+k)
	c.lineTo(x1, y1-k)
	c.quadTo(x1, y1, x1-k, y1)
	c.lineTo(x0+k, y1)
	c.quadTo(x0, y1, x0, y1-k)
	c.lineTo(x0, y0+k)
	c.quadTo(x0, y0, x0+k, y0)
}

// box draws a box as SVG does: a one-pixel stroke centred on its edge,
// around its fill at the given opacity. The pixels well inside are filled
// flat; only bands along the edges, where the stroke and the corners are,
// go through the rasterizer, so a large box costs little more than a
// small one.
func (c *canvas) box(r rect, radius float64, fill, stroke string, opacity float64) {
	outer := rect{r.x - 0.5, r.y - 0.5, r.w + 1, r.h + 1}
	inner := rect{r.x + 0.5, r.y + 0.5, r.w - 1, r.h - 1}
	k := max(0, min(radius, r.w/2, r.h/2))
	// The core: whole pixels that lie inside the inner box, away from its
	// corners, in two overlapping rectangles.
	x0, y0 := int(math.Ceil(inner.x)), int(math.Ceil(inner.y))
	x1, y1 := int(math.Floor(inner.x+inner.w)), int(math.Floor(inner.y+inner.h))
	kk := int(math.Ceil(k))
	core := image.NewUniform(tint(fill, opacity))
	draw.Draw(c.img, image.Rect(x0+kk, y0, x1-kk, y1), core, image.Point{}, draw.Src)
	draw.Draw(c.img, image.Rect(x0, y0+kk, x1, y1-kk), core, image.Point{}, draw.Src)
	// The bands around the core, each rasterized on its own.
	ox0, oy0 := int(math.Floor(outer.x)), int(math.Floor(outer.y))
	ox1, oy1 := int(math.Ceil(outer.x+outer.w)), int(math.Ceil(outer.y+outer.h))
	bands := []image.Rectangle{
		image.Rect(ox0, oy0, ox1, y0+kk),     // top
		image.Rect(ox0, y1-kk, ox1, oy1),     // bottom
		image.Rect(ox0, y0+kk, x0+kk, y1-kk), // left
		image.Rect(x1-kk, y0+kk, ox1, y1-kk), // right
	}
	for _, band := range bands {
		if band.Empty() {
			continue
		}
		c.beginIn(band)
		c.roundRect(outer, radius+0.5)
		c.fill(rgb(stroke))
		c.beginIn(band)
		c.roundRect(inner, radius-0.5)
		c.fill(tint(fill, opacity))
	}
}

// segment draws a straight stroke of the given width and colour from p to
// q, with square ends.
func (c *canvas) segment(p, q point, width float64, col color.RGBA) {
	dx, dy := q.x-p.x, q.y-p.y
	n := math.Hypot(dx, dy)
	if n == 0 {
		return
	}
	// Half a width across the stroke and, for the square ends, along it.
	ax, ay := -dy/n*width/2, dx/n*width/2
	bx, by := dx/n*width/2, dy/n*width/2
	c.begin(min(p.x, q.x)-width, min(p.y, q.y)-width, max(p.x, q.x)+width, max(p.y, q.y)+width)
	c.moveTo(p.x+ax-bx, p.y+ay-by)
	c.lineTo(q.x+ax+bx, q.y+ay+by)
	c.lineTo(q.x-ax+bx, q.y-ay+by)
	c.lineTo(p.x-ax-bx, p.y-ay-by)
	c.fill(col)
}

// stroke draws a polyline of the given width and colour, in dashes of 4
// with gaps of 3 if dashed, with an arrow head at its end if arrow.
func (c *canvas) stroke(points []point, width float64, hex string, dashed, arrow bool) {
	col := rgb(hex)
	along := 0.0 // how far into the dash pattern the next segment starts
	for k := 1; k < len(points); k++ {
		p, q := points[k-1], points[k]
		if !dashed {
			c.segment(p, q, width, col)
			continue
		}
		n := math.Hypot(q.x-p.x, q.y-p.y)
		for t := 0.0; t < n; {
			phase := math.Mod(along, 7)
			step := min(n-t, 7-phase)
			if phase < 4 {
				step = min(n-t, 4-phase)
				a, b := t/n, (t+step)/n
				c.segment(point{p.x + a*(q.x-p.x), p.y + a*(q.y-p.y)}, point{p.x + b*(q.x-p.x), p.y + b*(q.y-p.y)}, width, col)
			}
			t += step
			along += step
		}
	}
	if arrow && len(points) >= 2 {
		c.arrowHead(points[len(points)-2], points[len(points)-1], width)
	}
}

// arrowHead draws the SVG form's arrow marker at q, pointing from p: a
// triangle six stroke widths long and wide whose tip lies a tenth of its
// length past q.
func (c *canvas) arrowHead(p, q point, width float64) {
	dx, dy := q.x-p.x, q.y-p.y
	n := math.Hypot(dx, dy)
	if n == 0 {
		return
	}
	size := 6 * width
	ux, uy := dx/n*size/10, dy/n*size/10 // a tenth of the marker, along the arrow
	vx, vy := -uy, ux                    // and across it
	at := func(a, b float64) (float64, float64) {
		return q.x + (a-9)*ux + (b-5)*vx, q.y + (a-9)*uy + (b-5)*vy
	}
	c.begin(q.x-size, q.y-size, q.x+size, q.y+size)
	c.moveTo(at(0, 0))
	c.lineTo(at(10, 5))
	c.lineTo(at(0, 10))
	c.fill(rgb(faint))
}

// text sets a label with its baseline at y, anchored at x as the SVG form
// anchors it: "start", "middle" or "end".
func (c *canvas) text(x, y float64, anchor, hex, label string) {
	d := &xfont.Drawer{Dst: c.img, Src: image.NewUniform(rgb(hex)), Face: c.face}
	width := float64(d.MeasureString(label)) / 64
	switch anchor {
	case "middle":
		x -= width / 2
	case "end":
		x -= width
	}
	d.Dot = fixed.Point26_6{X: fixed.Int26_6(math.Round(x * 64)), Y: fixed.Int26_6(math.Round(y * 64))}
	d.DrawString(label)
}

// newImage returns a blank picture of the given size.
func newImage(w, h int) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	draw.Draw(img, img.Bounds(), image.NewUniform(rgb(paper)), image.Point{}, draw.Src)
	return img
}

// paletted returns img with at most 256 colours, for a PNG a quarter the
// size: its colours if it has no more, else its 256 commonest, each pixel
// taking the nearest of them. The flat fills and the cores of the strokes
// and letters are the commonest; only the edges that antialiasing blends
// lose some shades.
func paletted(img *image.RGBA) *image.Paletted {
	// Pixels come in long runs of one colour: each run costs one lookup.
	at := func(i int) color.RGBA { return color.RGBA{img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3]} }
	counts := map[color.RGBA]int{}
	for i := 0; i < len(img.Pix); {
		c, run := at(i), 0
		for ; i < len(img.Pix) && at(i) == c; i += 4 {
			run++
		}
		counts[c] += run
	}
	colours := make([]color.RGBA, 0, len(counts))
	for c := range counts {
		colours = append(colours, c)
	}
	slices.SortFunc(colours, func(a, b color.RGBA) int {
		if d := cmp.Compare(counts[b], counts[a]); d != 0 {
			return d
		}
		return cmp.Compare(uint32(a.R)<<16|uint32(a.G)<<8|uint32(a.B), uint32(b.R)<<16|uint32(b.G)<<8|uint32(b.B))
	})
	pal := make(color.Palette, 0, 256)
	index := make(map[color.RGBA]uint8, len(colours))
	for _, c := range colours[:min(256, len(colours))] {
		index[c] = uint8(len(pal))
		pal = append(pal, c)
	}
	for _, c := range colours[len(pal):] {
		index[c] = uint8(pal.Index(c))
	}
	out := image.NewPaletted(img.Bounds(), pal)
	for i := 0; i < len(img.Pix); {
		c := at(i)
		k := index[c]
		for ; i < len(img.Pix) && at(i) == c; i += 4 {
			out.Pix[i/4] = k
		}
	}
	return out
}
