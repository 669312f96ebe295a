package browserstd

import (
	"encoding"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"reflect"
	"strconv"
)

// The functions the extractor names in place of os.Exit and
// os.FindProcess: a cell must not end the engine, nor find it.

// osExit panics with the code, which the session reports as os.Exit's.
func osExit(code int) { panic("os.Exit(" + strconv.Itoa(code) + ")") }

// osFindProcess finds any process but the engine's own.
func osFindProcess(pid int) (*os.Process, error) {
	if pid == os.Getpid() {
		return nil, errors.New("the engine's own process is not for cells")
	}
	return os.FindProcess(pid)
}

func init() {
	typeOf := func(p any) reflect.Type { return reflect.TypeOf(p).Elem() }
	printing := []reflect.Type{typeOf((*fmt.Formatter)(nil)), typeOf((*fmt.Stringer)(nil))}
	for _, f := range []any{fmt.Errorf, fmt.Fprint, fmt.Fprintf, fmt.Fprintln, fmt.Print, fmt.Printf, fmt.Println, fmt.Sprint, fmt.Sprintf, fmt.Sprintln} {
		MapTypes[reflect.ValueOf(f)] = printing
	}
	scanning := []reflect.Type{typeOf((*fmt.Scanner)(nil))}
	for _, f := range []any{fmt.Scan, fmt.Scanf, fmt.Scanln} {
		MapTypes[reflect.ValueOf(f)] = scanning
	}
	MapTypes[reflect.ValueOf(json.Marshal)] = []reflect.Type{typeOf((*json.Marshaler)(nil)), typeOf((*encoding.TextMarshaler)(nil))}
	MapTypes[reflect.ValueOf(json.Unmarshal)] = []reflect.Type{typeOf((*json.Unmarshaler)(nil)), typeOf((*encoding.TextUnmarshaler)(nil))}
}
