"""The tensornb kernel against jupyter_kernel_test, the Jupyter project's
conformance suite, plus the checks the issue adds: a panic is one error, an
interrupted infinite loop recovers (and, on the instant engine, the state
of the cells before it survives), a forged message is not run, 10 MB of
output arrive whole, and 200 quick executes leave the kernel healthy.

Run by kernel/cmd/tensornb/main_test.go, once per kernelspec (TENSORNB_KERNEL:
tensornb, the instant engine, or tensornb-compiled, GoNB), with the kernel
installed in a scratch JUPYTER_PATH; by hand:

    TENSORNB_KERNEL=tensornb JUPYTER_PATH=... /usr/bin/python3 -m pytest -q kernel/cmd/tensornb/testdata/test_conformance.py
"""

import os
import queue
import time
import unittest

import jupyter_kernel_test
from jupyter_client.session import Session
from jupyter_client.utils import run_sync

TIMEOUT = 120  # a hang, not a speed check

# The compiled kernelspec answers completions and inspections once GoNB is
# connected to gopls: GoNB v0.11.4 connects 12 s after it starts, with the
# kernel, and the kernel answers those asked before at once, with nothing
# (goplsConnects in kernel/internal/gonb/engine.go, 14 s after GoNB's
# start). The tests of them wait this long after the kernel started.
GOPLS_CONNECTED = 16


class TensornbKernelTests(jupyter_kernel_test.KernelTests):
    kernel_name = os.environ.get("TENSORNB_KERNEL", "tensornb")
    language_name = "go"
    file_extension = ".go"

    code_hello_world = 'fmt.Println("hello, world")'
    code_stderr = 'fmt.Fprintln(os.Stderr, "careful")'

    completion_samples = [{"text": "fmt.Sprintl", "matches": {"Sprintln"}}]
    complete_code_samples = ["x := 1", 'fmt.Println("a")', "func f() {}"]
    incomplete_code_samples = ["for i := 0; i < 3; i++ {", "fmt.Println(", "x := []int{1,"]
    invalid_code_samples = ["x := )", "}"]

    code_generate_error = 'panic("boom")'
    code_execute_result = [
        {"code": "1 + 2", "result": "3"},
        {"code": 'x := "tensor"\nx', "result": '"tensor"'},
        {"code": "tensor.Float32.Arange(24).View(2, 3, 4).Strides()", "result": "(12, 4, 1)"},
    ]
    code_display_data = [
        {"code": 'display.Show(display.Bundle{"text/html": "<b>hi</b>", "text/plain": "hi"})', "mime": "text/html"},
        {"code": "display.Show(display.Strip(tensor.Arange(6).Index(\"1::2\")))", "mime": "image/svg+xml"},
    ]
    code_history_pattern = "1 + *"
    supported_history_operations = ("tail", "range", "search")
    code_inspect_sample = "fmt.Println"

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.started = time.monotonic()

    def wait_for_gopls(self):
        if self.kernel_name == "tensornb-compiled":
            time.sleep(max(0.0, self.started + GOPLS_CONNECTED - time.monotonic()))

    def test_completion(self):
        self.wait_for_gopls()
        super().test_completion()

    def test_inspect(self):
        self.wait_for_gopls()
        super().test_inspect()

    def flush_channels(self):
        """Drains the shell and iopub channels, checking each message
        against the messaging spec, as the suite's own flush does, but for
        the iopub_welcome the kernel publishes to each new subscriber
        (protocol 5.5, JEP 65): Debian's jupyter_kernel_test 0.4.5 has no
        schema for it and fails on it, and later versions skip it. Here its
        content is checked and it is skipped. jupyter_client's start
        usually takes it; it is left for this flush when the subscription
        arrived while the kernel answered the first kernel_info_request."""
        for channel in (self.kc.shell_channel, self.kc.iopub_channel):
            while True:
                try:
                    msg = run_sync(channel.get_msg)(timeout=0.1)
                except queue.Empty:
                    break
                if msg["msg_type"] == "iopub_welcome":
                    self.assertEqual(msg["content"], {"subscription": ""})
                    continue
                jupyter_kernel_test.validate_message(msg)

    def execute_helper(self, code, timeout=TIMEOUT, silent=False, store_history=True, stop_on_error=True):
        """Runs code and returns its execute_reply and the iopub messages
        between its busy and idle status, checking each against the
        messaging spec as the suite's own helper does. The suite gives each
        iopub message after the reply a tenth of a second to arrive: on a
        shared machine under load, with the race detector's tests beside
        it, the idle status after the reply has come later than that
        (CI failed so), and the protocol sets no such bound. Here each
        message has the whole timeout."""
        msg_id = self.kc.execute(code=code, silent=silent, store_history=store_history, stop_on_error=stop_on_error)
        reply = self.get_non_kernel_info_reply(timeout=timeout)
        jupyter_kernel_test.validate_message(reply, "execute_reply", msg_id)
        busy = self.kc.get_iopub_msg(timeout=timeout)
        jupyter_kernel_test.validate_message(busy, "status", msg_id)
        self.assertEqual(busy["content"]["execution_state"], "busy")
        outputs = []
        while True:
            msg = self.kc.get_iopub_msg(timeout=timeout)
            kind = msg["msg_type"]
            jupyter_kernel_test.validate_message(msg, kind, msg_id)
            if kind == "status":
                self.assertEqual(msg["content"]["execution_state"], "idle")
                return reply, outputs
            if kind == "execute_input":
                self.assertEqual(msg["content"]["code"], code)
            else:
                outputs.append(msg)

    def test_panic_is_one_error(self):
        self.flush_channels()
        reply, outputs = self.execute_helper('var s []int\n_ = s[3]')
        self.assertEqual(reply["content"]["status"], "error")
        self.assertEqual([m["msg_type"] for m in outputs], ["error"])
        content = outputs[0]["content"]
        self.assertEqual(content["ename"], "panic")
        self.assertIn("index out of range", content["evalue"])
        self.assertIn("cell line 2", "\n".join(content["traceback"]))

    def test_compile_error_names_the_cell_line(self):
        self.flush_channels()
        reply, outputs = self.execute_helper('fmt.Println(1)\nvar y int = "a"')
        self.assertEqual(reply["content"]["status"], "error")
        self.assertEqual([m["msg_type"] for m in outputs], ["error"])
        self.assertEqual(outputs[0]["content"]["ename"], "CompileError")
        self.assertEqual(outputs[0]["content"]["evalue"],
                         'cell line 2: cannot use "a" (untyped string constant) as int value in variable declaration')

    def test_interrupt_recovers(self):
        self.flush_channels()
        self.execute_helper("fmt.Println(0)")  # the build is warm
        msg_id = self.kc.execute("for {\n}")
        time.sleep(3)
        start = time.time()
        self.km.interrupt_kernel()
        while True:
            reply = self.kc.get_shell_msg(timeout=TIMEOUT)
            if reply["parent_header"].get("msg_id") == msg_id:
                break
        # How soon is logged, not asserted: a loaded machine may be slow;
        # a hang fails at TIMEOUT, and scripts/latency measures speed.
        print("%s: the interrupt ended the cell in %.2f s" % (self.kernel_name, time.time() - start))
        self.assertEqual(reply["content"]["status"], "error")
        self.assertEqual(reply["content"]["ename"], "Interrupted")
        self.flush_channels()
        reply, outputs = self.execute_helper('fmt.Println("after")')
        self.assertEqual(reply["content"]["status"], "ok")
        self.assertEqual(outputs[-1]["content"]["text"], "after\n")

    def test_interrupt_keeps_state(self):
        if self.kernel_name != "tensornb":
            raise unittest.SkipTest("the compiled kernelspec keeps no values from cell to cell")
        self.flush_channels()
        reply, _ = self.execute_helper("kept_x := 1")
        self.assertEqual(reply["content"]["status"], "ok")
        reply, _ = self.execute_helper("kept_x++")
        self.assertEqual(reply["content"]["status"], "ok")
        msg_id = self.kc.execute("for {\n}")
        time.sleep(3)
        self.km.interrupt_kernel()
        while True:
            reply = self.kc.get_shell_msg(timeout=TIMEOUT)
            if reply["parent_header"].get("msg_id") == msg_id:
                break
        self.assertEqual(reply["content"]["ename"], "Interrupted")
        self.flush_channels()
        reply, outputs = self.execute_helper("kept_x")
        self.assertEqual(reply["content"]["status"], "ok")
        stderr = "".join(m["content"]["text"] for m in outputs
                         if m["msg_type"] == "stream" and m["content"]["name"] == "stderr")
        self.assertIn("Replaying", stderr)
        self.assertIn("done in", stderr)
        self.assertEqual(outputs[-1]["content"]["data"]["text/plain"], "2")

    def test_gonb_magic(self):
        if self.kernel_name != "tensornb":
            raise unittest.SkipTest("%%gonb belongs to the instant engine's kernelspec")
        self.flush_channels()
        reply, _ = self.execute_helper("var kept = 41")
        self.assertEqual(reply["content"]["status"], "ok")
        reply, outputs = self.execute_helper('%%gonb\nfmt.Println("compiled", 1+1)')
        self.assertEqual(reply["content"]["status"], "ok")
        self.assertEqual(outputs[-1]["content"]["text"], "compiled 2\n")
        reply, outputs = self.execute_helper("%%gonb\nfmt.Println(kept)")
        self.assertEqual(reply["content"]["status"], "error")  # GoNB does not see interpreted state
        self.assertIn("undefined: kept", outputs[-1]["content"]["evalue"])
        reply, outputs = self.execute_helper("kept + 1")
        self.assertEqual(reply["content"]["status"], "ok")
        self.assertEqual(outputs[-1]["content"]["data"]["text/plain"], "42")

    def test_forged_message_is_not_executed(self):
        self.flush_channels()
        forger = Session(key=b"not-the-key", session=self.kc.session.session)
        msg = forger.msg("execute_request", {"code": 'fmt.Println("forged")', "silent": False,
                                             "store_history": True, "user_expressions": {},
                                             "allow_stdin": False, "stop_on_error": True})
        forger.send(self.kc.shell_channel.socket, msg)
        time.sleep(2)
        reply, outputs = self.execute_helper('fmt.Println("real")')
        self.assertEqual(reply["content"]["status"], "ok")
        texts = "".join(m["content"].get("text", "") for m in outputs)
        self.assertNotIn("forged", texts)
        self.assertIn("real", texts)

    def test_ten_megabytes_arrive_whole(self):
        self.flush_channels()
        reply, outputs = self.execute_helper('fmt.Print(strings.Repeat("x", 10_000_000))', timeout=120)
        self.assertEqual(reply["content"]["status"], "ok")
        text = "".join(m["content"]["text"] for m in outputs if m["msg_type"] == "stream")
        self.assertEqual(len(text), 10_000_000)

    def test_many_quick_executes(self):
        # 200 cells in a row, each answered before the next is sent, test
        # the front (counts, replies, sockets), which both kernelspecs
        # share; on the compiled one each cell is a go build of 2 to 3 s,
        # so 20 cells there test that GoNB's engine takes a run of them.
        self.flush_channels()
        for i in range(20 if self.kernel_name == "tensornb-compiled" else 200):
            reply, _ = self.execute_helper("x := %d\n_ = x" % i, timeout=TIMEOUT, store_history=False)
            self.assertEqual(reply["content"]["status"], "ok")
        self.kc.kernel_info()
        reply = self.kc.get_shell_msg(timeout=TIMEOUT)
        self.assertEqual(reply["content"]["status"], "ok")


if __name__ == "__main__":
    unittest.main()
