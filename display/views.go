package display

import (
	"fmt"
	"strings"

	"github.com/tensornb/tensornb/tensor"
)

// Named is a tensor with the name a picture labels it with: Views labels
// each tensor with its name, and Named's methods draw the pictures of
// Grid, Card, Layout and the rest titled with it, y[0, :, :] where an
// unnamed tensor is x[0, :, :]. The name is shown whole, with control
// characters made visible (␀, ␛) and cut only beyond 80 characters; an
// empty name is x.
type Named struct {
	Name   string
	Tensor *tensor.Tensor
}

// Views draws several tensors over their storages: each storage once, as a
// strip of slots, with one row of marks per tensor showing the slots it
// reads, in the tensor's own colour. Tensors that share a storage (views)
// are drawn over the same strip; a copy gets a strip of its own. Under the
// strips, every pair is labelled: same storage or not, and whether they
// read any slot in common.
//
//	display.Views(display.Named{"a", a}, display.Named{"a.T", a.T()}, display.Named{"copy", a.T().Contiguous()})
func Views(tensors ...Named) Renderer { return views(tensors) }

type views []Named

// storageGroup is one storage and the tensors over it, in the order given.
type storageGroup struct {
	name    string // S1, S2, …
	storage *tensor.Storage
	members []int // indices into the views
}

func (v views) groups() []storageGroup {
	var groups []storageGroup
	for i, n := range v {
		found := false
		for g := range groups {
			if groups[g].storage == n.Tensor.Storage() {
				groups[g].members = append(groups[g].members, i)
				found = true
				break
			}
		}
		if !found {
			groups = append(groups, storageGroup{
				name:    fmt.Sprintf("S%d", len(groups)+1),
				storage: n.Tensor.Storage(),
				members: []int{i},
			})
		}
	}
	return groups
}

// relations describes every pair of tensors in words.
func (v views) relations(groups []storageGroup) []string {
	storageName := map[*tensor.Storage]string{}
	for _, g := range groups {
		storageName[g.storage] = g.name
	}
	var out []string
	for i := range v {
		for j := i + 1; j < len(v); j++ {
			a, b := v[i], v[j]
			var rel string
			switch {
			case !a.Tensor.SharesStorage(b.Tensor):
				rel = fmt.Sprintf("separate storages (%s, %s)", storageName[a.Tensor.Storage()], storageName[b.Tensor.Storage()])
				switch {
				case !sameShape(a.Tensor, b.Tensor):
				case a.Tensor.Numel() > maxCompared:
					rel += ": too many elements to compare their values"
				case a.Tensor.Equal(b.Tensor):
					rel += ": equal values, one is a copy of the other"
				}
			case a.Tensor.MayShareMemory(b.Tensor) && max(slotsRead(a.Tensor), slotsRead(b.Tensor)) > maxWalked:
				rel = fmt.Sprintf("views of one storage (%s) whose spans overlap, with too many elements to tell whether they read the same slots", storageName[a.Tensor.Storage()])
			case a.Tensor.SharesMemory(b.Tensor):
				rel = fmt.Sprintf("views of one storage (%s) that read some of the same slots", storageName[a.Tensor.Storage()])
			default:
				rel = fmt.Sprintf("views of one storage (%s) with no slot in common", storageName[a.Tensor.Storage()])
			}
			out = append(out, fmt.Sprintf("%s and %s: %s", nameText(a.Name), nameText(b.Name), rel))
		}
	}
	return out
}

// maxCompared bounds the elements of two tensors whose values Views
// compares: a picture takes no more than a few milliseconds.
const maxCompared = 1 << 16

// maxWalked bounds the positions of a tensor whose slots Views walks to
// find those two views both read: a picture takes no more than tens of
// milliseconds.
const maxWalked = 1 << 22

// slotsRead returns how many positions of x read distinct slots at most:
// the product of the sizes of its dimensions whose stride is not 0, or a
// number above maxWalked if that is more.
func slotsRead(x *tensor.Tensor) int {
	n := 1
	for d, size := range x.Shape() {
		if x.Stride(d) != 0 {
			n *= size
		}
		if n > maxWalked {
			return maxWalked + 1
		}
	}
	return n
}

func sameShape(a, b *tensor.Tensor) bool { return a.Shape().String() == b.Shape().String() }

// marks counts, for the drawn slots of a group, how often each member
// reads each slot.
func (v views) marks(g storageGroup, slots []int) ([]map[int]int, bool) {
	complete := true
	out := make([]map[int]int, len(g.members))
	for m, i := range g.members {
		var ok bool
		out[m], ok = readCounts(v[i].Tensor, slots)
		complete = complete && ok
	}
	return out, complete
}

func (v views) Bundle() Bundle {
	svg := &svgDoc{}
	text := v.render(svg, 0, false)
	return svg.bundle(text)
}

// render draws the storages and the words on their tensors' relations
// into svg from y0 down, and returns the same as text. With differences,
// the slots of a storage that its tensors read differently are marked:
// in the picture in the mismatch colour, in the text with a ≠ row.
func (v views) render(svg *svgDoc, y0 float64, differences bool) string {
	groups := v.groups()
	var text strings.Builder
	y := y0
	for _, g := range groups {
		first := v[g.members[0]].Tensor
		slots := slotsShown(g.storage.Len(), first.StorageOffset())
		marks, complete := v.marks(g, slots)
		title := fmt.Sprintf("storage %s: %d × %s (%d bytes)", g.name, g.storage.Len(), g.storage.DType(), g.storage.NBytes())

		labels := []string{"slot", "value"}
		rows := indexedRows(slots, func(slot int) string { return g.storage.DType().FormatElement(g.storage.At(slot)) })
		for m, i := range g.members {
			labels = append(labels, nameText(v[i].Name))
			row := make([]string, len(slots))
			for k, slot := range slots {
				if n := marks[m][slot]; n == 1 {
					row[k] = "■"
				} else if n > 1 {
					row[k] = fmt.Sprintf("■×%d", n)
				}
			}
			rows = append(rows, row)
		}
		var differ map[int]bool
		if differences {
			differ = differing(marks, slots)
		}
		if len(differ) > 0 {
			labels = append(labels, "≠")
			row := make([]string, len(slots))
			for k, slot := range slots {
				if differ[slot] {
					row[k] = "≠"
				}
			}
			rows = append(rows, row)
		}
		text.WriteString(title + "\n" + columns(labels, rows...) + "\n")
		if !complete {
			text.WriteString("(some slots are read in too many ways to count)\n")
		}
		text.WriteString("\n")
		y = v.draw(svg, g, slots, marks, differ, title, y) + 2*gap
	}
	rels := v.relations(groups)
	if len(rels) > 0 {
		text.WriteString(strings.Join(rels, "\n"))
		for _, r := range rels {
			svg.text(0, y+lineH-4, "start", ink, r)
			y += lineH
		}
	}
	return strings.TrimRight(text.String(), "\n")
}

// differing returns the slots that the members of a storage's group
// read a different number of times, when it has two members or more.
func differing(marks []map[int]int, slots []int) map[int]bool {
	differ := map[int]bool{}
	if len(marks) < 2 {
		return differ
	}
	for _, slot := range slots {
		for _, m := range marks[1:] {
			if m[slot] != marks[0][slot] {
				differ[slot] = true
			}
		}
	}
	return differ
}

// draw puts one storage's strip at y0 with a row of marks under it for
// each member, the slots in differ outlined in the mismatch colour, and
// returns the y below it.
func (v views) draw(svg *svgDoc, g storageGroup, slots []int, marks []map[int]int, differ map[int]bool, title string, y0 float64) float64 {
	labelW := 90.0 // wide enough for the longest name, whole; one for all strips
	for _, n := range v {
		labelW = max(labelW, textWidth(nameText(n.Name))+12)
	}
	svg.text(0, y0+lineH-4, "start", ink, title)
	y := y0 + 2*lineH
	for k, slot := range slots {
		x := labelW + float64(k)*cellW
		if slot == gapIndex {
			svg.text(x+cellW/2, y+cellH/2+4, "middle", faint, "…")
			continue
		}
		svg.text(x+cellW/2, y-4, "middle", faint, fmt.Sprint(slot))
		svg.rect(x, y, cellW, cellH, "", lineColor, 1)
		if differ[slot] {
			svg.rect(x+1, y+1, cellW-2, cellH-2, mismatch, mismatch, 0.2)
		}
		svg.text(x+cellW/2, y+cellH/2+4, "middle", ink, fit(g.storage.DType().FormatElement(g.storage.At(slot)), 6))
	}
	y += cellH + 4
	for m, i := range g.members {
		color := colorOf(i)
		svg.text(labelW-6, y+lineH-4, "end", color, nameText(v[i].Name))
		for k, slot := range slots {
			n := marks[m][slot]
			if slot == gapIndex || n == 0 {
				continue
			}
			x := labelW + float64(k)*cellW
			svg.rect(x+4, y+2, cellW-8, lineH-4, color, color, 0.8)
			if n > 1 {
				svg.text(x+cellW/2, y+lineH-5, "middle", paper, fmt.Sprintf("×%d", n))
			}
		}
		y += lineH
	}
	return y
}
