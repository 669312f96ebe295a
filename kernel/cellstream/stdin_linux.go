package cellstream

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"
	"unsafe"

	"github.com/janpfeifer/gonb/gonbui"
)

// Standard input under GoNB. GoNB gives a cell's program a pipe for its
// standard input and writes to it only the answers to the input requests
// the program makes itself (gonbui.RequestInput): a program that reads
// without asking waits for ever. So the program asks when it reads. Its
// os.Stdin becomes a pipe of this package's, in blocking mode, so that a
// read of it is a read call on a thread of the program, which
// /proc/self/task shows; when one is there and the pipe is empty, the
// program asks for a line, reads GoNB's answer from the real standard
// input and hands it on, newline and all. fmt.Scan and bufio.Scanner
// read os.Stdin; a read of file descriptor 0 itself is not seen.

// stdinPoll is how often the program looks for a read of its standard
// input; a read must be seen twice in a row, with nothing in the pipe, so
// that one that is just taking a line it was given is not asked for again.
const stdinPoll = 40 * time.Millisecond

// askWhenRead makes os.Stdin a pipe whose reads ask the notebook for a
// line (see above).
func askWhenRead() error {
	var p [2]int
	if err := syscall.Pipe2(p[:], syscall.O_CLOEXEC); err != nil {
		return err
	}
	given := os.Stdin
	os.Stdin = os.NewFile(uintptr(p[0]), "/dev/stdin") // blocking: see above
	lines := os.NewFile(uintptr(p[1]), "stdin lines")
	go func() {
		defer lines.Close()
		answers := bufio.NewReader(given)
		seen := 0
		for range time.Tick(stdinPoll) {
			if !reading(p[0]) {
				seen = 0
				continue
			}
			if seen++; seen < 2 {
				continue
			}
			seen = 0
			gonbui.RequestInput("", false)
			line, err := answers.ReadString('\n')
			if _, werr := lines.WriteString(line); err != nil || werr != nil {
				return // GoNB closed the input: the cell's reads end with it
			}
		}
	}()
	return nil
}

// reading reports whether a thread of this process is in a read call of
// fd, with nothing in fd's pipe to read.
func reading(fd int) bool {
	var queued int32
	if _, _, errno := syscall.Syscall(syscall.SYS_IOCTL, uintptr(fd), syscall.TIOCINQ, uintptr(unsafe.Pointer(&queued))); errno != 0 || queued > 0 {
		return false
	}
	tasks, _ := filepath.Glob("/proc/self/task/*/syscall")
	call := fmt.Sprintf("%d 0x%x ", syscall.SYS_READ, fd)
	for _, t := range tasks {
		if b, err := os.ReadFile(t); err == nil && strings.HasPrefix(string(b), call) {
			return true
		}
	}
	return false
}
