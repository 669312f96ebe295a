package notebook_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/tensornb/tensornb/kernel/internal/notebook"
)

// The repository's notebooks, which Jupyter wrote, come out of Read and
// Marshal byte for byte as they went in.
func TestRoundTrip(t *testing.T) {
	paths, err := filepath.Glob("../../../notebooks/*.ipynb")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no notebooks (%v)", err)
	}
	for _, path := range paths {
		nb, err := notebook.Read(path)
		if err != nil {
			t.Fatal(err)
		}
		got, err := nb.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		want := readFile(t, path)
		if !bytes.Equal(got, want) {
			i := 0
			for i < min(len(got), len(want)) && got[i] == want[i] {
				i++
			}
			t.Errorf("%s differs at byte %d: got %q, want %q", path, i, got[max(i-40, 0):min(i+40, len(got))], want[max(i-40, 0):min(i+40, len(want))])
		}
	}
}

// Document writes each cell's source as its lines, as Marshal does, or
// joined into one string, as a Jupyter server's contents API serves it.
func TestDocument(t *testing.T) {
	nb, err := notebook.Parse([]byte(`{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [{"cell_type": "code", "id": "a", "metadata": {}, "source": ["x := 1\n", "x"], "execution_count": null, "outputs": []}]}`))
	if err != nil {
		t.Fatal(err)
	}
	for joined, want := range map[bool]any{false: []string{"x := 1\n", "x"}, true: "x := 1\nx"} {
		cell := nb.Document(joined)["cells"].([]map[string]any)[0]
		if !reflect.DeepEqual(cell["source"], want) || cell["id"] != "a" || cell["execution_count"] != (*int)(nil) {
			t.Errorf("joined %t: the cell is %v, want the source %q", joined, cell, want)
		}
	}
}

// Data that is not a notebook of nbformat 4 gives a NotANotebook, which
// names the nbformat the data names and holds the decoder's error if the
// JSON does not parse.
func TestNotANotebook(t *testing.T) {
	for name, c := range map[string]struct {
		data   string
		format int
		json   bool
	}{
		"not JSON":     {"print('hello')", 0, true},
		"no nbformat":  {`{"cells": []}`, 0, false},
		"nbformat 3":   {`{"nbformat": 3, "worksheets": []}`, 3, false},
		"bad source":   {`{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [{"cell_type": "code", "source": 7}]}`, 4, false},
		"bad line":     {`{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [{"cell_type": "code", "source": ["a", 7]}]}`, 4, false},
		"unknown type": {`{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [{"cell_type": "python", "source": ""}]}`, 4, false},
	} {
		_, err := notebook.Parse([]byte(c.data))
		var nan *notebook.NotANotebook
		switch {
		case !errors.As(err, &nan):
			t.Errorf("%s: got %v, want a NotANotebook", name, err)
		case nan.Format != c.format || (nan.JSON != nil) != c.json:
			t.Errorf("%s: Format %d and JSON %v, want %d and an error: %t", name, nan.Format, nan.JSON, c.format, c.json)
		}
	}
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}
