package notebook_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
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

func TestNotANotebook(t *testing.T) {
	for name, data := range map[string]string{
		"not JSON":     "print('hello')",
		"no nbformat":  `{"cells": []}`,
		"nbformat 3":   `{"nbformat": 3, "worksheets": []}`,
		"bad source":   `{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [{"cell_type": "code", "source": 7}]}`,
		"unknown type": `{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [{"cell_type": "python", "source": ""}]}`,
	} {
		_, err := notebook.Parse([]byte(data))
		var nan *notebook.NotANotebook
		if !errors.As(err, &nan) {
			t.Errorf("%s: got %v, want a NotANotebook", name, err)
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
