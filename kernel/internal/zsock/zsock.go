// Package zsock gives Go code ZeroMQ sockets that goroutines may share:
// the kernel's front listens on them and its Jupyter client dials with
// them. They run on the C libzmq (through github.com/pebbe/zmq4), which
// handshakes every connection on its own, so that a peer that sends
// nothing delays no other, and refuses a frame longer than a socket's
// MaxMessageSize before allocating it.
//
// A libzmq socket must be used by one thread at a time, and a blocking
// receive would hold it while others wait to send. So each Socket is
// owned by a goroutine of its own that polls it; Send and Recv hand
// messages to that goroutine, which it wakes up through an in-process
// pair of sockets.
package zsock

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	zmq "github.com/pebbe/zmq4"
)

// A Type is a ZeroMQ socket type.
type Type int

// The socket types Jupyter uses.
const (
	Router Type = iota // a kernel's shell, control, stdin and heartbeat
	Pub                // a kernel's iopub
	Dealer             // a client's shell, control and stdin
	Sub                // a client's iopub; it subscribes to everything
	Req                // a client's heartbeat; it may send again before a reply came
	// XPub is a Pub that tells of its subscribers: Recv returns each
	// subscription as one frame, byte 1 and then the topic, every
	// subscriber's, even to a topic another has already (and byte 0 and
	// the topic when the last subscriber to it unsubscribes).
	XPub
)

var zmqTypes = map[Type]zmq.Type{Router: zmq.ROUTER, Pub: zmq.PUB, Dealer: zmq.DEALER, Sub: zmq.SUB, Req: zmq.REQ, XPub: zmq.XPUB}

// Options configure a socket.
type Options struct {
	// Identity is a Dealer's routing id: what a Router sees as its
	// first frame.
	Identity string
	// MaxMessageSize, if positive, is the longest frame a peer may send;
	// libzmq drops the connection of a peer that announces a longer one.
	MaxMessageSize int64
	// HandshakeTimeout, if positive, is how long a new connection may
	// take to finish its ZMTP handshake before libzmq drops it.
	HandshakeTimeout time.Duration
	// Mandatory makes a Router's Send fail with ErrNoPeer when no peer
	// with the message's routing id is connected (yet), rather than
	// libzmq dropping the message.
	Mandatory bool
}

// linger is how long messages still queued when a socket closes go on
// being sent.
const linger = time.Second

// queued is how many received messages wait for Recv before the socket
// stops reading, and how many sends may wait for the owner to take them.
const queued = 64

// ErrNoPeer is returned by Send on a Mandatory Router when no peer with
// the message's routing id is connected.
var ErrNoPeer = errors.New("zsock: no peer with that routing id is connected")

// ErrClosed is returned by the methods of a closed Socket.
var ErrClosed = errors.New("zsock: socket closed")

// A Socket is a libzmq socket that any goroutine may send on and receive
// from.
type Socket struct {
	in    chan [][]byte // received messages
	sends chan send     // messages to send
	// stalled is set while the owner does not read from the socket
	// because in is full; Recv then wakes it once there is room.
	stalled atomic.Bool

	closeOnce sync.Once
	closing   chan struct{} // closed by Close
	done      chan struct{} // closed once the owner has closed the socket

	wakeMu sync.Mutex
	wake   *zmq.Socket // the sending end of the pair; nil once closed
}

// A send is a message waiting for the owner, and where its result goes.
type send struct {
	frames [][]byte
	result chan error
}

// wakeIDs numbers the in-process endpoints of the sockets' wake pairs.
var wakeIDs atomic.Int64

// Listen returns a socket of type t bound to endpoint, such as
// tcp://127.0.0.1:5555 or ipc:///run/kernel-1.
func Listen(t Type, endpoint string, o Options) (*Socket, error) {
	return open(t, o, func(s *zmq.Socket) error { return s.Bind(endpoint) })
}

// Dial returns a socket of type t that connects to endpoint. It does not
// wait for the connection: libzmq makes it, and makes it again after a
// loss, while messages wait.
func Dial(t Type, endpoint string, o Options) (*Socket, error) {
	return open(t, o, func(s *zmq.Socket) error { return s.Connect(endpoint) })
}

func open(t Type, o Options, attach func(*zmq.Socket) error) (_ *Socket, err error) {
	zt, ok := zmqTypes[t]
	if !ok {
		return nil, fmt.Errorf("zsock: unknown socket type %d", t)
	}
	var made []*zmq.Socket
	defer func() {
		if err != nil {
			for _, s := range made {
				s.Close()
			}
		}
	}()
	newSocket := func(t zmq.Type) (*zmq.Socket, error) {
		s, err := zmq.NewSocket(t)
		if err == nil {
			made = append(made, s)
			err = s.SetLinger(linger)
		}
		return s, err
	}
	sock, err := newSocket(zt)
	if err != nil {
		return nil, err
	}
	if err := configure(sock, t, o); err != nil {
		return nil, err
	}
	if err := attach(sock); err != nil {
		return nil, err
	}
	endpoint := fmt.Sprintf("inproc://zsock-wake-%d", wakeIDs.Add(1))
	wakeIn, err := newSocket(zmq.PAIR)
	if err == nil {
		err = wakeIn.Bind(endpoint)
	}
	if err != nil {
		return nil, err
	}
	wakeOut, err := newSocket(zmq.PAIR)
	if err == nil {
		err = wakeOut.Connect(endpoint)
	}
	if err != nil {
		return nil, err
	}
	s := &Socket{
		in:      make(chan [][]byte, queued),
		sends:   make(chan send, queued),
		closing: make(chan struct{}),
		done:    make(chan struct{}),
		wake:    wakeOut,
	}
	go s.own(sock, wakeIn)
	return s, nil
}

// configure sets the options of a new socket.
func configure(s *zmq.Socket, t Type, o Options) error {
	var errs []error
	if o.Identity != "" {
		errs = append(errs, s.SetIdentity(o.Identity))
	}
	if o.MaxMessageSize > 0 {
		errs = append(errs, s.SetMaxmsgsize(o.MaxMessageSize))
	}
	if o.HandshakeTimeout > 0 {
		errs = append(errs, s.SetHandshakeIvl(o.HandshakeTimeout))
	}
	if o.Mandatory && t == Router {
		errs = append(errs, s.SetRouterMandatory(1))
	}
	if t == Router || t == Pub || t == XPub {
		// A ZAP domain makes libzmq refuse peers that speak ZMTP 1.0 or
		// 2.0 (Jupyter's clients speak 3.x). libzmq 4.3.4 aborts the
		// whole process on an assertion when such a peer's routing id
		// cannot be passed on, which any local process could cause. With
		// no ZAP handler running, ZMTP 3 peers are let in as before.
		errs = append(errs, s.SetZapDomain("tensornb"))
	}
	switch t {
	case XPub:
		errs = append(errs, s.SetXpubVerbose(1), s.SetXpubNodrop(true))
	case Pub:
		// A subscriber that reads slowly slows the publisher down: Send
		// waits for room rather than libzmq dropping the message, as it
		// would past the high-water mark (a notebook would lose output,
		// the status that ends a cell among it). A subscriber that is gone
		// blocks nothing: libzmq forgets its pipe.
		errs = append(errs, s.SetXpubNodrop(true))
	case Sub:
		errs = append(errs, s.SetSubscribe(""))
	case Req:
		// A heartbeat whose reply is late may ping again; a late reply
		// to an earlier ping is then dropped.
		errs = append(errs, s.SetReqRelaxed(1), s.SetReqCorrelate(1))
	}
	return errors.Join(errs...)
}

// Send queues a message of one or more frames. It returns once libzmq
// has taken the message, which a Router drops when the peer is gone or
// too slow, a Pub waits to take while a subscriber's queue is full, and a
// Dealer or Req keeps until a peer is connected.
func (s *Socket) Send(frames [][]byte) error {
	if len(frames) == 0 {
		return errors.New("zsock: a message needs a frame")
	}
	m := send{frames: frames, result: make(chan error, 1)}
	select {
	case s.sends <- m:
	case <-s.done:
		return ErrClosed
	}
	s.signal()
	select {
	case err := <-m.result:
		return err
	case <-s.done:
		return ErrClosed
	}
}

// Recv returns the next message, waiting for one until ctx ends or the
// socket is closed.
func (s *Socket) Recv(ctx context.Context) ([][]byte, error) {
	select {
	case m := <-s.in:
		if s.stalled.CompareAndSwap(true, false) {
			s.signal()
		}
		return m, nil
	case <-s.done:
		return nil, ErrClosed
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// Close closes the socket; messages already sent go on leaving for up to
// a second.
func (s *Socket) Close() error {
	s.closeOnce.Do(func() {
		close(s.closing)
		s.signal()
		<-s.done
		s.wakeMu.Lock()
		s.wake.Close()
		s.wake = nil
		s.wakeMu.Unlock()
	})
	return nil
}

// signal wakes the owner up.
func (s *Socket) signal() {
	s.wakeMu.Lock()
	defer s.wakeMu.Unlock()
	if s.wake != nil {
		// A full pair means the owner has a wake-up coming already.
		_, _ = s.wake.SendBytes([]byte{0}, zmq.DONTWAIT)
	}
}

// own is the goroutine that alone uses sock and wakeIn: it receives into
// s.in while there is room, sends what Send hands it, and closes both
// sockets when Close asks.
func (s *Socket) own(sock, wakeIn *zmq.Socket) {
	runtime.LockOSThread()
	defer close(s.done)
	defer sock.Close()
	defer wakeIn.Close()
	poller := zmq.NewPoller()
	poller.Add(wakeIn, zmq.POLLIN)
	poller.Add(sock, 0)
	var pending []send
	defer func() {
		for _, m := range pending {
			m.result <- ErrClosed
		}
	}()
	for {
		var events zmq.State
		if s.room() {
			events |= zmq.POLLIN
		}
		if len(pending) > 0 {
			events |= zmq.POLLOUT
		}
		_, _ = poller.Update(1, events)
		polled, err := poller.PollAll(-1)
		if err != nil {
			return
		}
		if polled[0].Events&zmq.POLLIN != 0 {
			for {
				if _, err := wakeIn.RecvBytes(zmq.DONTWAIT); err != nil {
					break
				}
			}
		}
		select {
		case <-s.closing:
			return
		default:
		}
		pending = s.take(pending)
		if polled[1].Events&zmq.POLLIN != 0 {
			s.receive(sock)
		}
		pending = flush(sock, pending)
	}
}

// room reports whether s.in can take a message. When it cannot, it marks
// the owner stalled, for Recv to wake it.
func (s *Socket) room() bool {
	if len(s.in) < cap(s.in) {
		return true
	}
	s.stalled.Store(true)
	// Recv may have taken a message before the mark was set.
	if len(s.in) < cap(s.in) {
		s.stalled.Store(false)
		return true
	}
	return false
}

// take appends the messages Send has handed over to pending.
func (s *Socket) take(pending []send) []send {
	for {
		select {
		case m := <-s.sends:
			pending = append(pending, m)
		default:
			return pending
		}
	}
}

// receive moves the messages that have arrived into s.in, while it has
// room.
func (s *Socket) receive(sock *zmq.Socket) {
	for len(s.in) < cap(s.in) {
		m, err := sock.RecvMessageBytes(zmq.DONTWAIT)
		if err != nil {
			return
		}
		s.in <- m
	}
}

// flush sends the pending messages in order until libzmq would block,
// and returns those left.
func flush(sock *zmq.Socket, pending []send) []send {
	for len(pending) > 0 {
		_, err := sock.SendMessageDontwait(pending[0].frames)
		switch zmq.AsErrno(err) {
		case zmq.Errno(syscall.EAGAIN):
			return pending
		case zmq.Errno(syscall.EHOSTUNREACH):
			err = ErrNoPeer
		}
		pending[0].result <- err
		pending = pending[1:]
	}
	return nil
}
