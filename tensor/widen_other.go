//go:build !amd64

package tensor

// addWidened adds src into dst elementwise, as float64.
func addWidened(dst []float64, src []float32) {
	addRow(dst, src)
}

// addWidened4 adds four rows into dst, as addWidened would one after
// another, with the same sums.
func addWidened4(dst []float64, rows *[4][]float32) {
	n := len(dst)
	addRows4(dst, rows[0][:n], rows[1][:n], rows[2][:n], rows[3][:n])
}
