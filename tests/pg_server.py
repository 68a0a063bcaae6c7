"""A real PostgreSQL server for the tests: Debian's ``postgresql`` package, a fresh data directory
in /tmp and a free loopback port, started once per test session (``pg_server`` in conftest.py).

PostgreSQL refuses to run as root: as root the server runs as the ``postgres`` user the Debian
package creates. ``fsync=off`` because a test's data need not outlive the machine; the app's own
durability (each action committed before it is acknowledged) is PostgreSQL's default
``synchronous_commit = on``, which stays on.
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
import uuid
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

MISSING = (
    "the PostgreSQL tests need Debian's postgresql server (initdb, pg_ctl): `make test` installs it "
    "when run as root, or run `sudo apt-get install postgresql`"
)


def bindir() -> Path | None:
    """The server programs' folder (Debian keeps them under /usr/lib/postgresql/VERSION/bin)."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"), key=lambda p: int(p.split("/")[4]))
    if found:
        return Path(found[-1]).parent
    on_path = shutil.which("pg_ctl")
    return Path(on_path).parent if on_path else None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class PgServer:
    root: Path
    port: int
    bin: Path
    user: str | None  # the system user the server runs as (None: this one)

    @property
    def url(self) -> str:
        return f"postgresql://ginrummy@127.0.0.1:{self.port}/ginrummy"

    def fresh_url(self) -> str:
        """A URL of an empty schema of its own (every table the store makes goes there)."""
        import psycopg

        name = "t_" + uuid.uuid4().hex[:12]
        with psycopg.connect(self.url, autocommit=True) as c:
            c.execute(f"CREATE SCHEMA {name}")
        return f"{self.url}?options={quote(f'-c search_path={name}')}"

    def _run(self, *args: str) -> subprocess.CompletedProcess[str]:
        cmd = list(args)
        if self.user is not None:
            cmd = ["runuser", "-u", self.user, "--", *cmd]
        return subprocess.run(cmd, capture_output=True, text=True, check=False, timeout=120)

    def stop(self) -> None:
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.root / "data"), "-m", "immediate", "-w", "stop")
        shutil.rmtree(self.root, ignore_errors=True)


def start() -> PgServer:
    """initdb into a new folder, then start the server on a free port; raises RuntimeError saying why not."""
    bin_ = bindir()
    if bin_ is None:
        raise RuntimeError(MISSING)
    user = None
    root = Path(tempfile.mkdtemp(prefix="ginrummy-pg-"))
    if os.geteuid() == 0:
        user = "postgres"
        try:
            shutil.chown(root, user=user)
        except LookupError:
            raise RuntimeError(f"{MISSING} (no 'postgres' user to run the server as)") from None
    server = PgServer(root, free_port(), bin_, user)
    data = root / "data"
    r = server._run(str(bin_ / "initdb"), "-D", str(data), "-A", "trust", "-U", "ginrummy", "--no-sync", "-E", "UTF8")
    if r.returncode:
        raise RuntimeError(f"initdb failed: {r.stderr.strip()[-800:]}")
    opts = (
        f"-p {server.port} -c listen_addresses=127.0.0.1 -k {root} -c fsync=off -c full_page_writes=off "
        "-c max_connections=200 -c shared_buffers=64MB"
    )
    r = server._run(str(bin_ / "pg_ctl"), "-D", str(data), "-o", opts, "-l", str(root / "log"), "-w", "-t", "60", "start")
    if r.returncode:
        log = (root / "log").read_text(errors="replace")[-800:] if (root / "log").exists() else ""
        raise RuntimeError(f"pg_ctl start failed: {r.stderr.strip()[-400:]} {log}")
    r = server._run(str(bin_ / "createdb"), "-h", "127.0.0.1", "-p", str(server.port), "-U", "ginrummy", "ginrummy")
    if r.returncode:
        server.stop()
        raise RuntimeError(f"createdb failed: {r.stderr.strip()[-400:]}")
    return server
