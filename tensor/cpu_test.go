package tensor

import (
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// The first-level data cache CPUID gives is the one Linux reports in
// /sys (which it reads from the same leaves, or from the firmware).
func TestL1DataBytesMatchesLinux(t *testing.T) {
	if runtime.GOARCH != "amd64" {
		t.Skipf("l1DataBytes reads CPUID, on amd64 only; this is %s", runtime.GOARCH)
	}
	dirs, _ := filepath.Glob("/sys/devices/system/cpu/cpu0/cache/index*")
	for _, dir := range dirs {
		read := func(name string) string {
			b, _ := os.ReadFile(filepath.Join(dir, name))
			return strings.TrimSpace(string(b))
		}
		if read("level") != "1" || read("type") != "Data" {
			continue
		}
		kb, err := strconv.Atoi(strings.TrimSuffix(read("size"), "K"))
		if err != nil {
			t.Fatalf("%s/size reads %q, not a size in K", dir, read("size"))
		}
		if got := l1DataBytes(); got != kb*1024 {
			t.Fatalf("l1DataBytes() = %d, Linux says %d KiB", got, kb)
		}
		t.Logf("L1d %d KiB: panels of Y of %d KiB", kb, panelBytes(kb*1024)/1024)
		return
	}
	t.Skip("this system has no /sys/devices/system/cpu/cpu0/cache to compare with")
}
