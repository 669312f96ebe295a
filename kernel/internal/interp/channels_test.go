package interp_test

import "testing"

// Channels run as Go runs them where yaegi v0.16.1 did not: it panicked
// on the make of a channel type of one direction. The outputs are go
// run's (Go 1.26).
func TestChannels(t *testing.T) {
	for _, c := range []struct {
		name, cell, want string
	}{
		{"the make of a channel type of one direction", `type Recv <-chan int

type Pipe[T any] struct{ out chan<- T }

func NewPipe[T any](n int) Pipe[T] { return Pipe[T]{make(chan<- T, n)} }

func main() {
	recv := make(Recv)
	send := make(chan<- string, 2)
	send <- "a"
	fmt.Println(recv != nil, len(send), cap(send), cap(NewPipe[float64](3).out))
}`, "true 1 2 3\n"},
	} {
		t.Run(c.name, func(t *testing.T) { checkPrinted(t, c.want, c.cell) })
	}
}
