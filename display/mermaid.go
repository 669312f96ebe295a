package display

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Mermaid draws a hand-written Mermaid diagram (https://mermaid.js.org).
// Its bundle holds the source as text/vnd.mermaid, which JupyterLab 4.1
// and Notebook 7.1 and later draw themselves, and as text/plain, which
// every other front end shows. It has no HTML form: JupyterLab prefers
// HTML to every other type, so one would keep it from drawing the diagram.
//
//	display.Show(display.Mermaid("flowchart LR\n  x -->|transpose| y"))
func Mermaid(src string) Renderer { return mermaid(src) }

type mermaid string

// Bundle returns the diagram's forms: its source, as Mermaid and as text.
func (m mermaid) Bundle() Bundle {
	return Bundle{MIMEPlain: string(m), MIMEMermaid: string(m)}
}

// flowBundle returns the forms of a diagram that Go draws too: text,
// Mermaid source, and the picture drawn in Go as SVG and PNG. Each front
// end shows the best it can: JupyterLab the Mermaid form, which it ranks
// first and draws in its theme; Notebook 6, nbconvert's pages and GitHub
// the SVG; an untrusted Notebook 6, which shows no SVG, the PNG. There is
// no HTML form, which JupyterLab would rank above the Mermaid form. A
// diagram too large for the raster form (see png) has no PNG.
func flowBundle(text, src string, g flowGraph) Bundle {
	doc := g.draw()
	b := Bundle{MIMEPlain: text, MIMEMermaid: src, MIMESVG: doc.String()}
	if png, ok := doc.png(); ok {
		b[MIMEPNG] = png
	}
	return b
}

// mermaidText escapes s for a quoted Mermaid label or title. Letters,
// digits, spaces, non-ASCII characters and the punctuation ( ) [ ] , . -
// + * / = _ ' ! ? stay as they are; every other character becomes a
// Mermaid entity code (#58; for ":"), which Mermaid shows as the character
// itself. So quotes cannot end the label, "#", "&" and "<" cannot start an
// entity or a tag, "%%" cannot start a directive, "$$" cannot start math,
// "`" cannot start Markdown, and ":" keeps Mermaid from mistaking a label
// for a style with a colour in it.
func mermaidText(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r >= utf8.RuneSelf || r == ' ' || unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune("()[],.-+*/=_'!?", r) {
			b.WriteRune(r)
		} else {
			fmt.Fprintf(&b, "#%d;", r)
		}
	}
	return b.String()
}
