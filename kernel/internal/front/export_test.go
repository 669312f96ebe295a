//go:build !js

package front

import "time"

// The tests wait minutes for an answer (hangAfter), so that a loaded
// machine under the race detector, slow to answer, is not taken for a
// kernel locked out. A handshake timeout longer than that wait keeps
// their check as sharp as a short wait was: a kernel that served no one
// while a connection sat idle, until libzmq dropped it, would hang rather
// than answer late.
func init() { handshakeTimeout = time.Hour }
