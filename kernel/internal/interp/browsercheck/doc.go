// Package browsercheck checks a notebook's code cells, on a server and
// without running them, as the browser's engine (kernel/internal/browser,
// built for js/wasm) checks each before it runs it: against the packages
// the browser has (tensor, display, check, widget and
// symbols.BrowserStandard), and with the types of their js/wasm export
// data, so that the site's builder can name the cells a reader would find
// failing.
package browsercheck
