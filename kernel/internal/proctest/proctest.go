// Package proctest finds the processes a test started, however far they
// went: a test puts a mark of its own in the environment of what it
// starts, every descendant inherits it, and the helpers look for it in
// /proc/PID/environ. Linux only; elsewhere the tests that use it do not
// build.
package proctest
