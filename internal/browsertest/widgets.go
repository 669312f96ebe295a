package browsertest

// WidgetCells are the cells of the widget tests: an Interact of a
// picture, a button whose callback changes its own label, and a cell that
// reads two lines of its standard input.
var WidgetCells = []string{
	`import (
	"github.com/tensornb/tensornb/display"
	"github.com/tensornb/tensornb/tensor"
	"github.com/tensornb/tensornb/widget"
)
x := tensor.Float32.Arange(24)
cols := widget.NewIntSlider("cols", 4, 1, 24)
widget.Interact(func(c int) display.Renderer { return display.Grid(x.View(-1, c)) }, cols)`,
	`import "fmt"
clicks := 0
b := widget.NewButton("click me")
b.OnClick(func() { clicks++; b.SetDescription(fmt.Sprintf("clicked %d", clicks)) })
b`,
	`import (
	"bufio"
	"os"
)
var word string
fmt.Print("word? ")
fmt.Scanln(&word)
lines := bufio.NewScanner(os.Stdin)
lines.Scan()
fmt.Printf("%s|%s\n", word, lines.Text())`,
}

// WidgetJS, evaluated in a page, defines window.tnbWidgetTest, which
// finds and works the widgets' views and the input box of WidgetCells, on
// the site's pages or in JupyterLab, by the classes ipywidgets' and
// JupyterLab's views have.
const WidgetJS = `window.tnbWidgetTest = {
  // picture is the HTML of the Interact's output widget once it shows a
  // picture (an SVG, or JupyterLab's img of one), or "".
  picture() {
    const o = document.querySelector(".widget-output");
    return o && o.querySelector("svg, img") ? o.innerHTML : "";
  },
  // slide types value into the slider's readout and presses Enter, as a
  // person who edits the number does.
  slide(value) {
    const readout = document.querySelector(".widget-slider .widget-readout");
    readout.focus();
    readout.textContent = String(value);
    readout.dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", keyCode: 13, which: 13, bubbles: true }));
    return true;
  },
  label() {
    const b = document.querySelector("button.jupyter-button");
    return b ? b.textContent.trim() : "";
  },
  click() {
    document.querySelector("button.jupyter-button").click();
    return true;
  },
  // stdin is the number of input boxes not typed into yet.
  stdin() {
    return document.querySelectorAll("input.jp-Stdin-input:not([data-typed])").length;
  },
  typed() {
    document.querySelector("input.jp-Stdin-input:not([data-typed])").dataset.typed = "yes";
    return true;
  },
  text() {
    return document.body.innerText;
  },
};
true`
