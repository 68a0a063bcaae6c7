"""The browser-side safety headers every response carries (one ASGI middleware).

The pages are built so that nothing needs more: every script and stylesheet is a file from this
server (no inline script, handler or style attribute), the card drawings are SVG built in the page,
and the only connections are same-origin fetches and the seat's WebSocket (CSP 'self' covers
same-origin ws:/wss:). So even a string that slipped into the page as markup could not run.
"""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

CONTENT_SECURITY_POLICY = "; ".join(
    (
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "frame-ancestors 'none'",
        "form-action 'self'",
    )
)

HEADERS: dict[str, str] = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
}
_RAW = [(k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in HEADERS.items()]


class SecurityHeaders:
    """Add :data:`HEADERS` to every HTTP response (a header a route set itself is kept)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                have = {k.lower() for k, _ in headers}
                headers += [(k, v) for k, v in _RAW if k not in have]
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, send_with_headers)
