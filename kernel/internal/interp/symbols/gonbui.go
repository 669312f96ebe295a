//go:build !js

package symbols

import (
	"reflect"

	"github.com/tensornb/tensornb/kernel/internal/interp/gonbui"
)

// GoNB's gonbui, for cells that import it on a server: its display
// functions, written for the instant engine (package gonbui here). The
// browser's engine lacks the types of GoNB's module, and so the package.
func init() {
	Symbols["github.com/janpfeifer/gonb/gonbui/gonbui"] = map[string]reflect.Value{
		"Debug":              reflect.ValueOf(&gonbui.Debug).Elem(),
		"DisplayHTML":        reflect.ValueOf(gonbui.DisplayHTML),
		"DisplayHTMLF":       reflect.ValueOf(gonbui.DisplayHTMLF),
		"DisplayHtml":        reflect.ValueOf(gonbui.DisplayHtml),
		"DisplayHtmlf":       reflect.ValueOf(gonbui.DisplayHtmlf),
		"DisplayImage":       reflect.ValueOf(gonbui.DisplayImage),
		"DisplayMarkdown":    reflect.ValueOf(gonbui.DisplayMarkdown),
		"DisplayPNG":         reflect.ValueOf(gonbui.DisplayPNG),
		"DisplayPng":         reflect.ValueOf(gonbui.DisplayPng),
		"DisplaySVG":         reflect.ValueOf(gonbui.DisplaySVG),
		"DisplaySvg":         reflect.ValueOf(gonbui.DisplaySvg),
		"EmbedImageAsPNGSrc": reflect.ValueOf(gonbui.EmbedImageAsPNGSrc),
		"Error":              reflect.ValueOf(gonbui.Error),
		"IsNotebook":         reflect.ValueOf(&gonbui.IsNotebook).Elem(),
		"Logf":               reflect.ValueOf(gonbui.Logf),
		"ScriptJavascript":   reflect.ValueOf(gonbui.ScriptJavascript),
		"Sync":               reflect.ValueOf(gonbui.Sync),
		"UniqueID":           reflect.ValueOf(gonbui.UniqueID),
		"UniqueId":           reflect.ValueOf(gonbui.UniqueId),
		"UpdateHTML":         reflect.ValueOf(gonbui.UpdateHTML),
		"UpdateHtml":         reflect.ValueOf(gonbui.UpdateHtml),
		"UpdateMarkdown":     reflect.ValueOf(gonbui.UpdateMarkdown),
	}
}
