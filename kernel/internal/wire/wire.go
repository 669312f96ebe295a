// Package wire holds the Jupyter messaging protocol's messages as they
// travel over ZeroMQ: the frames of a message, its HMAC-SHA256 signature,
// and the connection file a kernel is started with. It knows nothing of
// what the messages ask for; package front and the clients do.
package wire

import (
	"bytes"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"time"
)

// ProtocolVersion is the version of the messaging protocol spoken.
const ProtocolVersion = "5.3"

// delimiter separates a message's routing identities from its body.
var delimiter = []byte("<IDS|MSG>")

// A Header identifies a message and says what it is.
type Header struct {
	MsgID    string `json:"msg_id"`
	Session  string `json:"session"`
	Username string `json:"username"`
	Date     Date   `json:"date"`
	MsgType  string `json:"msg_type"`
	Version  string `json:"version"`
}

// A Date is a header's date: an ISO 8601 string, as the protocol has it.
// A number (seconds since the epoch, which some clients write) is kept
// as its digits, so that such a client is heard as ipykernel hears it.
type Date string

// UnmarshalJSON reads a string, a number or null.
func (d *Date) UnmarshalJSON(data []byte) error {
	var n json.Number
	if err := json.Unmarshal(data, &n); err == nil {
		*d = Date(n)
		return nil
	}
	var s *string
	if err := json.Unmarshal(data, &s); err != nil {
		return err
	}
	if s != nil {
		*d = Date(*s)
	}
	return nil
}

// A Message is one Jupyter message. ParentHeader, Metadata and Content are
// kept as raw JSON, so that a reply can carry its request's header exactly
// as the client wrote it.
type Message struct {
	Identities   [][]byte // ZeroMQ routing prefix, for ROUTER sockets
	Header       Header
	ParentHeader json.RawMessage // "{}" when there is no parent
	Metadata     json.RawMessage
	Content      json.RawMessage
	Buffers      [][]byte

	rawHeader json.RawMessage // the header as received, for replies' parent_header
}

// Type returns the message's type, such as "execute_request".
func (m *Message) Type() string { return m.Header.MsgType }

// Decode unmarshals the content into v.
func (m *Message) Decode(v any) error {
	if err := json.Unmarshal(m.Content, v); err != nil {
		return fmt.Errorf("%s: bad content: %w", m.Header.MsgType, err)
	}
	return nil
}

// NewMessage makes a message of type msgType in session, in reply to
// parent (nil for none), with content marshalled to JSON.
func NewMessage(msgType, session string, parent *Message, content any) (*Message, error) {
	body, err := json.Marshal(content)
	if err != nil {
		return nil, fmt.Errorf("%s: cannot encode content: %w", msgType, err)
	}
	m := &Message{
		Header: Header{
			MsgID:    NewID(),
			Session:  session,
			Username: "tensornb",
			Date:     Date(time.Now().UTC().Format("2006-01-02T15:04:05.000000Z")),
			MsgType:  msgType,
			Version:  ProtocolVersion,
		},
		ParentHeader: json.RawMessage("{}"),
		Metadata:     json.RawMessage("{}"),
		Content:      body,
	}
	if parent != nil {
		m.ParentHeader = parent.rawHeader
		if len(m.ParentHeader) == 0 {
			m.ParentHeader, _ = json.Marshal(parent.Header)
		}
		m.Header.Username = parent.Header.Username
	}
	return m, nil
}

// NewID returns a fresh random message or session id.
func NewID() string {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic("wire: no randomness: " + err.Error())
	}
	return hex.EncodeToString(b[:])
}

// A Signer signs messages with HMAC-SHA256 and checks their signatures.
// With an empty key, as a connection file may give, messages are neither
// signed nor checked.
type Signer struct {
	key []byte
}

// NewSigner returns a Signer for key and scheme, which must be
// "hmac-sha256" (or empty, meaning the same).
func NewSigner(key, scheme string) (*Signer, error) {
	if scheme != "" && scheme != "hmac-sha256" {
		return nil, fmt.Errorf("signature scheme %q is not supported: use hmac-sha256", scheme)
	}
	return &Signer{key: []byte(key)}, nil
}

func (s *Signer) sign(frames ...[]byte) []byte {
	if len(s.key) == 0 {
		return nil
	}
	var mac hash.Hash = hmac.New(sha256.New, s.key)
	for _, f := range frames {
		mac.Write(f)
	}
	sum := mac.Sum(nil)
	out := make([]byte, hex.EncodedLen(len(sum)))
	hex.Encode(out, sum)
	return out
}

// Encode returns the message's frames, signed: identities, the
// delimiter, the signature, header, parent header, metadata, content and
// buffers.
func (s *Signer) Encode(m *Message) ([][]byte, error) {
	header, err := json.Marshal(m.Header)
	if err != nil {
		return nil, err
	}
	parts := [][]byte{header, orEmpty(m.ParentHeader), orEmpty(m.Metadata), orEmpty(m.Content)}
	frames := make([][]byte, 0, len(m.Identities)+6+len(m.Buffers))
	frames = append(frames, m.Identities...)
	frames = append(frames, delimiter, s.sign(parts...))
	frames = append(frames, parts...)
	return append(frames, m.Buffers...), nil
}

func orEmpty(raw json.RawMessage) []byte {
	if len(raw) == 0 {
		return []byte("{}")
	}
	return raw
}

// ErrBadSignature reports a message whose signature is missing or wrong:
// it must be dropped, never acted on.
var ErrBadSignature = errors.New("message signature missing or wrong")

// Decode parses and checks the frames of a message. It returns
// ErrBadSignature if the signature does not match.
func (s *Signer) Decode(frames [][]byte) (*Message, error) {
	split := -1
	for i, f := range frames {
		if bytes.Equal(f, delimiter) {
			split = i
			break
		}
	}
	if split < 0 || len(frames) < split+6 {
		return nil, fmt.Errorf("malformed message: %d frames, delimiter at %d", len(frames), split)
	}
	sig, parts := frames[split+1], frames[split+2:split+6]
	if len(s.key) > 0 && !hmac.Equal(sig, s.sign(parts...)) {
		return nil, ErrBadSignature
	}
	m := &Message{
		Identities:   frames[:split],
		ParentHeader: parts[1],
		Metadata:     parts[2],
		Content:      parts[3],
		Buffers:      frames[split+6:],
		rawHeader:    parts[0],
	}
	if err := json.Unmarshal(parts[0], &m.Header); err != nil {
		return nil, fmt.Errorf("malformed header: %w", err)
	}
	return m, nil
}
