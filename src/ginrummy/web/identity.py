"""Who is asking: a player identity the browser holds, with no account.

The first response to a browser sets a long-lived random cookie (``HttpOnly``, ``SameSite=Lax``);
the server keeps only its hash, on each seat the browser plays (:meth:`Store.claim_seat`). History,
statistics and the list of games in progress are then the caller's own, and a finished game's
replay and record are open to its players, and to everyone once a player shares it.

Why a cookie and not a header: links (a record's download, a replay page) carry it too, and script
cannot read it. ``SameSite=Lax`` keeps other sites' forms from acting with it.
"""

from __future__ import annotations

import hashlib
import re
import secrets

from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Message, Receive, Scope, Send

COOKIE = "gr_player"
#: Ten years: an identity lasts as long as the browser keeps its cookies.
MAX_AGE = 10 * 365 * 24 * 3600
_VALID = re.compile(r"[A-Za-z0-9_-]{16,64}")


def player_hash(value: str) -> str:
    """What the store keeps of an identity (a leaked database names no cookie)."""
    return hashlib.sha256(b"player:" + value.encode()).hexdigest()


def player_of(conn: HTTPConnection) -> str | None:
    """The caller's identity hash: its cookie's, or (HTTP) the one this request was just given.

    None only for a WebSocket opened without the cookie: such a socket claims no seat."""
    value = conn.scope.get("state", {}).get("gr_player")
    return None if value is None else player_hash(value)


def me(conn: HTTPConnection) -> str:
    """:func:`player_of` for an HTTP request, which always has an identity."""
    who = player_of(conn)
    assert who is not None, "IdentityMiddleware must run before the routes"
    return who


class IdentityMiddleware:
    """Gives every HTTP caller without a valid identity cookie a new one, set on the response.

    WebSocket handshakes only read it (a browser opens a socket from a page it already loaded).
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        value: str | None = HTTPConnection(scope).cookies.get(COOKIE, "")
        fresh = not _VALID.fullmatch(value or "")
        if fresh:
            value = secrets.token_urlsafe(24) if scope["type"] == "http" else None
        scope.setdefault("state", {})["gr_player"] = value
        if not fresh or value is None:
            await self.app(scope, receive, send)
            return
        secure = "; Secure" if scope.get("scheme") == "https" else ""
        cookie = f"{COOKIE}={value}; Max-Age={MAX_AGE}; Path=/; HttpOnly; SameSite=Lax{secure}".encode()

        async def send_with_cookie(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", ()), (b"set-cookie", cookie)]
            await send(message)

        await self.app(scope, receive, send_with_cookie)
