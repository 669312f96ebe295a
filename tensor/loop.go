package tensor

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// A loop walks a shape with one set of strides per operand (an output and
// its inputs), row by row: the innermost dimension is a row, and the kernels
// that use a loop run a tight Go loop over each row.
type loop struct {
	shape   []int   // outer to inner, size-1 dimensions dropped, mergeable ones merged
	strides [][]int // strides[k] are operand k's strides over shape
	offsets []int   // operand k's storage offset of the first element
}

// newLoop prepares a walk over shape for operands with the given offsets and
// strides. Dimensions are kept in the given order; adjacent dimensions that
// every operand steps through contiguously are merged into one.
func newLoop(shape []int, offsets []int, strides ...[]int) *loop {
	l := &loop{offsets: append([]int{}, offsets...), strides: make([][]int, len(strides))}
	for d, size := range shape {
		if size == 1 {
			continue
		}
		last := len(l.shape) - 1
		if last >= 0 && l.mergeable(strides, d, size) {
			l.shape[last] *= size
			for k := range strides {
				l.strides[k][last] = strides[k][d]
			}
			continue
		}
		l.shape = append(l.shape, size)
		for k := range strides {
			l.strides[k] = append(l.strides[k], strides[k][d])
		}
	}
	return l
}

// mergeable reports whether the next dimension d, of the given size, can be
// merged into the loop's current innermost dimension: for every operand,
// one step of the innermost dimension must equal a full run of d.
func (l *loop) mergeable(strides [][]int, d, size int) bool {
	last := len(l.shape) - 1
	for k := range strides {
		if l.strides[k][last] != strides[k][d]*size {
			return false
		}
	}
	return true
}

// numel returns the number of elements the loop visits.
func (l *loop) numel() int { return Shape(l.shape).Numel() }

// rowLen is the length of one row; rows is the number of rows.
func (l *loop) rowLen() int {
	if len(l.shape) == 0 {
		return 1
	}
	return l.shape[len(l.shape)-1]
}

func (l *loop) rows() int { return l.numel() / max(l.rowLen(), 1) }

// inner returns operand k's stride along a row.
func (l *loop) inner(k int) int {
	if len(l.shape) == 0 {
		return 0
	}
	return l.strides[k][len(l.shape)-1]
}

// each calls f for rows lo to hi-1 with each operand's offset of the row's
// first element. offs is reused between calls.
func (l *loop) each(lo, hi int, f func(offs []int)) {
	if lo >= hi {
		return
	}
	outer := len(l.shape) - 1
	if outer < 0 {
		outer = 0
	}
	idx := make([]int, outer)
	offs := append([]int{}, l.offsets...)
	rest := lo
	for d := outer - 1; d >= 0; d-- {
		idx[d] = rest % l.shape[d]
		rest /= l.shape[d]
		for k := range offs {
			offs[k] += idx[d] * l.strides[k][d]
		}
	}
	for r := lo; r < hi; r++ {
		f(offs)
		for d := outer - 1; d >= 0; d-- {
			idx[d]++
			for k := range offs {
				offs[k] += l.strides[k][d]
			}
			if idx[d] < l.shape[d] {
				break
			}
			for k := range offs {
				offs[k] -= idx[d] * l.strides[k][d]
			}
			idx[d] = 0
		}
	}
}

// parallelGrain is the number of elements below which work stays on one
// goroutine: splitting smaller jobs costs more than it saves.
const parallelGrain = 1 << 16

// parts returns how many goroutines should share n units of work that
// touch cost elements in all: one unless the work is large enough to be
// worth splitting.
func parts(n, cost int) int {
	return max(1, min(runtime.GOMAXPROCS(0), n, cost/parallelGrain))
}

// runParts splits [0, n) into count (at least 1) contiguous ranges and
// runs f on each, part numbering the range, on the calling goroutine and
// the crew's (crew.go). When the crew is busy with another caller's job,
// it runs the last on the calling goroutine and the others on goroutines
// of their own; the caller then yields
// once after starting them, so that this core runs a new goroutine at
// once while the caller waits for an idle core: without it, Go keeps the
// new goroutine for this core, which is busy, and the other cores do not
// take it for a long while (often not within a millisecond's job).
func runParts(n, count int, f func(part, lo, hi int)) {
	if count > 1 && crewRun(count, func(p int) { f(p, n*p/count, n*(p+1)/count) }) {
		return
	}
	var wg sync.WaitGroup
	for p := range count - 1 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			f(p, n*p/count, n*(p+1)/count)
		}()
	}
	if count > 1 {
		runtime.Gosched()
	}
	last := count - 1
	f(last, n*last/count, n)
	wg.Wait()
}

// parallelFor runs f over [0, n), shared between goroutines when the work
// (cost elements in all) is large. The goroutines take turns at chunks of
// the range, so that one that starts late, on a core that had to be woken
// first, takes fewer of them.
func parallelFor(n, cost int, f func(lo, hi int)) {
	workers := parts(n, cost)
	if workers == 1 {
		f(0, n)
		return
	}
	var next atomic.Int64
	runParts(workers, workers, func(_, _, _ int) { takeChunks(&next, n, workers, f) })
}

// takeChunks runs f over chunks of [0, n) taken in turn from next, which
// goroutines share, until none is left; the chunks are small enough that
// each of workers goroutines takes about four.
func takeChunks(next *atomic.Int64, n, workers int, f func(lo, hi int)) {
	chunk := max(1, n/(4*workers))
	for {
		lo := int(next.Add(int64(chunk))) - chunk
		if lo >= n {
			return
		}
		f(lo, min(lo+chunk, n))
	}
}

// eachRow runs f over every row of l, in parallel when the loop is large,
// with the offsets of a stretch of n elements of a row. When there are
// fewer rows than goroutines to share them, rows are cut into stretches.
func (l *loop) eachRow(f func(offs []int, n int)) {
	rows, n := l.rows(), l.rowLen()
	workers := parts(l.numel(), l.numel())
	if rows == 0 {
		return
	}
	if rows >= workers {
		parallelFor(rows, l.numel(), func(lo, hi int) {
			l.each(lo, hi, func(offs []int) { f(offs, n) })
		})
		return
	}
	cuts := (workers + rows - 1) / rows
	stretch := (n + cuts - 1) / cuts
	parallelFor(rows*cuts, l.numel(), func(lo, hi int) {
		for u := lo; u < hi; u++ {
			row, start := u/cuts, u%cuts*stretch
			if start >= n {
				continue
			}
			l.each(row, row+1, func(offs []int) {
				moved := make([]int, len(offs))
				for k, off := range offs {
					moved[k] = off + start*l.inner(k)
				}
				f(moved, min(stretch, n-start))
			})
		}
	})
}
