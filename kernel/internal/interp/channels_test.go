package interp_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/tensornb/tensornb/kernel/internal/front"
)

// Channels run as Go runs them where yaegi v0.16.1 did not: it panicked
// on the make of a channel type of one direction, on a receive returned
// or assigned to a variable, and on a select's case that receives into
// existing variables; it left such a case's variable as it was, and
// blocked forever in a select that receives a value and ok from a
// channel that is not a variable. The outputs are go run's (Go 1.26).
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
		{"a select that receives a value and ok from a field, and the order of its operands", `type Receiver struct{ values <-chan int }

func (r *Receiver) Next() (v int, ok bool) {
	select {
	case v, ok = <-r.values:
	}
	return v, ok
}

func ch(name string, c chan int) chan int {
	fmt.Print(name, " ")
	return c
}

func val(name string, v int) int {
	fmt.Print(name, " ")
	return v
}

func main() {
	c := make(chan int)
	go func() {
		c <- 1
		c <- 2
		close(c)
	}()
	r := &Receiver{c}
	for {
		v, ok := r.Next()
		fmt.Println(v, ok)
		if !ok {
			break
		}
	}
	full := make(chan int)
	select {
	case ch("a", full) <- val("b", 1):
	case x, ok := <-ch("c", full):
		fmt.Println(x, ok)
	case ch("d", full) <- 2:
	default:
		fmt.Println("default")
	}
}`, "1 true\n2 true\n0 false\na b c d default\n"},
	} {
		t.Run(c.name, func(t *testing.T) { checkPrinted(t, c.want, c.cell) })
	}
}

// A select that receives a value and ok from a channel that is not a
// variable is refused where its rewrite would move what it cannot: a
// label, or a function literal.
func TestSelectRefusals(t *testing.T) {
	for _, c := range []struct {
		name, cell, want string
		line             int
	}{
		{"labeled", "type R struct{ c chan int }\nr := R{make(chan int, 1)}\nr.c <- 1\nL:\n\tselect {\n\tcase v, ok := <-r.c:\n\t\tfmt.Println(v, ok)\n\t\tbreak L\n\t}", "the labeled select L", 4},
		{"a function literal", "c := make(chan int, 1)\nselect {\ncase v, ok := <-func() chan int { return c }():\n\tfmt.Println(v, ok)\ndefault:\n}", "a function literal in a channel", 3},
	} {
		t.Run(c.name, func(t *testing.T) {
			s, _ := newSession(t)
			err := runLast(t, s, c.cell)
			var ce *front.CellError
			if !errors.As(err, &ce) || ce.Name != "Unsupported" || !strings.HasPrefix(ce.Value, fmt.Sprintf("cell line %d: ", c.line)) || !strings.Contains(ce.Value, c.want) {
				t.Fatalf("error %#v", err)
			}
		})
	}
}
