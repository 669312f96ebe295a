package tensor

import "math"

// Copy: PixelUnshuffle folds each r×r block of pixels into the channels,
// like torch.nn.PixelUnshuffle: (*, C, H·r, W·r) becomes (*, C·r², H, W),
// and output channel c·r² + i·r + j holds the pixel at row i, column j of
// each block of input channel c.
func (x *Tensor) PixelUnshuffle(r int) *Tensor {
	x.must("PixelUnshuffle")
	const op = "pixel_unshuffle"
	checkPixelShuffle(op, "downscale_factor", x, r)
	batch, c, h, w := x.shape[:x.Dim()-3], x.Size(-3), x.Size(-2), x.Size(-1)
	if h%r != 0 {
		fail(op, "pixel_unshuffle expects height to be divisible by downscale_factor, but input.size(-2)=%d is not divisible by %d", h, r)
	}
	if w%r != 0 {
		fail(op, "pixel_unshuffle expects width to be divisible by downscale_factor, but input.size(-1)=%d is not divisible by %d", w, r)
	}
	nb := len(batch)
	// (*, C, H, r, W, r) -> (*, C, r, r, H, W) -> (*, C·r², H, W)
	split := x.Reshape(dims(batch, c, h/r, r, w/r, r)...)
	perm := append(identity(nb), nb, nb+2, nb+4, nb+1, nb+3)
	out := split.Permute(perm...).copyAs(dims(batch, c*r*r, h/r, w/r))
	return record(out, "PixelUnshuffleBackward0", []*Tensor{x}, nil,
		func(g *Tensor, _ []*Tensor) []*Tensor { return []*Tensor{g.PixelShuffle(r)} })
}

// Copy: PixelShuffle is the inverse of PixelUnshuffle, like
// torch.nn.PixelShuffle: (*, C·r², H, W) becomes (*, C, H·r, W·r).
func (x *Tensor) PixelShuffle(r int) *Tensor {
	x.must("PixelShuffle")
	const op = "pixel_shuffle"
	checkPixelShuffle(op, "upscale_factor", x, r)
	batch, c, h, w := x.shape[:x.Dim()-3], x.Size(-3), x.Size(-2), x.Size(-1)
	if r > math.MaxInt/r {
		fail(op, "pixel_shuffle expects its input's 'channel' dimension to be divisible by the square of upscale_factor, but upscale_factor=%d squared overflows", r)
	}
	if c%(r*r) != 0 {
		fail(op, "pixel_shuffle expects its input's 'channel' dimension to be divisible by the square of upscale_factor, but input.size(-3)=%d is not divisible by %d", c, r*r)
	}
	nb := len(batch)
	// (*, C, r, r, H, W) -> (*, C, H, r, W, r) -> (*, C, H·r, W·r)
	split := x.Reshape(dims(batch, c/(r*r), r, r, h, w)...)
	perm := append(identity(nb), nb, nb+3, nb+1, nb+4, nb+2)
	out := split.Permute(perm...).copyAs(dims(batch, c/(r*r), h*r, w*r))
	return record(out, "PixelShuffleBackward0", []*Tensor{x}, nil,
		func(g *Tensor, _ []*Tensor) []*Tensor { return []*Tensor{g.PixelUnshuffle(r)} })
}

// checkPixelShuffle makes PyTorch's checks common to both directions.
func checkPixelShuffle(op, factor string, x *Tensor, r int) {
	if x.Dim() < 3 {
		fail(op, "%s expects input to have at least 3 dimensions, but got input with %d dimension(s)", op, x.Dim())
	}
	if r <= 0 {
		fail(op, "%s expects a positive %s, but got %d", op, factor, r)
	}
}

// dims returns the batch dimensions followed by more.
func dims(batch []int, more ...int) []int { return append(append([]int{}, batch...), more...) }

// identity returns 0, 1, …, n-1.
func identity(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}
