package gonbui

import "reflect"

// TableKey is the key of Table among yaegi's symbol tables: GoNB's
// import path of gonbui, and its name.
const TableKey = "github.com/janpfeifer/gonb/gonbui/gonbui"

// Table is the yaegi symbol table that gives cells this package's
// functions under GoNB's import path. A server's engine has it (package
// worker); the browser's does not, as it lacks the types of GoNB's
// module that the checker would need.
func Table() map[string]reflect.Value {
	return map[string]reflect.Value{
		"Debug":              reflect.ValueOf(&Debug).Elem(),
		"DisplayHTML":        reflect.ValueOf(DisplayHTML),
		"DisplayHTMLF":       reflect.ValueOf(DisplayHTMLF),
		"DisplayHtml":        reflect.ValueOf(DisplayHtml),
		"DisplayHtmlf":       reflect.ValueOf(DisplayHtmlf),
		"DisplayImage":       reflect.ValueOf(DisplayImage),
		"DisplayMarkdown":    reflect.ValueOf(DisplayMarkdown),
		"DisplayPNG":         reflect.ValueOf(DisplayPNG),
		"DisplayPng":         reflect.ValueOf(DisplayPng),
		"DisplaySVG":         reflect.ValueOf(DisplaySVG),
		"DisplaySvg":         reflect.ValueOf(DisplaySvg),
		"EmbedImageAsPNGSrc": reflect.ValueOf(EmbedImageAsPNGSrc),
		"Error":              reflect.ValueOf(Error),
		"IsNotebook":         reflect.ValueOf(&IsNotebook).Elem(),
		"Logf":               reflect.ValueOf(Logf),
		"ScriptJavascript":   reflect.ValueOf(ScriptJavascript),
		"Sync":               reflect.ValueOf(Sync),
		"UniqueID":           reflect.ValueOf(UniqueID),
		"UniqueId":           reflect.ValueOf(UniqueId),
		"UpdateHTML":         reflect.ValueOf(UpdateHTML),
		"UpdateHtml":         reflect.ValueOf(UpdateHtml),
		"UpdateMarkdown":     reflect.ValueOf(UpdateMarkdown),
	}
}
