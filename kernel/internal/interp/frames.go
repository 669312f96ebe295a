package interp

import (
	"context"
	"fmt"
	"io"
	"reflect"
	"regexp"
	"strings"
	"sync"
	"unsafe"

	"github.com/tensornb/tensornb/kernel/internal/interp/cell"
	"github.com/tensornb/tensornb/kernel/internal/interp/rewrite"
)

// A panic's frames: yaegi names the interpreted frames as they unwind,
// and the rewrite's marks say where each had reached (see cell.Sites).

// frameRecorder passes writes on to w, except the lines yaegi v0.16.1
// writes by itself as interpreted frames unwind in a panic ("1:46:
// panic: main.third(...)"): the panic is the cell's error already. It
// keeps the functions they name, innermost first.
type frameRecorder struct {
	w      io.Writer
	mu     sync.Mutex
	frames []string
	// dropped counts the frames left out of frames past recordedFrames.
	dropped int
}

// recordedFrames is the most frames a recorder keeps: the innermost
// half and the outermost half.
const recordedFrames = 2000

var yaegiPanicLine = regexp.MustCompile(`^\d+:\d+: panic: (.*)\(\.\.\.\)\n$`)

func (f *frameRecorder) Write(p []byte) (int, error) {
	m := yaegiPanicLine.FindSubmatch(p)
	if m == nil {
		return f.w.Write(p)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.frames) == recordedFrames {
		// Keep the innermost half; the outermost half rolls.
		copy(f.frames[recordedFrames/2:], f.frames[recordedFrames/2+1:])
		f.frames = f.frames[:recordedFrames-1]
		f.dropped++
	}
	f.frames = append(f.frames, string(m[1]))
	return len(p), nil
}

// reset forgets the frames recorded: a new step runs, or interpreted
// code recovers from a panic whose frames were recorded.
func (f *frameRecorder) reset() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.frames, f.dropped = nil, 0
}

// take returns the frames recorded since the last reset, and how many
// between them were left out.
func (f *frameRecorder) take() ([]string, int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.frames...), f.dropped
}

// runtimeSymbols returns the table of the functions rewritten code calls
// (see cell.RuntimeName) for yaegi: Bounds, UnwrapError, AsMethod, Held, Clear,
// Recovered, Print and Println, which write to rec, as the builtins write
// to standard error, Recovering, which resets rec, so that the frames a
// recovered panic unwound are not taken for those of a later one, and
// RangeState and Deferred, of the lowered loops over functions,
// NilAssertion, of the rewritten type assertions, Unrecorded, of the
// arguments of compiled functions that may hold yaegi's records, Stop,
// of what the engine finds it cannot run as the cell runs, and the
// type
// UnsafePointer, unsafe.Pointer, which the rewrite writes for it (the
// interpreter has no package unsafe).
func runtimeSymbols(rec *frameRecorder) map[string]map[string]reflect.Value {
	return map[string]map[string]reflect.Value{cell.RuntimePath + "/tensornbruntime": {
		"Bounds":       reflect.ValueOf(cell.PanicBounds),
		"Recovering":   reflect.ValueOf(rec.reset),
		"RangeState":   reflect.ValueOf(cell.PanicRange),
		"Deferred":     reflect.ValueOf(cell.RunDeferred),
		"UnwrapError":  reflect.ValueOf(cell.UnwrapError),
		"AsMethod":     reflect.ValueOf(cell.AsMethod),
		"Clear":        reflect.ValueOf(cell.Clear),
		"Recovered":    reflect.ValueOf(cell.Recovered),
		"Print":        reflect.ValueOf(func(args ...any) { cell.WritePrint(rec, false, args...) }),
		"Println":      reflect.ValueOf(func(args ...any) { cell.WritePrint(rec, true, args...) }),
		"NilAssertion": reflect.ValueOf(cell.PanicNilAssertion),
		"Held":         reflect.ValueOf(cell.Held),
		"Unrecorded":   reflect.ValueOf(cell.Unrecorded),
		"Stop":         reflect.ValueOf(cell.Stop),

		"UnsafePointer": reflect.ValueOf((*unsafe.Pointer)(nil)),
	}}
}

// A frame is one interpreted frame of a panic, as traced: its function,
// and the site and line it had reached (nil and 0 if not known); or, if
// elided is set, that many frames left out.
type frame struct {
	key    string
	fn     *cell.Func
	site   *cell.Site
	line   int
	elided int
}

// frames returns the interpreted frames of the panic that ended the cell.Step
// st, innermost first, the outermost the step's own. A frame's site is
// read from its function's variable (see lineVar) the first time its key
// appears; a frame whose key appeared closer in (recursion) is placed by
// its call of the frame inside it, if its function has a single site
// that makes that call. Each frame but the innermost is at the line of
// its call of the frame inside, if the site's calls say it.
func (s *Session) frames(st cell.Step) []frame {
	names, elided := s.recorder.take()
	read := map[string]bool{}
	var frames []frame
	top := frame{site: s.sites.At(st.Site)}
	for i, name := range names {
		if elided > 0 && i == recordedFrames/2 {
			frames = append(frames, frame{elided: elided})
		}
		key, ok := strings.CutPrefix(name, "main.")
		if !ok {
			continue // main itself, the evaluation, or a package's frame
		}
		for renamed, name := range map[string]string{rewrite.MainFunc: "main", initFunc: "init"} {
			if rest, ok := strings.CutPrefix(key, renamed); ok && (rest == "" || rest[0] == '.') {
				key = name + rest // the cells' func main or init, or a literal in it
			}
		}
		if rest, ok := strings.CutPrefix(key, statementFunc); ok {
			// tensornbStatementN, the step's own, or a literal in it
			_, key, _ = strings.Cut(rest, ".")
			if key == "" {
				top.site = s.siteOf("")
				break
			}
		}
		f := frame{key: key}
		if !read[key] {
			read[key] = true
			f.site = s.siteOf(key)
			if f.site != nil {
				f.fn = f.site.Fn
			}
		} else if n := len(frames); n > 0 {
			f.site, f.fn = s.callerSite(key, frames[n-1])
		}
		frames = append(frames, f)
	}
	frames = append(frames, top)
	for i := range frames {
		f := &frames[i]
		if f.site == nil {
			continue
		}
		f.line = f.site.Line
		if i == 0 || frames[i-1].elided > 0 {
			continue
		}
		// The line of the call of the frame inside, if one line has it.
		line := 0
		for _, c := range f.site.Calls {
			if c.Callee(frames[i-1].key, frames[i-1].fn) {
				if line != 0 && line != c.Line {
					line = 0
					break
				}
				line = c.Line
			}
		}
		if line > 0 {
			f.line = line
		}
	}
	return frames
}

// siteOf reads the site that the variable of key holds, or nil.
func (s *Session) siteOf(key string) *cell.Site {
	v, err := s.evalOnce(context.Background(), cell.LineVar(key))
	if err != nil || !v.IsValid() || !v.CanInt() {
		return nil
	}
	return s.sites.At(int(v.Int()))
}

// callerSite returns where a frame of key, which called the frame inside
// it, was: the one site of its function that calls inner's function. The
// function is the one that the innermost frame of key ran.
func (s *Session) callerSite(key string, inner frame) (*cell.Site, *cell.Func) {
	first := s.siteOf(key)
	if first == nil || first.Fn == nil {
		return nil, nil
	}
	fn := first.Fn
	var found *cell.Site
	for _, id := range fn.Sites {
		site := s.sites.At(id)
		for _, c := range site.Calls {
			if c.Callee(inner.key, inner.fn) {
				if found != nil && found != site {
					return nil, fn
				}
				found = site
			}
		}
	}
	return found, fn
}

// traceback writes frames, innermost first, as lines of a traceback:
// "cell line 3: text" at the running cell's top level, with ", in f"
// inside a function f, and "Cell In[2], line 3, in f: text" in an
// earlier cell. A run of more than three equal lines (recursion) is
// shortened.
func (s *Session) traceback(frames []frame) []string {
	var lines []string
	for _, f := range frames {
		lines = append(lines, s.frameLine(f))
	}
	var out []string
	for i := 0; i < len(lines); {
		j := i + 1
		for j < len(lines) && lines[j] == lines[i] {
			j++
		}
		if n := j - i; n > 3 {
			out = append(out, lines[i], lines[i], fmt.Sprintf("[... the line above %d more times ...]", n-2))
		} else {
			out = append(out, lines[i:j]...)
		}
		i = j
	}
	return out
}

// frameLine writes one frame; see traceback.
func (s *Session) frameLine(f frame) string {
	if f.elided > 0 {
		return fmt.Sprintf("...%d frames elided...", f.elided)
	}
	name := ""
	if f.fn != nil {
		name = f.fn.Name
	} else if parent, _, _ := strings.Cut(f.key, "."); parent == "func" || strings.HasSuffix(f.key, ".func") {
		// A literal's, known by its yaegi name only.
		name = "a func literal"
		if parent != "func" {
			name += " in " + parent
		}
	} else {
		name = f.key
	}
	if f.site == nil || f.line == 0 {
		return "in " + name + " (its line is not known)"
	}
	in := ""
	if name != "" {
		in = ", in " + name
	}
	text := f.site.Cell.Line(f.line)
	if l, ok := f.site.Cell.Written(f.line); ok {
		// A declaration the lowering wrote: an instance of a generic one.
		return fmt.Sprintf("in %s, line %d of its declaration: %s", name, l, text)
	}
	if f.site.Cell == s.source {
		return fmt.Sprintf("cell line %d%s: %s", f.line, in, text)
	}
	return fmt.Sprintf("Cell %s, line %d%s: %s", f.site.Cell.Label, f.line, in, text)
}
