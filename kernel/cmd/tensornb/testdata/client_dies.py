"""A Jupyter client that dies without shutting its kernel down.

Run by TestKernelEndsWithItsClient (parent_linux_test.go): it starts the
kernelspec named by its first argument with jupyter_client's
KernelManager, which tells the kernel its pid in JPY_PARENT_PID, runs the
cells given as the other arguments, in turn, prints one line of JSON with
the kernel's pid and the last reply's status (the first that is not ok),
and then waits for the test to kill it with SIGKILL.
"""

import json
import sys
import time

from jupyter_client.manager import KernelManager


def main():
    name, cells = sys.argv[1], sys.argv[2:]
    manager = KernelManager(kernel_name=name)
    manager.start_kernel()
    client = manager.client()
    client.start_channels()
    client.wait_for_ready(timeout=120)
    status = "ok"
    for code in cells:
        sent = client.execute(code)
        while True:
            reply = client.get_shell_msg(timeout=300)
            if reply["parent_header"].get("msg_id") == sent:
                break
        status = reply["content"]["status"]
        if status != "ok":
            break
    print(json.dumps({"pid": manager.provisioner.pid, "status": status}), flush=True)
    while True:
        time.sleep(60)


if __name__ == "__main__":
    main()
