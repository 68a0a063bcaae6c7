"""Real app instances for the cluster tests: ``ginrummy serve`` processes (uvicorn) on free loopback
ports sharing one PostgreSQL database, and seat WebSockets that play with the scripted person."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from websockets.sync.client import ClientConnection, connect

from ginrummy.web import autoplay

SRC = Path(__file__).resolve().parents[1] / "src"
FIXED_DECK_SERVER = Path(__file__).resolve().parent / "e2e" / "fixed_deck_server.py"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_port(port: int, proc: subprocess.Popen[bytes] | None = None, timeout: float = 30) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if proc is not None and proc.poll() is not None:
            raise AssertionError(f"the server on port {port} exited with {proc.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.05)
    raise AssertionError(f"nothing listens on port {port} after {timeout} s")


@dataclass
class Instance:
    """One ``ginrummy serve`` process; its log (stderr) is kept in a file."""

    port: int
    proc: subprocess.Popen[bytes]
    log: Path

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def ws(self, game_id: str) -> str:
        return f"ws://127.0.0.1:{self.port}/api/ws/{game_id}"

    def log_text(self) -> str:
        return self.log.read_text(errors="replace")

    def kill(self) -> None:
        """SIGKILL: no shutdown of any kind (its computer workers are threads and die with it)."""
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()


def spawn_instance(
    db: str, log_dir: Path, *, delay: float = 0.0, name: str = "app", port: int | None = None,
    deals: list[dict[str, str]] | None = None,
) -> Instance:
    """Start ``ginrummy serve`` without waiting for it to listen (``wait_port``); with ``deals``, the
    app dealing those fixed hands instead (``e2e/fixed_deck_server.py``, its log at warning level)."""
    port = port or free_port()
    log = log_dir / f"{name}-{port}.log"
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    cmd = [
        sys.executable, "-m", "ginrummy", "serve", "--db", db, "--port", str(port), "--compute", "thread",
        "--computer-delay", str(delay), "--log-level", "info",
    ]
    if deals is not None:
        cmd = [sys.executable, str(FIXED_DECK_SERVER), str(port), db, json.dumps(deals), str(delay)]
    with open(log, "wb") as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, env=env)
    return Instance(port, proc, log)


def start_instance(db: str, log_dir: Path, *, delay: float = 0.0, name: str = "app", port: int | None = None) -> Instance:
    instance = spawn_instance(db, log_dir, delay=delay, name=name, port=port)
    try:
        wait_port(instance.port, instance.proc)
    except BaseException:
        instance.stop()
        raise
    return instance


def start_pair(
    db: str, log_dir: Path, *, delay: float = 0.0, deals: list[dict[str, str]] | None = None
) -> tuple[Instance, Instance]:
    """Two instances, ``a`` and ``b``, started side by side (each takes most of a second to listen)."""
    a = spawn_instance(db, log_dir, delay=delay, name="a", deals=deals)
    b = spawn_instance(db, log_dir, delay=delay, name="b", deals=deals)
    try:
        wait_port(a.port, a.proc)
        wait_port(b.port, b.proc)
    except BaseException:
        a.stop()
        b.stop()
        raise
    return a, b


class Seat:
    """One seat's WebSocket: sends the scripted person's moves, keeps the latest state."""

    def __init__(self, url: str, token: str) -> None:
        self.sock: ClientConnection = connect(url, open_timeout=10)
        self.sock.send(json.dumps({"type": "hello", "token": token}))
        #: Moves refused as stale so far (a person then sends the move again, as the table page does).
        self.refused = 0
        self.state = self.next_state()

    def next_state(self, timeout: float = 15) -> dict[str, Any]:
        """The next state message, or the same state after a ``stale`` refusal (counted in
        ``refused``); any other error fails the test."""
        end = time.monotonic() + timeout
        while True:
            msg = json.loads(self.sock.recv(timeout=max(0.01, end - time.monotonic())))
            if msg["type"] == "state":
                self.state = msg
                return msg
            assert msg["type"] != "error" or msg["error"] == "stale", msg
            self.refused += 1
            return self.state  # the state is unchanged: the caller decides whether to move again

    def drain(self) -> None:
        """Read every message already sent (the state is then the newest)."""
        while True:
            try:
                self.next_state(timeout=0.2)
            except TimeoutError:
                return

    def until(self, pred: Any, timeout: float = 15) -> dict[str, Any]:
        end = time.monotonic() + timeout
        while not pred(self.state):
            v = self.state["view"]
            assert time.monotonic() < end, (
                f"waited {timeout} s for a state: last seq {self.state['seq']}, phase {v['phase']}, current {v['current']}"
            )
            self.next_state(max(0.01, end - time.monotonic()))
        return self.state

    def move(self) -> bool:
        """Send the person's move if it is theirs (True when sent)."""
        msg = autoplay.respond(self.state)
        if msg is None:
            return False
        self.sock.send(json.dumps(msg))
        return True

    def send(self, msg: dict[str, Any]) -> None:
        self.sock.send(json.dumps(msg))

    def close(self) -> None:
        self.sock.close()


def finished(s: dict[str, Any]) -> bool:
    return bool(s["game"]["status"] == "finished")


def my_move(s: dict[str, Any]) -> bool:
    return finished(s) or autoplay.respond(s) is not None
