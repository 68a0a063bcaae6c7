"""The web app: pages, a JSON API and one WebSocket per seat.

``create_app(db_path)`` builds everything; ``app.state.store`` is the :class:`Store` (other routers,
such as the scorekeeper's, create their own tables through ``store.connection()``) and
``app.state.games`` the :class:`GameService`.

Seat secrets travel in the ``X-Seat-Token`` header (HTTP) or the first WebSocket message, never in
a URL the server sees: the browser keeps them in the page's fragment and local storage, so they do
not end up in access logs.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator
from dataclasses import fields
from pathlib import Path
from typing import Any

from fastapi import APIRouter, FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles

from ..errors import GinRummyError
from ..rules import PRESETS, Rules
from . import history, scorekeeper_routes, sheets
from .computer import STRENGTHS, ComputerRunner, Mode
from .errors import WebError, describe
from .games import Connection, GameService, Room, close_rooms
from .storage import HUMAN, Store

STATIC = Path(__file__).parent / "static"
log = logging.getLogger("ginrummy.web")



def _token(request: Request) -> str | None:
    auth = request.headers.get("authorization", "")
    if auth.lower().startswith("bearer "):
        return auth[7:].strip()
    return request.headers.get("x-seat-token")


async def _body(request: Request) -> dict[str, Any]:
    try:
        data = await request.json()
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise WebError(400, "malformed", "the request body must be a JSON object") from None
    if not isinstance(data, dict):
        raise WebError(400, "malformed", "the request body must be a JSON object")
    return data


def rule_options() -> dict[str, Any]:
    """Every rule switch with its type and choices, and each preset's values: the start page builds its form from this."""
    from ..rules import CHOICES, GROUP_RULES

    out = []
    for f in fields(Rules):
        if f.name == "name" or f.name in GROUP_RULES:  # the tables here seat two
            continue
        kind = "choice" if f.name in CHOICES else str(f.type)
        out.append({"name": f.name, "type": kind, "choices": list(CHOICES.get(f.name, ()))})
    presets = {}
    for name in PRESETS:
        r = Rules.preset(name)
        presets[name] = {f.name: getattr(r, f.name) for f in fields(Rules) if f.name != "name"}
    return {"rules": out, "presets": presets, "strengths": list(STRENGTHS)}


def create_app(
    db_path: str | Path = "ginrummy.sqlite3",
    *,
    computer_delay: float = 0.6,
    compute: Mode = "process",
    workers: int | None = None,
) -> FastAPI:
    """The whole app on one SQLite file. ``compute`` says where computer players think."""
    store = Store(db_path)
    runner = ComputerRunner(compute, workers)
    service = GameService(store, runner, computer_delay)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        yield
        await close_rooms(service)
        runner.close()

    app = FastAPI(title="Gin Rummy", lifespan=lifespan)
    app.state.store = store
    app.state.games = service

    @app.exception_handler(GinRummyError)
    @app.exception_handler(WebError)
    async def _errors(request: Request, exc: Exception) -> JSONResponse:
        status, body = describe(exc)
        return JSONResponse(body, status_code=status)

    app.include_router(scorekeeper_routes.router)
    app.include_router(sheets.router)  # /rules (the printable rule sheet) and /scoresheet
    app.include_router(_pages())
    app.include_router(_api(service, store))
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app


def _page(name: str) -> FileResponse:
    return FileResponse(STATIC / name, headers={"Cache-Control": "no-cache"})


def _pages() -> APIRouter:
    r = APIRouter()

    @r.get("/", include_in_schema=False)
    async def index() -> Response:
        return _page("index.html")

    @r.get("/favicon.ico", include_in_schema=False)
    async def favicon() -> Response:
        svg = (
            '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect x="4" y="2" width="22" height="28" rx="3" '
            'fill="#fffdf8" stroke="#555"/><text x="15" y="23" font-size="18" text-anchor="middle" fill="#c8102e">♥</text></svg>'
        )
        return Response(svg, media_type="image/svg+xml", headers={"Cache-Control": "max-age=86400"})

    @r.get("/table/{game_id}", include_in_schema=False)
    async def table(game_id: str) -> Response:
        return _page("table.html")

    @r.get("/history", include_in_schema=False)
    async def history_page() -> Response:
        return _page("history.html")

    @r.get("/replay/{game_id}", include_in_schema=False)
    async def replay_page(game_id: str) -> Response:
        return _page("replay.html")

    return r


def _api(service: GameService, store: Store) -> APIRouter:
    r = APIRouter(prefix="/api")

    async def seat_room(game_id: str, request: Request) -> tuple[Room, int]:
        room = await service.room(game_id)
        return room, service.seat_of(room, _token(request))

    @r.get("/options")
    async def options() -> dict[str, Any]:
        return rule_options()

    @r.get("/rules/describe")
    async def describe_rules(preset: str = "classic", overrides: str = "{}") -> dict[str, Any]:
        rules = Rules.preset(preset, **json.loads(overrides))
        return {"rules": rules.to_json(), "lines": rules.describe()}

    @r.post("/games", status_code=201)
    async def create(request: Request) -> dict[str, Any]:
        data = await _body(request)
        opponent = data.get("opponent", "simple")
        if not isinstance(opponent, str):
            raise WebError(400, "malformed", "opponent must be text")
        rules_data = data.get("rules", "classic")
        rules = Rules.from_json(rules_data)
        names = data.get("names")
        if names is not None and not (isinstance(names, list) and all(isinstance(n, str) for n in names)):
            raise WebError(400, "malformed", "names must be a list of text")
        game_id, tokens = service.create(opponent=opponent, rules=rules, names=names)
        room = await service.room(game_id)
        service.kick_computer(room)
        out: dict[str, Any] = {"id": game_id, "seat": 0, "token": tokens[0], "url": f"/table/{game_id}#t={tokens[0]}"}
        if opponent == HUMAN:
            out["invite_token"] = tokens[1]
            out["invite_url"] = f"/table/{game_id}#t={tokens[1]}"
        return out

    @r.get("/games/{game_id}")
    async def public(game_id: str) -> dict[str, Any]:
        """Public facts only (names, score sheet): what a spectator or the history page may see."""
        room = await service.room(game_id)
        return service.public(room)

    @r.get("/games/{game_id}/state")
    async def state(game_id: str, request: Request) -> dict[str, Any]:
        room, seat = await seat_room(game_id, request)
        return service.state(room, seat)

    @r.post("/games/{game_id}/actions")
    async def act(game_id: str, request: Request) -> dict[str, Any]:
        room, seat = await seat_room(game_id, request)
        data = await _body(request)
        await service.act(room, seat, data.get("action"), data.get("seq"))
        return service.state(room, seat)

    @r.post("/games/{game_id}/auto")
    async def auto(game_id: str, request: Request) -> dict[str, Any]:
        room, seat = await seat_room(game_id, request)
        data = await _body(request)
        await service.auto(room, seat, data.get("seq"))
        return service.state(room, seat)

    @r.post("/games/{game_id}/next")
    async def next_hand(game_id: str, request: Request) -> dict[str, Any]:
        room, seat = await seat_room(game_id, request)
        await service.next_hand(room, seat)
        return service.state(room, seat)

    @r.post("/games/{game_id}/name")
    async def set_name(game_id: str, request: Request) -> dict[str, Any]:
        room, seat = await seat_room(game_id, request)
        data = await _body(request)
        await service.set_name(room, seat, data.get("name"))
        return service.state(room, seat)

    @r.get("/games/{game_id}/hint")
    async def hint(game_id: str, request: Request) -> dict[str, Any]:
        room, seat = await seat_room(game_id, request)
        return {"hints": await service.hint(room, seat)}

    @r.get("/history")
    async def history_list() -> dict[str, Any]:
        return {"games": [history.game_summary(g, h) for g, h in store.finished_hands()]}

    @r.get("/games")
    async def games_list(status: str | None = None) -> dict[str, Any]:
        return {"games": [history.game_summary(g, []) for g in store.list_games(status)]}

    @r.get("/stats")
    async def stats() -> dict[str, Any]:
        return history.statistics(store)

    @r.get("/games/{game_id}/replay")
    async def replay(game_id: str) -> dict[str, Any]:
        return history.replay(store, game_id)

    @r.get("/games/{game_id}/record")
    async def record(game_id: str) -> Response:
        data = history.record(store, game_id)
        return Response(
            json.dumps(data, indent=1),
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="ginrummy-{game_id}.json"'},
        )

    @r.websocket("/ws/{game_id}")
    async def ws(websocket: WebSocket, game_id: str) -> None:
        await seat_socket(service, websocket, game_id)

    return r


async def seat_socket(service: GameService, websocket: WebSocket, game_id: str) -> None:
    """One seat's live connection: ``hello`` with the token first, then actions; states come back."""
    await websocket.accept()
    try:
        hello = await asyncio.wait_for(websocket.receive_json(), timeout=30)
        if not isinstance(hello, dict) or hello.get("type") != "hello":
            raise WebError(400, "malformed", "the first message must be {'type': 'hello', 'token': ...}")
        room = await service.room(game_id)
        seat = service.seat_of(room, hello.get("token"))
    except (TimeoutError, WebError, GinRummyError, ValueError) as e:
        _, body = describe(e)
        with contextlib.suppress(Exception):
            await websocket.send_json({"type": "error", **body})
            await websocket.close(code=4403 if isinstance(e, WebError) and e.status == 403 else 4400)
        return
    except WebSocketDisconnect:
        return
    conn = service.connect(room, seat)
    sender = asyncio.create_task(_sender(websocket, conn))
    try:
        while True:
            try:
                msg = await websocket.receive_json()
            except (json.JSONDecodeError, UnicodeDecodeError):
                conn.queue.put_nowait({"type": "error", "error": "malformed", "message": "messages must be JSON"})
                continue
            await _handle(service, room, conn, msg)
    except WebSocketDisconnect:
        pass
    except RuntimeError:
        pass  # the socket closed under us
    finally:
        service.disconnect(room, conn)
        sender.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await sender


async def _sender(websocket: WebSocket, conn: Connection) -> None:
    """Write queued messages in order; one writer per socket, so broadcasting never waits on a slow client."""
    while True:
        msg = await conn.queue.get()
        await websocket.send_json(msg)


async def _handle(service: GameService, room: Room, conn: Connection, msg: Any) -> None:
    """One client message; every error becomes an ``error`` message to that connection only."""
    ref = msg.get("ref") if isinstance(msg, dict) else None
    try:
        if not isinstance(msg, dict):
            raise WebError(400, "malformed", "a message must be a JSON object with a 'type'")
        kind = msg.get("type")
        seat = conn.seat
        if kind == "action":
            await service.act(room, seat, msg.get("action"), msg.get("seq"))
        elif kind == "auto":
            await service.auto(room, seat, msg.get("seq"))
        elif kind == "next":
            await service.next_hand(room, seat)
        elif kind == "name":
            await service.set_name(room, seat, msg.get("name"))
        elif kind == "hint":
            conn.queue.put_nowait({"type": "hint", "ref": ref, "hints": await service.hint(room, seat)})
        elif kind == "state":
            conn.queue.put_nowait(service.state(room, seat))
        elif kind == "ping":
            conn.queue.put_nowait({"type": "pong", "ref": ref})
        else:
            raise WebError(400, "malformed", f"unknown message type {kind!r}")
    except Exception as e:  # noqa: BLE001 - mapped in one place, never kills the socket
        status, body = describe(e)
        if status >= 500:
            log.exception("error handling %r", msg)
        conn.queue.put_nowait({"type": "error", "ref": ref, **body})
        if body.get("error") == "stale":
            conn.queue.put_nowait(service.state(room, conn.seat))
