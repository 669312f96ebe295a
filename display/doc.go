// Package display draws tensors as their memory sees them: the flat
// storage with the slots a tensor reads, the logical grid with each
// element's storage offset, the layout card, several views over one
// buffer, stride-0 broadcasting, the packing contracts of tensor.Contract
// (Packing colours a packed axis by part, DecodeFlow charts its decode),
// lineage diagrams, an interactive explorer of the address formula, and a
// stride playground that edits a tensor's layout freely, says what kind of
// layout it is and writes the Go line that makes it; and Compare, which
// sets a result beside the one expected, as package check shows a wrong
// answer.
//
// Every picture is a Renderer: its Bundle holds the same picture as
// text/plain (for consoles, logs and tests), self-contained text/html and,
// for static pictures, image/svg+xml (which GitHub's notebook viewer and
// nbviewer show). The lineage and decode flowcharts have no HTML form,
// which JupyterLab would prefer to their text/vnd.mermaid form: they carry
// Mermaid source, which JupyterLab draws, and the same chart drawn in Go
// as SVG and as PNG (for an untrusted Notebook 6, which shows no SVG).
// Show sends a picture to the notebook the program runs in, or prints its
// text form.
//
// Large tensors are summarized as PyTorch prints them: the first and last
// three entries of each dimension. A picture summarizes a tensor whose
// sizes multiply to more than 400 (a size of 0 counted as 1), draws at
// most 8 of its 2-D panels, and shows names printable and cut to 80
// characters, so that every form of every picture of any tensor, of any
// size, rank or shape, stays within 200 KB and valid markup.
package display
