package lower

import (
	"sort"
	"strings"
	"unicode"
)

// An instance's concrete declaration needs a name of its own that no cell
// writes and that reads, in the interpreter's messages, almost as Go
// writes the instance: Map[int, string] is declared as Mapᐸintˏstringᐳ,
// slices.Sort[[]int, int] as slicesꓸSortᐸᐸᐳintˏintᐳ. The signs are
// letters of other scripts, so the names are identifiers; a Names table
// gives the messages back the names as Go writes them.

// signs are the letters that stand for the characters an identifier
// cannot hold, in the types an instance is written with.
var signs = map[rune]rune{
	'[': 'ᐸ', ']': 'ᐳ', ',': 'ˏ', '.': 'ꓸ', ' ': 'ꞏ', '*': 'ᕀ',
	'(': 'ᐟ', ')': 'ᐠ', '{': 'ᐨ', '}': 'ᐩ', ';': 'ᐪ', '<': 'ᑉ', '-': 'ᒡ', '~': 'ᒃ',
}

// other stands for any other character an identifier cannot hold (the
// quotes of a struct tag); Names keeps names made with it apart.
const other = 'ᕝ'

// A Names table holds the names given to instances and to the standard
// library's declarations, and the names Go writes them with.
type Names struct {
	goName map[string]string // given name → Go's name
	given  map[string]string // key → given name
}

// newNames returns an empty table.
func newNames() *Names { return &Names{goName: map[string]string{}, given: map[string]string{}} }

// name returns the identifier that stands for what key says, the same
// one each time: made of goName, written as Go writes it (Map[int,
// string], slices.Sort[[]int, int]); two keys that Go writes alike get
// names apart.
func (n *Names) name(key, goName string) string {
	if id, ok := n.given[key]; ok {
		return id
	}
	var b strings.Builder
	for _, r := range strings.ReplaceAll(goName, ", ", ",") {
		switch s, ok := signs[r]; {
		case ok:
			b.WriteRune(s)
		case r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		default:
			b.WriteRune(other)
		}
	}
	id := b.String()
	for i := 1; n.goName[id] != ""; i++ {
		id = b.String() + strings.Repeat(string(other), i)
	}
	n.given[key], n.goName[id] = id, goName
	return id
}

// GoNames writes the given names in msg as Go writes them, the longest
// first, so that one name inside another is not cut.
func (n *Names) GoNames(msg string) string {
	if len(n.goName) == 0 || !strings.ContainsFunc(msg, isSign) {
		return msg
	}
	ids := make([]string, 0, len(n.goName))
	for id := range n.goName {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool { return len(ids[i]) > len(ids[j]) })
	for _, id := range ids {
		msg = strings.ReplaceAll(msg, id, n.goName[id])
	}
	return msg
}

// isSign reports whether r is one of the signs given names hold.
func isSign(r rune) bool {
	if r == other {
		return true
	}
	for _, s := range signs {
		if r == s {
			return true
		}
	}
	return false
}
