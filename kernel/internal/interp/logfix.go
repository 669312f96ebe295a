package interp

import (
	"fmt"
	"io"
	"log"
	"reflect"

	"github.com/traefik/yaegi/interp"
)

// logTable returns the table of package log a session gives yaegi after
// the standard library's, with the package's logger writing to stderr.
// yaegi v0.16.1's table has its own type for log.Logger (so that Fatal
// panics rather than end the process), and that type lacks the method
// SetPrefix: l.SetPrefix("b: ") failed with "undefined selector". Its
// log.Default returned the process's own logger, whose Fatal ends the
// process, and its log.Fatal panicked with the message, where Go prints
// it and exits with status 1.
//
// Here Logger is the session's logger type, with all of Go's methods,
// New and Default return one, and the package's functions use Default's:
// Fatal, Fatalf and Fatalln print as Go's do, then end the cell as
// os.Exit(1) does in yaegi (a panic whose value the session reads: see
// exitCode). The printing functions get MapTypes, as fmt's have, so that
// they see the methods of the cells' types (see fixedStandard).
func logTable(stderr io.Writer) interp.Exports {
	std := &logger{log.New(stderr, "", log.LstdFlags)}
	funcs := map[string]any{
		"Default": func() *logger { return std },
		"New":     func(out io.Writer, prefix string, flag int) *logger { return &logger{log.New(out, prefix, flag)} },
		"Fatal":   std.Fatal, "Fatalf": std.Fatalf, "Fatalln": std.Fatalln,
		"Panic": std.Panic, "Panicf": std.Panicf, "Panicln": std.Panicln,
		"Print": std.Print, "Printf": std.Printf, "Println": std.Println,
		"Flags": std.Flags, "SetFlags": std.SetFlags, "Prefix": std.Prefix, "SetPrefix": std.SetPrefix,
		"Output": std.Output, "SetOutput": std.SetOutput, "Writer": std.Writer,
	}
	table := map[string]reflect.Value{"Logger": reflect.ValueOf((*logger)(nil))}
	for name, f := range funcs {
		table[name] = reflect.ValueOf(f)
	}
	printing := []reflect.Type{reflect.TypeOf((*fmt.Formatter)(nil)).Elem(), reflect.TypeOf((*error)(nil)).Elem(), reflect.TypeOf((*fmt.Stringer)(nil)).Elem()}
	mapTypes := map[reflect.Value][]reflect.Type{}
	for _, name := range []string{"Fatal", "Fatalf", "Fatalln", "Panic", "Panicf", "Panicln", "Print", "Printf", "Println"} {
		mapTypes[table[name]] = printing
	}
	return interp.Exports{"log/log": table, ".": {"MapTypes": reflect.ValueOf(mapTypes)}}
}

// A logger is log.Logger for the cells: Go's, whose Fatal methods end
// the cell, not the process (see logTable).
type logger struct{ l *log.Logger }

// exit ends the cell as os.Exit(1) does in yaegi.
func exit() { panic("os.Exit(1)") }

// Fatal is Print, then os.Exit(1).
func (l *logger) Fatal(v ...any) { _ = l.l.Output(2, fmt.Sprint(v...)); exit() }

// Fatalf is Printf, then os.Exit(1).
func (l *logger) Fatalf(format string, v ...any) {
	_ = l.l.Output(2, fmt.Sprintf(format, v...))
	exit()
}

// Fatalln is Println, then os.Exit(1).
func (l *logger) Fatalln(v ...any) { _ = l.l.Output(2, fmt.Sprintln(v...)); exit() }

// Flags is log.Logger's.
func (l *logger) Flags() int { return l.l.Flags() }

// Output is log.Logger's.
func (l *logger) Output(calldepth int, s string) error { return l.l.Output(calldepth+1, s) }

// Panic is log.Logger's.
func (l *logger) Panic(v ...any) { l.l.Panic(v...) }

// Panicf is log.Logger's.
func (l *logger) Panicf(format string, v ...any) { l.l.Panicf(format, v...) }

// Panicln is log.Logger's.
func (l *logger) Panicln(v ...any) { l.l.Panicln(v...) }

// Prefix is log.Logger's.
func (l *logger) Prefix() string { return l.l.Prefix() }

// Print is log.Logger's.
func (l *logger) Print(v ...any) { l.l.Print(v...) }

// Printf is log.Logger's.
func (l *logger) Printf(format string, v ...any) { l.l.Printf(format, v...) }

// Println is log.Logger's.
func (l *logger) Println(v ...any) { l.l.Println(v...) }

// SetFlags is log.Logger's.
func (l *logger) SetFlags(flag int) { l.l.SetFlags(flag) }

// SetOutput is log.Logger's.
func (l *logger) SetOutput(w io.Writer) { l.l.SetOutput(w) }

// SetPrefix is log.Logger's.
func (l *logger) SetPrefix(prefix string) { l.l.SetPrefix(prefix) }

// Writer is log.Logger's.
func (l *logger) Writer() io.Writer { return l.l.Writer() }
