// Package notebook reads and writes Jupyter notebooks of nbformat 4 as
// Jupyter writes them: one-space indentation, keys in order, multiline
// text as lists of lines. It keeps the metadata and outputs it does not
// interpret as they were, so that a notebook read and written again
// changes only where it was changed.
package notebook

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/tensornb/tensornb/internal/nbformat"
)

// A Notebook is a notebook's cells and metadata.
type Notebook struct {
	Cells    []*Cell
	Metadata map[string]any
	// Format and FormatMinor are nbformat and nbformat_minor: 4 and
	// 4 or 5 (5 gives each cell an id).
	Format, FormatMinor int
}

// A Cell is one cell of a notebook.
type Cell struct {
	Type     string // "code", "markdown" or "raw"
	ID       string // "" before nbformat 4.5
	Source   string
	Metadata map[string]any
	// Outputs and ExecutionCount belong to code cells (a nil count is
	// null: the cell has not run); Attachments to markdown and raw ones.
	Outputs        []map[string]any
	ExecutionCount *int
	Attachments    map[string]any
}

// Read reads the notebook at path.
func Read(path string) (*Notebook, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	nb, err := Parse(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return nb, nil
}

// NotANotebook is the error of data that is not a notebook tensornb
// reads: not JSON, or not of nbformat 4.
type NotANotebook struct {
	Reason string
	// Format is the nbformat the data names: 0 if it names none or its
	// JSON does not parse.
	Format int
	// JSON is the decoder's error when the JSON does not parse, nil
	// otherwise.
	JSON error
}

// Error says why.
func (e *NotANotebook) Error() string { return "not a Jupyter notebook of nbformat 4: " + e.Reason }

// Unwrap returns the decoder's error, if the JSON does not parse.
func (e *NotANotebook) Unwrap() error { return e.JSON }

// file is a notebook's JSON as read.
type file struct {
	Cells       []cellFile     `json:"cells"`
	Metadata    map[string]any `json:"metadata"`
	Format      *int           `json:"nbformat"`
	FormatMinor int            `json:"nbformat_minor"`
}

type cellFile struct {
	Type           string           `json:"cell_type"`
	ID             string           `json:"id"`
	Source         any              `json:"source"`
	Metadata       map[string]any   `json:"metadata"`
	Outputs        []map[string]any `json:"outputs"`
	ExecutionCount *int             `json:"execution_count"`
	Attachments    map[string]any   `json:"attachments"`
}

// Parse reads a notebook from its JSON.
func Parse(data []byte) (*Notebook, error) {
	var f file
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, &NotANotebook{Reason: "its JSON does not parse (" + err.Error() + ")", JSON: err}
	}
	switch {
	case f.Format == nil:
		return nil, &NotANotebook{Reason: "it has no nbformat field"}
	case *f.Format != 4:
		return nil, &NotANotebook{Reason: fmt.Sprintf("it is of nbformat %d (open and save it in Jupyter to convert it)", *f.Format), Format: *f.Format}
	}
	nb := &Notebook{Metadata: f.Metadata, Format: *f.Format, FormatMinor: f.FormatMinor}
	if nb.Metadata == nil {
		nb.Metadata = map[string]any{}
	}
	for i, c := range f.Cells {
		source, ok := nbformat.Join(c.Source)
		if !ok {
			return nil, &NotANotebook{Reason: fmt.Sprintf("cell %d's source is neither a string nor a list of strings", i+1), Format: nb.Format}
		}
		switch c.Type {
		case "code", "markdown", "raw":
		default:
			return nil, &NotANotebook{Reason: fmt.Sprintf("cell %d has cell_type %q", i+1, c.Type), Format: nb.Format}
		}
		cell := &Cell{Type: c.Type, ID: c.ID, Source: source, Metadata: c.Metadata, Outputs: c.Outputs, ExecutionCount: c.ExecutionCount, Attachments: c.Attachments}
		if cell.Metadata == nil {
			cell.Metadata = map[string]any{}
		}
		nb.Cells = append(nb.Cells, cell)
	}
	return nb, nil
}

// Lines splits a text into the list of lines nbformat stores it as, each
// but the last with its newline.
func Lines(s string) []string {
	lines := strings.SplitAfter(s, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	if lines == nil {
		return []string{}
	}
	return lines
}

// Marshal returns the notebook's JSON as Jupyter writes it.
func (nb *Notebook) Marshal() ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", " ")
	if err := enc.Encode(nb.Document(false)); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// Document returns the notebook as the JSON object nbformat describes,
// with the keys Jupyter writes, to encode or to change first: its
// metadata, cells, metadata of cells and outputs are the notebook's own,
// not copies. Each cell's source is the list of lines a file holds, or,
// if joined, one string, as a Jupyter server's contents API gives it.
func (nb *Notebook) Document(joined bool) map[string]any {
	cells := make([]map[string]any, len(nb.Cells))
	for i, c := range nb.Cells {
		var source any = Lines(c.Source)
		if joined {
			source = c.Source
		}
		m := map[string]any{"cell_type": c.Type, "metadata": c.Metadata, "source": source}
		if c.ID != "" {
			m["id"] = c.ID
		}
		switch c.Type {
		case "code":
			outputs := c.Outputs
			if outputs == nil {
				outputs = []map[string]any{}
			}
			m["outputs"], m["execution_count"] = outputs, c.ExecutionCount
		default:
			if c.Attachments != nil {
				m["attachments"] = c.Attachments
			}
		}
		cells[i] = m
	}
	return map[string]any{"cells": cells, "metadata": nb.Metadata, "nbformat": nb.Format, "nbformat_minor": nb.FormatMinor}
}

// Write writes the notebook to path.
func (nb *Notebook) Write(path string) error {
	data, err := nb.Marshal()
	if err != nil {
		return err
	}
	return os.WriteFile(path, data, 0o644)
}

// Clone returns a copy of the notebook that shares nothing with it.
func (nb *Notebook) Clone() *Notebook {
	data, err := nb.Marshal()
	if err != nil {
		panic(err) // what Parse made, Marshal writes
	}
	c, err := Parse(data)
	if err != nil {
		panic(err)
	}
	return c
}

// Kernel returns the name and display name of the kernelspec the
// notebook names in its metadata, "" if it names none.
func (nb *Notebook) Kernel() (name, display string) {
	spec, _ := nb.Metadata["kernelspec"].(map[string]any)
	name, _ = spec["name"].(string)
	display, _ = spec["display_name"].(string)
	return name, display
}

// Tags returns the cell's tags.
func (c *Cell) Tags() []string {
	var tags []string
	list, _ := c.Metadata["tags"].([]any)
	for _, t := range list {
		if s, ok := t.(string); ok {
			tags = append(tags, s)
		}
	}
	return tags
}
