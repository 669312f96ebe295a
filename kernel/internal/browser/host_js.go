package browser

import (
	"io"
	"io/fs"

	"github.com/traefik/yaegi/stdlib/generic"

	"github.com/tensornb/tensornb/kernel/internal/interp"
	"github.com/tensornb/tensornb/kernel/internal/interp/compiled"
	"github.com/tensornb/tensornb/kernel/internal/interp/symbols"
	"github.com/tensornb/tensornb/kernel/internal/interp/symbols/browserstd"
)

// instantHost is what a browser gives the instant engine's session: of the
// standard library, only the packages of symbols.BrowserStandard compiled
// in, which start in a fraction of the time yaegi's whole standard library
// takes (a cell that uses another that the server has is refused with a
// *cell.NotInBrowser); the types of the packages cells import from their
// export data, which the page fetches; and no GoNB.
func instantHost(exports interp.ExportData, docs interp.DocData, std func(path string) (io.ReadCloser, error)) interp.Host {
	return interp.Host{
		Library: compiled.New(compiled.Tables{
			Standard: browserstd.Symbols,
			// The tables of math, strings, unicode, time and others,
			// whose maps would cost the start of a page that does not use
			// them, are made as a cell first imports their packages.
			Lazy:      browserstd.Lazy,
			Generic:   takeGeneric(),
			Elsewhere: symbols.ServerStandard,
		}),
		Packages:  interp.FromExportData(exports, docs),
		Otherwise: "the tensornb kernel in Jupyter compiles it with GoNB when %%gonb is the cell's first line",
		StdSource: stdSource(std),
	}
}

// stdSource returns the standard library's source that std fetches, a
// package's zip at a time; none if std is nil.
func stdSource(std func(path string) (io.ReadCloser, error)) func() (fs.FS, error) {
	if std == nil {
		return nil
	}
	return func() (fs.FS, error) { return newZipSource(std), nil }
}

// takeGeneric takes from yaegi the sources of the generic standard
// packages it interprets (cmp, maps, slices), which its Use would compile
// as a session starts: in a browser, where that took a third of a second
// of the start, a session compiles them only as a cell first imports one
// of them, and Use finds none. Nothing else in the program uses yaegi.
func takeGeneric() []string {
	sources := generic.Sources[:]
	taken := append([]string(nil), sources...)
	clear(sources)
	return taken
}
