package gonbui_test

import (
	"encoding/base64"
	"image"
	"strings"
	"testing"

	"github.com/tensornb/tensornb/internal/displaysink"
	"github.com/tensornb/tensornb/kernel/internal/interp/gonbui"
)

type shownBundle struct {
	bundle map[string]string
	id     string
}

// Each function shows one form, as GoNB's do: SVG inside a div of HTML,
// PNG in base64, updates with their display's id.
func TestShows(t *testing.T) {
	var shown []shownBundle
	displaysink.Set(func(b map[string]string, id string, result bool) error {
		if result {
			t.Errorf("a display shown as a cell's result: %v", b)
		}
		shown = append(shown, shownBundle{b, id})
		return nil
	})
	t.Cleanup(func() { displaysink.Set(nil) })
	gonbui.DisplayHtmlf("<b>%d</b>", 7)
	gonbui.DisplayMarkdown("# title")
	gonbui.DisplaySvg("<svg></svg>")
	gonbui.UpdateHTML("d1", "<i>new</i>")
	gonbui.UpdateMarkdown("d2", "*new*")
	gonbui.ScriptJavascript("console.log(1)")
	if err := gonbui.DisplayImage(image.NewGray(image.Rect(0, 0, 2, 2))); err != nil {
		t.Fatal(err)
	}
	want := []shownBundle{
		{map[string]string{"text/html": "<b>7</b>"}, ""},
		{map[string]string{"text/markdown": "# title"}, ""},
		{map[string]string{"text/html": "<div><svg></svg></div>"}, ""},
		{map[string]string{"text/html": "<i>new</i>"}, "d1"},
		{map[string]string{"text/markdown": "*new*"}, "d2"},
		{map[string]string{"application/javascript": "console.log(1)"}, ""},
	}
	if len(shown) != len(want)+1 {
		t.Fatalf("shown %v, want %d displays", shown, len(want)+1)
	}
	for i, w := range want {
		if len(shown[i].bundle) != 1 || shown[i].bundle[firstKey(w.bundle)] != w.bundle[firstKey(w.bundle)] || shown[i].id != w.id {
			t.Errorf("display %d: %v, want %v", i, shown[i], w)
		}
	}
	png, err := base64.StdEncoding.DecodeString(shown[len(want)].bundle["image/png"])
	if err != nil || !strings.HasPrefix(string(png), "\x89PNG") {
		t.Errorf("the image: %q, %v", shown[len(want)].bundle, err)
	}
	src, err := gonbui.EmbedImageAsPNGSrc(image.NewGray(image.Rect(0, 0, 2, 2)))
	if err != nil || src != "data:image/png;base64,"+shown[len(want)].bundle["image/png"] {
		t.Errorf("EmbedImageAsPNGSrc: %q, %v", src, err)
	}
	if id := gonbui.UniqueID(); len(id) != 8 || id == gonbui.UniqueId() {
		t.Errorf("UniqueID %q", id)
	}
}

func firstKey(m map[string]string) string {
	for k := range m {
		return k
	}
	return ""
}
