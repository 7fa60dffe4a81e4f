"""A stdio MCP server that will not end (``python -m tests.audit._stubborn_server PIDFILE``): it
ignores SIGTERM and the end of its input, and starts a child that leaves its process group
with ``setsid()``; both pids go to PIDFILE.  For AUDIT-WIRE-2's escalation."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time

from tests.audit._faulty_http import answer

if __name__ == "__main__":
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    child = subprocess.Popen(
        [sys.executable, "-c", "import time; time.sleep(120)"], start_new_session=True
    )
    with open(sys.argv[1], "w", encoding="utf-8") as f:
        f.write(f"{__import__('os').getpid()} {child.pid}\n")
    for line in sys.stdin:
        request = json.loads(line)
        if "id" in request:
            print(json.dumps(answer(request.get("method", ""), request["id"])), flush=True)
    while True:
        time.sleep(1)
