"""Debian's nginx for the tests: deploy/nginx-ginrummy.conf, its ports changed, in front of test instances.

The site file is the one people deploy; only its ``listen`` port and its upstream servers are
replaced, and it is wrapped in a main configuration that keeps every file in a temporary folder.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from instances import free_port, wait_port

SITE = Path(__file__).resolve().parents[1] / "deploy" / "nginx-ginrummy.conf"
NGINX = "/usr/sbin/nginx"
MISSING = "the proxy tests need Debian's nginx (/usr/sbin/nginx): `make test` installs it as root, or `apt-get install nginx`"


@dataclass
class Proxy:
    port: int
    proc: subprocess.Popen[bytes]
    root: Path

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(10)


def site(upstreams: list[int], port: int) -> str:
    text = SITE.read_text()
    servers = "".join(f"    server 127.0.0.1:{p} max_fails=1 fail_timeout=5s;\n" for p in upstreams)
    text, n = re.subn(r"(    server 127\.0\.0\.1:\d+ [^\n]*\n)+", servers, text)
    assert n == 1, "deploy/nginx-ginrummy.conf: the upstream's server lines were not found"
    text, n = re.subn(r"listen 80;", f"listen 127.0.0.1:{port};", text)
    assert n == 1, "deploy/nginx-ginrummy.conf: 'listen 80;' was not found"
    return text


def start_proxy(upstreams: list[int], root: Path) -> Proxy:
    if not os.path.exists(NGINX):
        raise RuntimeError(MISSING)
    root.mkdir(parents=True, exist_ok=True)
    root.chmod(0o777)  # nginx's workers (nobody) write their temporary files here
    port = free_port()
    (root / "site.conf").write_text(site(upstreams, port))
    temps = "".join(f"    {k}_temp_path {root}/{k};\n" for k in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    (root / "nginx.conf").write_text(
        # Each WebSocket holds two connections (the client's and the instance's): room for the
        # load benchmark's 2000 games (bench/cluster.py).
        f"daemon off;\nworker_processes 1;\nworker_rlimit_nofile 10000;\npid {root}/nginx.pid;\n"
        f"error_log {root}/error.log warn;\nevents {{ worker_connections 4500; }}\n"
        f"http {{\n    access_log off;\n{temps}    include {root}/site.conf;\n}}\n"
    )
    check = subprocess.run([NGINX, "-t", "-q", "-p", str(root), "-c", str(root / "nginx.conf")], capture_output=True, text=True)
    assert check.returncode == 0, check.stderr
    proc = subprocess.Popen([NGINX, "-p", str(root), "-c", str(root / "nginx.conf")], stderr=subprocess.DEVNULL)
    wait_port(port, proc)
    return Proxy(port, proc, root)


def remove(proxy: Proxy) -> None:
    proxy.stop()
    shutil.rmtree(proxy.root, ignore_errors=True)
