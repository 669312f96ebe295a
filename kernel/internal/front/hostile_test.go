//go:build !js

package front_test

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"syscall"
	"testing"
	"time"

	"github.com/tensornb/tensornb/kernel/internal/client"
	"github.com/tensornb/tensornb/kernel/internal/wire"
)

// greeting is a ZMTP 3.0 greeting for the NULL mechanism, as a client
// sends it: signature, version 3.0, "NULL", as-server 0, filler.
func greeting() []byte {
	g := make([]byte, 64)
	g[0], g[9] = 0xff, 0x7f
	g[10], g[11] = 3, 0
	copy(g[12:32], "NULL")
	return g
}

// hugeFrame is the header of a long command frame that claims 2^62 bytes
// of body: what the NULL handshake reads next after the greeting.
func hugeFrame() []byte {
	h := make([]byte, 9)
	h[0] = 0x06 // COMMAND | LONG
	binary.BigEndian.PutUint64(h[1:], 1<<62)
	return h
}

// ports names the five ports of conn.
func ports(conn *wire.Connection) map[string]int {
	return map[string]int{"shell": conn.ShellPort, "control": conn.ControlPort, "stdin": conn.StdinPort,
		"iopub": conn.IOPubPort, "hb": conn.HBPort}
}

// rawConn opens a TCP connection to port, which the test closes at its
// end. It tries again for a while: the kernel may not be listening yet.
func rawConn(t *testing.T, conn *wire.Connection, port int) net.Conn {
	t.Helper()
	addr := net.JoinHostPort(conn.IP, fmt.Sprint(port))
	deadline := time.Now().Add(hangAfter)
	for {
		nc, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			t.Cleanup(func() { nc.Close() })
			return nc
		}
		if time.Now().After(deadline) {
			t.Fatal(err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// within runs check and fails the test if it errs or takes longer than
// hangAfter; it returns how long check took. A check that hangs is left
// behind. A kernel under attack must go on answering; how soon it does is
// logged, not asserted, since a loaded machine under the race detector
// takes seconds. Its tests lengthen the handshake timeout past hangAfter
// (export_test.go), so a kernel locked out until an idle connection is
// dropped fails here.
func within(t *testing.T, what string, check func(ctx context.Context) error) time.Duration {
	t.Helper()
	start := time.Now()
	ctx, cancel := context.WithTimeout(context.Background(), hangAfter)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- check(ctx) }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	case <-time.After(hangAfter + time.Second):
		t.Fatalf("%s: no answer in %v", what, hangAfter)
	}
	return time.Since(start)
}

// answers checks that the kernel answers c's kernel_info on shell and
// control and its heartbeat.
func answers(ctx context.Context, c *client.Client) error {
	for _, ch := range []client.Channel{client.Shell, client.Control} {
		reply, err := c.Call(ctx, ch, "kernel_info_request", map[string]any{}, nil)
		if err != nil {
			return err
		}
		if reply.Type() != "kernel_info_reply" {
			return fmt.Errorf("a %s for kernel_info", reply.Type())
		}
	}
	return c.Heartbeat(ctx)
}

// TestHugeFrameOnEveryPort sends each port a greeting and then a frame
// header that claims 2^62 bytes, with no key: the kernel must refuse the
// frame and go on answering.
func TestHugeFrameOnEveryPort(t *testing.T) {
	conn, _ := startKernel(t)
	c := dial(t, conn)
	for name, port := range ports(conn) {
		nc := rawConn(t, conn, port)
		_ = nc.SetWriteDeadline(time.Now().Add(time.Second))
		_, _ = nc.Write(append(greeting(), hugeFrame()...))
		within(t, "after a huge frame on "+name, func(ctx context.Context) error { return answers(ctx, c) })
	}
}

// TestIdleConnectionsDoNotLockOut holds a TCP connection that sends
// nothing to every port, then connects a new client: it must get its
// kernel_info replies, the iopub messages of a cell and heartbeat echoes.
func TestIdleConnectionsDoNotLockOut(t *testing.T) {
	conn, _ := startKernel(t)
	for _, port := range ports(conn) {
		rawConn(t, conn, port)
	}
	within(t, "a new client beside idle connections", func(ctx context.Context) error {
		c, err := client.Dial(ctx, conn)
		if err != nil {
			return err
		}
		defer c.Close()
		if err := c.WaitReady(ctx); err != nil {
			return err
		}
		if err := answers(ctx, c); err != nil {
			return err
		}
		var streams []string
		_, err = c.Call(ctx, client.Shell, "execute_request", map[string]any{"code": "print hi", "silent": false},
			func(m *wire.Message) { streams = append(streams, m.Type()) })
		if err == nil && fmt.Sprint(streams) != "[execute_input stream]" {
			err = errors.New("iopub brought " + fmt.Sprint(streams))
		}
		return err
	})
}

// oldGreetings are the openings of peers that speak ZMTP 1.0 and 2.0,
// each with its routing id and a message: libzmq 4.3.4 asserts (and
// aborts the process) when such a peer's routing id cannot be passed on.
func oldGreetings() [][]byte {
	v1 := []byte{0x03, 0x00, 'i', 'd', 0x02, 0x00, 'x'} // routing id "id", then "x"
	v2 := append(make([]byte, 10), 0x01, 0x05)          // signature, revision 1, ROUTER's type
	v2[0], v2[9] = 0xff, 0x7f
	v2 = append(v2, 0x00, 0x02, 'i', 'd', 0x00, 0x01, 'x') // routing id "id", then "x"
	return [][]byte{v1, v2}
}

// TestOldProtocolsOnEveryPort opens connections that speak ZMTP 1.0 and
// 2.0 to every port, with no key: the kernel closes them at once, and
// goes on answering.
func TestOldProtocolsOnEveryPort(t *testing.T) {
	conn, _ := startKernel(t)
	c := dial(t, conn)
	for name, port := range ports(conn) {
		for k, g := range oldGreetings() {
			nc := rawConn(t, conn, port)
			_ = nc.SetDeadline(time.Now().Add(hangAfter))
			_, _ = nc.Write(g)
			// The kernel answers with its own greeting, then closes (or
			// resets) the connection.
			if _, err := io.Copy(io.Discard, nc); err != nil && !errors.Is(err, syscall.ECONNRESET) {
				t.Errorf("%s: a ZMTP %d.0 peer was not refused: %v", name, k+1, err)
			}
		}
		within(t, "after old protocols on "+name, func(ctx context.Context) error { return answers(ctx, c) })
	}
}
