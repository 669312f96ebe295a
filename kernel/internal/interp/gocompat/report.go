package gocompat

import (
	"fmt"
	"io"
	"regexp"
	"sort"
	"strings"
)

// A Report is how the programs did in one engine.
type Report struct {
	Engine   string
	Verdicts []Verdict
	// Skipped are the programs whose recipe the harness does not follow
	// (see Programs).
	Skipped []string
	// Seconds is how long the run took.
	Seconds float64
}

// Count returns how many programs are of class c.
func (r *Report) Count(c Class) int {
	n := 0
	for _, v := range r.Verdicts {
		if v.Class == c {
			n++
		}
	}
	return n
}

// Share returns the share of the programs that did the same as with go
// run, in percent.
func (r *Report) Share() float64 {
	if len(r.Verdicts) == 0 {
		return 0
	}
	return 100 * float64(r.Count(Same)) / float64(len(r.Verdicts))
}

// Write writes the report as Markdown: the counts of each class, the
// refusals' reasons grouped, then each program that did not do the same,
// by class, with its reason.
func (r *Report) Write(w io.Writer) {
	fmt.Fprintf(w, "## %s\n\n", r.Engine)
	fmt.Fprintf(w, "%d programs in %.0f s: %d same (%.1f%%)", len(r.Verdicts), r.Seconds, r.Count(Same), r.Share())
	for _, c := range Classes[1:] {
		fmt.Fprintf(w, ", %d %s", r.Count(c), c)
	}
	fmt.Fprintf(w, ".\n\n")
	var same []string
	for _, v := range r.Verdicts {
		if v.Class == Same {
			same = append(same, "`"+v.Program+"`")
		}
	}
	if len(same) > 0 {
		fmt.Fprintf(w, "The same: %s.\n\n", strings.Join(same, ", "))
	}
	r.writeGroups(w)
	for _, c := range Classes[1:] {
		var lines []string
		for _, v := range r.Verdicts {
			if v.Class == c {
				lines = append(lines, fmt.Sprintf("- `%s`: %s", v.Program, markdownText(v.Reason)))
			}
		}
		if len(lines) > 0 {
			fmt.Fprintf(w, "### %s (%d)\n\n%s\n\n", c, len(lines), strings.Join(lines, "\n"))
		}
	}
	if len(r.Skipped) > 0 {
		fmt.Fprintf(w, "Not run, for their recipe asks more than `run` (arguments, a time limit, an environment): %s.\n\n", "`"+strings.Join(r.Skipped, "`, `")+"`")
	}
}

// writeGroups writes the reasons of the refusals, grouped (see group),
// most frequent first, the type checker's apart.
func (r *Report) writeGroups(w io.Writer) {
	for _, typeCheck := range []bool{false, true} {
		counts := map[string]int{}
		for _, v := range r.Verdicts {
			if v.Class == Refused && v.TypeCheck == typeCheck {
				counts[group(v.Reason)]++
			}
		}
		if len(counts) == 0 {
			continue
		}
		groups := make([]string, 0, len(counts))
		for g := range counts {
			groups = append(groups, g)
		}
		sort.Slice(groups, func(i, j int) bool {
			if counts[groups[i]] != counts[groups[j]] {
				return counts[groups[i]] > counts[groups[j]]
			}
			return groups[i] < groups[j]
		})
		title := "Refused as unsupported, by reason (the first the engine gives: a program may hold more)"
		if typeCheck {
			title = "Refused by the type checker (go run compiles them), by message"
		}
		fmt.Fprintf(w, "%s:\n\n", title)
		for _, g := range groups {
			fmt.Fprintf(w, "- %d: %s\n", counts[g], markdownText(g))
		}
		fmt.Fprintln(w)
	}
}

// markdownText escapes what Markdown would read as markup in a reason.
func markdownText(s string) string {
	return strings.NewReplacer("`", "\\`", "*", "\\*", "_", "\\_", "<", "&lt;", "[", "\\[").Replace(s)
}

// groupings turn a refusal's reason into its group's: the cell line, the
// engine's advice and the names of the program's own declarations go.
var groupings = []struct {
	re   *regexp.Regexp
	with string
}{
	{regexp.MustCompile(`^cell line \d+: `), ""},
	{regexp.MustCompile(`^the instant engine cannot run `), ""},
	{regexp.MustCompile(`^the generic (function|type) \S+$`), "the generic ${1}s of the program"},
	{regexp.MustCompile(`^(\w+)\.\S+, a generic (\w+) of a compiled package .*$`), "${2}s of package $1, generic"},
	{regexp.MustCompile(`^\w+\.\S+, which the interpreter's copy of package (\S+) lacks.*$`), "names that the interpreter's copy of package $1 lacks"},
	{regexp.MustCompile(`^the loop variable \S+, `), "a loop variable, "},
	{regexp.MustCompile(`^(min|max) of .*$`), "$1 of a type that is not ordered"},
	{regexp.MustCompile(`^a variable named \S+, `), "a variable named like an imported package, "},
	{regexp.MustCompile(`^a new definition of the (\w+) \S+ `), "a new definition of a $1 "},
}

// group returns the group of a refusal's reason: what it says, without
// what is this program's own.
func group(reason string) string {
	for _, g := range groupings {
		reason = g.re.ReplaceAllString(reason, g.with)
	}
	return reason
}
