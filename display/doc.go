// Package display draws tensors as their memory sees them: the flat
// storage with the slots a tensor reads, the logical grid with each
// element's storage offset, the layout card, several views over one
// buffer, stride-0 broadcasting, the packing contracts of tensor.Contract
// (Packing colours a packed axis by part, DecodeFlow charts its decode),
// lineage diagrams and an interactive explorer of the address formula.
//
// Every picture is a Renderer: its Bundle holds the same picture as
// text/plain (for consoles, logs and tests), self-contained text/html and,
// for static pictures, image/svg+xml (which GitHub's notebook viewer and
// nbviewer show). Mermaid diagrams also carry text/vnd.mermaid. Show sends
// a picture to the notebook the program runs in, or prints its text form.
//
// Large tensors are summarized as PyTorch prints them: the first and last
// three entries of each dimension, so no picture grows past a few hundred
// kilobytes whatever the tensor's size.
package display
