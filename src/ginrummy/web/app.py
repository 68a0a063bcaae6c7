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
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import fields
from pathlib import Path
from typing import Any

from fastapi import APIRouter, FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles

from .. import words
from ..errors import GinRummyError, shown
from ..rules import PRESETS, Rules
from ..storage import DEFAULT_DB, HUMAN, Store
from . import history, inputs, scorekeeper_routes, sheets
from .cluster import cluster_for
from .computer import STRENGTHS, ComputerRunner, Mode
from .errors import WebError, describe, private
from .games import GameService, close_rooms
from .identity import IdentityMiddleware, me, player_of
from .room import Connection, Room, encode
from .security import SecurityHeaders

STATIC = Path(__file__).parent / "static"
log = logging.getLogger("ginrummy.web")



def _token(request: Request) -> str | None:
    auth = request.headers.get("authorization", "")
    if auth.lower().startswith("bearer "):
        return auth[7:].strip()
    return request.headers.get("x-seat-token")


#: The fields of ``POST /api/games``.
GAME_FIELDS = ("opponent", "rules", "names", "players", "seats")

#: The rules that apply only to games of three (``three_player_bonuses``) or four players.
GROUP_RULE_PLAYERS = {"three_player_bonuses": 3, "team_target": 4, "team_bonuses": 4}


def rule_options() -> dict[str, Any]:
    """Every rule switch with its type, choices, label and help, each preset's values and name, and
    the computer strengths with their names for people (:mod:`ginrummy.words`): the start page
    builds its form from this, the table and the history page name presets and levels with it."""
    from ..rules import CHOICES, GROUP_RULES, RANGES

    out = []
    for f in fields(Rules):
        if f.name == "name":
            continue
        kind = "choice" if f.name in CHOICES else str(f.type)
        label, help_text = words.rule_words(f.name)
        option: dict[str, Any] = {
            "name": f.name,
            "type": kind,
            "label": label,
            "help": help_text,
            "choices": list(CHOICES.get(f.name, ())),
            "choice_labels": {c: words.choice_label(f.name, c) for c in CHOICES.get(f.name, ())},
        }
        if f.name in RANGES:
            option["min"], option["max"] = RANGES[f.name][:2]
        if f.name in GROUP_RULES:
            option["players"] = GROUP_RULE_PLAYERS[f.name]  # shown only for a game of that many
        out.append(option)
    presets = {}
    for name in PRESETS:
        r = Rules.preset(name)
        presets[name] = {f.name: getattr(r, f.name) for f in fields(Rules) if f.name != "name"}
    return {
        "rules": out,
        "presets": presets,
        "preset_labels": {p: {"label": words.preset_label(p), "help": words.PRESET_HELP[p]} for p in PRESETS},
        "strengths": list(STRENGTHS),
        "strength_labels": {s: {"label": words.strength_label(s), "help": words.STRENGTH_HELP[s]} for s in STRENGTHS},
    }


def create_app(
    db_path: str | Path = DEFAULT_DB,
    *,
    computer_delay: float = 0.6,
    compute: Mode = "process",
    workers: int | None = None,
    deck_for: Callable[[int, int], Sequence[int]] | None = None,
) -> FastAPI:
    """The whole app on one SQLite file, or on a PostgreSQL database (a ``postgresql://`` URL) that
    other instances share (:mod:`~ginrummy.web.cluster`). ``compute`` says where computer players think.

    ``deck_for(hand_no, dealer)`` deals fixed decks instead of shuffling: for tests only (no
    command line option or request reaches it)."""
    store = Store(db_path)
    scorekeeper_routes.create_tables(store)
    runner = ComputerRunner(compute, workers)
    cluster = cluster_for(str(db_path), store.dialect)
    service = GameService(store, runner, computer_delay, deck_for, cluster)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        cluster.start(asyncio.get_running_loop(), lambda msg: service.on_message(msg))
        announcing = asyncio.create_task(service.announce()) if cluster.shared else None
        sweeping = asyncio.create_task(service.sweep())
        yield
        sweeping.cancel()
        if announcing is not None:
            announcing.cancel()
        await close_rooms(service)
        runner.close()
        cluster.close()
        store.close()

    # No /docs or /redoc: their pages load script from a CDN, which the policy forbids; /openapi.json stays.
    app = FastAPI(title="Gin Rummy", lifespan=lifespan, docs_url=None, redoc_url=None)
    app.state.store = store
    app.state.games = service
    app.add_middleware(inputs.BodyLimit)  # 413 over MAX_BODY bytes, 414 over MAX_URL
    app.add_middleware(IdentityMiddleware)
    app.add_middleware(SecurityHeaders)  # CSP, nosniff, no referrer, no framing on every answer, the 413s included

    @app.exception_handler(GinRummyError)
    @app.exception_handler(WebError)
    @app.exception_handler(RequestValidationError)
    @app.exception_handler(RecursionError)
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

    @r.get("/fair", include_in_schema=False)
    async def fair() -> Response:
        return _page("fair.html")

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
        seat = service.seat_of(room, _token(request))
        service.claim(room, seat, me(request))
        await service.catch_up(room)  # another instance may have moved the game on
        return room, seat

    async def visible_room(game_id: str, request: Request) -> Room:
        """A game this caller may look at: they play it (identity or seat token) or it is shared."""
        room = await service.room(game_id)
        if service.visible(room, me(request)):
            return room
        token = _token(request)
        if token:
            service.seat_of(room, token)
            return room
        raise private()

    @r.get("/options")
    async def options() -> dict[str, Any]:
        return rule_options()

    @r.get("/rules/describe")
    async def describe_rules(preset: str = "classic", overrides: str = "{}") -> dict[str, Any]:
        changes = inputs.parse_json(overrides, "overrides")
        if not isinstance(changes, dict):
            raise WebError(400, "malformed", 'overrides must be a JSON object of rules, e.g. {"knock_limit": 7}')
        rules = Rules.from_json({"preset": preset, "overrides": changes})
        return {"rules": rules.to_json(), "lines": rules.describe()}

    @r.post("/games", status_code=201)
    async def create(request: Request) -> dict[str, Any]:
        data = await inputs.read_object(request)
        unknown = sorted(set(data) - set(GAME_FIELDS))
        if unknown:
            raise WebError(400, "malformed", f"unknown field {shown(unknown[0])}: a new game takes {', '.join(GAME_FIELDS)}")
        players, others = _seat_mix(data)
        rules = Rules.from_json(data.get("rules", "classic"))
        names = data.get("names")
        if names is not None and not (isinstance(names, list) and len(names) <= players):
            count = ("two", "three", "four")[players - 2]
            raise WebError(400, "malformed", f"names must be a list of at most {count} names, one per seat")
        clean = [inputs.clean_name(n, f"name {i + 1}", empty_ok=True) if n is not None else "" for i, n in enumerate(names or [])]
        game_id, tokens = service.create(rules=rules, names=clean, player=me(request), others=others)
        room = service.rooms[game_id]  # just made and stored here: nothing to read again
        service.kick_computer(room)
        out: dict[str, Any] = {
            "id": game_id, "seat": 0, "players": players, "token": tokens[0], "url": f"/table/{game_id}#t={tokens[0]}"
        }
        # Each friend's own link: the seat's token travels in the fragment only.
        out["invites"] = [
            {"seat": s, "name": room.row.names[s], "token": tokens[s], "url": f"/table/{game_id}#t={tokens[s]}"}
            for s in range(1, players)
            if others[s - 1] == HUMAN
        ]
        if players == 2 and others[0] == HUMAN:
            out["invite_token"] = tokens[1]
            out["invite_url"] = f"/table/{game_id}#t={tokens[1]}"
        return out

    @r.get("/games/{game_id}")
    async def public(game_id: str, request: Request) -> dict[str, Any]:
        """Public facts only (names, score sheet): for its players, and everyone once shared."""
        return service.public(await visible_room(game_id, request))

    @r.post("/games/{game_id}/share")
    async def share(game_id: str, request: Request) -> dict[str, Any]:
        """A player opens the game to everyone (``{"shared": true}``) or closes it again."""
        data = await inputs.read_object(request)  # first: no wait between taking the room and changing it
        room = await service.room(game_id)
        if room.row.seat_of_player(me(request)) is None:
            service.seat_of(room, _token(request))  # or the seat's token
        shared = data.get("shared")
        if not isinstance(shared, bool):
            raise WebError(400, "malformed", "shared must be true or false")
        service.share(room, shared)
        return {"id": game_id, "shared": shared}

    @r.get("/games/{game_id}/state")
    async def state(game_id: str, request: Request) -> dict[str, Any]:
        room, seat = await seat_room(game_id, request)
        return service.state(room, seat)

    @r.post("/games/{game_id}/actions")
    async def act(game_id: str, request: Request) -> dict[str, Any]:
        data = await inputs.read_object(request)  # first: no wait between taking the room and changing it
        room, seat = await seat_room(game_id, request)
        await service.act(room, seat, data.get("action"), data.get("seq"))
        return service.state(room, seat)

    @r.post("/games/{game_id}/auto")
    async def auto(game_id: str, request: Request) -> dict[str, Any]:
        data = await inputs.read_object(request)  # first: no wait between taking the room and changing it
        room, seat = await seat_room(game_id, request)
        await service.auto(room, seat, data.get("seq"))
        return service.state(room, seat)

    @r.post("/games/{game_id}/next")
    async def next_hand(game_id: str, request: Request) -> dict[str, Any]:
        room, seat = await seat_room(game_id, request)
        await service.next_hand(room, seat)
        return service.state(room, seat)

    @r.post("/games/{game_id}/name")
    async def set_name(game_id: str, request: Request) -> dict[str, Any]:
        data = await inputs.read_object(request)  # first: no wait between taking the room and changing it
        room, seat = await seat_room(game_id, request)
        await service.set_name(room, seat, data.get("name"))
        return service.state(room, seat)

    @r.get("/games/{game_id}/hint")
    async def hint(game_id: str, request: Request) -> dict[str, Any]:
        room, seat = await seat_room(game_id, request)
        return {"hints": await service.hint(room, seat)}

    @r.get("/history")
    async def history_list(request: Request) -> dict[str, Any]:
        """The caller's finished games."""
        mine = store.finished_hands(player=me(request))
        return {"games": [history.game_summary(g, h) for g, h in mine]}

    @r.get("/games")
    async def games_list(request: Request, status: str | None = None) -> dict[str, Any]:
        """The caller's games, ``status`` ``playing`` or ``finished`` (both when left out)."""
        if status is not None:
            inputs.choose(status, ("playing", "finished"), "status")
        mine = store.list_games(status, player=me(request))
        return {"games": [history.game_summary(g, []) for g in mine]}

    @r.get("/stats")
    async def stats(request: Request) -> dict[str, Any]:
        """The caller's statistics over their finished games, and their opponents'."""
        return history.statistics(store, me(request))

    @r.get("/games/{game_id}/replay")
    async def replay(game_id: str, request: Request) -> dict[str, Any]:
        return history.replay(store, game_id, me(request))

    @r.get("/games/{game_id}/record")
    async def record(game_id: str, request: Request) -> Response:
        data = history.record(store, game_id, me(request))
        return Response(
            json.dumps(data, indent=1),
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="ginrummy-{game_id}.json"'},
        )

    @r.websocket("/ws/{game_id}")
    async def ws(websocket: WebSocket, game_id: str) -> None:
        await seat_socket(service, websocket, game_id)

    return r


def _seat_mix(data: dict[str, Any]) -> tuple[int, list[str]]:
    """How many play (``players``: 2, 3 or 4) and who plays each seat after the creator's
    (``seats``: one entry per other seat, "human" or a computer strength; or, with two players,
    ``opponent``), each checked with a 400 that names the problem."""
    players = data.get("players", 2)
    if isinstance(players, bool) or players not in (2, 3, 4):
        raise WebError(400, "malformed", f"players must be 2, 3 or 4, not {shown(players)}")
    seats = data.get("seats")
    if seats is None:
        opponent = inputs.choose(data.get("opponent", "simple"), [*STRENGTHS, HUMAN], "opponent")
        return players, [opponent] * (players - 1)
    if "opponent" in data:
        raise WebError(400, "malformed", "give either opponent (a two-player game) or seats, not both")
    if not isinstance(seats, list) or len(seats) != players - 1:
        raise WebError(
            400, "malformed",
            f"seats must be a list of {players - 1} players for the other seats of a {players}-player game, "
            f'each "human" (a friend, by link) or a computer strength ({", ".join(STRENGTHS)})',
        )
    return players, [inputs.choose(s, [*STRENGTHS, HUMAN], f"seat {i + 2}") for i, s in enumerate(seats)]


async def seat_socket(service: GameService, websocket: WebSocket, game_id: str) -> None:
    """One seat's live connection: ``hello`` with the token first, then actions; states come back.

    A bad hello is answered with an ``error`` message and the socket closed (4403 for a wrong
    token, 1009 for a hello over the size limit, 4400 otherwise). After it, every bad message is
    answered with an ``error`` message and the socket stays open.
    """
    await websocket.accept()
    try:
        hello = await asyncio.wait_for(_receive(websocket), timeout=30)
        if not isinstance(hello, dict) or hello.get("type") != "hello":
            raise WebError(400, "malformed", "the first message must be {'type': 'hello', 'token': ...}")
        room = await service.room(game_id)
        seat = service.seat_of(room, hello.get("token"))
        if (who := player_of(websocket)) is not None:
            service.claim(room, seat, who)
    except (TimeoutError, WebError, GinRummyError, ValueError) as e:
        _, body = describe(e)
        status = e.status if isinstance(e, WebError) else 400
        with contextlib.suppress(Exception):
            await websocket.send_json({"type": "error", **body})
            await websocket.close(code={403: 4403, 413: 1009}.get(status, 4400))
        return
    except WebSocketDisconnect:
        return
    conn = service.connect(room, seat)
    sender = asyncio.create_task(_sender(websocket, conn))
    try:
        while True:
            try:
                msg = await _receive(websocket)
            except WebError as e:
                conn.send({"type": "error", **describe(e)[1]})
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


async def _receive(websocket: WebSocket) -> Any:
    """The next message as JSON, refused (WebError) when too large, not JSON or nested too deeply."""
    message = await websocket.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    text = message.get("text")
    raw: str | bytes = text if text is not None else message.get("bytes") or b""
    size = len(raw.encode()) if isinstance(raw, str) else len(raw)
    if size > inputs.MAX_MESSAGE:
        raise inputs.too_large("a message", inputs.MAX_MESSAGE, size)
    return inputs.parse_json(raw, "a message")


async def _sender(websocket: WebSocket, conn: Connection) -> None:
    """Write queued messages in order; one writer per socket, so broadcasting never waits on a slow client."""
    while True:
        await websocket.send_text(await conn.queue.get())


async def _handle(service: GameService, room: Room, conn: Connection, msg: Any) -> None:
    """One client message; every error becomes an ``error`` message to that connection only."""
    ref = inputs.check_ref(msg.get("ref")) if isinstance(msg, dict) else None
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
        elif kind == "pace":
            await service.set_pace(room, seat, msg.get("seconds"))
        elif kind == "hint":
            conn.send({"type": "hint", "ref": ref, "hints": await service.hint(room, seat)})
        elif kind == "state":
            await service.catch_up(room)
            conn.send_state(encode(service.state(room, seat)), asked=True)
        elif kind == "ping":
            conn.send({"type": "pong", "ref": ref})
        else:
            raise WebError(400, "malformed", f"unknown message type {shown(kind)}: send one of {', '.join(MESSAGE_TYPES)}")
    except Exception as e:  # noqa: BLE001 - mapped in one place, never kills the socket
        status, body = describe(e)
        if status >= 500:
            log.exception("error handling a %s message", shown(msg.get("type")) if isinstance(msg, dict) else "non-object")
        conn.send({"type": "error", "ref": ref, **body})
        if body.get("error") == "stale":
            conn.send_state(encode(service.state(room, conn.seat)), asked=True)


#: The messages a seat may send after its hello.
MESSAGE_TYPES = ("action", "auto", "next", "name", "pace", "hint", "state", "ping")
