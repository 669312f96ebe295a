package wire

import (
	"encoding/json"
	"fmt"
	"os"
)

// A Connection is what a kernel's connection file says: where its five
// sockets listen and the key its messages are signed with.
type Connection struct {
	Transport       string `json:"transport"`
	IP              string `json:"ip"`
	ShellPort       int    `json:"shell_port"`
	ControlPort     int    `json:"control_port"`
	StdinPort       int    `json:"stdin_port"`
	IOPubPort       int    `json:"iopub_port"`
	HBPort          int    `json:"hb_port"`
	Key             string `json:"key"`
	SignatureScheme string `json:"signature_scheme"`
	KernelName      string `json:"kernel_name,omitempty"`
}

// ReadConnection reads a connection file.
func ReadConnection(path string) (*Connection, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading the connection file: %w", err)
	}
	var c Connection
	if err := json.Unmarshal(data, &c); err != nil {
		return nil, fmt.Errorf("connection file %s: %w", path, err)
	}
	if c.Transport == "" {
		c.Transport = "tcp"
	}
	return &c, nil
}

// Endpoint returns the ZeroMQ address of a port: tcp://127.0.0.1:5555;
// or, for the ipc transport, whose IP is a path, the Unix socket
// ipc:///that/path-5555, as Jupyter names it.
func (c *Connection) Endpoint(port int) string {
	if c.Transport == "ipc" {
		return fmt.Sprintf("ipc://%s-%d", c.IP, port)
	}
	return fmt.Sprintf("%s://%s:%d", c.Transport, c.IP, port)
}

// Signer returns a Signer for the connection's key and scheme.
func (c *Connection) Signer() (*Signer, error) { return NewSigner(c.Key, c.SignatureScheme) }
