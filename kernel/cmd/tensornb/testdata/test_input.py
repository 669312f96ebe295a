"""A cell's standard input, through jupyter_client, as a front end gives it.

A cell that reads two lines (fmt.Scanln, then a bufio.Scanner over
os.Stdin) sends an input_request for each and gets the lines typed; where
the front end allows no input (allow_stdin False) the cell fails at once
with StdinNotImplementedError, and does not go on as if it had read an
empty line; an interrupt while a cell waits for input ends the cell, and
the next one runs.

Run by kernel/cmd/tensornb/main_test.go once per kernelspec (TENSORNB_KERNEL),
with the kernel installed in a scratch JUPYTER_PATH; by hand:

    TENSORNB_KERNEL=tensornb JUPYTER_PATH=... /usr/bin/python3 -m pytest -q -s kernel/cmd/tensornb/testdata/test_input.py
"""

import os
import queue
import time
import unittest

from jupyter_client.manager import start_new_kernel

KERNEL = os.environ.get("TENSORNB_KERNEL", "tensornb")
TIMEOUT = 120

READS_TWO_LINES = """import (
\t"bufio"
\t"fmt"
\t"os"
)
var word string
fmt.Print("word? ")
fmt.Scanln(&word)
lines := bufio.NewScanner(os.Stdin)
lines.Scan()
fmt.Printf("%s|%s\\n", word, lines.Text())"""

IGNORES_ITS_ERROR = """import "fmt"
var w string
fmt.Scanln(&w)
fmt.Println("went on with", len(w))"""


class Input(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.km, cls.kc = start_new_kernel(kernel_name=KERNEL, startup_timeout=TIMEOUT)

    @classmethod
    def tearDownClass(cls):
        cls.kc.stop_channels()
        cls.km.shutdown_kernel(now=True)

    def run_cell(self, code, answers=(), allow_stdin=True, on_request=None):
        """Runs code, answering its input requests with answers in turn
        (or calling on_request), and returns the reply's content, the
        stdout text, the error message's content and the requests seen."""
        msg_id = self.kc.execute(code, allow_stdin=allow_stdin)
        answers = list(answers)
        stdout, error, requests = "", None, 0
        deadline = time.monotonic() + TIMEOUT
        idle = False
        while not idle:
            self.assertLess(time.monotonic(), deadline, "no idle status for %r on %s" % (code, KERNEL))
            try:
                req = self.kc.get_stdin_msg(timeout=0.05)
                if req["msg_type"] == "input_request":
                    requests += 1
                    if on_request is not None:
                        on_request()
                    elif answers:
                        self.kc.input(answers.pop(0))
            except queue.Empty:
                pass
            try:
                msg = self.kc.get_iopub_msg(timeout=0.05)
            except queue.Empty:
                continue
            if msg["parent_header"].get("msg_id") != msg_id:
                continue
            kind, content = msg["msg_type"], msg["content"]
            if kind == "status" and content["execution_state"] == "idle":
                idle = True
            elif kind == "stream" and content["name"] == "stdout":
                stdout += content["text"]
            elif kind == "error":
                error = content
        reply = self.kc.get_shell_msg(timeout=TIMEOUT)
        while reply["parent_header"].get("msg_id") != msg_id:
            reply = self.kc.get_shell_msg(timeout=TIMEOUT)
        return reply["content"], stdout, error, requests

    def test_reads_two_lines(self):
        reply, stdout, error, requests = self.run_cell(READS_TWO_LINES, answers=["hello", "world wide"])
        self.assertEqual(reply["status"], "ok", error)
        self.assertEqual(requests, 2)
        self.assertEqual(stdout, "word? hello|world wide\n")

    def test_no_stdin_fails_at_once(self):
        start = time.monotonic()
        reply, stdout, error, requests = self.run_cell(IGNORES_ITS_ERROR, allow_stdin=False)
        took = time.monotonic() - start
        print("%s: StdinNotImplementedError after %.2f s" % (KERNEL, took))
        self.assertEqual(reply["status"], "error")
        self.assertEqual(reply["ename"], "StdinNotImplementedError", reply)
        self.assertIn("allow_stdin: false", reply["evalue"])
        self.assertEqual(requests, 0)
        self.assertNotIn("went on", stdout)

    def test_interrupt_ends_the_wait(self):
        reply, stdout, error, requests = self.run_cell(IGNORES_ITS_ERROR, on_request=self.km.interrupt_kernel)
        self.assertEqual(requests, 1)
        self.assertEqual(reply["status"], "error")
        self.assertEqual(reply["ename"], "Interrupted", reply)
        self.assertNotIn("went on", stdout)
        reply, stdout, error, requests = self.run_cell('fmt.Println("next")')
        self.assertEqual(reply["status"], "ok", error)
        self.assertEqual(stdout, "next\n")


if __name__ == "__main__":
    unittest.main()
