"""Hypothesis fuzzes every HTTP route and every WebSocket message: bad input is a 4xx, never a 5xx,
and a refused request changes nothing.

The routes are read from ``app.routes``; each needs an entry in :data:`SPECS` (what its path
parameters, query keys and body fields are), so a new route fails
``test_every_route_has_a_fuzz_strategy`` until it is fuzzed too. The strategies draw both
near-valid input (the real game id and token, the route's own field names, the game's real
``seq``) and garbage (any JSON, deep nesting, huge text, bytes that are not JSON). Examples are
derandomized, so CI runs the same ones every time.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.websockets import WebSocketDisconnect

from ginrummy.web import inputs
from ginrummy.web.app import MESSAGE_TYPES, create_app


def fuzz(examples: int) -> settings:
    """Derandomized (the same examples on every run, so CI is deterministic), no example database."""
    return settings(
        max_examples=examples,
        derandomize=True,
        database=None,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )


#: Stand-ins the runner replaces with the live game's values, so some requests come near to valid.
GAME, SHEET, TOKEN, OTHER_TOKEN, SEQ = "$game", "$sheet", "$token", "$other", "$seq"
#: A score sheet of four players in two teams (a hand is two tables) beside the two-player one.
TEAM_SHEET = "$teams"
#: The token of the seat whose turn it is (its requests get past the turn check to the action's own).
CURRENT = "$current"


# -- what the app exposes ---------------------------------------------------------------------


def route_keys(app: Any) -> set[tuple[str, str]]:
    """``(method, path)`` of every HTTP route, ``("WS", path)`` of each WebSocket, ``("MOUNT", path)`` of mounts.

    Included routers are walked (FastAPI keeps their routes behind ``effective_route_contexts``).
    """
    out: set[tuple[str, str]] = set()

    def add(route: Any) -> None:
        methods = getattr(route, "methods", None)
        if methods:
            out.update((m, route.path) for m in methods if m != "HEAD")
        elif hasattr(route, "routes") and not hasattr(route, "endpoint"):
            out.add(("MOUNT", route.path))
        else:
            out.add(("WS", route.path))

    for route in app.routes:
        if hasattr(route, "effective_route_contexts"):
            for context in route.effective_route_contexts():
                add(context.original_route)
        else:
            add(route)
    return out


# -- strategies -------------------------------------------------------------------------------

short_text = st.text(max_size=30)
huge_text = st.integers(100, 70_000).map(lambda n: "x" * n)
numbers = st.one_of(st.integers(-3, 400), st.integers(-(10**40), 10**40), st.floats(allow_nan=True))
scalars = st.one_of(st.none(), st.booleans(), numbers, short_text, huge_text)


def json_of(leaves: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return st.recursive(leaves, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(short_text, inner, max_size=4),
                        max_leaves=12)


json_values = json_of(scalars)
#: JSON that fits in an address (the HTTP client refuses a query over 64 KiB).
small_json = json_of(st.one_of(st.none(), st.booleans(), numbers, short_text))


def deep(depth: int, opener: str = "[") -> str:
    closer = {"[": "]", "{": "}"}[opener]
    if opener == "{":
        return '{"a":' * depth + "1" + closer * depth
    return opener * depth + closer * depth


deep_json = st.tuples(st.integers(inputs.MAX_DEPTH - 2, 30_000), st.sampled_from("[{")).map(lambda t: deep(*t))
#: Text that is not JSON at all, or not UTF-8.
not_json = st.one_of(st.text(max_size=40).map(lambda s: "{" + s), st.binary(max_size=60))

#: Values a field of a real request might hold: the live game's seq, actions, names, rules, anything.
field_values = st.one_of(
    json_values,
    st.just(SEQ),
    st.sampled_from(["stock", "pile", "pass", "done", "knock Kd", "meld As 2s 3s", "layoff 7h 0", "Ks", "big gin"]),
    st.sampled_from(["classic", "online", "clasic", "simple", "expert", "human", "exprt", "finished", "playing"]),
    st.fixed_dictionaries({}, optional={"preset": json_values, "overrides": st.dictionaries(
        st.sampled_from(["target", "knock_limit", "gin_bonus", "big_gin", "shutout", "knock_limt"]) | short_text,
        json_values, max_size=3)}),
)


#: The players of the live sheets (and strangers), for near-valid hands, names and first dealers.
PLAYERS = ["Ann", "Bo", "Cy", "Di", "ann", "Zed", 0, 3, 7]
table_entries = st.fixed_dictionaries({}, optional={
    "knocker": st.sampled_from(PLAYERS) | json_values,
    "deadwood": st.dictionaries(st.sampled_from(PLAYERS[:6]) | short_text, st.integers(-2, 120) | json_values, max_size=3),
    "gin": st.booleans(), "dead": st.booleans(), "upcard": st.sampled_from(["7s", "Kd", "", "x"]),
})
#: Fields that the server checks first get the live value more often, so the checks after them run.
FIELDS: dict[str, st.SearchStrategy[Any]] = {
    "seq": st.one_of(st.just(SEQ), st.just(SEQ), field_values),
    "tables": st.one_of(st.lists(table_entries, max_size=3), field_values),
    "names": st.one_of(st.lists(st.sampled_from(PLAYERS) | short_text, max_size=6), field_values),
    "first_dealer": st.one_of(st.sampled_from(PLAYERS), field_values),
    # The seat count and mix of a new game: near-valid (2 to 4 players, human or a strength each) or anything.
    "players": st.one_of(st.integers(0, 6), st.just(3), st.just(4), field_values),
    "seats": st.one_of(
        st.lists(st.sampled_from(["human", "simple", "expert", "random", "exprt", ""]), max_size=5),
        st.lists(json_values, max_size=4),
        field_values,
    ),
}


def objects(keys: tuple[str, ...]) -> st.SearchStrategy[Any]:
    """JSON objects with every one of the route's own fields, or some of them (and sometimes a stray one)."""
    values = {k: FIELDS.get(k, field_values) for k in keys}
    return st.fixed_dictionaries(values, optional={"ref": json_values}) | st.fixed_dictionaries(
        {}, optional={**values, "ref": json_values, "colour": json_values})


def bodies(keys: tuple[str, ...]) -> st.SearchStrategy[bytes | Any]:
    """A request body: an object of the route's fields (most often), any JSON, deep nesting, a huge body, not JSON."""
    return st.one_of(
        objects(keys),
        objects(keys),
        objects(keys),
        json_values,
        deep_json.map(str.encode),
        not_json.map(lambda v: v if isinstance(v, bytes) else v.encode()),
        st.integers(inputs.MAX_BODY - 10, inputs.MAX_BODY + 500).map(lambda n: b'{"a": "' + b"y" * n + b'"}'),
        st.none(),
    )


#: Long enough to pass the app's address limit, short enough for the HTTP client to send.
long_segment = st.integers(100, 12_000).map(lambda n: "x" * n)


def ids(live: str) -> st.SearchStrategy[str]:
    return st.one_of(st.just(live), st.text(min_size=1, max_size=20), long_segment, st.sampled_from(["..", "%", "0" * 12]))


path_params: dict[str, st.SearchStrategy[str]] = {
    "game_id": ids(GAME),
    "sheet_id": st.one_of(ids(SHEET), st.just(TEAM_SHEET)),
    "number": st.one_of(st.integers(-2, 400).map(str), st.integers(10**20, 10**30).map(str), st.text(min_size=1, max_size=12)),
    "name": st.one_of(st.sampled_from(["scorekeeper.js", "scorekeeper.css", "../app.py", "index.html"]), short_text),
    "path": st.one_of(st.sampled_from(["table.js", "style.css", "../app.py", "../../errors.py", "nosuch.js"]), short_text),
}
header_text = st.text(st.characters(min_codepoint=32, max_codepoint=126), max_size=40)
headers = st.fixed_dictionaries(
    {"X-Seat-Token": st.sampled_from([TOKEN, OTHER_TOKEN, "", "t" * 6000]) | header_text},
    optional={
        "Authorization": st.one_of(st.just("Bearer " + TOKEN), header_text),
        "Content-Type": st.one_of(st.just("application/json"), header_text),
        "Accept": header_text,
    },
)


#: The live value of each path parameter (the stand-ins are filled in per request).
LIVE = {"game_id": GAME, "sheet_id": SHEET, "number": "1", "name": "scorekeeper.js", "path": "table.js"}


@dataclass(frozen=True)
class Spec:
    """How to fuzz one route: its query keys and body fields (``None``: it reads no body)."""

    query: tuple[str, ...] = ()
    body: tuple[str, ...] | None = None


RULE_QUERY = ("preset", "rules", "target", "knock_limit", "big_gin", "shutout", "knock_limt", "names", "hands")
GAME_BODY = ("action", "seq")
#: A hand entry's fields: two or three players' (the two who played), a team game's "tables".
HAND_BODY = ("knocker", "deadwood", "gin", "big_gin", "dead", "upcard", "players", "tables")

#: Every route of the app. A route missing here fails the test below: add how to fuzz it.
SPECS: dict[tuple[str, str], Spec] = {
    ("GET", "/openapi.json"): Spec(),
    ("GET", "/"): Spec(),
    ("GET", "/favicon.ico"): Spec(),
    ("GET", "/table/{game_id}"): Spec(),
    ("GET", "/history"): Spec(),
    ("GET", "/fair"): Spec(),
    ("GET", "/replay/{game_id}"): Spec(),
    ("GET", "/rules"): Spec(RULE_QUERY),
    ("GET", "/scoresheet"): Spec(RULE_QUERY),
    ("GET", "/scorekeeper"): Spec(),
    ("GET", "/scorekeeper/static/{name}"): Spec(),
    ("GET", "/api/scorekeeper/presets"): Spec(),
    ("POST", "/api/scorekeeper/sheets"): Spec(body=("names", "rules", "first_dealer")),
    ("GET", "/api/scorekeeper/sheets/{sheet_id}"): Spec(),
    ("DELETE", "/api/scorekeeper/sheets/{sheet_id}"): Spec(),
    ("POST", "/api/scorekeeper/sheets/{sheet_id}/hands"): Spec(body=HAND_BODY),
    ("PUT", "/api/scorekeeper/sheets/{sheet_id}/hands/{number}"): Spec(body=HAND_BODY),
    ("DELETE", "/api/scorekeeper/sheets/{sheet_id}/hands/{number}"): Spec(),
    ("GET", "/api/options"): Spec(),
    ("GET", "/api/rules/describe"): Spec(("preset", "overrides")),
    ("POST", "/api/games"): Spec(body=("opponent", "rules", "names", "players", "seats")),
    ("GET", "/api/games"): Spec(("status",)),
    ("GET", "/api/games/{game_id}"): Spec(),
    ("GET", "/api/games/{game_id}/state"): Spec(),
    ("POST", "/api/games/{game_id}/actions"): Spec(body=GAME_BODY),
    ("POST", "/api/games/{game_id}/auto"): Spec(body=GAME_BODY),
    ("POST", "/api/games/{game_id}/next"): Spec(body=GAME_BODY),
    ("POST", "/api/games/{game_id}/name"): Spec(body=("name",)),
    ("GET", "/api/games/{game_id}/hint"): Spec(),
    ("POST", "/api/games/{game_id}/share"): Spec(body=("shared",)),
    ("GET", "/api/history"): Spec(),
    ("GET", "/api/stats"): Spec(),
    ("GET", "/api/games/{game_id}/replay"): Spec(),
    ("GET", "/api/games/{game_id}/record"): Spec(),
    ("WS", "/api/ws/{game_id}"): Spec(),  # fuzzed by the WebSocket tests below
    ("MOUNT", "/static"): Spec(),  # fuzzed as /static/{path}
}


def query_strategy(keys: tuple[str, ...]) -> st.SearchStrategy[dict[str, str]]:
    nests = st.integers(inputs.MAX_DEPTH - 2, 2000).map(deep)
    values = st.one_of(short_text, st.integers().map(str), st.just(str(10**30)), nests, small_json.map(json.dumps),
                       st.integers(1000, 9000).map(lambda n: "q" * n))
    return st.dictionaries(st.sampled_from(keys) if keys else short_text, values, max_size=3) | st.dictionaries(
        short_text, short_text, max_size=2)


# -- the live world the requests aim at -------------------------------------------------------


@dataclass
class World:
    """One game between two people (nothing moves unless a seat acts) and two score sheets (two players; two teams)."""

    client: TestClient
    game: str = ""
    tokens: list[str] = field(default_factory=list)
    sheet: str = ""
    teams: str = ""

    def renew(self) -> None:
        g = self.client.post("/api/games", json={"opponent": "human", "names": ["Ann", "Bo"]}).json()
        self.game, self.tokens = g["id"], [g["token"], g["invite_token"]]
        s = self.client.post("/api/scorekeeper/sheets", json={"names": ["Ann", "Bo"]}).json()
        self.sheet = s["id"]
        r = self.client.post(f"/api/scorekeeper/sheets/{self.sheet}/hands", json={"knocker": "Ann", "deadwood": [3, 20]})
        assert r.status_code == 201, r.text
        s = self.client.post("/api/scorekeeper/sheets", json={"names": ["Ann", "Bo", "Cy", "Di"]}).json()
        self.teams = s["id"]
        hand = {"tables": [{"knocker": "Ann", "deadwood": {"Ann": 3, "Bo": 20}}, {"dead": True}]}
        r = self.client.post(f"/api/scorekeeper/sheets/{self.teams}/hands", json=hand)
        assert r.status_code == 201, r.text

    def snapshot(self) -> tuple[Any, ...]:
        """Seat 0's state of the game (seq, its view, the stored names) and the score sheet's stored row.

        Read from the service and the store directly (no request is in flight between examples).
        """
        app: Any = self.client.app
        room = app.state.games.rooms[self.game]
        stored = app.state.store.get_game(self.game)
        with app.state.store.connection() as conn:
            sheet = [conn.execute("SELECT names, rules, entries FROM scorekeeper_sheets WHERE id = ?", (sid,)).fetchone()
                     for sid in (self.sheet, self.teams)]
        return room.version, room.match.view(0).to_json(), room.table.seats[0].name, stored.names, sheet

    def seq(self) -> int:
        version: int = self.client.app.state.games.rooms[self.game].version  # type: ignore[attr-defined]
        return version

    def fill(self, value: Any) -> Any:
        """Replace the stand-ins with the live values (in a body's top-level fields too)."""
        if isinstance(value, dict):
            return {k: self.fill(v) for k, v in value.items()}
        if isinstance(value, str):
            seq = self.seq() if value == SEQ else None
            app: Any = self.client.app
            current = self.tokens[app.state.games.rooms[self.game].hand.current]
            live = {GAME: self.game, SHEET: self.sheet, TEAM_SHEET: self.teams, TOKEN: self.tokens[0],
                    OTHER_TOKEN: self.tokens[1], SEQ: seq, CURRENT: current}
            if value in live:
                return live[value]
            return value.replace(TOKEN, self.tokens[0])
        return value


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    app = create_app(tmp_path_factory.mktemp("fuzz") / "fuzz.sqlite3", computer_delay=0, compute="thread")
    with TestClient(app, raise_server_exceptions=False) as client:
        w = World(client)
        w.renew()
        yield w


def test_every_route_has_a_fuzz_strategy(world: World) -> None:
    routes = route_keys(world.client.app)
    assert routes - set(SPECS) == set(), "routes with no fuzz strategy: add them to SPECS"
    assert set(SPECS) - routes == set(), "SPECS names routes the app does not have"


HTTP_ROUTES = sorted(k for k in SPECS if k[0] not in ("WS",))


@pytest.mark.parametrize(("method", "path"), HTTP_ROUTES, ids=[f"{m} {p}" for m, p in HTTP_ROUTES])
def test_http_route_answers_bad_input_below_500_and_changes_nothing(world: World, method: str, path: str) -> None:
    spec = SPECS[(method, path)]
    if method == "MOUNT":
        method, path = "GET", path + "/{path}"
    names = [part[1:-1] for part in path.split("/") if part.startswith("{")]
    garbage = {"path": st.fixed_dictionaries({n: path_params[n] for n in names}), "query": query_strategy(spec.query),
               "headers": headers}
    live = {"path": {n: LIVE[n] for n in names}, "query": {}, "headers": {"X-Seat-Token": CURRENT}}
    body = bodies(spec.body) if spec.body is not None else st.one_of(st.none(), bodies(()))

    @st.composite
    def requests(draw: st.DrawFn) -> tuple[dict[str, str], dict[str, str], dict[str, str]]:
        """The live path, query and seat token but for one part (or none, or all) drawn at random."""
        bad = draw(st.sampled_from(["none", "path", "query", "headers", "all"]))
        part = {k: draw(garbage[k]) if bad in (k, "all") else live[k] for k in ("path", "query", "headers")}
        return part["path"], part["query"], part["headers"]

    takes_input = bool(names or spec.query or spec.body)
    examples = 30 if takes_input else 6

    @fuzz(examples)
    @given(request=requests(), body=body)
    def run(request: tuple[dict[str, str], dict[str, str], dict[str, str]], body: Any) -> None:
        params, query, headers = request
        before = world.snapshot()
        url = path.format(**{k: quote(str(world.fill(v)), safe="") for k, v in params.items()})
        content = body if isinstance(body, bytes) or body is None else json.dumps(world.fill(body)).encode()
        sent = {k: str(world.fill(v)) for k, v in headers.items() if v}
        r = world.client.request(method, url, params=query, headers=sent, content=content)
        assert r.status_code < 500, (method, url[:100], r.status_code, r.text[:300])
        if r.headers.get("content-type", "").startswith("application/json") and r.status_code >= 400:
            message = r.json().get("message", "")
            assert len(r.content) < 1000 and "x" * 41 not in message and "y" * 41 not in message, r.text[:300]
        if r.status_code >= 400:
            assert world.snapshot() == before, (method, url[:100], r.status_code, r.text[:300])
        elif method != "GET":
            world.renew()  # it was accepted (a name, a hand, a deletion): start the next example afresh

    run()


# -- the WebSocket ----------------------------------------------------------------------------



def ws_object(kind: str, *fields: str) -> st.SearchStrategy[dict[str, Any]]:
    """A message of one type with its fields, each live or garbage (``seq`` most often the live one)."""
    return st.fixed_dictionaries({"type": st.just(kind), **{f: FIELDS.get(f, field_values) for f in fields}},
                                 optional={"ref": json_values})


ws_objects = st.one_of(
    ws_object("action", "action", "seq"),
    ws_object("action", "action", "seq"),
    ws_object("auto", "seq"),
    ws_object("name", "name"),
    st.sampled_from(["next", "hint", "state", "ping"]).flatmap(ws_object),
    st.fixed_dictionaries({"type": st.one_of(st.sampled_from(MESSAGE_TYPES), json_values, huge_text)},
                          optional={"action": field_values, "seq": field_values, "name": field_values, "ref": json_values}),
)
ws_messages = st.one_of(
    ws_objects,
    ws_objects,
    json_values,
    deep_json.map(lambda s: ("text", s)),
    not_json.map(lambda v: ("bytes", v) if isinstance(v, bytes) else ("text", v)),
    st.sampled_from([inputs.MAX_MESSAGE - 20, inputs.MAX_MESSAGE - 11, inputs.MAX_MESSAGE - 10, 3 * inputs.MAX_MESSAGE])
    .map(lambda n: ("text", '{"type": "' + "z" * n + '"}')),  # the message is n + 12 bytes long
)


def send(ws: Any, world: World, message: Any) -> None:
    if isinstance(message, tuple):
        kind, raw = message
        ws.send_bytes(raw) if kind == "bytes" else ws.send_text(raw)
    else:
        ws.send_text(json.dumps(world.fill(message)))


@fuzz(40)
@given(messages=st.lists(ws_messages, min_size=1, max_size=4))
def test_websocket_messages_after_hello_get_errors_or_states_and_change_nothing(world: World, messages: list[Any]) -> None:
    before = world.snapshot()
    accepted = False
    with world.client.websocket_connect(f"/api/ws/{world.game}") as ws:
        ws.send_json({"type": "hello", "token": world.fill(CURRENT)})  # the seat to move: its actions reach the engine
        assert ws.receive_json()["type"] == "state"
        for i, message in enumerate(messages):
            send(ws, world, message)
            ws.send_json({"type": "ping", "ref": f"sync {i}"})  # everything before the pong answers the message
            errors = 0
            while (reply := ws.receive_json()) != {"type": "pong", "ref": f"sync {i}"}:
                assert reply["type"] in ("state", "error", "hint", "pong"), reply
                if reply["type"] == "error":
                    errors += 1
                    assert reply["error"] != "internal" and len(json.dumps(reply)) < 600, reply
                    assert "z" * 41 not in reply["message"] and "x" * 41 not in reply["message"], reply
            accepted = accepted or not errors
    if not accepted:
        assert world.snapshot() == before
    else:
        world.renew()


@fuzz(25)
@given(game=ids(GAME), hello=ws_messages)
def test_websocket_bad_hello_or_game_is_refused_with_a_clear_close(world: World, game: str, hello: Any) -> None:
    before = world.snapshot()
    url = f"/api/ws/{quote(world.fill(game), safe='')}"
    if len(url) > inputs.MAX_URL or game in ("..", "%2E"):  # refused before it is accepted (414), or no such route
        with pytest.raises(WebSocketDisconnect), world.client.websocket_connect(url):
            pass
        return
    with world.client.websocket_connect(url) as ws:
        send(ws, world, hello)
        reply = ws.receive_json()
        assert reply["type"] == "error" and reply["error"] != "internal", reply
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code in (1009, 4400, 4403), closed.value.code
    assert world.snapshot() == before
