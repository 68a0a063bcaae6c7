"""Bounds on everything a client sends, in one place: sizes, JSON depth, names, ``seq``, choices.

Every check here refuses with a :class:`~ginrummy.web.errors.WebError` that names the problem and
quotes at most ~40 characters of the input (:func:`ginrummy.errors.shown`); ``errors.describe``
turns it into the status. The limits:

- an HTTP body holds at most :data:`MAX_BODY` bytes (413), checked on ``Content-Length`` and on
  the bytes actually streamed (:class:`BodyLimit`); a path and query at most :data:`MAX_URL` (414);
- a WebSocket message holds at most :data:`MAX_MESSAGE` bytes: a longer one is answered with an
  ``error`` message (``too_large``) and the socket stays open; a frame over :data:`MAX_FRAME`
  never reaches the app: the server (``ws_max_size``) closes the socket with code 1009;
- JSON nests at most :data:`MAX_DEPTH` levels (400 "nested too deeply");
- a name is 1..:data:`MAX_NAME` characters after trimming, without control characters.
"""

from __future__ import annotations

import difflib
import json
import re
import unicodedata
from collections.abc import Iterable
from typing import Any

from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..errors import shown
from .errors import WebError, describe, not_found

MAX_BODY = 64 * 1024
MAX_URL = 8 * 1024
MAX_MESSAGE = 16 * 1024
MAX_FRAME = MAX_BODY
MAX_DEPTH = 32
MAX_NAME = 24
#: The longest action text: "meld As 2s 3s 4s 5s 6s 7s 8s 9s 10s Js Qs Ks" has 46 characters.
MAX_ACTION = 100
#: ``seq`` counts actions and deals; no game comes near this.
MAX_SEQ = 2**31 - 1
#: A WebSocket message's ``ref`` is echoed in the answer, so it is short: a number or a little text.
MAX_REF = 40

#: Game ids are made as 12 hex digits (``uuid4().hex[:12]``); anything not even id-like is no game,
#: without a look-up.
_GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
#: Characters that reorder the text around them (bidirectional embeddings, overrides, isolates):
#: a name holding one could show as something else on the other player's screen.
_BIDI = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def too_large(what: str, limit: int, size: int | None = None) -> WebError:
    has = f"; this one has {size}" if size is not None else ""
    return WebError(413, "too_large", f"{what} can be at most {limit} bytes{has}")


# -- JSON -------------------------------------------------------------------------------------


def parse_json(raw: bytes | str, what: str = "the request body") -> Any:
    """``raw`` as JSON, refused in plain words when it is not JSON, nests too deeply or holds a huge number."""
    try:
        data = json.loads(raw)
    except RecursionError:
        raise nested(what) from None
    except json.JSONDecodeError as e:
        raise WebError(400, "malformed", f"{what} must be JSON ({e.msg} at character {e.pos})") from None
    except UnicodeDecodeError:
        raise WebError(400, "malformed", f"{what} must be JSON in UTF-8") from None
    except ValueError:  # an integer of thousands of digits (Python refuses to convert it)
        raise WebError(400, "malformed", f"{what} holds a number too long to read") from None
    check_depth(data, what)
    return data


def nested(what: str) -> WebError:
    return WebError(400, "malformed", f"{what} is nested too deeply: JSON may nest at most {MAX_DEPTH} levels")


def check_depth(data: Any, what: str) -> None:
    """Refuse JSON nested deeper than :data:`MAX_DEPTH` (walked without recursion)."""
    stack: list[tuple[Any, int]] = [(data, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children: Iterable[Any] = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        if depth > MAX_DEPTH:
            raise nested(what)
        stack.extend((c, depth + 1) for c in children if isinstance(c, (dict, list)))


async def read_json(request: Request, what: str = "the request body") -> Any:
    """The body as JSON; :class:`BodyLimit` has already bounded its size."""
    return parse_json(await request.body(), what)


async def read_object(request: Request) -> dict[str, Any]:
    data = await read_json(request)
    if not isinstance(data, dict):
        raise WebError(400, "malformed", f"the request body must be a JSON object, not {_kind(data)}")
    return data


def _kind(data: Any) -> str:
    return {list: "a list", str: "text", bool: "true or false", type(None): "null"}.get(type(data), "a number")


# -- request size -----------------------------------------------------------------------------


class BodyLimit:
    """ASGI middleware: refuse an HTTP body over ``max_body`` bytes (413) and an address over ``max_url`` (414).

    The declared ``Content-Length`` is checked before the app runs; the bytes actually received
    are counted too (a chunked upload declares none), and reading past the limit raises the 413.
    """

    def __init__(self, app: ASGIApp, max_body: int = MAX_BODY, max_url: int = MAX_URL) -> None:
        self.app = app
        self.max_body = max_body
        self.max_url = max_url

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        url = len(scope.get("raw_path") or scope["path"].encode()) + len(scope.get("query_string", b""))
        if url > self.max_url:
            error = WebError(414, "too_long", f"the address can be at most {self.max_url} bytes; this one has {url}")
            await self._refuse(scope, receive, send, error)
            return
        if scope["type"] == "websocket":
            await self.app(scope, receive, send)
            return
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None:
            if not declared.isdigit():
                await self._refuse(scope, receive, send, WebError(400, "malformed", "Content-Length must be a number"))
                return
            if int(declared) > self.max_body:
                await self._refuse(scope, receive, send, too_large("a request body", self.max_body, int(declared)))
                return
        received = 0
        started = False

        async def counted() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_body:
                    raise too_large("a request body", self.max_body)
            return message

        async def watched(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, counted, watched)
        except WebError as e:  # read past the limit outside a route (its handler answers inside one)
            if started or e.status != 413:
                raise
            await self._refuse(scope, receive, send, e)

    async def _refuse(self, scope: Scope, receive: Receive, send: Send, error: WebError) -> None:
        status, body = describe(error)
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1009})
            return
        payload = json.dumps(body).encode()
        await send(
            {
                "type": "http.response.start",
                "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(payload)).encode()),
                            (b"connection", b"close")],
            }
        )
        await send({"type": "http.response.body", "body": payload})


# -- fields -----------------------------------------------------------------------------------


def clean_name(value: Any, what: str = "a name", *, empty_ok: bool = False) -> str:
    """A player's name: spaces trimmed and runs of them made one; 1..MAX_NAME characters, no control characters.

    >>> clean_name('  Ann   Lee ')
    'Ann Lee'
    >>> clean_name('Ann' * 10)
    Traceback (most recent call last):
    ...
    ginrummy.web.errors.WebError: a name can be at most 24 characters; 'AnnAnnAnnAnnAnnAnnAnnAnnAnnAnn' is too long
    """
    if not isinstance(value, str):
        raise WebError(400, "malformed", f"{what} must be text, not {shown(value)}")
    if len(value) > 4 * MAX_NAME + 100:  # do not even split a huge one
        raise WebError(400, "malformed", f"{what} can be at most {MAX_NAME} characters; {shown(value)} is too long")
    clean = " ".join(value.split())
    if not clean and not empty_ok:
        raise WebError(400, "malformed", f"{what} cannot be empty")
    if len(clean) > MAX_NAME:
        raise WebError(400, "malformed", f"{what} can be at most {MAX_NAME} characters; {shown(clean)} is too long")
    for ch in clean:
        if ch in _BIDI or unicodedata.category(ch) in ("Cc", "Cs", "Co"):
            raise WebError(400, "malformed", f"{what} cannot hold control characters such as U+{ord(ch):04X}")
    return clean


def check_seq(value: Any) -> int:
    """``seq``: the state's number the message answers, a whole number 0..MAX_SEQ."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise WebError(400, "malformed", f"every action must carry 'seq', the state's seq it answers (not {shown(value)})")
    if not 0 <= value <= MAX_SEQ:
        raise WebError(400, "malformed", f"seq {shown(value)} is out of range: a state's seq is 0..{MAX_SEQ}")
    return value


#: The longest pause before a computer move a table may ask for, in seconds.
MAX_PACE = 5.0


def check_pace(value: Any) -> float | None:
    """A table's pause before each computer move: seconds 0..MAX_PACE, or None for the server's own."""
    if value is None:
        return None
    if not isinstance(value, (int, float)) or isinstance(value, bool) or value != value:
        raise WebError(400, "malformed", f"the pause before a computer move is a number of seconds, not {shown(value)}")
    if not 0 <= value <= MAX_PACE:
        raise WebError(400, "malformed", f"a pause of {shown(value)} s is out of range: 0 to {MAX_PACE:g} seconds")
    return float(value)


def check_action_text(value: Any) -> str:
    if not isinstance(value, str):
        raise WebError(400, "malformed", f"an action must be text, e.g. 'stock', 'pile', 'Kd', 'knock Kd', not {shown(value)}")
    if len(value) > MAX_ACTION:
        raise WebError(400, "notation", f"unknown action {shown(value)}: an action is at most {MAX_ACTION} characters")
    return value


def check_ref(value: Any) -> int | str | None:
    """A WebSocket message's ``ref`` (echoed in the answer): a whole number or text of at most MAX_REF characters."""
    if value is None or (isinstance(value, int) and not isinstance(value, bool) and abs(value) <= MAX_SEQ):
        return value
    if isinstance(value, str) and len(value) <= MAX_REF:
        return value
    return None


def choose(value: Any, choices: Iterable[str], what: str) -> str:
    """One of ``choices``, or a refusal naming them and the nearest one.

    >>> choose('exprt', ['simple', 'expert'], 'opponent')
    Traceback (most recent call last):
    ...
    ginrummy.web.errors.WebError: unknown opponent 'exprt' (did you mean 'expert'?): choose simple or expert
    """
    options = list(choices)
    if isinstance(value, str) and value in options:
        return value
    hint = ""
    if isinstance(value, str) and len(value) <= 2 * max(len(o) for o in options):
        close = difflib.get_close_matches(value, options, n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
    listed = ", ".join(options[:-1]) + f" or {options[-1]}" if len(options) > 1 else options[0]
    raise WebError(400, "malformed", f"unknown {what} {shown(value)}{hint}: choose {listed}")


def check_game_id(game_id: str) -> str:
    """A game id as the server makes them; any other text is no game (and is not looked up)."""
    if not _GAME_ID.fullmatch(game_id):
        raise not_found(f"no game {shown(game_id)}")
    return game_id
