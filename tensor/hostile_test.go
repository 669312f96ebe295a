package tensor_test

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tensornb/tensornb/tensor"
)

// The hostile-input sweep calls every exported function and method with
// sizes and values chosen to break it: dims of 2^62, tensors expanded far
// past memory, zero-size tensors with huge dims, NaN and infinities, the
// extremes of int64. Each call must end within a bound with a result or a
// *tensor.Error. A fatal error (out of memory) cannot be recovered, so the
// calls run in a worker process; when the worker dies or hangs, the case
// is recorded and a new worker goes on from the next case.

// hostileWorkerEnv, when set to a case number, makes the test binary a
// worker that runs the cases from that number on.
const hostileWorkerEnv = "TENSOR_HOSTILE_FROM"

// hostileBound is how long one case may take.
const hostileBound = 20 * time.Second

func TestMain(m *testing.M) {
	if from := os.Getenv(hostileWorkerEnv); from != "" {
		n, _ := strconv.Atoi(from)
		runHostileWorker(n)
		os.Exit(0)
	}
	flag.Parse()
	tensor.PoisonUnfilled(flag.Lookup("test.bench").Value.String() == "")
	os.Exit(m.Run())
}

// A hostileCase is one call.
type hostileCase struct {
	name string
	call func()
}

// hostileTensors are receivers and arguments, each made afresh.
func hostileTensors() []struct {
	name string
	make func() *tensor.Tensor
} {
	return []struct {
		name string
		make func() *tensor.Tensor
	}{
		{"Scalar(1).Expand(2^62)", func() *tensor.Tensor { return tensor.Scalar(float32(1)).Expand(1 << 62) }},
		{"Zeros(0, 2^62)", func() *tensor.Tensor { return tensor.Zeros(0, 1<<62) }},
		{"Zeros(0, 2^40)", func() *tensor.Tensor { return tensor.Zeros(0, 1<<40) }},
		{"[NaN, +Inf, -Inf]", func() *tensor.Tensor {
			return tensor.New([]float32{float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1))})
		}},
		{"Int64 [MaxInt64, MinInt64]", func() *tensor.Tensor { return tensor.New([]int64{math.MaxInt64, math.MinInt64}) }},
		{"Arange(6).Reshape(2, 3)", func() *tensor.Tensor { return tensor.Arange(6).Reshape(2, 3) }},
		{"Uint8 [0, 255]", func() *tensor.Tensor { return tensor.New([]uint8{0, 255}) }},
		{"Bool [true]", func() *tensor.Tensor { return tensor.New([]bool{true}) }},
		{"Float16 [65504]", func() *tensor.Tensor { return tensor.Float16.Full(65504, 1) }},
	}
}

var (
	hostileInts   = []int{0, -1, 1, 3, 1 << 62, -(1 << 62), math.MaxInt, math.MinInt, 1 << 33}
	hostileSlices = [][]int{nil, {1 << 62}, {-1}, {-1, -1}, {1 << 31, 1 << 31}, {math.MaxInt, 2}, {0, 1 << 62}, {2, -3}, {1 << 33}}
	hostileFloats = []float64{math.NaN(), math.Inf(1), math.Inf(-1), 1e300, -1e300, 0, 1e10}
	hostileAnys   = []any{math.NaN(), math.Inf(1), 1e300, int64(math.MaxInt64), 300, -5, "3", nil, true, []int{1}}
	hostileText   = []string{"", "[5], 4:", ":::", strings.Repeat("None, ", 40), "[" + strconv.Itoa(math.MaxInt) + "]", "b (h d) -> h b d", "…", "::-1"}
	hostileDTypes = []tensor.DType{tensor.Float32, tensor.Int64, tensor.Uint8, tensor.Bool, tensor.Float16, tensor.DType(99)}
)

// hostileArgs returns arguments for a function of type ft, drawn with r
// (the receiver, if any, is not among ft's parameters).
func hostileArgs(ft reflect.Type, r *rand.Rand) []reflect.Value {
	tensors := hostileTensors()
	pick := func(t reflect.Type) reflect.Value {
		switch t {
		case reflect.TypeFor[*tensor.Tensor]():
			if r.IntN(8) == 0 {
				return reflect.Zero(t)
			}
			return reflect.ValueOf(tensors[r.IntN(len(tensors))].make())
		case reflect.TypeFor[[]*tensor.Tensor]():
			return reflect.ValueOf([]*tensor.Tensor{tensors[r.IntN(len(tensors))].make(), tensors[r.IntN(len(tensors))].make()})
		case reflect.TypeFor[int]():
			return reflect.ValueOf(hostileInts[r.IntN(len(hostileInts))])
		case reflect.TypeFor[[]int](), reflect.TypeFor[tensor.Shape]():
			return reflect.ValueOf(hostileSlices[r.IntN(len(hostileSlices))]).Convert(t)
		case reflect.TypeFor[float64]():
			return reflect.ValueOf(hostileFloats[r.IntN(len(hostileFloats))])
		case reflect.TypeFor[string]():
			return reflect.ValueOf(hostileText[r.IntN(len(hostileText))])
		case reflect.TypeFor[tensor.DType]():
			return reflect.ValueOf(hostileDTypes[r.IntN(len(hostileDTypes))])
		case reflect.TypeFor[bool]():
			return reflect.ValueOf(r.IntN(2) == 0)
		case reflect.TypeFor[any]():
			if v := hostileAnys[r.IntN(len(hostileAnys))]; v != nil {
				return reflect.ValueOf(v)
			}
		}
		return reflect.Zero(t)
	}
	n := ft.NumIn()
	var args []reflect.Value
	for i := range n {
		t := ft.In(i)
		if ft.IsVariadic() && i == n-1 {
			for range r.IntN(3) {
				args = append(args, pick(t.Elem()))
			}
			continue
		}
		args = append(args, pick(t))
	}
	return args
}

// hostileFunctions are the package's exported functions, by name.
var hostileFunctions = map[string]any{
	"NoGrad": tensor.NoGrad, "IsGradEnabled": tensor.IsGradEnabled, "BroadcastShapes": tensor.BroadcastShapes,
	"NewContract": tensor.NewContract, "InterleavedByHead": tensor.InterleavedByHead, "BlockedByRole": tensor.BlockedByRole,
	"FusedQKV": tensor.FusedQKV, "PixelUnshuffleChannels": tensor.PixelUnshuffleChannels,
	"New": tensor.New, "Scalar": tensor.Scalar, "Arange": tensor.Arange, "Zeros": tensor.Zeros, "Ones": tensor.Ones,
	"Full": tensor.Full, "Empty": tensor.Empty, "Linspace": tensor.Linspace, "Rand": tensor.Rand, "Randn": tensor.Randn,
	"ManualSeed": tensor.ManualSeed, "Try": tensor.Try, "Cat": tensor.Cat, "Stack": tensor.Stack, "Rearrange": tensor.Rearrange,
}

// hostileCases lists the sweep: every method of *Tensor on every hostile
// receiver, every DType method on every dtype, and every function, each
// with argument draws from a fixed seed.
func hostileCases() []hostileCase {
	const draws = 3
	r := rand.New(rand.NewPCG(14, 14))
	var cases []hostileCase
	tt := reflect.TypeFor[*tensor.Tensor]()
	for _, recv := range hostileTensors() {
		for i := range tt.NumMethod() {
			m := tt.Method(i)
			for d := range draws {
				args := hostileArgs(m.Type, r)[1:] // without the receiver's slot
				recv := recv
				cases = append(cases, hostileCase{
					name: fmt.Sprintf("%s.%s(%s) #%d", recv.name, m.Name, describe(args), d),
					call: func() { reflect.ValueOf(recv.make()).Method(i).Call(args) },
				})
			}
		}
	}
	dt := reflect.TypeFor[tensor.DType]()
	for _, d := range hostileDTypes {
		for i := range dt.NumMethod() {
			m := dt.Method(i)
			for range draws {
				args := hostileArgs(m.Type, r)[1:]
				cases = append(cases, hostileCase{
					name: fmt.Sprintf("%v.%s(%s)", d, m.Name, describe(args)),
					call: func() { reflect.ValueOf(d).Method(i).Call(args) },
				})
			}
		}
	}
	names := make([]string, 0, len(hostileFunctions))
	for name := range hostileFunctions {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		f := reflect.ValueOf(hostileFunctions[name])
		for range 4 * draws {
			var args []reflect.Value
			if name == "NoGrad" || name == "Try" {
				args = []reflect.Value{reflect.ValueOf(func() {})}
			} else {
				args = hostileArgs(f.Type(), r)
			}
			cases = append(cases, hostileCase{
				name: fmt.Sprintf("%s(%s)", name, describe(args)),
				call: func() { f.Call(args) },
			})
		}
	}
	return cases
}

// describe prints arguments for a case's name.
func describe(args []reflect.Value) string {
	parts := make([]string, len(args))
	for i, a := range args {
		switch v := a.Interface().(type) {
		case *tensor.Tensor:
			if v == nil {
				parts[i] = "nil"
			} else {
				parts[i] = fmt.Sprintf("tensor%v", v.Shape())
			}
		case []*tensor.Tensor:
			parts[i] = fmt.Sprintf("%d tensors", len(v))
		default:
			parts[i] = fmt.Sprintf("%#v", v)
		}
	}
	return strings.Join(parts, ", ")
}

// runHostileWorker runs the cases from the first on, writing "start N"
// before a case and "end N outcome" after it.
func runHostileWorker(first int) {
	cases := hostileCases()
	out := bufio.NewWriter(os.Stdout)
	for i := first; i < len(cases); i++ {
		fmt.Fprintf(out, "start %d\n", i)
		out.Flush()
		outcome := "ok"
		func() {
			defer func() {
				if r := recover(); r != nil {
					if _, ok := r.(*tensor.Error); ok {
						outcome = "refused"
						return
					}
					outcome = "panic " + strings.ReplaceAll(fmt.Sprint(r), "\n", " ")
				}
			}()
			cases[i].call()
		}()
		fmt.Fprintf(out, "end %d %s\n", i, outcome)
		out.Flush()
	}
}

func TestHostileInputs(t *testing.T) {
	cases := hostileCases()
	count := map[string]int{}
	next := 0
	for next < len(cases) {
		next = runHostileWorkerFrom(t, cases, next, count)
	}
	t.Logf("hostile inputs: %d cases: %d answered, %d refused with a *tensor.Error, %d failed",
		len(cases), count["ok"], count["refused"], count["failed"])
}

// runHostileWorkerFrom runs a worker from case first and returns the
// case to start the next worker at (len(cases) once all have run).
func runHostileWorkerFrom(t *testing.T, cases []hostileCase, first int, count map[string]int) int {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), hostileWorkerEnv+"="+strconv.Itoa(first), "GOMEMLIMIT=4GiB")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := make(chan string)
	go func() {
		s := bufio.NewScanner(stdout)
		s.Buffer(nil, 1<<20)
		for s.Scan() {
			lines <- s.Text()
		}
		close(lines)
	}()
	current := -1
	timer := time.NewTimer(hostileBound)
	defer timer.Stop()
	for {
		select {
		case line, ok := <-lines:
			if !ok {
				_ = cmd.Wait()
				if current < 0 {
					t.Fatalf("the worker ended between cases: %s", lastLines(stderr.String(), 3))
				}
				count["failed"]++
				t.Errorf("%s: the process died: %s", cases[current].name, lastLines(stderr.String(), 3))
				return current + 1
			}
			word, rest, _ := strings.Cut(line, " ")
			num, outcome, _ := strings.Cut(rest, " ")
			n, _ := strconv.Atoi(num)
			switch word {
			case "start":
				current = n
				timer.Reset(hostileBound)
			case "end":
				current = -1
				if strings.HasPrefix(outcome, "panic") {
					count["failed"]++
					t.Errorf("%s: %s", cases[n].name, outcome)
				} else {
					count[outcome]++
				}
				if n == len(cases)-1 {
					cancel()
					_ = cmd.Wait()
					return len(cases)
				}
			}
		case <-timer.C:
			if current >= 0 {
				count["failed"]++
				t.Errorf("%s: no end within %v", cases[current].name, hostileBound)
				cancel()
				_ = cmd.Wait()
				return current + 1
			}
		}
	}
}

// lastLines returns the first n lines of s, which say what went wrong.
func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.Join(lines[:min(n, len(lines))], " | ")
}

// Every exported function of the package is in the sweep.
func TestHostileSweepCoversEveryFunction(t *testing.T) {
	fset := token.NewFileSet()
	pkgs, err := parser.ParseDir(fset, ".", func(fi os.FileInfo) bool { return !strings.HasSuffix(fi.Name(), "_test.go") }, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range pkgs["tensor"].Files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Name.IsExported() {
				if _, ok := hostileFunctions[fd.Name.Name]; !ok {
					t.Errorf("%s is not in the hostile sweep", fd.Name.Name)
				}
			}
		}
	}
}
