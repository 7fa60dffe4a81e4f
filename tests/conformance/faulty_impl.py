"""A harness for the runner's fault tests: the reference, with one fault at one ``seq`` (env vars).

``TS_FAULT``: ``crash`` (a line on stderr, then exit 3), ``stall`` (sleep), ``garbage`` (a line
that is not JSON), ``wrong-seq`` (an answer to another seq), ``long`` (a 5,000-byte line) or
``start-differs`` (every process started after the first announces one operation less); it may
name several, comma separated (``crash,start-differs``: the restarted process announces
differently).  ``TS_FAULT_SEQ``: the seq it strikes at (``all``: every case); ``TS_PID_FILE``: a
file each process appends its pid to; ``TS_START_FILE``: the marker ``start-differs`` creates.
Run as ``python tests/conformance/faulty_impl.py``.
"""

from __future__ import annotations

import os
import sys
import time

from mcp_touchstone import serde_json
from mcp_touchstone.harness._registry import reference_operations
from mcp_touchstone.harness._server import _encode, answer


def main() -> int:
    """Serve the reference on stdin/stdout, with the fault the environment asks for."""
    faults = set(os.environ.get("TS_FAULT", "").split(","))
    fault = min(faults - {"start-differs"}, default="")
    every = os.environ.get("TS_FAULT_SEQ") == "all"
    at = -1 if every else int(os.environ.get("TS_FAULT_SEQ", "-1"))
    if pid_file := os.environ.get("TS_PID_FILE"):
        with open(pid_file, "a", encoding="utf-8") as f:
            f.write(f"{os.getpid()}\n")
    ops = dict(reference_operations())
    if "start-differs" in faults:
        try:
            os.close(os.open(os.environ["TS_START_FILE"], os.O_CREAT | os.O_EXCL))
        except FileExistsError:
            ops.pop(sorted(ops)[0])
    out = sys.stdout.buffer
    for line in sys.stdin.buffer:
        request = serde_json.from_str(line)
        seq = request.get("seq") if isinstance(request, dict) else None
        is_run = isinstance(request, dict) and request.get("cmd") == "run"
        if is_run and (every or seq == at):
            if fault == "crash":
                sys.stderr.write(f"boom at seq {seq}\n")
                sys.stderr.flush()
                os._exit(3)
            if fault == "stall":
                time.sleep(600)
            if fault in {"garbage", "wrong-seq", "long"}:
                text = {"garbage": b"not json", "wrong-seq": b'{"seq":-5,"output":{}}'}
                out.write(text.get(fault, b"x" * 5000) + b"\n")
                out.flush()
                continue
        response = answer(line.rstrip(b"\r\n"), ops)
        if response is None:
            break
        out.write(_encode(response))
        out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
