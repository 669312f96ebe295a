package display

import (
	"fmt"
	"html"
	"math/rand/v2"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Mermaid draws a hand-written Mermaid diagram (https://mermaid.js.org).
// Its bundle holds the source as text/vnd.mermaid, which JupyterLab 4.1
// and Notebook 7.1 and later render themselves; as text/plain; and as
// self-contained HTML that shows the source and, on pages that have
// loaded Mermaid JS (window.mermaid, version 10 or 11), replaces it with
// the drawn diagram. Where Mermaid is missing or refuses the source, the
// source stays readable, with a short note in the second case.
//
//	display.Show(display.Mermaid("flowchart LR\n  x -->|transpose| y"))
func Mermaid(src string) Renderer { return mermaid(src) }

type mermaid string

// Bundle returns the diagram's forms. Every call gives the HTML fresh
// element ids, so that one page can hold the same diagram twice.
func (m mermaid) Bundle() Bundle {
	src := string(m)
	return Bundle{MIMEPlain: src, MIMEMermaid: src, MIMEHTML: mermaidHTML(src, "")}
}

// mermaidPage is the HTML form of a diagram: the source in a <pre>, and a
// script that draws it with the page's Mermaid into a new element before
// the <pre>, then removes the <pre>. A diagram that Go draws too has that
// picture before the <pre>, which is then hidden; the script removes the
// picture with the <pre>. If the page is still loading, the
// script waits for the load event, so that a Mermaid loaded later in the
// page (as a deferred or module script) is used too. If Mermaid fails, its
// element is removed (with the error picture it may have drawn) and a note
// follows the source, or the picture Go drew. Arguments: the container's id, the font, the text
// colour, the escaped source, the picture Go drew and the <pre>'s hidden
// attribute (or "" and "").
const mermaidPage = `<div id="%[1]s" class="tensornb-mermaid" style="overflow-x:auto;max-width:100%%">
%[5]s<pre%[6]s style="margin:0;font-family:%[2]s;font-size:12px;color:%[3]s">%[4]s</pre>
<script>
(function () {
  var box = document.getElementById("%[1]s");
  function draw() {
    var m = window.mermaid;
    var pre = box.querySelector("pre");
    if (!m || typeof m.render !== "function") {
      return;
    }
    var fig = document.createElement("div");
    box.insertBefore(fig, pre);
    function fail(e) {
      fig.remove();
      var note = document.createElement("p");
      note.className = "tensornb-mermaid-note";
      note.style.cssText = "margin:4px 0;font-family:%[2]s;font-size:12px;color:#b91c1c";
      var msg = String((e && e.message) || e);
      note.textContent = "Mermaid could not draw this diagram: " + msg.split("\n")[0];
      note.title = msg;
      box.appendChild(note);
    }
    try {
      m.render("%[1]s-svg", pre.textContent, fig).then(function (r) {
        fig.innerHTML = r.svg;
        pre.remove();
        var drawn = box.querySelector(".tensornb-mermaid-fallback");
        if (drawn) {
          drawn.remove();
        }
        if (r.bindFunctions) {
          r.bindFunctions(fig);
        }
      }).catch(fail);
    } catch (e) {
      fail(e);
    }
  }
  if (window.mermaid || document.readyState === "complete") {
    draw();
  } else {
    window.addEventListener("load", draw);
  }
})();
</script>
</div>`

// mermaidHTML returns the HTML form of a diagram with a new random id,
// unique across the outputs of the separate processes that fill a
// notebook. Where fallback (the HTML form of the diagram drawn in Go) is
// not "", a page without Mermaid JS shows it instead of the source.
func mermaidHTML(src, fallback string) string {
	id := fmt.Sprintf("tensornb-mermaid-%016x", rand.Uint64())
	hidden := ""
	if fallback != "" {
		fallback, hidden = `<div class="tensornb-mermaid-fallback">`+fallback+"</div>\n", " hidden"
	}
	return fmt.Sprintf(mermaidPage, id, font, ink, html.EscapeString(src), fallback, hidden)
}

// flowBundle returns the forms of a diagram: text, Mermaid source, the
// picture drawn in Go, and the HTML that draws the Mermaid source where
// the page has Mermaid JS and shows the picture otherwise.
func flowBundle(text, src string, g flowGraph) Bundle {
	doc := g.draw()
	svg := doc.String()
	alt, _, _ := strings.Cut(text, "\n")
	return Bundle{MIMEPlain: text, MIMEMermaid: src, MIMESVG: svg, MIMEHTML: mermaidHTML(src, doc.html(svg, alt))}
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
