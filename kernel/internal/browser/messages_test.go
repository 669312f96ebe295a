//go:build !js

package browser_test

import (
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/tensornb/tensornb/kernel/internal/browser"
	"github.com/tensornb/tensornb/kernel/internal/front"
)

// shapes are messages by type ("" for a cell to run), each the sorted
// names of its fields.
type shapes map[string][]string

// TestMessages checks the worker's messages, as the table in doc.go
// gives them, against the JavaScript that sends and reads them: worker.js
// sends each of its kind with the table's fields, and reads no other
// field; engine.js likewise for the page's kind; and the site's page,
// which sends itself an error when worker.js does not load, sends it with
// the table's fields.
func TestMessages(t *testing.T) {
	toWorker, toPage := documented(t)
	worker, engine, site := source(t, "worker.js"), source(t, "engine.js"), source(t, "site/site.go")

	same(t, "worker.js sends", sent(t, worker, "postMessage(", nil), toPage)
	same(t, "engine.js sends", merge(sent(t, engine, "postMessage(", nil), sent(t, engine, "request(", []string{"id"})), toWorker)
	for typ, fields := range sent(t, site, "messages.push(", nil) {
		want := shapes{}
		if documented, ok := toPage[typ]; ok {
			want[typ] = documented
		}
		same(t, "site/site.go's page sends", shapes{typ: fields}, want)
	}
	read(t, "worker.js", body(t, worker, "onmessage ="), toWorker)
	read(t, "engine.js", body(t, engine, "receive(m) {"), toPage)
}

// TestWorkerNames checks that worker.js fetches the files Build writes,
// by their names, and names its errors as package front does.
func TestWorkerNames(t *testing.T) {
	worker := source(t, "worker.js")
	for _, want := range []string{`importScripts("` + browser.SupportFile + `")`, `fetch("` + browser.EngineFile + `")`, `"` + browser.ExportsDir + `/"`, `"` + browser.DocsDir + `/"`, `"` + browser.StdDir + `/"`} {
		if !strings.Contains(worker, want) {
			t.Errorf("worker.js has no %s: Build writes that file (build.go), and worker.js must fetch it by that name", want)
		}
	}
	engineError := front.EngineError(os.ErrInvalid).Name
	for _, m := range regexp.MustCompile(`ename: "(\w+)"`).FindAllStringSubmatch(worker, -1) {
		if m[1] != engineError {
			t.Errorf("worker.js names an error %s, not %s, the name of front.EngineError", m[1], engineError)
		}
	}
}

func source(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// documented returns the table of messages in doc.go: a line "page →
// worker" or "worker → page" starts a kind, and a line that starts with
// "{" gives a message of it.
func documented(t *testing.T) (toWorker, toPage shapes) {
	toWorker, toPage = shapes{}, shapes{}
	var kind shapes
	for _, line := range strings.Split(source(t, "doc.go"), "\n") {
		line = strings.TrimSpace(strings.TrimPrefix(line, "//"))
		switch {
		case line == "page → worker":
			kind = toWorker
		case line == "worker → page":
			kind = toPage
		case kind != nil && strings.HasPrefix(line, "{"):
			typ, fields := shape(t, "doc.go", strings.Split(strings.Trim(line, "{}"), ","))
			kind[typ] = fields
		}
	}
	if len(toWorker) == 0 || len(toPage) == 0 {
		t.Fatal("doc.go has no table of messages under page → worker and worker → page")
	}
	return toWorker, toPage
}

// shape returns the type and the sorted fields of a message whose object
// literal has items (name or name: value); a spread (...) has no shape.
func shape(t *testing.T, where string, items []string) (typ string, fields []string) {
	t.Helper()
	for _, item := range items {
		if strings.TrimSpace(item) == "" {
			continue // after a trailing comma
		}
		name, value, _ := strings.Cut(strings.TrimSpace(item), ":")
		if name = strings.TrimSpace(name); name != "type" {
			fields = append(fields, name)
			continue
		}
		var err error
		if typ, err = strconv.Unquote(strings.TrimSpace(value)); err != nil {
			t.Errorf("%s: a message whose type is %s, not a string literal, which TestMessages cannot check: write it out", where, strings.TrimSpace(value))
		}
	}
	slices.Sort(fields)
	return typ, fields
}

// sent returns the messages of src's calls of call whose argument is an
// object literal, with extra fields (those the callee adds), but not
// those that spread an object into theirs (request's is checked where it
// is called).
func sent(t *testing.T, src, call string, extra []string) shapes {
	t.Helper()
	messages := shapes{}
	for i := strings.Index(src, call); i >= 0; i = next(src, call, i) {
		j := i + len(call)
		for j < len(src) && strings.ContainsRune(" \t\n", rune(src[j])) {
			j++
		}
		if j == len(src) || src[j] != '{' {
			continue
		}
		_, items := balanced(src, j)
		if slices.ContainsFunc(items, func(item string) bool { return strings.HasPrefix(strings.TrimSpace(item), "...") }) {
			continue
		}
		typ, fields := shape(t, call, append(items, extra...))
		if earlier, ok := messages[typ]; ok && !slices.Equal(earlier, fields) {
			t.Errorf("%s%s…) sends %s with the fields %v, and elsewhere with %v", call, src[j:j+1], name(typ), fields, earlier)
		}
		messages[typ] = fields
	}
	return messages
}

func next(src, call string, i int) int {
	if j := strings.Index(src[i+1:], call); j >= 0 {
		return i + 1 + j
	}
	return -1
}

// body returns the braced block after marker in src.
func body(t *testing.T, src, marker string) string {
	t.Helper()
	i := strings.Index(src, marker)
	j := strings.IndexByte(src[max(i, 0):], '{')
	if i < 0 || j < 0 {
		t.Fatalf("no %s{…} in the source", marker)
	}
	end, _ := balanced(src, i+j)
	return src[i+j : end]
}

// read checks that the message handler code, in file, tells apart the
// types of messages (by case "type" or m.type === "type") and reads
// the fields (m.field) of messages, and no others.
func read(t *testing.T, file, code string, messages shapes) {
	t.Helper()
	handled := shapes{}
	if fields, ok := messages[""]; ok {
		handled[""] = fields // a cell to run, when no type matched
	}
	for _, m := range regexp.MustCompile(`(?:case |\bm\.type === )"(\w+)"`).FindAllStringSubmatch(code, -1) {
		handled[m[1]] = messages[m[1]]
	}
	same(t, file+" handles", handled, messages)
	known := map[string]bool{"type": true}
	for _, fields := range messages {
		for _, f := range fields {
			known[f] = true
		}
	}
	for _, m := range regexp.MustCompile(`\bm\.(\w+)`).FindAllStringSubmatch(code, -1) {
		if !known[m[1]] {
			t.Errorf("%s reads m.%s, a field that no message of the table in doc.go has", file, m[1])
		}
	}
}

// same checks that got has the messages of want, with their fields.
func same(t *testing.T, what string, got, want shapes) {
	t.Helper()
	for typ, fields := range want {
		if g, ok := got[typ]; !ok {
			t.Errorf("%s no message %s, which doc.go lists", what, name(typ))
		} else if !slices.Equal(g, fields) {
			t.Errorf("%s %s with the fields %v, which doc.go lists with %v", what, name(typ), g, fields)
		}
	}
	for typ := range got {
		if _, ok := want[typ]; !ok {
			t.Errorf("%s %s, which doc.go does not list: add it there, or remove it", what, name(typ))
		}
	}
}

func name(typ string) string {
	if typ == "" {
		return "with no type (a cell to run)"
	}
	return strconv.Quote(typ)
}

func merge(a, b shapes) shapes {
	for typ, fields := range b {
		a[typ] = fields
	}
	return a
}

// balanced returns the end of the bracketed text that starts at src[i],
// and its items: the text inside, split at its top-level commas. It
// skips strings and comments.
func balanced(src string, i int) (end int, items []string) {
	depth, start := 0, i+1
	for j := i; j < len(src); j++ {
		switch c := src[j]; {
		case c == '"' || c == '\'' || c == '`':
			for j++; j < len(src) && src[j] != c; j++ {
				if src[j] == '\\' {
					j++
				}
			}
		case strings.HasPrefix(src[j:], "//"):
			j += strings.IndexByte(src[j:], '\n')
		case strings.HasPrefix(src[j:], "/*"):
			j += strings.Index(src[j:], "*/") + 1
		case strings.IndexByte("{([", c) >= 0:
			depth++
		case strings.IndexByte("})]", c) >= 0:
			if depth--; depth == 0 {
				return j + 1, append(items, src[start:j])
			}
		case c == ',' && depth == 1:
			items, start = append(items, src[start:j]), j+1
		}
	}
	return len(src), items
}
