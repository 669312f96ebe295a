//go:build !js

package front_test

import (
	"context"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tensornb/tensornb/kernel/internal/client"
	"github.com/tensornb/tensornb/kernel/internal/wire"
)

// TestProtocolFuzz throws malformed ZMTP at every port from a few
// goroutines — random bytes, broken greetings, frames of random flags and
// lengths, unsigned messages, idle and half-closed connections, resets —
// while a real client keeps executing cells, and a new client connects
// each round and asks for kernel_info on shell and control and pings the
// heartbeat: each must be answered (see within). It runs for
// TENSORNB_FUZZ_SECONDS (20 by default, 60 at most), with the seed in
// TENSORNB_FUZZ_SEED if set, and logs what it tried.
func TestProtocolFuzz(t *testing.T) {
	seconds := envInt("TENSORNB_FUZZ_SECONDS", 20)
	if seconds > 60 {
		seconds = 60
	}
	seed := uint64(envInt("TENSORNB_FUZZ_SEED", int(time.Now().UnixNano()%1e9)))
	conn, engine := startKernel(t)
	c := dial(t, conn)
	var targets []int
	for _, port := range ports(conn) {
		targets = append(targets, port)
	}

	f := &fuzzer{conn: conn, ports: targets, tried: map[string]int{}}
	t.Cleanup(f.closeHeld)
	ctx, stop := context.WithTimeout(context.Background(), time.Duration(seconds)*time.Second)
	defer stop()
	var wg sync.WaitGroup
	for i := range 3 {
		wg.Go(func() { f.run(ctx, rand.New(rand.NewPCG(seed, uint64(i)))) })
	}

	cells, clients, slowest := 0, 0, time.Duration(0)
	for ctx.Err() == nil {
		code := fmt.Sprintf("print cell %d", cells)
		took := within(t, "a cell during the fuzzing", func(ctx context.Context) error {
			var out []string
			reply, err := c.Call(ctx, client.Shell, "execute_request", map[string]any{"code": code, "silent": false},
				func(m *wire.Message) { out = append(out, m.Type()) })
			if err != nil {
				return err
			}
			if reply.Type() != "execute_reply" || fmt.Sprint(out) != "[execute_input stream]" {
				return fmt.Errorf("a %s and %v", reply.Type(), out)
			}
			return nil
		})
		cells++
		slowest = max(slowest, took)
		if cells%5 != 1 {
			continue
		}
		took = within(t, "a new client during the fuzzing", func(ctx context.Context) error {
			fresh, err := client.Dial(ctx, conn)
			if err != nil {
				return err
			}
			defer fresh.Close()
			if err := fresh.WaitReady(ctx); err != nil {
				return err
			}
			return answers(ctx, fresh)
		})
		clients++
		slowest = max(slowest, took)
	}
	wg.Wait()
	for _, code := range engine.executed() {
		if !strings.HasPrefix(code, "print cell ") {
			t.Errorf("a forged cell ran: %q", code)
		}
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	total := 0
	for _, n := range f.tried {
		total += n
	}
	t.Logf("protocol fuzz: %d inputs on %d ports in %ds (seed %d): %v; %d cells run and %d new clients answered, the slowest in %v",
		total, len(targets), seconds, seed, f.tried, cells, clients, slowest.Round(time.Millisecond))
}

func envInt(name string, fallback int) int {
	if n, err := strconv.Atoi(os.Getenv(name)); err == nil && n > 0 {
		return n
	}
	return fallback
}

// A fuzzer sends malformed inputs to a kernel's ports.
type fuzzer struct {
	conn  *wire.Connection
	ports []int

	mu    sync.Mutex
	tried map[string]int // inputs sent, by kind
	held  []net.Conn     // idle and half-closed connections, kept open
}

// maxHeld bounds the connections the fuzzer keeps open.
const maxHeld = 40

func (f *fuzzer) closeHeld() {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, nc := range f.held {
		nc.Close()
	}
	f.held = nil
}

// run sends inputs until ctx ends.
func (f *fuzzer) run(ctx context.Context, r *rand.Rand) {
	kinds := []struct {
		name string
		send func(r *rand.Rand, nc *net.TCPConn) (keep bool)
	}{
		{"random bytes", func(r *rand.Rand, nc *net.TCPConn) bool { nc.Write(randomBytes(r, r.IntN(300))); return false }},
		{"broken greeting", func(r *rand.Rand, nc *net.TCPConn) bool { nc.Write(brokenGreeting(r)); return false }},
		{"random frames", func(r *rand.Rand, nc *net.TCPConn) bool {
			nc.Write(append(greeting(), randomFrames(r)...))
			return false
		}},
		{"unsigned messages", func(r *rand.Rand, nc *net.TCPConn) bool {
			nc.Write(append(append(greeting(), ready(r)...), unsignedMessage(r)...))
			return false
		}},
		{"idle", func(*rand.Rand, *net.TCPConn) bool { return true }},
		{"half-closed", func(r *rand.Rand, nc *net.TCPConn) bool {
			nc.Write(greeting()[:r.IntN(64)])
			nc.CloseWrite()
			return true
		}},
		{"reset", func(r *rand.Rand, nc *net.TCPConn) bool {
			nc.Write(greeting()[:r.IntN(65)])
			nc.SetLinger(0)
			return false
		}},
	}
	for ctx.Err() == nil {
		kind := kinds[r.IntN(len(kinds))]
		port := f.ports[r.IntN(len(f.ports))]
		d := net.Dialer{Timeout: time.Second}
		nc, err := d.DialContext(ctx, "tcp", net.JoinHostPort(f.conn.IP, strconv.Itoa(port)))
		if err != nil {
			continue
		}
		tc := nc.(*net.TCPConn)
		tc.SetWriteDeadline(time.Now().Add(time.Second))
		keep := kind.send(r, tc)
		f.mu.Lock()
		f.tried[kind.name]++
		if keep && len(f.held) < maxHeld {
			f.held = append(f.held, nc)
		} else {
			nc.Close()
		}
		f.mu.Unlock()
	}
}

func randomBytes(r *rand.Rand, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

// brokenGreeting is a greeting with one of its fields wrong, or cut.
func brokenGreeting(r *rand.Rand) []byte {
	g := greeting()
	switch r.IntN(5) {
	case 0:
		g[r.IntN(10)] ^= byte(1 + r.IntN(255)) // the signature
	case 1:
		g[10], g[11] = byte(r.IntN(256)), byte(r.IntN(256)) // the version
	case 2:
		mechanisms := []string{"PLAIN", "CURVE", "GSSAPI", "", string(randomBytes(r, 20))}
		copy(g[12:32], make([]byte, 20))
		copy(g[12:32], mechanisms[r.IntN(len(mechanisms))])
	case 3:
		g[32] = byte(r.IntN(256)) // as-server
	default:
		g = g[:r.IntN(64)]
	}
	return append(g, randomBytes(r, r.IntN(40))...)
}

// randomFrames are frames of random flags whose lengths are random, huge
// or longer than what follows.
func randomFrames(r *rand.Rand) []byte {
	var b []byte
	for range 1 + r.IntN(4) {
		flags := byte(r.IntN(256))
		body := randomBytes(r, r.IntN(100))
		sizes := []uint64{uint64(len(body)), 1 << 62, 1<<63 + 1, 256<<20 + 1, uint64(r.Uint32()), ^uint64(0)}
		size := sizes[r.IntN(len(sizes))]
		if flags&0x02 != 0 {
			b = append(b, flags)
			b = binary.BigEndian.AppendUint64(b, size)
		} else {
			b = append(b, flags, byte(size))
		}
		b = append(b, body...)
	}
	return b
}

// ready is a READY command announcing a random socket type.
func ready(r *rand.Rand) []byte {
	types := []string{"DEALER", "SUB", "REQ", "ROUTER", "PUB", "PAIR", string(randomBytes(r, 6))}
	body := append([]byte{5}, "READY"...)
	body = append(body, 11)
	body = append(body, "Socket-Type"...)
	typ := types[r.IntN(len(types))]
	body = binary.BigEndian.AppendUint32(body, uint32(len(typ)))
	body = append(body, typ...)
	return append([]byte{0x04, byte(len(body))}, body...)
}

// unsignedMessage is a Jupyter message with a made-up signature, or a
// few random frames.
func unsignedMessage(r *rand.Rand) []byte {
	frames := [][]byte{[]byte("<IDS|MSG>"), randomBytes(r, 64),
		[]byte(`{"msg_id":"x","msg_type":"execute_request","session":"s","username":"u","version":"5.3"}`),
		[]byte("{}"), []byte("{}"), []byte(`{"code":"print pwned"}`)}
	if r.IntN(2) == 0 {
		frames = frames[:r.IntN(len(frames))]
		for range r.IntN(4) {
			frames = append(frames, randomBytes(r, r.IntN(50)))
		}
	}
	var b []byte
	for i, f := range frames {
		more := byte(0x01)
		if i == len(frames)-1 {
			more = 0
		}
		b = append(b, more|0x02)
		b = binary.BigEndian.AppendUint64(b, uint64(len(f)))
		b = append(b, f...)
	}
	return b
}
