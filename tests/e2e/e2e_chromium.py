"""What the browser test modules share: Debian's Chromium, its flags, a free port, the server, a wait.

Not a ``conftest.py``: with no ``__init__`` files a second module of that name would shadow
``tests/conftest.py``, whose helpers tests import by name.
"""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

#: Playwright cannot download its own browser here; it drives Debian's.
CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]

#: Marks for a browser test module. Without the browser the tests fail (a green run that skipped
#: the browser is not green): ``make test`` installs it, or stops and says how.
MARKS = [pytest.mark.browser]


def require_chromium() -> None:
    if not CHROMIUM.exists():
        pytest.fail("the browser tests need Debian's chromium at /usr/bin/chromium: run `make test` as root "
                    "(it installs it) or `apt-get install chromium`", pytrace=False)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def launch(sync_api: Any) -> Iterator[Any]:
    """One Chromium for a module's tests (the body of a module-scoped fixture)."""
    require_chromium()
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield b
        b.close()


def wait_until(page: Any, expression: str, timeout: float = 30.0) -> None:
    """Wait until a JavaScript expression is true in the page.

    Not ``page.wait_for_function``: under the pages' Content-Security-Policy (no 'unsafe-eval')
    Playwright cannot compile a string predicate in the page after its first try, while
    ``page.evaluate`` (the DevTools protocol's own evaluation) is allowed.
    """
    end = time.monotonic() + timeout
    while not page.evaluate(expression):
        if time.monotonic() > end:
            raise AssertionError(f"{expression!r} still false after {timeout} s")
        page.wait_for_timeout(20)


def start_server(port: int, db: Path, deals: list[dict[str, str]] | None = None) -> subprocess.Popen[bytes]:
    """``ginrummy serve`` on a loopback port, returned once it answers; with ``deals``, the app
    dealing those fixed hands instead (``fixed_deck_server.py``)."""
    cmd = [sys.executable, "-m", "ginrummy.cli", "serve", "--port", str(port), "--db", str(db)]
    cmd += ["--computer-delay", "0.05", "--compute", "thread"]
    if deals is not None:
        cmd = [sys.executable, str(Path(__file__).with_name("fixed_deck_server.py")), str(port), str(db), json.dumps(deals)]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    for _ in range(300):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/options", timeout=1).read()
            return proc
        except OSError:
            if proc.poll() is not None:
                raise RuntimeError("server died: " + (proc.stderr.read().decode() if proc.stderr else "")) from None
            time.sleep(0.05)
    proc.kill()
    raise RuntimeError("server did not start")


def serve(tmp_path_factory: pytest.TempPathFactory, name: str) -> Iterator[str]:
    """A module's server (the body of a module-scoped ``server`` fixture): its own database file,
    a free port, stopped when the module is done."""
    port = free_port()
    proc = start_server(port, tmp_path_factory.mktemp(name) / f"{name}.sqlite3")
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        proc.terminate()
        proc.wait(10)
