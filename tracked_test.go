package tensornb

import (
	"bytes"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// sizeLimit is the largest file git may track, but for largeFixtures.
const sizeLimit = 2 << 20

// largeFixtures are the tracked files allowed past sizeLimit, each with
// the reason it is that large. None today: the largest,
// tensor/testdata/fixtures.json (PyTorch's answers to the tensor tests),
// is 1.9 MB.
var largeFixtures = []string{}

// executableKinds are the first bytes of the executable formats a build
// writes, and what each is.
var executableKinds = []struct {
	magic []byte
	kind  string
}{
	{[]byte("\x7fELF"), "an ELF executable"},
	{[]byte{0xfe, 0xed, 0xfa, 0xce}, "a Mach-O executable"},
	{[]byte{0xfe, 0xed, 0xfa, 0xcf}, "a Mach-O executable"},
	{[]byte{0xce, 0xfa, 0xed, 0xfe}, "a Mach-O executable"},
	{[]byte{0xcf, 0xfa, 0xed, 0xfe}, "a Mach-O executable"},
	{[]byte{0xca, 0xfe, 0xba, 0xbe}, "a Mach-O universal executable"},
	{[]byte("MZ"), "a Windows (PE) executable"},
	{[]byte("\x00asm"), "a WebAssembly module"},
}

// TestTrackedFiles fails when git tracks an executable binary (a program
// go build wrote, say) or a file over 2 MB that largeFixtures does not
// name. Built programs belong in .gitignore.
func TestTrackedFiles(t *testing.T) {
	out, err := exec.Command("git", "ls-files", "-s", "-z").Output()
	if err != nil {
		if os.Getenv("TENSORNB_REQUIRE_GIT") != "" {
			t.Fatalf("git ls-files: %v", err)
		}
		t.Skipf("not a git checkout (git ls-files: %v); scripts/test runs this in one", err)
	}
	n := 0
	for entry := range strings.SplitSeq(strings.TrimSuffix(string(out), "\x00"), "\x00") {
		meta, path, _ := strings.Cut(entry, "\t")
		data, err := os.ReadFile(path)
		if os.IsNotExist(err) {
			continue // deleted from the work tree, not yet from the index
		} else if err != nil {
			t.Fatal(err)
		}
		n++
		if kind := executableKind(strings.HasPrefix(meta, "100755"), data); kind != "" {
			t.Errorf("%s is %s: remove it from git (git rm --cached %s) and add it to .gitignore", path, kind, path)
		} else if len(data) > sizeLimit && !slices.Contains(largeFixtures, path) {
			t.Errorf("%s is %d KiB, over the 2 MB limit: keep it out of git, or name it in largeFixtures (tracked_test.go) with the reason", path, len(data)>>10)
		}
	}
	if !t.Failed() {
		t.Logf("%d tracked files, none an executable binary or over 2 MB", n)
	}
}

// executableKind says what executable format data is in, or "" if none:
// an executable (mode 755) file with a NUL byte in its first 8 KiB
// counts as a binary of some format; a script has none.
func executableKind(executable bool, data []byte) string {
	for _, k := range executableKinds {
		if bytes.HasPrefix(data, k.magic) {
			return k.kind
		}
	}
	if executable && bytes.IndexByte(data[:min(len(data), 8<<10)], 0) >= 0 {
		return "an executable binary (executable bit and NUL bytes)"
	}
	return ""
}
