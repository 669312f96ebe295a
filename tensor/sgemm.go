package tensor

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// The float32 matrix product, as BLAS libraries compute it: Y is packed
// into panels of sgemmCols columns and X, a block of rows at a time, into
// panels of sgemmRows rows, both sgemmDepth deep, so that a tile kernel
// reads each panel in order from cache and keeps its sgemmRows×sgemmCols
// sums in registers. Products accumulate in float32, as PyTorch's do.
const (
	sgemmRows  = 12  // rows of a tile (sgemm_gen.go's tileRows)
	sgemmCols  = 32  // columns of a tile (sgemm_gen.go's tileCols)
	sgemmDepth = 256 // the length of the products a tile sums at one time
	// sgemmBlock is how many panels of X's rows one worker packs at once:
	// they stay in its core's L2 cache while all of Y's panels pass.
	sgemmBlock = 8
)

//go:generate go run sgemm_gen.go

// matmulFloat32 writes to out, a new contiguous (batch…, n, m) Float32
// tensor, the products of the matrices of xb (batch…, n, k) and yb
// (batch…, k, m), Float32 views of any layout.
func matmulFloat32(out, xb, yb *Tensor) {
	nb := xb.Dim() - 2
	n, k, m := xb.Size(-2), xb.Size(-1), yb.Size(-1)
	if n == 0 || k == 0 || m == 0 {
		return // a new tensor holds zeros, the sum of no products
	}
	xd, yd := xb.storage.data.([]float32), yb.storage.data.([]float32)
	cd := out.storage.data.([]float32)
	width := roundUp(m, sgemmCols)
	checkAllocation("matmul", k*width, 4)
	panelsBuf := scratch(k * width)
	defer release(panelsBuf)
	panels := *panelsBuf
	index := make([]int, nb)
	for b := range Shape(xb.shape[:nb]).Numel() {
		xo, yo := xb.offset, yb.offset
		for d := range nb {
			xo += index[d] * xb.strides[d]
			yo += index[d] * yb.strides[d]
		}
		y := strided2D{yd, yo, yb.strides[nb], yb.strides[nb+1]}
		x := strided2D{xd, xo, xb.strides[nb], xb.strides[nb+1]}
		c := cd[b*n*m : (b+1)*n*m]
		tiles := (n + sgemmRows - 1) / sgemmRows
		packThenShare(packedPanels(k, m), tiles, n*k*m, func(u int) {
			packPanel(panels, y, k, m, u)
		}, func(lo, hi int) {
			rowsBuf := scratch(sgemmBlock * sgemmRows * min(k, sgemmDepth))
			defer release(rowsBuf)
			rows := *rowsBuf
			for t0 := lo; t0 < hi; t0 += sgemmBlock {
				t1 := min(t0+sgemmBlock, hi)
				for p0 := 0; p0 < k; p0 += sgemmDepth {
					depth := min(sgemmDepth, k-p0)
					r0, r1 := t0*sgemmRows, min(t1*sgemmRows, n)
					packRows(rows, x, r0, r1, p0, depth)
					block := panels[p0*width : (p0+depth)*width]
					multiplyPanels(c, rows, block, r0, r1, m, depth, p0 > 0)
				}
			}
		})
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
// Up to scratchKept buffers of at most scratchMax float32 each are kept
// for good, since sync.Pool empties at every collection and a stream of
// small products, whose results are garbage at once, has one every few
// products; larger buffers are kept in scratchPool until the next.
const (
	scratchKept = 4
	scratchMax  = 1 << 18 // 1 MiB: a 512-deep, 512-wide Y
)

var (
	scratchKeep = make(chan *[]float32, scratchKept)
	scratchPool sync.Pool
)

// scratch returns a buffer of n float32, kept from an earlier product or
// new and uncleared.
func scratch(n int) *[]float32 {
	var buf *[]float32
	select {
	case buf = <-scratchKeep:
	default:
		buf, _ = scratchPool.Get().(*[]float32)
	}
	if buf != nil && cap(*buf) >= n {
		*buf = (*buf)[:n]
		return buf
	}
	fresh := slots[float32](n, false)
	return &fresh
}

// release gives buf back for later products.
func release(buf *[]float32) {
	if cap(*buf) <= scratchMax {
		select {
		case scratchKeep <- buf:
			return
		default:
		}
	}
	scratchPool.Put(buf)
}

// strided2D is a matrix of float32 read where it lies: element (i, j) is
// data[offset+i*rowStride+j*colStride].
type strided2D struct {
	data                         []float32
	offset, rowStride, colStride int
}

// packedPanels is the number of panels Y (k×m) is packed into: for each
// run of sgemmDepth rows, one for every sgemmCols columns.
func packedPanels(k, m int) int {
	return (k + sgemmDepth - 1) / sgemmDepth * (roundUp(m, sgemmCols) / sgemmCols)
}

// packPanel copies panel u of the k×m matrix y into panels, where the
// runs of sgemmDepth rows lie one after another, each holding its panels
// of sgemmCols columns one after another, each row by row, with zeros
// past column m.
func packPanel(panels []float32, y strided2D, k, m, u int) {
	width := roundUp(m, sgemmCols)
	perRun := width / sgemmCols
	p0, j0 := u/perRun*sgemmDepth, u%perRun*sgemmCols
	depth := min(sgemmDepth, k-p0)
	panel := panels[p0*width+j0*depth : p0*width+(j0+sgemmCols)*depth]
	cols := min(sgemmCols, m-j0)
	for p := range depth {
		dst := panel[p*sgemmCols : (p+1)*sgemmCols]
		src := y.offset + (p0+p)*y.rowStride + j0*y.colStride
		if y.colStride == 1 {
			copy(dst, y.data[src:src+cols])
		} else {
			for j := range cols {
				dst[j] = y.data[src+j*y.colStride]
			}
		}
		clear(dst[cols:])
	}
}

// packRows copies rows r0 to r1 of x, columns p0 to p0+depth, into panels
// of sgemmRows rows, each column by column, with zeros past row r1.
func packRows(rows []float32, x strided2D, r0, r1, p0, depth int) {
	var starts [sgemmRows]int
	for t := 0; r0+t*sgemmRows < r1; t++ {
		panel := rows[t*sgemmRows*depth : (t+1)*sgemmRows*depth]
		top := r0 + t*sgemmRows
		live := min(sgemmRows, r1-top)
		for r := range live {
			starts[r] = x.offset + (top+r)*x.rowStride + p0*x.colStride
		}
		for p := range depth {
			dst := panel[p*sgemmRows : (p+1)*sgemmRows]
			at := p * x.colStride
			for r, start := range starts[:live] {
				dst[r] = x.data[start+at]
			}
			clear(dst[live:])
		}
	}
}

// multiplyPanels multiplies the packed rows r0 to r1 of X by every
// packed panel of Y's block, writing, or adding to when add is set, those
// rows of the row-major result c, m wide.
func multiplyPanels(c, rows, block []float32, r0, r1, m, depth int, add bool) {
	var edge [sgemmRows * sgemmCols]float32
	for j0 := 0; j0 < m; j0 += sgemmCols {
		panel := block[j0*depth : (j0+sgemmCols)*depth]
		for t := 0; r0+t*sgemmRows < r1; t++ {
			top := r0 + t*sgemmRows
			a := rows[t*sgemmRows*depth : (t+1)*sgemmRows*depth]
			if top+sgemmRows <= r1 && j0+sgemmCols <= m {
				sgemmTile(depth, a, panel, c[top*m+j0:], m, add)
				continue
			}
			// A tile past the edge of c is computed aside and its part
			// inside c copied.
			sgemmTile(depth, a, panel, edge[:], sgemmCols, false)
			for r := range min(sgemmRows, r1-top) {
				src := edge[r*sgemmCols : r*sgemmCols+min(sgemmCols, m-j0)]
				dst := c[(top+r)*m+j0:]
				for j, v := range src {
					if add {
						dst[j] += v
					} else {
						dst[j] = v
					}
				}
			}
		}
	}
}

// sgemmTileGo is the kernel in Go: it writes, or adds to when add is set,
// the sgemmRows×sgemmCols product of the panels a and b, k deep, into c,
// whose rows are ldc apart.
func sgemmTileGo(k int, a, b, c []float32, ldc int, add bool) {
	var acc [sgemmRows * sgemmCols]float32
	for p := range k {
		bp := b[p*sgemmCols : (p+1)*sgemmCols]
		for r, v := range a[p*sgemmRows : (p+1)*sgemmRows] {
			row := acc[r*sgemmCols : (r+1)*sgemmCols]
			for j, w := range bp {
				row[j] += v * w
			}
		}
	}
	for r := range sgemmRows {
		dst := c[r*ldc : r*ldc+sgemmCols]
		src := acc[r*sgemmCols : (r+1)*sgemmCols]
		if !add {
			copy(dst, src)
			continue
		}
		for j, v := range src {
			dst[j] += v
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
		takeChunks(&next, n, workers, f)
	})
}
