package worker

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"math"
	"os"
	"path"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
)

// memoryReport starts the line a worker writes to its crash report when
// it ends itself for using more memory than its limit.
const memoryReport = "out of memory (limit "

// memoryLimit is the memory a worker may use, all of it: what getenv
// gives for TENSORNB_MEMORY_LIMIT, in bytes, or else half of the
// machine's memory, or of the memory its control group may use if that
// is less.
func memoryLimit(getenv func(string) string) uint64 {
	if v, err := strconv.ParseUint(getenv("TENSORNB_MEMORY_LIMIT"), 10, 64); err == nil && v > 0 {
		return v
	}
	total := uint64(8 << 30)
	if data, err := os.ReadFile("/proc/meminfo"); err == nil {
		var kb uint64
		if _, err := fmt.Sscanf(string(data), "MemTotal: %d kB", &kb); err == nil {
			total = kb * 1024
		}
	}
	if c := cgroupLimit(); c > 0 {
		total = min(total, c)
	}
	return total / 2
}

// MemoryLimit is the memory limit of a worker that this process starts
// with its own environment (see memoryLimit): tensornb grade gives a
// worker in a container this limit, which the container's own bounds.
func MemoryLimit() uint64 { return memoryLimit(os.Getenv) }

// cgroupLimit is the least memory.max of the process's control group and
// those above it (cgroup v2), or 0 if none sets one.
func cgroupLimit() uint64 {
	data, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return 0
	}
	var group string
	for _, line := range strings.Split(string(data), "\n") {
		if p, ok := strings.CutPrefix(line, "0::"); ok {
			group = p
		}
	}
	if group == "" {
		return 0
	}
	var least uint64
	for g := path.Clean(group); ; g = path.Dir(g) {
		text, err := os.ReadFile(path.Join("/sys/fs/cgroup", g, "memory.max"))
		if v, perr := strconv.ParseUint(strings.TrimSpace(string(text)), 10, 64); err == nil && perr == nil && (least == 0 || v < least) {
			least = v // "max" is no limit
		}
		if g == "/" {
			return least
		}
	}
}

// memoryUsed is the memory the process holds: the more of its resident
// memory and the memory the Go runtime has mapped and not returned to
// the system (heap, even what was allocated and not yet touched; the
// goroutines' stacks; the runtime's own).
func memoryUsed(samples []metrics.Sample) uint64 {
	metrics.Read(samples)
	var mapped uint64
	if samples[0].Value.Kind() == metrics.KindUint64 && samples[1].Value.Kind() == metrics.KindUint64 {
		mapped = samples[0].Value.Uint64() - samples[1].Value.Uint64()
	}
	return max(mapped, residentMemory())
}

// residentMemory is the process's resident memory, from /proc/self/statm.
func residentMemory() uint64 {
	data, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0
	}
	fields := strings.Fields(string(data))
	if len(fields) < 2 {
		return 0
	}
	pages, _ := strconv.ParseUint(fields[1], 10, 64)
	return pages * uint64(os.Getpagesize())
}

// watchMemory ends the process, with a report that starts with
// memoryReport, when the memory it uses passes limit. It looks as often
// as watch says.
func watchMemory(limit uint64, report io.Writer, watch *memoryWatch) {
	samples := []metrics.Sample{{Name: "/memory/classes/total:bytes"}, {Name: "/memory/classes/heap/released:bytes"}}
	timer := time.NewTimer(watchFast)
	for {
		select {
		case <-timer.C:
		case <-watch.wake:
			timer.Stop()
		}
		used := memoryUsed(samples)
		if used > limit {
			if report != nil {
				fmt.Fprintf(report, "%s%s)\n", memoryReport, sizeText(limit))
			}
			os.Exit(3)
		}
		timer.Reset(watch.next(used))
	}
}

// How often a worker looks at its memory: every watchFast while it
// serves a request or its memory grows by watchCalm or more between two
// looks; otherwise each wait is twice the last, up to watchSlow. A worker
// between cells then wakes once a second, not twenty times: each wake of
// an idle worker cost about 0.3 ms of CPU, 6.5 ms a second for every
// kernel of a class that sat idle (docs/capacity.md). A goroutine that a
// cell left running and that starts to allocate is looked at again
// within watchSlow, and every watchFast from then on.
const (
	watchFast = 50 * time.Millisecond
	watchSlow = time.Second
	watchCalm = 4 << 20
)

// A memoryWatch paces watchMemory: Busy says when the worker serves a
// request, and next how long to wait after each look.
type memoryWatch struct {
	running atomic.Bool
	wake    chan struct{}
	wait    time.Duration // the last wait next gave
	last    uint64        // the memory the last look found
}

func newMemoryWatch() *memoryWatch {
	return &memoryWatch{wake: make(chan struct{}, 1), wait: watchFast}
}

// Busy records whether the worker is serving a request; one that starts
// is looked at at once, and then every watchFast until it ends.
func (w *memoryWatch) Busy(on bool) {
	w.running.Store(on)
	if on {
		select {
		case w.wake <- struct{}{}:
		default:
		}
	}
}

// next returns how long to wait after a look that found used bytes.
func (w *memoryWatch) next(used uint64) time.Duration {
	grew := used >= w.last+watchCalm
	w.last = used
	if w.running.Load() || grew {
		w.wait = watchFast
	} else {
		w.wait = min(2*w.wait, watchSlow)
	}
	return w.wait
}

// sizeText writes a number of bytes as people read it: 256 MiB, 1 GiB,
// 11.5 GiB.
func sizeText(n uint64) string {
	if n >= 1<<30 {
		return strconv.FormatFloat(math.Round(float64(n)/(1<<30)*10)/10, 'f', -1, 64) + " GiB"
	}
	return strconv.FormatUint((n+1<<19)>>20, 10) + " MiB"
}

// oomKills is how many processes the system's out-of-memory killer has
// ended since it started (oom_kill in /proc/vmstat), or -1 if unknown.
func oomKills() int64 {
	data, err := os.ReadFile("/proc/vmstat")
	if err != nil {
		return -1
	}
	lines := bufio.NewScanner(bytes.NewReader(data))
	for lines.Scan() {
		if v, ok := strings.CutPrefix(lines.Text(), "oom_kill "); ok {
			n, err := strconv.ParseInt(v, 10, 64)
			if err == nil {
				return n
			}
		}
	}
	return -1
}
