"""Output at its limits, against a real kernel through jupyter_client.

A cell that prints 64 MiB gets all of it to the client, in order, and
ends. A cell that prints without end is cut at the kernel's output limit
(TENSORNB_OUTPUT_LIMIT, 16 MiB here) with a notice, goes on running until
interrupted, then says how much was dropped; meanwhile a client that reads
slowly keeps the kernel's memory bounded. The kernel's resident memory is
sampled and printed (it is memory, not time, that is checked).

Run by kernel/cmd/tensornb/main_test.go once per kernelspec (TENSORNB_KERNEL), with
the kernel installed in a scratch JUPYTER_PATH; by hand:

    TENSORNB_KERNEL=tensornb JUPYTER_PATH=... /usr/bin/python3 -m pytest -q -s kernel/cmd/tensornb/testdata/test_output.py
"""

import os
import queue
import time
import unittest

from jupyter_client.manager import start_new_kernel

KERNEL = os.environ.get("TENSORNB_KERNEL", "tensornb")
TIMEOUT = 300
MIB = 1 << 20
LIMIT_MIB = 16
RSS_BOUND = 300 * MIB  # the bound on the kernel process


def rss(pid):
    """The resident memory of process pid, in bytes (0 if it is gone)."""
    try:
        with open("/proc/%d/status" % pid) as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def kernel_pid(km):
    """The pid of the kernel process the manager started."""
    process = getattr(getattr(km, "provisioner", None), "process", None) or getattr(km, "kernel", None)
    return process.pid


class Output(unittest.TestCase):
    def start(self, **env):
        km, kc = start_new_kernel(kernel_name=KERNEL, startup_timeout=120, env={**os.environ, **env})
        self.addCleanup(km.shutdown_kernel, now=True)
        self.addCleanup(kc.stop_channels)
        return km, kc

    def test_64_mib_arrive_whole(self):
        km, kc = self.start()
        code = ('import ("os"; "strings")\n'
                'line := strings.Repeat("x", 1023) + "\\n"\n'
                "for i := 0; i < 65536; i++ {\n"
                "\tos.Stdout.WriteString(line)\n"
                "}")
        msg_id = kc.execute(code)
        stdout, lines, most = 0, 0, 0
        pid = kernel_pid(km)
        while True:
            try:
                msg = kc.get_iopub_msg(timeout=TIMEOUT)
            except queue.Empty:
                self.fail("no idle status within %d s, after %d bytes of stdout" % (TIMEOUT, stdout))
            if msg["parent_header"].get("msg_id") != msg_id:
                continue
            kind, content = msg["msg_type"], msg["content"]
            if kind == "stream":
                self.assertEqual(content["name"], "stdout", content["text"][:300])
                stdout += len(content["text"])
                lines += content["text"].count("\n")
                most = max(most, rss(pid))
            elif kind == "error":
                self.fail("the cell failed: %s" % content["evalue"])
            elif kind == "status" and content["execution_state"] == "idle":
                break
        print("\n%s: 64 MiB printed, %d bytes in %d lines arrived; kernel RSS at most %.0f MiB" % (KERNEL, stdout, lines, most / MIB))
        self.assertEqual(stdout, 64 * MIB)
        self.assertEqual(lines, 65536)

    def test_endless_output_is_cut_with_a_notice(self):
        km, kc = self.start(TENSORNB_OUTPUT_LIMIT=str(LIMIT_MIB))
        pid = kernel_pid(km)
        code = ('import ("fmt"; "strings")\n'
                'line := strings.Repeat("y", 1000)\n'
                "for i := 0; ; i++ {\n"
                "\tfmt.Println(line, i)\n"
                "}")
        msg_id = kc.execute(code)
        stdout, stderr, most, cut_at, interrupted = 0, "", 0, None, False
        deadline = time.time() + TIMEOUT
        while True:
            self.assertLess(time.time(), deadline, "no end within %d s (stderr: %r)" % (TIMEOUT, stderr))
            try:
                msg = kc.get_iopub_msg(timeout=5)
            except queue.Empty:
                msg = None
            most = max(most, rss(pid))
            if cut_at is not None and not interrupted and time.time() > cut_at + 5:
                km.interrupt_kernel()  # after 5 s of output dropped, as a user would
                interrupted = True
            if msg is None or msg["parent_header"].get("msg_id") != msg_id:
                continue
            kind, content = msg["msg_type"], msg["content"]
            if kind == "stream" and content["name"] == "stdout":
                stdout += len(content["text"])
                time.sleep(0.002)  # a slow client
            elif kind == "stream":
                stderr += content["text"]
                if cut_at is None and "dropped" in content["text"]:
                    cut_at = time.time()
            elif kind == "status" and content["execution_state"] == "idle":
                break
        print("\n%s: endless output cut after %d bytes; kernel RSS at most %.0f MiB; notices: %r" % (KERNEL, stdout, most / MIB, stderr))
        self.assertLessEqual(stdout, LIMIT_MIB * MIB)
        self.assertGreater(stdout, LIMIT_MIB * MIB - 2000)
        self.assertIn("TENSORNB_OUTPUT_LIMIT", stderr)
        self.assertIn("of this cell's output was dropped", stderr)
        self.assertLessEqual(most, RSS_BOUND, "the kernel's memory grew past %d MiB" % (RSS_BOUND // MIB))


if __name__ == "__main__":
    unittest.main()
