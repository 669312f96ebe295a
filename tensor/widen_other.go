//go:build !amd64

package tensor

// addWidened adds src into dst elementwise, as float64.
func addWidened(dst []float64, src []float32) {
	addRow(dst, src)
}
