package wire

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"
)

func TestEncodeDecodeRoundTrip(t *testing.T) {
	s, err := NewSigner("secret", "hmac-sha256")
	if err != nil {
		t.Fatal(err)
	}
	parent, _ := NewMessage("execute_request", "sess", nil, map[string]any{"code": "1+1"})
	parent.Identities = [][]byte{[]byte("client-1")}
	m, err := NewMessage("execute_reply", "sess", parent, map[string]any{"status": "ok", "execution_count": 1})
	if err != nil {
		t.Fatal(err)
	}
	m.Identities = parent.Identities
	m.Buffers = [][]byte{{1, 2, 3}}
	frames, err := s.Encode(m)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(frames[0], []byte("client-1")) || !bytes.Equal(frames[1], delimiter) || len(frames[2]) != 64 {
		t.Fatalf("frames start %q %q %q", frames[0], frames[1], frames[2])
	}
	got, err := s.Decode(frames)
	if err != nil {
		t.Fatal(err)
	}
	var parentHeader Header
	if err := json.Unmarshal(got.ParentHeader, &parentHeader); err != nil || parentHeader.MsgID != parent.Header.MsgID {
		t.Fatalf("parent header %s", got.ParentHeader)
	}
	var content struct {
		Status string `json:"status"`
	}
	if err := got.Decode(&content); err != nil || content.Status != "ok" || got.Type() != "execute_reply" || len(got.Buffers) != 1 {
		t.Fatalf("decoded %+v %+v", got, content)
	}
}

// A message whose signature is missing or was made with another key is
// refused, whatever it asks for.
func TestForgedSignaturesAreRefused(t *testing.T) {
	s, _ := NewSigner("secret", "")
	forger, _ := NewSigner("guess", "")
	m, _ := NewMessage("execute_request", "sess", nil, map[string]any{"code": "os.Exit(1)"})
	frames, _ := forger.Encode(m)
	if _, err := s.Decode(frames); !errors.Is(err, ErrBadSignature) {
		t.Fatalf("forged signature: %v", err)
	}
	frames, _ = s.Encode(m)
	frames[2] = nil
	if _, err := s.Decode(frames); !errors.Is(err, ErrBadSignature) {
		t.Fatalf("missing signature: %v", err)
	}
	frames, _ = s.Encode(m)
	frames[5] = []byte(`{"code": "tampered"}`)
	if _, err := s.Decode(frames); !errors.Is(err, ErrBadSignature) {
		t.Fatalf("tampered content: %v", err)
	}
	if _, err := s.Decode([][]byte{[]byte("junk")}); err == nil {
		t.Fatal("junk frames decoded")
	}
	if _, err := NewSigner("k", "hmac-md5"); err == nil {
		t.Fatal("hmac-md5 accepted")
	}
}

func TestEndpoint(t *testing.T) {
	for _, c := range []struct {
		conn Connection
		want string
	}{
		{Connection{Transport: "tcp", IP: "127.0.0.1"}, "tcp://127.0.0.1:5"},
		{Connection{Transport: "ipc", IP: "/run/k/gonb"}, "ipc:///run/k/gonb-5"},
	} {
		if got := c.conn.Endpoint(5); got != c.want {
			t.Errorf("Endpoint = %q, want %q", got, c.want)
		}
	}
}

// A client that writes its header's date as a number (seconds since the
// epoch, as jupyter_server 1.23's own websocket client does), or as null,
// is still heard, as ipykernel hears it; the date is kept as written.
func TestHeaderDates(t *testing.T) {
	s, err := NewSigner("secret", "hmac-sha256")
	if err != nil {
		t.Fatal(err)
	}
	for date, want := range map[string]string{`"2026-12-03T10:00:00Z"`: "2026-12-03T10:00:00Z", `1733220000.25`: "1733220000.25", `null`: ""} {
		header := []byte(`{"msg_id": "1", "session": "s", "username": "u", "date": ` + date + `, "msg_type": "kernel_info_request", "version": "5.3"}`)
		parts := [][]byte{header, []byte("{}"), []byte("{}"), []byte("{}")}
		frames := append([][]byte{delimiter, s.sign(parts...)}, parts...)
		m, err := s.Decode(frames)
		if err != nil {
			t.Errorf("date %s: %v", date, err)
			continue
		}
		if string(m.Header.Date) != want || m.Type() != "kernel_info_request" {
			t.Errorf("date %s: header %+v", date, m.Header)
		}
	}
}
