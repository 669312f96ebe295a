//go:build !js

package front

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"
	"sync"
	"time"

	"github.com/tensornb/tensornb/kernel/internal/wire"
	"github.com/tensornb/tensornb/kernel/internal/zsock"
)

// Info describes the kernel in kernel_info replies.
type Info struct {
	Implementation string // "tensornb"
	Version        string // the kernel's version
	GoVersion      string // the language version, such as "1.26.8"
	Banner         string
	HelpLinks      []HelpLink
}

// A HelpLink is an entry of the front end's Help menu.
type HelpLink struct {
	Text string `json:"text"`
	URL  string `json:"url"`
}

// A Kernel serves one connection file's sockets.
type Kernel struct {
	info    Info
	engine  Engine
	signer  *wire.Signer
	conn    *wire.Connection
	session string
	log     *log.Logger

	shell, control, stdin, iopub, hb *zsock.Socket
	inputs                           chan *wire.Message // input_reply messages from stdin

	mu      sync.Mutex
	comms   map[string]string  // open comms: comm_id to target_name
	count   int                // the execution count
	history []historyEntry     // this session's inputs
	cancel  context.CancelFunc // interrupts the running cell, if any
	done    chan struct{}      // closed at shutdown

	outputLimit int64 // see SetOutputLimit
}

// DefaultOutputLimit is how much text a cell may print before the rest is
// dropped: 128 MiB, twice the 64 MiB the tests print whole. Like Jupyter
// server's iopub_data_rate_limit, it keeps a cell that prints without
// end from filling the kernel's and the browser's memory.
const DefaultOutputLimit = 128 << 20

// SetOutputLimit sets how many bytes of text a cell may print (stdout and
// stderr together) before the rest is dropped, with a notice; 0 means no
// limit. Set it before Serve.
func (k *Kernel) SetOutputLimit(bytes int64) { k.outputLimit = bytes }

// Anyone who can reach the kernel's ports can connect to them and send
// frames before any signature is checked. So a peer may announce a frame
// of at most maxMessageSize bytes, and must finish its ZMTP handshake
// within handshakeTimeout; libzmq drops the connection of one that does
// not, and serves the others meanwhile.
//
// 256 MiB is 25 times what Jupyter's server lets a browser send in one
// websocket message by default (Tornado's 10 MiB), so that a server whose
// limit was raised for a widget's file upload still gets through, while
// one announced frame cannot make the kernel reserve more. A handshake
// on loopback takes milliseconds; 10 s leaves room for a loaded machine
// and closes idle connections three times sooner than libzmq's 30 s.
const maxMessageSize = 256 << 20

// handshakeTimeout is a variable only for the package's tests, which
// lengthen it (see export_test.go).
var handshakeTimeout = 10 * time.Second

// New returns a kernel for the connection, running cells on engine.
func New(conn *wire.Connection, engine Engine, info Info) (*Kernel, error) {
	signer, err := conn.Signer()
	if err != nil {
		return nil, err
	}
	return &Kernel{
		info:    info,
		engine:  engine,
		signer:  signer,
		conn:    conn,
		session: wire.NewID(),
		log:     log.New(os.Stderr, "tensornb: ", log.LstdFlags),
		inputs:  make(chan *wire.Message, 1),
		done:    make(chan struct{}),

		outputLimit: DefaultOutputLimit,
	}, nil
}

// Run listens on the connection's sockets and serves requests until a
// shutdown_request arrives or ctx is cancelled.
func (k *Kernel) Run(ctx context.Context) error {
	ctx, stop := context.WithCancel(ctx)
	defer stop()
	opts := zsock.Options{MaxMessageSize: maxMessageSize, HandshakeTimeout: handshakeTimeout}
	for _, l := range []struct {
		dst  **zsock.Socket
		typ  zsock.Type
		port int
	}{
		{&k.shell, zsock.Router, k.conn.ShellPort},
		{&k.control, zsock.Router, k.conn.ControlPort},
		{&k.stdin, zsock.Router, k.conn.StdinPort},
		{&k.iopub, zsock.XPub, k.conn.IOPubPort},
		{&k.hb, zsock.Router, k.conn.HBPort},
	} {
		o := opts
		// An input_request to a client whose stdin channel is not
		// connected yet fails, to be sent again, rather than vanishing
		// while the cell waits for its reply.
		o.Mandatory = l.dst == &k.stdin
		s, err := zsock.Listen(l.typ, k.conn.Endpoint(l.port), o)
		if err != nil {
			return fmt.Errorf("listening on %s: %w", k.conn.Endpoint(l.port), err)
		}
		*l.dst = s
		defer s.Close()
	}

	queue := make(chan *wire.Message, 64)
	go k.heartbeat()
	go k.welcome()
	go k.receive(k.control, func(m *wire.Message) { k.handleControl(ctx, m) })
	go k.receive(k.stdin, func(m *wire.Message) {
		if m.Type() == "input_reply" {
			select {
			case k.inputs <- m:
			default:
				k.log.Printf("dropped an input_reply nobody asked for")
			}
		}
	})
	go k.receive(k.shell, func(m *wire.Message) { queue <- m })
	go k.serveShell(ctx, queue)
	k.publish(nil, "status", map[string]any{"execution_state": "starting"})
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-k.done:
		// ZeroMQ sends from queues: let the shutdown reply and the last
		// status leave before the sockets close, as ZeroMQ's linger does.
		time.Sleep(linger)
		return nil
	}
}

// linger is how long a kernel that shuts down keeps its sockets open.
const linger = 250 * time.Millisecond

// welcome publishes an iopub_welcome (Jupyter's JEP 65) each time a
// client subscribes to iopub, so that the client knows its subscription
// has arrived: from then on it sees everything the kernel publishes. A
// subscription is made asynchronously, so the status messages of a
// client's first request may be published before it arrives and be lost
// to it: jupyter_client's start waits 0.2 s for an iopub message after
// its first kernel_info_reply, and without one asks again, which cost
// every kernel's start about 0.3 s.
func (k *Kernel) welcome() {
	for {
		msg, err := k.iopub.Recv(context.Background())
		if err != nil {
			return
		}
		// A subscription's topic is echoed back, so a long one (from no
		// Jupyter client: theirs subscribe to everything) is not.
		if len(msg) == 1 && len(msg[0]) > 0 && msg[0][0] == 1 && len(msg[0]) <= 1+maxWelcomeTopic {
			k.publish(nil, "iopub_welcome", map[string]any{"subscription": string(msg[0][1:])})
		}
	}
}

// maxWelcomeTopic is the longest subscription topic welcomed.
const maxWelcomeTopic = 256

// heartbeat echoes every ping. The socket is a Router that sends each
// message back as it came, routing frames and all, which is what a REP
// socket answers a REQ client; ipykernel's heartbeat does the same. A
// libzmq REP socket would lose the reply to the next ping after a
// malformed request from a peer that has already gone, as the protocol
// fuzz test found.
func (k *Kernel) heartbeat() {
	for {
		msg, err := k.hb.Recv(context.Background())
		if err != nil || k.hb.Send(msg) != nil {
			return
		}
	}
}

// receive reads messages from s, drops those whose signature is missing or
// wrong, and passes the others to handle.
func (k *Kernel) receive(s *zsock.Socket, handle func(*wire.Message)) {
	for {
		frames, err := s.Recv(context.Background())
		if err != nil {
			return
		}
		m, err := k.signer.Decode(frames)
		if errors.Is(err, wire.ErrBadSignature) {
			k.log.Printf("dropped a message with a missing or wrong signature")
			continue
		}
		if err != nil {
			k.log.Printf("dropped a message: %v", err)
			continue
		}
		handle(m)
	}
}

// send signs and sends a message on s.
func (k *Kernel) send(s *zsock.Socket, m *wire.Message) {
	if err := k.trySend(s, m); err != nil {
		k.log.Printf("could not send %s: %v", m.Type(), err)
	}
}

// trySend sends m on s and returns why it could not.
func (k *Kernel) trySend(s *zsock.Socket, m *wire.Message) error {
	frames, err := k.signer.Encode(m)
	if err != nil {
		return err
	}
	return s.Send(frames)
}

// reply answers request on the socket it came from.
func (k *Kernel) reply(s *zsock.Socket, request *wire.Message, msgType string, content any) {
	m, err := k.answer(request, msgType, content)
	if err != nil {
		k.log.Print(err)
		return
	}
	k.send(s, m)
}

// answer builds the message of msgType that answers request, addressed to
// the client that sent it.
func (k *Kernel) answer(request *wire.Message, msgType string, content any) (*wire.Message, error) {
	m, err := wire.NewMessage(msgType, k.session, request, content)
	if err != nil {
		return nil, err
	}
	m.Identities = request.Identities
	return m, nil
}

// publish broadcasts a message on iopub, in reply to parent (or none).
func (k *Kernel) publish(parent *wire.Message, msgType string, content any) {
	m, err := wire.NewMessage(msgType, k.session, parent, content)
	if err != nil {
		k.log.Print(err)
		return
	}
	m.Identities = [][]byte{[]byte(msgType)}
	k.send(k.iopub, m)
}

// busy publishes the busy status for request, runs f, and publishes idle.
func (k *Kernel) busy(request *wire.Message, f func()) {
	k.publish(request, "status", map[string]any{"execution_state": "busy"})
	defer k.publish(request, "status", map[string]any{"execution_state": "idle"})
	f()
}

// handleControl answers a control message. It runs apart from the shell,
// so that an interrupt reaches a running cell.
func (k *Kernel) handleControl(ctx context.Context, m *wire.Message) {
	if m.Type() == "shutdown_request" {
		// Stop serving only once the reply and the idle status are sent.
		defer k.stop()
	}
	k.busy(m, func() {
		switch m.Type() {
		case "interrupt_request":
			k.Interrupt()
			k.reply(k.control, m, "interrupt_reply", map[string]any{"status": "ok"})
		case "shutdown_request":
			k.shutdown(m)
		case "kernel_info_request":
			k.reply(k.control, m, "kernel_info_reply", k.kernelInfo())
		default:
			k.log.Printf("ignored a control message of type %q", m.Type())
		}
	})
}

// Interrupt cancels the running cell, if any, as an interrupt_request does.
func (k *Kernel) Interrupt() {
	k.mu.Lock()
	cancel := k.cancel
	k.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

func (k *Kernel) shutdown(m *wire.Message) {
	var req struct {
		Restart bool `json:"restart"`
	}
	_ = m.Decode(&req)
	k.Interrupt()
	if err := k.engine.Shutdown(false); err != nil {
		k.log.Printf("shutting the engine down: %v", err)
	}
	content := map[string]any{"status": "ok", "restart": req.Restart}
	k.reply(k.control, m, "shutdown_reply", content)
	k.publish(m, "shutdown_reply", content)
}

// stop ends Run.
func (k *Kernel) stop() {
	k.mu.Lock()
	defer k.mu.Unlock()
	select {
	case <-k.done:
	default:
		close(k.done)
	}
}

func (k *Kernel) kernelInfo() map[string]any {
	links := k.info.HelpLinks
	if links == nil {
		links = []HelpLink{}
	}
	return map[string]any{
		"status":                 "ok",
		"protocol_version":       wire.ProtocolVersion,
		"implementation":         k.info.Implementation,
		"implementation_version": k.info.Version,
		"banner":                 k.info.Banner,
		"help_links":             links,
		"language_info":          LanguageInfo(k.info.GoVersion),
		// Protocol 5.5's name for the welcome: a client that knows it
		// waits for it rather than asking until a status arrives.
		"supported_features": []string{"iopub_welcome"},
	}
}

// LanguageInfo is the language_info of a kernel_info_reply, for cells in
// Go goVersion ("1.26.8"). The browser's kernel
// (kernel/internal/browser/lite/web/kernel.js) sends the same, from
// kernel/internal/browser/shared.js, which go generate makes from it.
func LanguageInfo(goVersion string) map[string]any {
	return map[string]any{
		"name":               "go",
		"version":            goVersion,
		"mimetype":           "text/x-go",
		"file_extension":     ".go",
		"pygments_lexer":     "go",
		"codemirror_mode":    "go",
		"nbconvert_exporter": "script",
	}
}
