package tensornb

import (
	"bytes"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"
)

// readmeLines is the most lines README.md may have: it is the first
// screen, and the rest belongs in docs/.
const readmeLines = 150

// configurationPage holds the table of every TENSORNB_* variable.
const configurationPage = "docs/configuration.md"

// The README fits its limit, keeps what the tests and CI read from it
// (the test command, and the Go block under "A first notebook", which
// kernel/cmd/tensornb/testdata/test_cells.py runs on both kernels), and
// names nothing outside the repository: a clone has only what git holds.
func TestReadme(t *testing.T) {
	data, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	if n := strings.Count(text, "\n"); n > readmeLines {
		t.Errorf("README.md has %d lines, over %d: move the detail into a page of docs/ and link it", n, readmeLines)
	}
	if !strings.Contains(text, "`scripts/test`") {
		t.Error("README.md does not name the test command, `scripts/test` (.ci/run runs it)")
	}
	_, section, ok := strings.Cut(text, "## A first notebook")
	if !ok || !regexp.MustCompile("(?s)```go\n.*?```").MatchString(section) {
		t.Error(`README.md has no Go code block under "## A first notebook", which kernel/cmd/tensornb/testdata/test_cells.py runs`)
	}
	// The package map names every package of the module outside
	// kernel/internal, and docker/'s; kernel/README.md's names those of
	// kernel/, the private ones too.
	kernelMap, err := os.ReadFile("kernel/README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, dir := range append([]string{"docker/"}, packageDirs(t)...) {
		if inKernel, ok := strings.CutPrefix(dir, "kernel/"); ok && !strings.Contains(string(kernelMap), "| `"+inKernel+"` |") {
			t.Errorf("kernel/README.md's package map lacks `%s`: give it a row", inKernel)
		}
		if !strings.HasPrefix(dir, "kernel/internal/") && !strings.Contains(text, "`"+dir+"`") {
			t.Errorf("README.md's package map lacks `%s`: give it a line", dir)
		}
	}
	for i, line := range strings.Split(text, "\n") {
		for _, m := range outsidePath.FindAllStringSubmatch(line, -1) {
			t.Errorf("README.md:%d names %q, outside the repository (a clone does not have it): cite it by title, or add it to the repository", i+1, m[2])
		}
	}
}

// packageDirs are the directories of the module's packages, but its
// root's, relative to it.
func packageDirs(t *testing.T) []string {
	out, err := exec.Command("go", "list", "-f", "{{.Dir}}", "./...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	root, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	var dirs []string
	for dir := range strings.Lines(strings.TrimSpace(string(out))) {
		if rel, err := filepath.Rel(root, strings.TrimSpace(dir)); err == nil && rel != "." {
			dirs = append(dirs, filepath.ToSlash(rel))
		}
	}
	return dirs
}

// outsidePath finds a path that leaves the repository's root (where
// README.md is) or starts at the file system's: ../x, /x, ~/x, after a
// space, a quote, a bracket or a backtick (so that not in a URL).
var outsidePath = regexp.MustCompile("(^|[\\s(`\"'<\\[])(\\.\\./[^\\s)`\"'>]*|~/[^\\s)`\"'>]*|/[\\w.][^\\s)`\"'>]*)")

// Every relative link in README.md and docs/*.md leads to a file of the
// repository, and a link to a heading of a markdown file to a heading
// that file has.
func TestDocsLinks(t *testing.T) {
	pages, err := filepath.Glob("docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	pages = append([]string{"README.md"}, pages...)
	root, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, page := range pages {
		data, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range markdownLinks(string(data)) {
			if external.MatchString(l.target) {
				continue
			}
			n++
			file, anchor, _ := strings.Cut(l.target, "#")
			file, _, _ = strings.Cut(file, "?")
			target := page
			if file != "" {
				target = filepath.Join(filepath.Dir(page), filepath.FromSlash(file))
			}
			abs, err := filepath.Abs(target)
			if err != nil {
				t.Fatal(err)
			}
			if rel, err := filepath.Rel(root, abs); err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
				t.Errorf("%s:%d links %s, outside the repository", page, l.line, l.target)
				continue
			}
			info, err := os.Stat(target)
			if err != nil {
				t.Errorf("%s:%d links %s, which does not exist", page, l.line, l.target)
				continue
			}
			if anchor == "" || info.IsDir() || !strings.HasSuffix(target, ".md") {
				continue
			}
			md, err := os.ReadFile(target)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Contains(headingAnchors(string(md)), anchor) {
				t.Errorf("%s:%d links %s, but %s has no heading whose anchor is #%s", page, l.line, l.target, target, anchor)
			}
		}
	}
	t.Logf("%d relative links in %d pages", n, len(pages))
}

// external is a link with a scheme (https:, mailto:), which leaves the
// repository on purpose.
var external = regexp.MustCompile(`^[a-zA-Z][a-zA-Z0-9+.-]*:`)

// A link is the target of a markdown link or image, and its line.
type link struct {
	target string
	line   int
}

var (
	fence      = regexp.MustCompile("(?ms)^ {0,3}```.*?^ {0,3}```[ \t]*$|^ {0,3}~~~.*?^ {0,3}~~~[ \t]*$")
	codeSpan   = regexp.MustCompile("`[^`\n]*`")
	inlineLink = regexp.MustCompile(`!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)`)
	refLink    = regexp.MustCompile(`(?m)^ {0,3}\[[^\]\n]+\]:\s*<?(\S+?)>?(?:\s+.*)?$`)
)

// markdownLinks returns the targets of the links and images of a
// markdown page, inline and reference-style, outside code.
func markdownLinks(md string) []link {
	blank := func(s string) string {
		return strings.Map(func(r rune) rune {
			if r == '\n' {
				return r
			}
			return ' '
		}, s)
	}
	md = fence.ReplaceAllStringFunc(md, blank)
	md = codeSpan.ReplaceAllStringFunc(md, blank)
	var links []link
	for _, re := range []*regexp.Regexp{inlineLink, refLink} {
		for _, m := range re.FindAllStringSubmatchIndex(md, -1) {
			links = append(links, link{md[m[2]:m[3]], 1 + strings.Count(md[:m[0]], "\n")})
		}
	}
	return links
}

// headingAnchors returns the anchors GitHub gives a markdown page's
// headings: lower case, punctuation dropped, spaces made hyphens, and
// -1, -2 after a repeated one.
func headingAnchors(md string) []string {
	md = fence.ReplaceAllString(md, "")
	var anchors []string
	seen := map[string]int{}
	for line := range strings.Lines(md) {
		line = strings.TrimSpace(line)
		title := strings.TrimLeft(line, "#")
		level := len(line) - len(title)
		if level < 1 || level > 6 || !strings.HasPrefix(title, " ") {
			continue
		}
		var b strings.Builder
		for _, r := range strings.ToLower(strings.TrimSpace(title)) {
			switch {
			case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_':
				b.WriteRune(r)
			case r == ' ':
				b.WriteRune('-')
			}
		}
		a := b.String()
		if k := seen[a]; k > 0 {
			anchors = append(anchors, fmt.Sprintf("%s-%d", a, k))
		} else {
			anchors = append(anchors, a)
		}
		seen[a]++
	}
	return anchors
}

// Every TENSORNB_* variable that the code reads or sets (Go, scripts,
// Python tests, JavaScript, the Dockerfiles: any file git has or would
// add, but the documentation) has a row in docs/configuration.md's table,
// and every row there names a variable the code still has.
func TestConfigurationTable(t *testing.T) {
	out, err := exec.Command("git", "ls-files", "-z", "--cached", "--others", "--exclude-standard").Output()
	if err != nil {
		if os.Getenv("TENSORNB_REQUIRE_GIT") != "" {
			t.Fatalf("git ls-files: %v", err)
		}
		t.Skipf("not a git checkout (git ls-files: %v); scripts/test runs this in one", err)
	}
	name := regexp.MustCompile(`TENSORNB_[A-Z0-9_]*[A-Z0-9]`)
	used := map[string]string{} // variable → the first file that has it
	for path := range strings.SplitSeq(strings.TrimSuffix(string(out), "\x00"), "\x00") {
		if path == "README.md" || strings.HasPrefix(path, "docs/") || strings.HasSuffix(path, ".md") {
			continue
		}
		data, err := os.ReadFile(path)
		if os.IsNotExist(err) {
			continue // deleted from the work tree, not yet from the index
		} else if err != nil {
			t.Fatal(err)
		}
		if bytes.IndexByte(data, 0) >= 0 {
			continue // binary
		}
		for _, v := range name.FindAllString(string(data), -1) {
			if _, ok := used[v]; !ok {
				used[v] = path
			}
		}
	}
	page, err := os.ReadFile(configurationPage)
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string]bool{}
	for _, m := range regexp.MustCompile("(?m)^\\| *`(TENSORNB_[A-Z0-9_]+)`").FindAllStringSubmatch(string(page), -1) {
		if rows[m[1]] {
			t.Errorf("%s has two rows for %s", configurationPage, m[1])
		}
		rows[m[1]] = true
	}
	for _, v := range slices.Sorted(maps.Keys(used)) {
		if !rows[v] {
			t.Errorf("%s uses %s, which has no row in %s's table: add one (| `%s` | default | effect |)", used[v], v, configurationPage, v)
		}
	}
	for _, v := range slices.Sorted(maps.Keys(rows)) {
		if _, ok := used[v]; !ok {
			t.Errorf("%s has a row for %s, which no file of the code uses any more: remove the row", configurationPage, v)
		}
	}
	t.Logf("%d TENSORNB_* variables in the code, %d rows in %s", len(used), len(rows), configurationPage)
}
