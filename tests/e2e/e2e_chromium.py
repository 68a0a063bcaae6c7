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


#: Quick deals (``serve(..., deals=QUICK_DEALS)``) for tests whose point is not the play (a friend's
#: link, the Hollywood sheet), whoever the seats are, person or computer: at each table the player
#: dealt first knocks, or goes gin, at their first discard. The first two hands (a deal of three
#: players' games, the first deal of four) are knocks won by 4 points, under every target used, so a
#: game has a second deal and its "Next hand"; then in turn a gin and a knock against a hand of no
#: melds (at the two tables of a four-player deal one team always scores more).
MELDED = "As 2s 3s 4h 5h 6h 7c 8c 9c"
CLOSE = "Kd Qd Jd Th Tc Ts 5s 5d 5c 6d"  # 6 deadwood, nothing to lay off on MELDED
JUNK = "Kc Qd Jh Ts 9h 8d 6s 5c 3d Kh"  # no meld, nothing to lay off on MELDED
QUICK_DEALS = [
    {"first": MELDED + " 2d", "second": CLOSE, "upcard": "Qc", "stock": "Js"},  # a knock with 2 against 6
    {"first": MELDED + " 2d", "second": CLOSE, "upcard": "Qc", "stock": "Js"},
    *[{"first": MELDED + (" Tc" if i % 2 == 0 else " 2d"), "second": JUNK, "upcard": "Qc", "stock": "Js"}
      for i in range(60)],  # a gin, then a knock with 2 against 81
]


def serve(tmp_path_factory: pytest.TempPathFactory, name: str, deals: list[dict[str, str]] | None = None) -> Iterator[str]:
    """A module's server (the body of a module-scoped ``server`` fixture): its own database file,
    a free port, stopped when the module is done; with ``deals``, dealing those (``start_server``)."""
    port = free_port()
    proc = start_server(port, tmp_path_factory.mktemp(name) / f"{name}.sqlite3", deals)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        proc.terminate()
        proc.wait(10)
