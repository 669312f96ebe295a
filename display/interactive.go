package display

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"html"
	"math/rand/v2"
	"strings"
	"sync/atomic"
)

// An interactive is a kind of output whose HTML form a script makes live:
// the explorer and the playground. Each output carries all it needs, its
// style scoped to its element's id, the still picture it shows until its
// script runs (a notebook runs scripts only in outputs it trusts), and the
// script with its data, so it works offline on a page of its own and
// outputs on one page leave each other alone.
type interactive struct {
	class  string       // the element's class and its ids' stem: tnb-explorer
	prefix string       // the stem of its parts' classes: tx, for tx-fallback
	css    string       // its style after interactiveCSS; #ROOT stands for the element's id, FONT for the font
	script string       // its own script: a function expression that interactiveJS calls (see interactive.js)
	count  atomic.Int64 // the outputs drawn, for their ids
}

// interactiveJS is the part of the scripts that the interactive outputs
// share: a function expression that html calls with an output's class
// prefix and its own script, and the function it returns with the
// element's id and the data.
//
//go:embed interactive.js
var interactiveJS string

// interactiveCSS is the style every interactive element starts with: a
// framed box of its own width that scrolls sideways when the output is
// narrower.
const interactiveCSS = `
#ROOT { font-family: FONT; font-size: 13px; line-height: 1.4; color: #1f2937; background: #ffffff;
  border: 1px solid #cbd5e1; border-radius: 6px; padding: 10px 12px; width: fit-content; max-width: 100%; overflow-x: auto;
  box-sizing: border-box; text-align: left; }`

// newID returns a new element id. The random part keeps ids apart across
// runs of a program, whose outputs may share a page.
func (k *interactive) newID() string {
	return fmt.Sprintf("%s-%d-%08x", k.class, k.count.Add(1), rand.Uint32())
}

// bundle makes an output's forms: the text form; the SVG form, picture;
// and the HTML form, whose script receives data and which shows picture,
// titled alt, with note under it until the script runs.
func (k *interactive) bundle(text string, picture *svgDoc, alt, note string, data any) Bundle {
	svg := picture.String()
	still := picture.html(svg, alt) + "\n" +
		`<div style="font-family:` + font + `;font-size:12px;color:#4b5563;margin-top:4px">` + html.EscapeString(note) + "</div>"
	return Bundle{
		MIMEPlain: text,
		MIMEHTML:  k.html(k.newID(), data, still),
		MIMESVG:   svg,
	}
}

// html writes the output's element with the given id, its style, the HTML
// shown until the script runs (still), and the script: interactiveJS
// followed by the output's own script, called with the id and data.
func (k *interactive) html(id string, data any, still string) string {
	js, err := json.Marshal(data)
	if err != nil {
		panic(err) // the data are strings, ints and bools, which always encode
	}
	// A name may hold "</script>": JSON's escaping of <, > and & keeps it
	// from ending the element.
	css := strings.NewReplacer("#ROOT", "#"+id, "FONT", font).Replace(interactiveCSS + k.css)
	return `<div id="` + id + `" class="` + k.class + `">` + "\n" +
		"<style>" + css + "</style>\n" +
		`<div class="` + k.prefix + `-fallback">` + still + "</div>\n" +
		"</div>\n" +
		"<script>\n" + expression(interactiveJS) + `("` + k.prefix + `",` + "\n" +
		expression(k.script) + `)("` + id + `", ` + string(js) + ");\n</script>"
}

// expression is the function expression of a script file (interactive.js,
// explorer.js, playground.js, playlayout.js): the file without the space
// around it and the semicolon that ends it as a statement, as Prettier
// writes it.
func expression(file string) string {
	return strings.TrimSuffix(strings.TrimSpace(file), ";")
}

// refused is the bundle of an output that is not drawn: why it is not, as
// text and as HTML.
func refused(why string) Bundle {
	return Bundle{MIMEPlain: why, MIMEHTML: `<div style="font-family:` + font + `">` + html.EscapeString(why) + `</div>`}
}
