package tensor

import (
	"runtime"
	"sync"
	"sync/atomic"
	"unsafe"
)

// The float32 and float64 matrix products, as BLAS libraries compute
// them: Y is packed into panels of a tile's columns and X, a block of rows
// at a time, into panels of a tile's rows, both a kernel's depth deep, so
// that a tile kernel reads each panel in order from cache and keeps its
// tile of sums in registers. Each dtype accumulates in itself: float32
// products in float32, as PyTorch's BLAS does.
//
// The loops, from the outside in: Y is packed a block of columns at a
// time (about gemmYBlockBytes); then a worker takes a block of X's rows
// (about gemmBlockBytes of them, which stay in its core's L2 cache; the
// amd64 kernels read them in place when they can, see gemmKernel), then
// a run of the shared dimension as long as the kernel's depth; for each
// of the block's packed panels of Y (gemmPanelBytes, which stays in L1
// while it is used) it runs the kernel over every tile of rows in the
// block of X.
const (
	gemmMaxDepth   = 512       // the most a kernel's depth can be
	gemmBlockBytes = 96 * 1024 // the packed rows of X a worker keeps in L2
	// gemmYBlockBytes is about the most of Y packed at one time: a block
	// of its columns, in L2 or L3, which every worker's rows of X
	// multiply before the next block is packed. It bounds the packing
	// buffer, which is then kept for the next product (scratchMax).
	gemmYBlockBytes = 1 << 20
	// gemmMaxTile is the largest rows×cols of any kernel (AVX-512's
	// float32 tile, 12×32), the size of the buffer for tiles past c's edge.
	gemmMaxTile = 12 * 32
)

// gemmPanelBytes is the size of a packed panel of Y: half of a 32 KiB
// first-level data cache, or 32 KiB of a 48 KiB one or larger (Intel's
// since Ice Lake, AMD's since Zen 5), where a product of 256 rows or
// fewer then sums its whole depth in one pass (12% faster on one core).
var gemmPanelBytes = panelBytes(l1DataBytes())

func panelBytes(l1 int) int {
	if l1 >= 48*1024 {
		return 32 * 1024
	}
	return 16 * 1024
}

//go:generate go run gemm_gen.go

// gemmKernel is a tile kernel for elements of type T: tile writes, or adds
// to when add is set, the rows×cols product of the packed panels a (k
// columns of rows elements) and b (k rows of cols elements) into c, whose
// rows are ldc apart. k is at least 1.
//
// strided, when not nil, is the same kernel reading a's rows where they
// lie, element (r, p) at a[r*lda+p*pa]: X's rows in place when they are
// contiguous or X is a transposed contiguous matrix, which then need no
// packing. (The tile sees each row of a as often as Y has panels; packed
// or in place, those are the same few cache lines.) It computes tiles
// tiles, one below the other, with the same b: tile i reads a from
// a[i*astep] on and writes c from c[i*rows*ldc] on, so that one call
// covers a column of tiles.
type gemmKernel[T float32 | float64] struct {
	rows, cols int
	tile       func(k int, a, b, c []T, ldc int, add bool)
	strided    func(k, tiles int, a []T, lda, pa, astep int, b, c []T, ldc int, add bool)
}

// readsInPlace reports whether the kernel reads x's rows where they lie:
// when it can, and they are contiguous or x is a transposed contiguous
// matrix, so that a tile's rows are a few runs of cache lines.
func (kern gemmKernel[T]) readsInPlace(x strided2D[T]) bool {
	return kern.strided != nil && (x.colStride == 1 || x.rowStride == 1)
}

// depth is the length of the products the kernel sums at one time: a
// panel of Y, depth×cols, fills about gemmPanelBytes, so that it stays in
// L1 while the packed rows of X stream past it.
func (kern gemmKernel[T]) depth() int {
	var zero T
	return min(gemmMaxDepth, max(16, gemmPanelBytes/(kern.cols*int(unsafe.Sizeof(zero)))))
}

// matmulPacked writes to out, a new contiguous (batch…, n, m) tensor of
// element type T, the products of the matrices of xb (batch…, n, k) and
// yb (batch…, k, m), views of any layout over storages of T, with the
// kernel kern.
func matmulPacked[T float32 | float64](kern gemmKernel[T], pool *scratchPool[T], out, xb, yb *Tensor) {
	nb := xb.Dim() - 2
	n, k, m := xb.Size(-2), xb.Size(-1), yb.Size(-1)
	if n == 0 || k == 0 || m == 0 {
		return // a new tensor holds zeros, the sum of no products
	}
	var zero T
	size := int(unsafe.Sizeof(zero))
	xd, yd := xb.storage.data.([]T), yb.storage.data.([]T)
	cd := out.storage.data.([]T)
	// Y is packed a block of its columns at a time, whose panels fill
	// about gemmYBlockBytes (or a panel, when Y is deeper than that).
	blockCols := min(roundUp(m, kern.cols), max(1, gemmYBlockBytes/(k*size*kern.cols))*kern.cols)
	checkAllocation("matmul", k*blockCols, size)
	panelsBuf := pool.get(k * blockCols)
	defer pool.put(panelsBuf)
	panels := *panelsBuf
	// The tiles of rows a worker packs at once.
	depth := kern.depth()
	block := max(1, gemmBlockBytes/(size*depth*kern.rows))
	tiles := (n + kern.rows - 1) / kern.rows
	index := make([]int, nb)
	for b := range Shape(xb.shape[:nb]).Numel() {
		xo, yo := xb.offset, yb.offset
		for d := range nb {
			xo += index[d] * xb.strides[d]
			yo += index[d] * yb.strides[d]
		}
		x := strided2D[T]{xd, xo, xb.strides[nb], xb.strides[nb+1]}
		inPlace := kern.readsInPlace(x)
		for j0 := 0; j0 < m; j0 += blockCols {
			mb := min(blockCols, m-j0)
			width := roundUp(mb, kern.cols)
			y := strided2D[T]{yd, yo + j0*yb.strides[nb+1], yb.strides[nb], yb.strides[nb+1]}
			c := cd[b*n*m+j0 : (b+1)*n*m]
			packThenShare(packedPanels(k, mb, kern.cols, depth), tiles, n*k*mb, func(u int) {
				packPanel(panels, y, k, mb, kern.cols, depth, u)
			}, func(lo, hi int) {
				rowsBuf := pool.get(block * kern.rows * min(k, depth))
				defer pool.put(rowsBuf)
				rows := *rowsBuf
				var edge [gemmMaxTile]T
				for t0 := lo; t0 < hi; t0 += block {
					t1 := min(t0+block, hi)
					for p0 := 0; p0 < k; p0 += depth {
						run := min(depth, k-p0)
						r0, r1 := t0*kern.rows, min(t1*kern.rows, n)
						a := tileRows[T]{x: x, p0: p0, depth: run, packed: rows, packedFrom: r0}
						if inPlace {
							// Only a last tile that X's rows do not fill is packed.
							a.inPlace = true
							a.packedFrom = max(r0, (r1/kern.rows)*kern.rows)
						}
						packRows(rows, x, a.packedFrom, r1, p0, run, kern.rows)
						ys := panels[p0*width : (p0+run)*width]
						multiplyPanels(kern, edge[:], c, m, a, ys, r0, r1, mb, p0 > 0)
					}
				}
			})
		}
		for d := nb - 1; d >= 0; d-- { // the next batch index, last dimension fastest
			if index[d]++; index[d] < xb.shape[d] {
				break
			}
			index[d] = 0
		}
	}
}

// Packing buffers are kept from finished products for the next ones:
// packing writes every slot it later reads, so a buffer needs no clearing.
// Up to scratchKept buffers of at most scratchMax bytes each are kept for
// good, since sync.Pool empties at every collection and a stream of small
// products, whose results are garbage at once, has one every few
// products; larger buffers are kept in the sync.Pool until the next.
const (
	scratchKept = 4
	scratchMax  = 1 << 20 // 1 MiB: a 512-deep, 512-wide float32 Y
)

// scratchPool keeps packing buffers of T.
type scratchPool[T float32 | float64] struct {
	keep chan *[]T
	pool sync.Pool
}

var (
	scratch32 = &scratchPool[float32]{keep: make(chan *[]float32, scratchKept)}
	scratch64 = &scratchPool[float64]{keep: make(chan *[]float64, scratchKept)}
)

// get returns a buffer of n elements, kept from an earlier product or new
// and uncleared.
func (s *scratchPool[T]) get(n int) *[]T {
	var buf *[]T
	select {
	case buf = <-s.keep:
	default:
		buf, _ = s.pool.Get().(*[]T)
	}
	if buf != nil && cap(*buf) >= n {
		*buf = (*buf)[:n]
		return buf
	}
	fresh := slots[T](n, false)
	return &fresh
}

// put gives buf back for later products.
func (s *scratchPool[T]) put(buf *[]T) {
	var zero T
	if uintptr(cap(*buf))*unsafe.Sizeof(zero) <= scratchMax {
		select {
		case s.keep <- buf:
			return
		default:
		}
	}
	s.pool.Put(buf)
}

// strided2D is a matrix read where it lies: element (i, j) is
// data[offset+i*rowStride+j*colStride].
type strided2D[T float32 | float64] struct {
	data                         []T
	offset, rowStride, colStride int
}

// packedPanels is the number of panels Y (k×m) is packed into: for each
// run of depth rows, one for every cols columns.
func packedPanels(k, m, cols, depth int) int {
	return (k + depth - 1) / depth * (roundUp(m, cols) / cols)
}

// packPanel copies panel u of the k×m matrix y into panels, where the
// runs of depth rows lie one after another, each holding its panels of
// cols columns one after another, each row by row, with zeros past
// column m.
func packPanel[T float32 | float64](panels []T, y strided2D[T], k, m, cols, depth, u int) {
	width := roundUp(m, cols)
	perRun := width / cols
	p0, j0 := u/perRun*depth, u%perRun*cols
	depth = min(depth, k-p0)
	panel := panels[p0*width+j0*depth : p0*width+(j0+cols)*depth]
	live := min(cols, m-j0)
	for p := range depth {
		dst := panel[p*cols : (p+1)*cols]
		src := y.offset + (p0+p)*y.rowStride + j0*y.colStride
		if y.colStride == 1 {
			copy(dst, y.data[src:src+live])
		} else {
			for j := range live {
				dst[j] = y.data[src+j*y.colStride]
			}
		}
		clear(dst[live:])
	}
}

// packRows copies rows r0 to r1 of x, columns p0 to p0+depth, into panels
// of tileRows rows, each column by column, with zeros past row r1.
func packRows[T float32 | float64](rows []T, x strided2D[T], r0, r1, p0, depth, tileRows int) {
	var starts [gemmMaxTile]int
	for t := 0; r0+t*tileRows < r1; t++ {
		panel := rows[t*tileRows*depth : (t+1)*tileRows*depth]
		top := r0 + t*tileRows
		live := min(tileRows, r1-top)
		for r := range live {
			starts[r] = x.offset + (top+r)*x.rowStride + p0*x.colStride
		}
		if x.colStride == 1 && live == tileRows {
			// Each row is contiguous: read rows, write strided columns.
			for r, start := range starts[:live] {
				for p, v := range x.data[start : start+depth] {
					panel[p*tileRows+r] = v
				}
			}
			continue
		}
		for p := range depth {
			dst := panel[p*tileRows : (p+1)*tileRows]
			at := p * x.colStride
			for r, start := range starts[:live] {
				dst[r] = x.data[start+at]
			}
			clear(dst[live:])
		}
	}
}

// tileRows says where the kernel finds X's rows for one run of the shared
// dimension, columns p0 to p0+depth: the rows from packedFrom on packed
// in packed (by packRows, a tile's panel after another), and, when
// inPlace is set, those before it in x.
type tileRows[T float32 | float64] struct {
	x          strided2D[T]
	p0, depth  int
	packed     []T
	packedFrom int
	inPlace    bool
}

// multiply runs kern on the column of tiles tiles of X's rows from top
// down: it writes, or adds to when add is set, their product with the
// packed panel of Y into c.
func (a tileRows[T]) multiply(kern gemmKernel[T], top, tiles int, panel, c []T, ldc int, add bool) {
	tr := kern.rows
	for tiles > 0 {
		n := tiles
		if a.inPlace && top < a.packedFrom {
			n = min(n, (a.packedFrom-top)/tr)
			x := a.x
			rows := x.data[x.offset+top*x.rowStride+a.p0*x.colStride:]
			kern.strided(a.depth, n, rows, x.rowStride, x.colStride, tr*x.rowStride, panel, c, ldc, add)
		} else {
			at := (top - a.packedFrom) * a.depth
			if kern.strided != nil {
				kern.strided(a.depth, n, a.packed[at:], 1, tr, tr*a.depth, panel, c, ldc, add)
			} else {
				for i := range n {
					from := at + i*tr*a.depth
					kern.tile(a.depth, a.packed[from:from+tr*a.depth], panel, c[i*tr*ldc:], ldc, add)
				}
			}
		}
		if tiles -= n; tiles > 0 {
			top += n * tr
			c = c[n*tr*ldc:]
		}
	}
}

// multiplyPanels multiplies the rows r0 to r1 of X, as a finds them, by
// every packed panel of ys, a block of Y's columns m wide, writing, or
// adding to when add is set, those rows of the block's columns of the
// row-major result c, whose rows are ldc apart. edge holds a tile that
// lies partly past the block's edge.
func multiplyPanels[T float32 | float64](kern gemmKernel[T], edge, c []T, ldc int, a tileRows[T], ys []T, r0, r1, m int, add bool) {
	tr, tc, depth := kern.rows, kern.cols, a.depth
	for j0 := 0; j0 < m; j0 += tc {
		panel := ys[j0*depth : (j0+tc)*depth]
		top := r0
		if j0+tc <= m {
			// The tiles that lie inside c, in one column.
			if full := (r1 - r0) / tr; full > 0 {
				a.multiply(kern, top, full, panel, c[top*ldc+j0:], ldc, add)
				top += full * tr
			}
		}
		for ; top < r1; top += tr {
			// A tile past the edge of c is computed aside and its part
			// inside c copied.
			a.multiply(kern, top, 1, panel, edge, tc, false)
			for r := range min(tr, r1-top) {
				src := edge[r*tc : r*tc+min(tc, m-j0)]
				dst := c[(top+r)*ldc+j0:]
				dst = dst[:len(src)]
				if add {
					for j, v := range src {
						dst[j] += v
					}
				} else {
					copy(dst, src)
				}
			}
		}
	}
}

// takeShares runs f over chunks of [0, n) taken in turn from next, as
// takeChunks does, but each a share of what is left: large chunks first,
// then smaller, down to one, so that the goroutines end together even
// when a chunk is a large part of the work (a product of a few hundred
// rows has a few dozen tiles).
func takeShares(next *atomic.Int64, n, workers int, f func(lo, hi int)) {
	for {
		lo := int(next.Load())
		if lo >= n {
			return
		}
		hi := min(n, lo+max(1, (n-lo)/(2*workers)))
		if next.CompareAndSwap(int64(lo), int64(hi)) {
			f(lo, hi)
		}
	}
}

// roundUp returns n rounded up to a multiple of unit.
func roundUp(n, unit int) int {
	return (n + unit - 1) / unit * unit
}

// packThenShare runs pack(u) for u in [0, packs), then f over [0, n) as
// parallelFor does, with the same goroutines: they take packs in turn,
// and each starts on f's chunks once every pack is done. A goroutine that
// starts late, on a core that had to be woken, finds the packing done by
// the others rather than making them wait for it.
func packThenShare(packs, n, cost int, pack func(u int), f func(lo, hi int)) {
	workers := parts(n, cost)
	if workers == 1 {
		for u := range packs {
			pack(u)
		}
		f(0, n)
		return
	}
	var nextPack, packed, next atomic.Int64
	runParts(workers, workers, func(_, _, _ int) {
		for u := int(nextPack.Add(1)) - 1; u < packs; u = int(nextPack.Add(1)) - 1 {
			pack(u)
			packed.Add(1)
		}
		for packed.Load() < int64(packs) {
			runtime.Gosched() // another goroutine finishes its last pack
		}
		takeShares(&next, n, workers, f)
	})
}
