"""The scorekeeper for games played with real cards: ``GET /scorekeeper`` and ``/api/scorekeeper/...``.

Players enter each hand as it ended (who knocked and both counts after layoffs, or gin, big gin,
a dead hand); the server scores it with the same :func:`~ginrummy.scoring.score_hand` and
:class:`~ginrummy.scoresheet.ScoreSheet` the engine uses, so a hand scored here can never disagree with
a hand played in the app, under any rule set (Oklahoma and Hollywood included).

No account: a sheet is identified by an unguessable id (``secrets.token_urlsafe``) that the page
keeps in the browser's ``localStorage``; whoever has the id can read and change the sheet, like a
paper score pad on the table. The server stores the *entries* (what the players typed), never
derived totals, and recomputes the sheet from them on every request: a correction to hand 2
therefore changes everything after it, exactly as re-adding the column by hand would.

API (hand numbers start at 1, as players say "hand 3"):

- ``POST /api/scorekeeper/sheets`` ``{"names": ["You", "Sam"], "rules": {"preset": "classic",
  "overrides": {...}}}`` -> 201 and the sheet (``"rules"`` may also be a bare preset name).
- ``GET /api/scorekeeper/sheets/{id}`` -> the sheet.
- ``POST /api/scorekeeper/sheets/{id}/hands`` with a hand entry -> 201 and the sheet.
- ``PUT /api/scorekeeper/sheets/{id}/hands/{n}`` with a hand entry -> the corrected sheet.
- ``DELETE /api/scorekeeper/sheets/{id}/hands/{n}`` -> the sheet without hand n.
- ``DELETE /api/scorekeeper/sheets/{id}`` -> 204.

A hand entry: ``{"knocker": "You", "deadwood": {"You": 3, "Sam": 25}}``; gin:
``{"knocker": "Sam", "gin": true, "deadwood": {"You": 14}}``; big gin: ``"big_gin": true``; a dead
hand: ``{"dead": true}``. ``knocker`` may be a name or a seat 0/1, ``deadwood`` a name map or a
two-item list in seat order (:func:`ginrummy.scorekeeper.normalize_entry`, which ``ginrummy
score`` uses too). Oklahoma hands add ``"upcard": "7s"`` (it sets the knock limit and the spade
doubling; a hand without it is refused). Every check of an entry is the scorekeeper's
(:func:`ginrummy.scorekeeper.hand_result`), so the page and the command line refuse the same
entries in the same words. Mistakes answer 4xx with ``{"error", "rule", "message"}``; the
message names the rule, e.g. "cannot knock: deadwood 14 is over the knock limit 10".
"""

from __future__ import annotations

import json
import re
import secrets
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response

from .. import words
from ..errors import GinRummyError, IllegalActionError, RulesError, shown
from ..rules import Rules
from ..scorekeeper import ScoreInputError, Scorekeeper, normalize_entry
from ..words import sentence
from .errors import WebError, describe, not_found
from .inputs import clean_name, read_json

router = APIRouter(tags=["scorekeeper"])

STATIC = Path(__file__).resolve().parent / "static"

#: Sheets are addressed by this many random bytes (base64url: 22 characters), enough that ids
#: cannot be guessed or enumerated.
ID_BYTES = 16
_ID_RE = re.compile(r"^[A-Za-z0-9_-]{16,64}$")
#: Guard rails: no real game has this many hands (names are bounded by ``inputs.MAX_NAME``).
MAX_HANDS = 300

_SCHEMA = """CREATE TABLE IF NOT EXISTS scorekeeper_sheets (
    id TEXT PRIMARY KEY,
    names TEXT NOT NULL,
    rules TEXT NOT NULL,
    entries TEXT NOT NULL,
    created REAL NOT NULL,
    updated REAL NOT NULL
)"""


# ---------------------------------------------------------------------------------------------
# Errors
# ---------------------------------------------------------------------------------------------


class EntryError(GinRummyError):
    """A hand entry or sheet request that is malformed; ``rule`` names what it breaks (422)."""

    def __init__(self, message: str, rule: str = "entry") -> None:
        super().__init__(message)
        self.rule = rule


def _error_response(exc: BaseException) -> JSONResponse:
    """Errors become JSON the page shows as is: ``{"error", "rule", "message"}``."""
    if isinstance(exc, (EntryError, ScoreInputError)):
        return JSONResponse({"error": "entry", "rule": exc.rule, "message": sentence(str(exc))}, status_code=422)
    if isinstance(exc, IllegalActionError):
        return JSONResponse({"error": "illegal", "rule": exc.rule, "message": sentence(str(exc))}, status_code=422)
    status, body = describe(exc)
    if isinstance(exc, RulesError):
        body.setdefault("rule", "rules")
    return JSONResponse(body, status_code=status)


# ---------------------------------------------------------------------------------------------
# Hand entries
# ---------------------------------------------------------------------------------------------


# ---------------------------------------------------------------------------------------------
# Sheets
# ---------------------------------------------------------------------------------------------


def _names(raw: Any) -> tuple[str, str]:
    if raw is None:
        return ("Player 1", "Player 2")
    if not isinstance(raw, Sequence) or isinstance(raw, str) or len(raw) != 2:
        raise EntryError("names must be a list of two player names", rule="players")
    out: list[str] = []
    for i, n in enumerate(raw):
        try:
            n = clean_name(n, f"the name of player {i + 1}", empty_ok=True)
        except WebError as e:
            raise EntryError(str(e), rule="players") from None
        out.append(n or f"Player {i + 1}")
    if out[0].casefold() == out[1].casefold():
        raise EntryError(f"the two players need different names (both are {out[0]!r})", rule="players")
    return out[0], out[1]


def _rules(raw: Any) -> Rules:
    if raw is None:
        return Rules()
    if isinstance(raw, Mapping) and "preset" not in raw and "overrides" not in raw:
        raise RulesError('rules must be a preset name or {"preset": "classic", "overrides": {...}}')
    rules = Rules.from_json(raw)
    return rules


class Sheet:
    """One stored sheet: players, rules and the entries, and the ledger computed from them."""

    def __init__(self, sheet_id: str, names: tuple[str, str], rules: Rules, entries: list[dict[str, Any]],
                 created: float, updated: float) -> None:
        self.id = sheet_id
        self.names = names
        self.rules = rules
        self.entries = entries
        self.created = created
        self.updated = updated
        self.keeper = build(rules, entries, names)
        self.ledger = self.keeper.sheet

    def to_json(self) -> dict[str, Any]:
        """Everything the page draws: each hand with its points and running totals, then the end."""
        names, rules, ledger = self.names, self.rules, self.ledger
        hands = []
        for row, entry in zip(ledger.rows, self.entries, strict=True):
            r = row.result
            hands.append(
                {
                    "number": row.index + 1,
                    "entry": entry,
                    "kind": r.kind,
                    "winner": r.winner,
                    "winner_name": None if r.winner is None else names[r.winner],
                    "points": r.points,
                    "extra_boxes": r.extra_boxes,
                    "multiplier": r.multiplier,
                    "written": list(row.written),
                    "totals": [list(t) for t in row.totals],
                    "closed": list(row.closed),
                    "explain": r.explain(names),
                }
            )
        games = ledger.games
        over = ledger.is_over
        final = ledger.final() if over else None
        out: dict[str, Any] = {
            "id": self.id,
            "names": list(names),
            "rules": rules.to_json(),
            "rules_summary": rules.describe(),
            "target": rules.target,
            "hollywood": rules.hollywood,
            "oklahoma": rules.oklahoma,
            "big_gin": rules.big_gin,
            "straight_gin": rules.straight_gin,
            "upcard": rules.upcard,
            "knock_limit": rules.knock_limit,
            "games": games,
            "hands": hands,
            "scores": [list(ledger.game_scores(g)) for g in range(games)],
            "game_open": [ledger.game_open(g) for g in range(games)],
            "hands_won": list(ledger.hands_won),
            "over": over,
            "created": self.created,
            "updated": self.updated,
            "final": None,
        }
        if final is not None:
            f = final.to_json()
            f["winner_name"] = None if final.winner is None else names[final.winner]
            f["explain"] = final.explain(names)
            f["games"] = [g.to_json() for g in final.games]
            out["final"] = f
            out["totals"] = list(final.totals)
            out["margin"] = final.margin
            out["winner"] = final.winner
        else:
            out["totals"] = None
            out["margin"] = None
            out["winner"] = None
        return out


def build(rules: Rules, entries: Sequence[Mapping[str, Any]], names: Sequence[str]) -> Scorekeeper:
    """Replay the entries through the scorekeeper; an error names the hand it comes from.

    Replaying (rather than patching a ledger) is what makes a correction to an early hand
    recompute every total, bonus and game ending after it.
    """
    keeper = Scorekeeper(rules, players=tuple(names))
    for entry in entries:
        keeper.add(entry)
    return keeper


def _conn_setup(conn: Any) -> None:
    conn.execute(_SCHEMA)


def create_tables(store: Any) -> None:
    """The sheets' table, made once when the app starts (then each request's check is a no-op)."""
    store.ensure_table(_SCHEMA)


def _load(conn: Any, sheet_id: str) -> Sheet:
    if not _ID_RE.match(sheet_id):
        raise not_found(f"no score sheet {shown(sheet_id)}")
    _conn_setup(conn)
    row = conn.execute(
        "SELECT id, names, rules, entries, created, updated FROM scorekeeper_sheets WHERE id = ?", (sheet_id,)
    ).fetchone()
    if row is None:
        raise not_found(f"no score sheet {shown(sheet_id)}: it may have been deleted; start a new game")
    names = tuple(json.loads(row[1]))
    return Sheet(row[0], (names[0], names[1]), Rules.from_json(json.loads(row[2])), json.loads(row[3]), row[4], row[5])


def _save(conn: Any, sheet: Sheet, entries: list[dict[str, Any]]) -> Sheet:
    """Check the new entries by building their ledger, then store them; nothing is stored on error."""
    new = Sheet(sheet.id, sheet.names, sheet.rules, entries, sheet.created, time.time())
    conn.execute(
        "UPDATE scorekeeper_sheets SET entries = ?, updated = ? WHERE id = ?",
        (json.dumps(entries), new.updated, sheet.id),
    )
    return new


def _store(request: Request) -> Any:
    store = getattr(request.app.state, "store", None)
    if store is None:
        raise WebError(503, "unavailable", "the scorekeeper has no database configured")
    return store


async def _body(request: Request) -> Any:
    """The body as JSON; a body that is not JSON (or nests too deeply) is a mistake in the entry (422)."""
    try:
        return await read_json(request)
    except WebError as e:
        if e.status != 400:
            raise  # too large: 413
        raise EntryError(str(e)) from None


def _hand_index(sheet: Sheet, number: int) -> int:
    if not 1 <= number <= len(sheet.entries):
        raise WebError(
            404, "not_found",
            f"no hand {shown(number)} on this sheet: it has {len(sheet.entries)} hand{'s' if len(sheet.entries) != 1 else ''}",
        )
    return number - 1


def _changed_ending(exc: GinRummyError, number: int, what: str) -> GinRummyError:
    """A correction that would end the game before the last hand: say which hand and what to do."""
    if getattr(exc, "rule", "") != "game_over":
        return exc
    return EntryError(
        f"cannot {what} hand {number}: the game would then be over before the last hand on the sheet; "
        "delete the later hands first",
        rule="game_over",
    )


# ---------------------------------------------------------------------------------------------
# Routes
# ---------------------------------------------------------------------------------------------


@router.get("/scorekeeper", response_class=HTMLResponse, include_in_schema=False)
def page() -> FileResponse:
    """The scorekeeper page; it finds its sheet id in localStorage."""
    return FileResponse(STATIC / "scorekeeper.html", media_type="text/html")


@router.get("/scorekeeper/static/{name}", include_in_schema=False)
def asset(name: str) -> Response:
    """The page's own script and stylesheet, and the site's shared script (its header and display
    options, ``common.js``), served here so the page works whatever else is mounted."""
    types = {"scorekeeper.js": "text/javascript", "scorekeeper.css": "text/css", "common.js": "text/javascript"}
    if name not in types:
        return JSONResponse({"error": "not_found", "message": f"no file {shown(name)}"}, status_code=404)
    return FileResponse(STATIC / name, media_type=types[name], headers={"Cache-Control": "no-cache"})


@router.get("/api/scorekeeper/presets")
def presets() -> dict[str, Any]:
    """Every preset's full rule values, so the page can show a preset's figures and send only changes."""
    from dataclasses import asdict

    from ..rules import PRESETS

    out = {}
    for name in PRESETS:
        values = asdict(Rules.preset(name))
        values.pop("name")
        out[name] = values
    # The players' words for each preset, rule and choice (one home: ginrummy.words).
    labels = {
        name: {"label": label, "help": help_text, "choices": words.CHOICE_LABELS.get(name, {})}
        for name, (label, help_text) in words.RULE_LABELS.items()
    }
    return {
        "presets": out,
        "default": "classic",
        "preset_labels": dict(words.PRESET_LABELS),
        "rule_labels": labels,
    }


@router.post("/api/scorekeeper/sheets", status_code=201)
async def create_sheet(request: Request) -> Response:
    """Start a sheet: two names and a rule set. Returns the sheet with its new unguessable id."""
    try:
        body = await _body(request)
        if not isinstance(body, Mapping):
            raise EntryError('send {"names": ["You", "Sam"], "rules": {"preset": "classic", "overrides": {}}}')
        unknown = sorted(set(body) - {"names", "rules"})
        if unknown:
            more = f" and {len(unknown) - 3} more" if len(unknown) > 3 else ""
            raise EntryError(f"unknown field: {', '.join(str(k)[:40] for k in unknown[:3])}{more} (use names, rules)")
        names = _names(body.get("names"))
        rules = _rules(body.get("rules"))
        sheet_id = secrets.token_urlsafe(ID_BYTES)
        now = time.time()
        with _store(request).connection() as conn:
            _conn_setup(conn)
            conn.execute(
                "INSERT INTO scorekeeper_sheets (id, names, rules, entries, created, updated) VALUES (?, ?, ?, ?, ?, ?)",
                (sheet_id, json.dumps(list(names)), json.dumps(rules.to_json()), "[]", now, now),
            )
        sheet = Sheet(sheet_id, names, rules, [], now, now)
    except (GinRummyError, WebError) as e:
        return _error_response(e)
    return JSONResponse(sheet.to_json(), status_code=201)


@router.get("/api/scorekeeper/sheets/{sheet_id}")
def get_sheet(sheet_id: str, request: Request) -> Response:
    """The whole sheet: hands, points, running totals, and once over the bonuses and the margin."""
    try:
        with _store(request).connection() as conn:
            sheet = _load(conn, sheet_id)
    except (GinRummyError, WebError) as e:
        return _error_response(e)
    return JSONResponse(sheet.to_json())


@router.delete("/api/scorekeeper/sheets/{sheet_id}", status_code=204)
def delete_sheet(sheet_id: str, request: Request) -> Response:
    """Throw a sheet away (the page's "Delete this game")."""
    try:
        with _store(request).connection() as conn:
            _load(conn, sheet_id)
            conn.execute("DELETE FROM scorekeeper_sheets WHERE id = ?", (sheet_id,))
    except (GinRummyError, WebError) as e:
        return _error_response(e)
    return Response(status_code=204)


@router.post("/api/scorekeeper/sheets/{sheet_id}/hands", status_code=201)
async def add_hand(sheet_id: str, request: Request) -> Response:
    """Score the next hand and write it on the sheet."""
    try:
        body = await _body(request)
        with _store(request).connection() as conn:
            sheet = _load(conn, sheet_id)
            if len(sheet.entries) >= MAX_HANDS:
                raise EntryError(f"a sheet holds at most {MAX_HANDS} hands", rule="hands")
            if sheet.ledger.is_over:
                last = sheet.ledger.final().explain(sheet.names)[-1]
                raise EntryError(f"the game is over: {last} Start a new game for more hands.", rule="game_over")
            entry = normalize_entry(body, sheet.names)
            sheet = _save(conn, sheet, [*sheet.entries, entry])
    except (GinRummyError, WebError) as e:
        return _error_response(e)
    return JSONResponse(sheet.to_json(), status_code=201)


@router.put("/api/scorekeeper/sheets/{sheet_id}/hands/{number}")
async def correct_hand(sheet_id: str, number: int, request: Request) -> Response:
    """Correct hand ``number``: every total after it is recomputed."""
    try:
        body = await _body(request)
        with _store(request).connection() as conn:
            sheet = _load(conn, sheet_id)
            i = _hand_index(sheet, number)
            entry = normalize_entry(body, sheet.names)
            entries = list(sheet.entries)
            entries[i] = entry
            try:
                sheet = _save(conn, sheet, entries)
            except GinRummyError as e:
                raise _changed_ending(e, number, "correct") from None
    except (GinRummyError, WebError) as e:
        return _error_response(e)
    return JSONResponse(sheet.to_json())


@router.delete("/api/scorekeeper/sheets/{sheet_id}/hands/{number}")
def delete_hand(sheet_id: str, number: int, request: Request) -> Response:
    """Take hand ``number`` off the sheet (a hand entered twice, say); later hands move up."""
    try:
        with _store(request).connection() as conn:
            sheet = _load(conn, sheet_id)
            i = _hand_index(sheet, number)
            entries = [e for j, e in enumerate(sheet.entries) if j != i]
            try:
                sheet = _save(conn, sheet, entries)
            except GinRummyError as e:
                raise _changed_ending(e, number, "delete") from None
    except (GinRummyError, WebError) as e:
        return _error_response(e)
    return JSONResponse(sheet.to_json())
