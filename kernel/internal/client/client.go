// Package client is a Jupyter client in Go: it connects to a kernel's
// sockets, sends requests, and gathers the replies and iopub messages they
// cause. The tests of package front use it, and so does the GoNB engine,
// which drives GoNB as a child kernel.
package client

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tensornb/tensornb/kernel/internal/wire"
	"github.com/tensornb/tensornb/kernel/internal/zsock"
)

// A Client talks to one kernel.
type Client struct {
	signer  *wire.Signer
	session string
	id      []byte

	shell, control, stdin, iopub, hb *zsock.Socket
	pings                            atomic.Int64 // numbers the heartbeat's pings

	mu        sync.Mutex
	waiting   map[string]*call // by request msg_id
	onInput   func(prompt string, password bool) (string, bool)
	unclaimed func(*wire.Message)
}

// OnUnclaimed sets the function that receives the iopub messages no call
// is waiting for: those a kernel sends for a message that has no reply
// (a comm_msg), or of its own accord. It runs on the client's receiving
// goroutine, so it must not block.
func (c *Client) OnUnclaimed(handle func(*wire.Message)) {
	c.mu.Lock()
	c.unclaimed = handle
	c.mu.Unlock()
}

// Send sends a message that has no reply, such as a comm_msg, and returns
// its id.
func (c *Client) Send(ch Channel, msgType string, content any) (string, error) {
	m, err := c.NewMessage(msgType, content)
	if err != nil {
		return "", err
	}
	return m.Header.MsgID, c.SendMessage(ch, m)
}

// NewMessage makes a message of this client's session, for SendMessage:
// its id is known before it is sent, so that what answers it can be
// expected before it can arrive.
func (c *Client) NewMessage(msgType string, content any) (*wire.Message, error) {
	return wire.NewMessage(msgType, c.session, nil, content)
}

// SendMessage sends m on a channel without waiting for an answer.
func (c *Client) SendMessage(ch Channel, m *wire.Message) error {
	s := c.shell
	if ch == Control {
		s = c.control
	}
	return c.send(s, m)
}

// OnInput sets the function that answers the kernel's input requests: a
// request it returns ok false for gets no answer (the kernel waits, until
// it is interrupted). Until one is set, they are answered with an empty
// line.
func (c *Client) OnInput(answer func(prompt string, password bool) (value string, ok bool)) {
	c.mu.Lock()
	c.onInput = answer
	c.mu.Unlock()
}

// A call is a request in flight: its reply and the iopub messages it
// causes, up to the kernel's idle status. Its iopub messages queue up to
// maxQueued; past that, the client stops reading iopub until the call
// takes some, so that a kernel that publishes faster than the call's
// caller handles its messages is slowed down (through ZeroMQ's own
// queues), rather than filling memory or losing them.
type call struct {
	reply  chan *wire.Message
	closed bool // guarded by the client's mu, as iopub is

	iopub []*wire.Message
	more  chan struct{} // signalled when iopub grows
	room  chan struct{} // signalled when iopub is taken; closed with the call
}

// maxQueued is how many iopub messages a call holds before the client
// waits for it to take them.
const maxQueued = 1024

// Dial connects to the kernel of a connection file; the client closes
// when ctx ends or Close is called. It does not wait for the kernel to
// listen: WaitReady does.
func Dial(ctx context.Context, conn *wire.Connection) (*Client, error) {
	signer, err := conn.Signer()
	if err != nil {
		return nil, err
	}
	session := wire.NewID()
	c := &Client{signer: signer, session: session, id: []byte(session), waiting: map[string]*call{}}
	identity := zsock.Options{Identity: session}
	for _, d := range []struct {
		dst  **zsock.Socket
		typ  zsock.Type
		opts zsock.Options
		port int
	}{
		{&c.shell, zsock.Dealer, identity, conn.ShellPort},
		{&c.control, zsock.Dealer, identity, conn.ControlPort},
		{&c.stdin, zsock.Dealer, identity, conn.StdinPort},
		{&c.iopub, zsock.Sub, zsock.Options{}, conn.IOPubPort},
		{&c.hb, zsock.Req, zsock.Options{}, conn.HBPort},
	} {
		s, err := zsock.Dial(d.typ, conn.Endpoint(d.port), d.opts)
		if err != nil {
			c.Close()
			return nil, fmt.Errorf("connecting to %s: %w", conn.Endpoint(d.port), err)
		}
		*d.dst = s
	}
	context.AfterFunc(ctx, c.Close)
	go c.receive(c.shell, c.deliverReply)
	go c.receive(c.control, c.deliverReply)
	go c.receive(c.iopub, c.deliverIOPub)
	go c.receive(c.stdin, c.answerInput)
	return c, nil
}

// Close closes the client's sockets.
func (c *Client) Close() {
	for _, s := range []*zsock.Socket{c.shell, c.control, c.stdin, c.iopub, c.hb} {
		if s != nil {
			s.Close()
		}
	}
}

func (c *Client) receive(s *zsock.Socket, handle func(*wire.Message)) {
	for {
		frames, err := s.Recv(context.Background())
		if err != nil {
			return
		}
		if m, err := c.signer.Decode(frames); err == nil {
			handle(m)
		}
	}
}

// deliverReply hands a reply to the call it answers.
func (c *Client) deliverReply(m *wire.Message) {
	var parent wire.Header
	if json.Unmarshal(m.ParentHeader, &parent) != nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if cl, ok := c.waiting[parent.MsgID]; ok && !cl.closed {
		select {
		case cl.reply <- m:
		default: // a second reply to one request
		}
	}
}

// deliverIOPub hands an iopub message to the call it belongs to, waiting
// while the call's queue is full, or to the unclaimed handler.
func (c *Client) deliverIOPub(m *wire.Message) {
	var parent wire.Header
	_ = json.Unmarshal(m.ParentHeader, &parent)
	for {
		c.mu.Lock()
		cl, waited := c.waiting[parent.MsgID]
		if !waited || cl.closed {
			handle := c.unclaimed
			c.mu.Unlock()
			if !waited && handle != nil && m.Type() != "status" {
				handle(m)
			}
			return
		}
		if len(cl.iopub) < maxQueued {
			cl.iopub = append(cl.iopub, m)
			c.mu.Unlock()
			select {
			case cl.more <- struct{}{}:
			default: // a signal is pending already
			}
			return
		}
		c.mu.Unlock()
		<-cl.room
	}
}

func (c *Client) answerInput(m *wire.Message) {
	if m.Type() != "input_request" {
		return
	}
	var req struct {
		Prompt   string `json:"prompt"`
		Password bool   `json:"password"`
	}
	_ = m.Decode(&req)
	c.mu.Lock()
	answer := c.onInput
	c.mu.Unlock()
	value, ok := "", true
	if answer != nil {
		value, ok = answer(req.Prompt, req.Password)
	}
	if !ok {
		return
	}
	reply, err := wire.NewMessage("input_reply", c.session, m, map[string]any{"value": value})
	if err == nil {
		_ = c.send(c.stdin, reply)
	}
}

func (c *Client) send(s *zsock.Socket, m *wire.Message) error {
	frames, err := c.signer.Encode(m)
	if err != nil {
		return err
	}
	return s.Send(frames)
}

// Channel names a socket requests are sent on.
type Channel int

// The channels requests go on.
const (
	Shell Channel = iota
	Control
)

// Call sends a request of msgType with content on a channel, calls onIOPub
// (if not nil) with every iopub message the request causes, and returns
// the reply once the kernel is idle again.
func (c *Client) Call(ctx context.Context, ch Channel, msgType string, content any, onIOPub func(*wire.Message)) (*wire.Message, error) {
	req, err := wire.NewMessage(msgType, c.session, nil, content)
	if err != nil {
		return nil, err
	}
	return c.CallMessage(ctx, ch, req, onIOPub)
}

// CallMessage is Call with a message already made.
func (c *Client) CallMessage(ctx context.Context, ch Channel, req *wire.Message, onIOPub func(*wire.Message)) (*wire.Message, error) {
	frames, err := c.signer.Encode(req)
	if err != nil {
		return nil, err
	}
	return c.callFrames(ctx, ch, frames, req.Header.MsgID, req.Type(), onIOPub)
}

// CallFrames sends frames as they are on the shell channel and waits, as
// Call does, for what answers the message msgID: for tests of what a
// kernel does with a forged or malformed message.
func (c *Client) CallFrames(ctx context.Context, frames [][]byte, msgID string) (*wire.Message, error) {
	return c.callFrames(ctx, Shell, frames, msgID, "request", nil)
}

func (c *Client) callFrames(ctx context.Context, ch Channel, frames [][]byte, msgID, msgType string, onIOPub func(*wire.Message)) (*wire.Message, error) {
	cl := &call{reply: make(chan *wire.Message, 1), more: make(chan struct{}, 1), room: make(chan struct{}, 1)}
	c.mu.Lock()
	c.waiting[msgID] = cl
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		cl.closed = true
		close(cl.room)
		delete(c.waiting, msgID)
		c.mu.Unlock()
	}()
	s := c.shell
	if ch == Control {
		s = c.control
	}
	if err := s.Send(frames); err != nil {
		return nil, err
	}
	var reply *wire.Message
	idle := false
	for reply == nil || !idle {
		select {
		case <-ctx.Done():
			return reply, fmt.Errorf("waiting for the %s reply: %w", msgType, ctx.Err())
		case reply = <-cl.reply:
		case <-cl.more:
			c.mu.Lock()
			queued := cl.iopub
			cl.iopub = nil
			c.mu.Unlock()
			select {
			case cl.room <- struct{}{}:
			default: // a signal is pending already
			}
			for _, m := range queued {
				if m.Type() == "status" && statusOf(m) == "idle" {
					idle = true
					continue
				}
				if onIOPub != nil && m.Type() != "status" {
					onIOPub(m)
				}
			}
		}
	}
	return reply, nil
}

func statusOf(m *wire.Message) string {
	var s struct {
		State string `json:"execution_state"`
	}
	_ = m.Decode(&s)
	return s.State
}

// WaitReady asks for kernel_info until a reply and its iopub status both
// arrive, which shows that the iopub subscription is live: messages
// published before the subscriber joined are otherwise lost. The client
// connects in the background, so the first status is often published
// before the subscription arrives: it asks again after 100 ms, then
// waits twice as long each time, up to a second.
func (c *Client) WaitReady(ctx context.Context) error {
	wait := 100 * time.Millisecond
	for {
		attempt, cancel := context.WithTimeout(ctx, wait)
		_, err := c.Call(attempt, Shell, "kernel_info_request", map[string]any{}, nil)
		cancel()
		if err == nil {
			return nil
		}
		if ctx.Err() != nil {
			return fmt.Errorf("the kernel did not answer: %w", ctx.Err())
		}
		wait = min(2*wait, time.Second)
	}
}

// Heartbeat pings the kernel's heartbeat socket once and waits for the
// echo. Each ping is numbered, so that a late echo of an earlier one does
// not count.
func (c *Client) Heartbeat(ctx context.Context) error {
	ping := []byte(fmt.Sprintf("ping %d", c.pings.Add(1)))
	if err := c.hb.Send([][]byte{ping}); err != nil {
		return err
	}
	for {
		echo, err := c.hb.Recv(ctx)
		if err != nil {
			return err
		}
		if len(echo) == 1 && bytes.Equal(echo[0], ping) {
			return nil
		}
	}
}

// Signer returns the signer the client signs with, for tests.
func (c *Client) Signer() *wire.Signer { return c.signer }

// Session returns the client's session id.
func (c *Client) Session() string { return c.session }
