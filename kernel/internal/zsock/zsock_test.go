package zsock_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/tensornb/tensornb/kernel/internal/zsock"
)

// endpoint returns a loopback TCP endpoint nothing listens on.
func endpoint(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return "tcp://" + l.Addr().String()
}

func open(t *testing.T, listen bool, typ zsock.Type, ep string, o zsock.Options) *zsock.Socket {
	t.Helper()
	f := zsock.Dial
	if listen {
		f = zsock.Listen
	}
	s, err := f(typ, ep, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// hangAfter bounds each wait for a message. One takes milliseconds on
// loopback, seconds at most on a loaded machine under the race detector;
// only a message that never comes takes minutes, so this bound is no
// timing assertion.
const hangAfter = 2 * time.Minute

func recv(t *testing.T, s *zsock.Socket) [][]byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), hangAfter)
	defer cancel()
	m, err := s.Recv(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestRouterDealer(t *testing.T) {
	ep := endpoint(t)
	router := open(t, true, zsock.Router, ep, zsock.Options{MaxMessageSize: 1 << 20, HandshakeTimeout: time.Second})
	dealer := open(t, false, zsock.Dealer, ep, zsock.Options{Identity: "me"})
	if err := dealer.Send([][]byte{[]byte("a"), []byte("b")}); err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprintf("%q", recv(t, router)); got != `["me" "a" "b"]` {
		t.Fatalf("the router got %s", got)
	}
	if err := router.Send([][]byte{[]byte("me"), []byte("c")}); err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprintf("%q", recv(t, dealer)); got != `["c"]` {
		t.Fatalf("the dealer got %s", got)
	}
}

// TestManySendersAndBackPressure sends from several goroutines at once,
// more messages than a socket queues, before anyone receives: all arrive,
// each sender's in order.
func TestManySendersAndBackPressure(t *testing.T) {
	ep := endpoint(t)
	router := open(t, true, zsock.Router, ep, zsock.Options{})
	dealer := open(t, false, zsock.Dealer, ep, zsock.Options{Identity: "d"})
	const senders, each = 4, 200
	var wg sync.WaitGroup
	for i := range senders {
		wg.Go(func() {
			for j := range each {
				if err := dealer.Send([][]byte{[]byte(fmt.Sprint(i)), []byte(fmt.Sprint(j))}); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	next := make([]int, senders)
	for range senders * each {
		m := recv(t, router)
		var i, j int
		fmt.Sscan(string(m[1]), &i)
		fmt.Sscan(string(m[2]), &j)
		if j != next[i] {
			t.Fatalf("sender %d: message %d came after %d", i, j, next[i]-1)
		}
		next[i]++
	}
}

func TestPubSubAndHeartbeat(t *testing.T) {
	ep := endpoint(t)
	pub := open(t, true, zsock.Pub, ep, zsock.Options{})
	sub := open(t, false, zsock.Sub, ep, zsock.Options{})
	// A subscription takes a moment to reach the publisher.
	ctx, cancel := context.WithTimeout(context.Background(), hangAfter)
	defer cancel()
	for {
		if err := pub.Send([][]byte{[]byte("topic"), []byte("news")}); err != nil {
			t.Fatal(err)
		}
		wait, stop := context.WithTimeout(ctx, 50*time.Millisecond)
		m, err := sub.Recv(wait)
		stop()
		if err == nil {
			if string(m[1]) != "news" {
				t.Fatalf("the subscriber got %q", m)
			}
			break
		}
		if ctx.Err() != nil {
			t.Fatal("the subscriber got nothing")
		}
	}

	// An XPub tells of each subscriber, the second to the same topic
	// too; once told, a message sent reaches the subscriber at once.
	ep = endpoint(t)
	xpub := open(t, true, zsock.XPub, ep, zsock.Options{})
	for i := range 2 {
		sub := open(t, false, zsock.Sub, ep, zsock.Options{})
		if m := recv(t, xpub); len(m) != 1 || string(m[0]) != "\x01" {
			t.Fatalf("subscriber %d: the XPub got %q, want one frame \\x01 (a subscription to everything)", i, m)
		}
		if err := xpub.Send([][]byte{[]byte("topic"), []byte("welcome")}); err != nil {
			t.Fatal(err)
		}
		if m := recv(t, sub); string(m[1]) != "welcome" {
			t.Fatalf("subscriber %d got %q", i, m)
		}
	}

	// A Router that sends back what it got answers a Req, as a
	// kernel's heartbeat does.
	ep = endpoint(t)
	echo := open(t, true, zsock.Router, ep, zsock.Options{})
	req := open(t, false, zsock.Req, ep, zsock.Options{})
	for _, ping := range []string{"1", "2"} {
		if err := req.Send([][]byte{[]byte(ping)}); err != nil {
			t.Fatal(err)
		}
		if err := echo.Send(recv(t, echo)); err != nil {
			t.Fatal(err)
		}
		if got := string(recv(t, req)[0]); got != ping {
			t.Fatalf("echo %q for %q", got, ping)
		}
	}
	// A Req may ping again before the echo came; the late echo is dropped.
	for _, ping := range []string{"3", "4"} {
		if err := req.Send([][]byte{[]byte(ping)}); err != nil {
			t.Fatal(err)
		}
	}
	first, second := recv(t, echo), recv(t, echo)
	for _, m := range [][][]byte{first, second} {
		if err := echo.Send(m); err != nil {
			t.Fatal(err)
		}
	}
	if got := string(recv(t, req)[0]); got != "4" {
		t.Fatalf("the Req got the echo of %q, not of the last ping", got)
	}
}

func TestClose(t *testing.T) {
	s := open(t, true, zsock.Router, endpoint(t), zsock.Options{})
	got := make(chan error, 1)
	go func() {
		_, err := s.Recv(context.Background())
		got <- err
	}()
	s.Close()
	if err := <-got; !errors.Is(err, zsock.ErrClosed) {
		t.Fatalf("Recv on a closed socket: %v", err)
	}
	if err := s.Send([][]byte{[]byte("x")}); !errors.Is(err, zsock.ErrClosed) {
		t.Fatalf("Send on a closed socket: %v", err)
	}
}
