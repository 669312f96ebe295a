package interp_test

import "testing"

// Channels run as Go runs them where yaegi v0.16.1 did not: it panicked
// on the make of a channel type of one direction, on a receive returned
// or assigned to a variable, and on a select's case that receives into
// existing variables; it left such a case's variable as it was. The
// outputs are go run's (Go 1.26).
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
		{"a receive returned, or assigned to a variable", `var total int

func next(c chan *int) *int { return <-c }

func pair(c <-chan string) (string, bool) { return <-c, true }

func main() {
	c := make(chan int, 4)
	c <- 1
	c <- 2
	c <- 3
	var x int
	x = <-c
	x += 10
	total = <-c
	total++
	p := new(int)
	ps := make(chan *int, 1)
	ps <- p
	*next(ps) = 5
	words := make(chan string, 1)
	words <- "w"
	fmt.Println(x, total, *p)
	fmt.Println(pair(words))
}`, "11 3 5\nw true\n"},
		{"a select that receives into existing variables", `type Flag bool

func main() {
	c := make(chan int, 4)
	c <- 1
	c <- 2
	c <- 3
	close(c)
	var v int
	var ok Flag
	s := []int{0, 0}
	select {
	case v = <-c:
	}
	fmt.Println(v)
	select {
	case s[1] = <-c:
		fmt.Println("body", s)
	}
	for i := 0; i < 2; i++ {
		select {
		case v, ok = <-c:
		}
		fmt.Println(v, ok)
	}
}`, "1\nbody [0 2]\n3 true\n0 false\n"},
	} {
		t.Run(c.name, func(t *testing.T) { checkPrinted(t, c.want, c.cell) })
	}
}
