"""A real headless Chromium driven over the DevTools protocol on a pipe
(``--remote-debugging-pipe``: commands on fd 3, answers and events on fd 4, each a JSON text
ended by a NUL byte), so a test
can load a page, click it as a person would and look at what is drawn, with no package beyond
the standard library.  Debian's ``chromium`` (``make chromium`` installs it)."""

from __future__ import annotations

import base64
import contextlib
import json
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from types import TracebackType
from typing import Any

FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
)


def chromium_binary() -> str:
    """``$CHROMIUM``, else the first of chromium, chromium-browser, google-chrome on PATH."""
    for name in (os.environ.get("CHROMIUM", ""), "chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name) if name else None
        if found:
            return found
    raise RuntimeError("Chromium is not installed: `make chromium` (apt-get install chromium)")


class Browser:
    """One headless Chromium with an empty profile, one page attached."""

    def __init__(self, width: int = 1280, height: int = 1000) -> None:
        self._profile = tempfile.TemporaryDirectory(prefix="touchstone-chromium-")
        to_chrome_r, self._to_chrome = os.pipe()
        self._from_chrome, from_chrome_w = os.pipe()
        os.set_inheritable(to_chrome_r, True)
        os.set_inheritable(from_chrome_w, True)

        def place() -> None:
            # The child's fds 3 and 4 must be the two pipe ends (either may be 3 or 4 already).
            read_end, write_end = os.dup(to_chrome_r), os.dup(from_chrome_w)
            os.dup2(read_end, 3)
            os.dup2(write_end, 4)

        self.proc = subprocess.Popen(
            [
                chromium_binary(),
                *FLAGS,
                f"--user-data-dir={self._profile.name}",
                "--remote-debugging-pipe",
                f"--window-size={width},{height}",
                "about:blank",
            ],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            preexec_fn=place,  # noqa: PLW1509  (two dup2 calls, no thread started yet)
            pass_fds=(3, 4),  # kept open through exec once place() has set them
            start_new_session=True,
        )
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        self._buffer = b""
        self._next_id = 0
        self.events: list[dict[str, Any]] = []
        self.session = ""
        targets = self.call("Target.getTargets")["targetInfos"]
        page = next(t for t in targets if t["type"] == "page")
        attached = self.call("Target.attachToTarget", targetId=page["targetId"], flatten=True)
        self.session = attached["sessionId"]
        self.call("Page.enable")
        self.call("Runtime.enable")

    def __enter__(self) -> Browser:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def close(self) -> None:
        """End Chromium and everything it started; remove its profile."""
        with contextlib.suppress(OSError):
            os.killpg(self.proc.pid, 9)
        self.proc.wait(timeout=20)
        for fd in (self._to_chrome, self._from_chrome):
            with contextlib.suppress(OSError):
                os.close(fd)
        self._profile.cleanup()

    def _send(self, message: dict[str, Any]) -> None:
        os.write(self._to_chrome, json.dumps(message).encode() + b"\0")

    def _receive(self, deadline: float) -> dict[str, Any]:
        while b"\0" not in self._buffer:
            if time.monotonic() > deadline:
                raise TimeoutError("Chromium did not answer in time")
            chunk = os.read(self._from_chrome, 1 << 20)
            if not chunk:
                raise RuntimeError("Chromium closed its DevTools pipe")
            self._buffer += chunk
        raw, self._buffer = self._buffer.split(b"\0", 1)
        message: dict[str, Any] = json.loads(raw)
        return message

    def call(self, method: str, timeout: float = 30, **params: Any) -> dict[str, Any]:
        """Send one DevTools command to the page (or the browser before a page is attached)
        and return its result; events that arrive meanwhile are kept in :attr:`events`."""
        self._next_id += 1
        message: dict[str, Any] = {"id": self._next_id, "method": method, "params": params}
        if self.session:
            message["sessionId"] = self.session
        self._send(message)
        deadline = time.monotonic() + timeout
        while True:
            answer = self._receive(deadline)
            if answer.get("id") == self._next_id:
                if "error" in answer:
                    raise RuntimeError(f"{method}: {answer['error']}")
                result: dict[str, Any] = answer["result"]
                return result
            self.events.append(answer)

    def open(self, path: Path, timeout: float = 30) -> None:
        """Load a local file and wait for its load event."""
        self.events.clear()
        self.call("Page.navigate", url=path.resolve().as_uri())
        deadline = time.monotonic() + timeout
        while not any(e.get("method") == "Page.loadEventFired" for e in self.events):
            self.events.append(self._receive(deadline))

    def js(self, expression: str) -> Any:
        """The value of a JavaScript expression in the page."""
        out = self.call("Runtime.evaluate", expression=expression, returnByValue=True)
        if "exceptionDetails" in out:
            raise RuntimeError(f"{expression}: {out['exceptionDetails']}")
        return out["result"].get("value")

    def click(self, selector: str) -> None:
        """Scroll the element into view and click its centre with the mouse, as a person does."""
        box = self.js(
            f"(() => {{ const e = document.querySelector({json.dumps(selector)});"
            " e.scrollIntoView({block: 'center'}); const r = e.getBoundingClientRect();"
            " return [r.x + Math.min(r.width / 2, 40), r.y + r.height / 2]; })()"
        )
        x, y = box
        for kind in ("mousePressed", "mouseReleased"):
            self.call("Input.dispatchMouseEvent", type=kind, x=x, y=y, button="left", clickCount=1)

    def screenshot(self, path: Path, *, full_page: bool = False) -> bytes:
        """A PNG of the viewport (or the whole page), written to ``path`` and returned."""
        params: dict[str, Any] = {"format": "png"}
        if full_page:
            params["captureBeyondViewport"] = True
        data = base64.b64decode(self.call("Page.captureScreenshot", **params)["data"])
        path.write_bytes(data)
        return data
