"""The one place where errors become HTTP statuses and WebSocket error messages.

Why one place: the HTTP API and the WebSocket must answer the same mistake with the same words
(a player sees the engine's explanation, e.g. "a card taken from the discard pile may not be
discarded on the same turn"), and the rule name lets a client react without parsing text.
"""

from __future__ import annotations

from typing import Any

from fastapi.exceptions import RequestValidationError

from ..errors import GinRummyError, IllegalActionError, NotationError, RecordError, RulesError, shown
from ..words import sentence


class WebError(Exception):
    """An error of the web layer itself (no such game, wrong token, stale message...)."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code


def not_found(what: str) -> WebError:
    return WebError(404, "not_found", what)


def forbidden(message: str = "this link has no seat at this game: open the link you were given") -> WebError:
    return WebError(403, "forbidden", message)


#: The longest message an answer carries: a safety net under the sources, which already quote at
#: most ~40 characters of any input (:func:`ginrummy.errors.shown`).
MAX_MESSAGE = 400


def private() -> WebError:
    """A game that only its players see (identities: :mod:`~ginrummy.web.identity`)."""
    return WebError(403, "private", "this game is private: only its players see it, until one of them shares it")


def describe(exc: BaseException) -> tuple[int, dict[str, Any]]:
    """``(HTTP status, JSON body)`` for any error a request may raise; the body goes to WebSockets too."""
    status, body = _describe(exc)
    message = body.get("message")
    if isinstance(message, str):
        if len(message) > MAX_MESSAGE:
            message = message[: MAX_MESSAGE - 1] + "…"
        body["message"] = sentence(message)  # players read it as is: a sentence, not a log line
    return status, body


def _describe(exc: BaseException) -> tuple[int, dict[str, Any]]:
    if isinstance(exc, WebError):
        return exc.status, {"error": exc.code, "message": str(exc)}
    if isinstance(exc, IllegalActionError):
        return 409, {"error": "illegal", "rule": exc.rule, "message": str(exc)}
    if isinstance(exc, NotationError):
        return 400, {"error": "notation", "message": str(exc)}
    if isinstance(exc, RulesError):
        return 400, {"error": "rules", "message": str(exc)}
    if isinstance(exc, RecordError):
        return 400, {"error": "record", "message": str(exc), "hand": exc.hand, "index": exc.index}
    if isinstance(exc, GinRummyError):
        return 400, {"error": "game", "message": str(exc)}
    if isinstance(exc, RequestValidationError):
        return 400, {"error": "malformed", "message": _validation_message(exc)}
    if isinstance(exc, RecursionError):
        return 400, {"error": "malformed", "message": "the input is nested too deeply"}
    if isinstance(exc, (ValueError, TypeError, KeyError)):
        return 400, {"error": "malformed", "message": f"malformed request: {exc}"}
    return 500, {"error": "internal", "message": "internal error"}


def _validation_message(exc: RequestValidationError) -> str:
    """FastAPI's check of a path or query parameter, in one line that quotes little of the input.

    >>> _validation_message(RequestValidationError([{"loc": ("path", "number"), "msg": "Input should be a valid integer",
    ...                                             "input": "x" * 99}]))
    "path parameter number: Input should be a valid integer, not 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…' (99 characters)"
    """
    errors = list(exc.errors())
    if not errors:
        return "malformed request"
    first = errors[0]
    loc = [str(p) for p in first.get("loc", ())]
    where = f"{loc[0]} parameter {'.'.join(loc[1:])}" if len(loc) > 1 and loc[0] in ("path", "query", "header") else ".".join(loc)
    got = f", not {shown(first['input'])}" if "input" in first else ""
    more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
    return f"{where}: {first.get('msg', 'malformed')}{got}{more}"
