// Package cellstream is built into the programs GoNB compiles from cells
// (cellpanic imports it). GoNB reads a program's standard output and
// error in pieces and sends each piece as text, so a character cut
// between two pieces reaches the notebook as U+FFFD. When the program
// starts under GoNB, this package puts a relay between the program and
// GoNB: a second copy of the program, which hands the text on in whole
// characters. The relay is a process, not a goroutine, so that what the
// program wrote before it ended (returning, os.Exit, a crash) still
// arrives. Displays wait until the output written before them was handed
// on, so that a notebook shows them in the order the cell made them. And
// a read of os.Stdin asks the notebook for a line (stdin_linux.go), which
// GoNB makes a program do itself.
//
// It needs Linux; elsewhere output goes to GoNB as it is written, and a
// read of os.Stdin waits for ever.
//
// It is public, as cellpanic is, only because the cells' programs import
// it from the installed tensornb module, which cannot import
// kernel/internal; it is not an API.
package cellstream
