"""A harness for the runner's process tests: an implementation that does not end when asked, or
leaves a process behind that escaped its process group (env vars).

``TS_ESCAPE``: ``setsid`` (a child that calls ``setsid()`` and sleeps, its parent the harness) or
``orphan`` (the same child, double-forked: its parent has exited, so it is nobody's child but
init's, or a subreaper's); its pid is written to ``TS_ESCAPE_FILE``, after which the process
becomes the reference harness (``touchstone harness``).
``TS_UNRULY``: ``ignore-stop`` (answers ``start`` announcing ``json.to_string`` and every case
with ``skipped``, then ignores ``stop`` and the end of its input: it sleeps, writing
``TS_MARK_FILE`` when ``stop`` arrives) or ``stall`` (answers ``start``, then never answers a
case).  Every process appends its pid to ``TS_PID_FILE`` when that is set.
Run as ``python tests/conformance/unruly_impl.py``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

START = {
    "version": 1,
    "implementation": {"name": "unruly", "version": "1", "language": "python"},
    "operations": ["json.to_string"],
}
SLEEPER = "import time; time.sleep(120)"


def _escape(how: str, pid_file: str) -> None:
    if how == "setsid":
        child = subprocess.Popen(  # setsid() in the child: a session and group of its own.
            [sys.executable, "-c", SLEEPER], start_new_session=True
        )
        pid = child.pid
    else:
        read, write = os.pipe()
        if os.fork() == 0:  # The intermediate: starts the sleeper, reports it, exits.
            os.close(read)
            child = subprocess.Popen([sys.executable, "-c", SLEEPER], start_new_session=True)
            os.write(write, str(child.pid).encode())
            os._exit(0)
        os.close(write)
        pid = int(os.read(read, 64))
        os.wait()
    with open(pid_file, "w", encoding="utf-8") as f:
        f.write(str(pid))


def main() -> int:
    if pid_file := os.environ.get("TS_PID_FILE"):
        with open(pid_file, "a", encoding="utf-8") as f:
            f.write(f"{os.getpid()}\n")
    if how := os.environ.get("TS_ESCAPE"):
        _escape(how, os.environ["TS_ESCAPE_FILE"])
        os.execv(sys.executable, [sys.executable, "-m", "mcp_touchstone", "harness"])
    mode = os.environ.get("TS_UNRULY", "")
    for line in sys.stdin:
        request = json.loads(line)
        if request.get("cmd") == "start":
            answer: dict[str, object] = START
        elif request.get("cmd") == "stop":
            with open(os.environ["TS_MARK_FILE"], "w", encoding="utf-8") as f:
                f.write("stop")
            break
        elif mode == "stall":
            time.sleep(600)
            continue
        else:
            answer = {"seq": request["seq"], "skipped": True, "message": "not here"}
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()
    time.sleep(600)  # Asked to stop, or its input closed: it stays.
    return 0


if __name__ == "__main__":
    sys.exit(main())
