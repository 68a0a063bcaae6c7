"""The scorekeeper for games played with real cards: ``GET /scorekeeper`` and ``/api/scorekeeper/...``.

Players enter each hand as it ended (who knocked and both counts after layoffs, or gin, big gin,
a dead hand); the server scores it with the same :func:`~ginrummy.scoring.score_hand` and
ledgers (:mod:`~ginrummy.scoresheet`, :mod:`~ginrummy.multisheet`) the engine and ``ginrummy score``
use, so a hand scored here can never disagree with a hand played in the app or scored at the command
line, under any rule set (Oklahoma and Hollywood included).

No account: a sheet is identified by an unguessable id (``secrets.token_urlsafe``) that the page
keeps in the browser's ``localStorage``; whoever has the id can read and change the sheet, like a
paper score pad on the table. The server stores the *entries* (what the players typed), never
derived totals, and recomputes the sheet from them on every request: a correction to hand 2
therefore changes everything after it, exactly as re-adding the column by hand would.

API (hand numbers start at 1, as players say "hand 3"):

- ``POST /api/scorekeeper/sheets`` ``{"names": ["You", "Sam"], "rules": {"preset": "classic",
  "overrides": {...}}}`` -> 201 and the sheet (``"rules"`` may also be a bare preset name).
  Three or four names keep a three-player game (the dealer sits out, the loser deals next) or a
  team game (the 1st and 3rd named against the 2nd and 4th); ``"first_dealer"`` says who deals
  hand 1 (default: the third player of three, the first of four). The sheet's ``"next"`` says
  who deals and who plays whom next (:mod:`ginrummy.web.scorekeeper_sheet`).
- ``GET /api/scorekeeper/sheets/{id}`` -> the sheet.
- ``POST /api/scorekeeper/sheets/{id}/hands`` with a hand entry -> 201 and the sheet.
- ``PUT /api/scorekeeper/sheets/{id}/hands/{n}`` with a hand entry -> the corrected sheet.
- ``DELETE /api/scorekeeper/sheets/{id}/hands/{n}`` -> the sheet without hand n.
- ``DELETE /api/scorekeeper/sheets/{id}`` -> 204.

A hand entry: ``{"knocker": "You", "deadwood": {"You": 3, "Sam": 25}}``; gin:
``{"knocker": "Sam", "gin": true, "deadwood": {"You": 14}}``; big gin: ``"big_gin": true``; a dead
hand: ``{"dead": true}``. ``knocker`` may be a name or a seat 0/1, ``deadwood`` a name map or a
two-item list in seat order (:func:`ginrummy.scorekeeper.normalize_entry`, which ``ginrummy
score`` uses too). Three players: the same entry, naming the two who played; four players:
``{"tables": [entry, entry]}``, one entry per table, as ``ginrummy score --players 4`` reads.
Oklahoma hands add ``"upcard": "7s"`` (it sets the knock limit and the spade
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
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response

from .. import words
from ..errors import GinRummyError, IllegalActionError, RulesError, shown
from ..rules import Rules
from ..scorekeeper import ScoreInputError, normalize_entry
from ..words import sentence
from .errors import WebError, describe, not_found
from .inputs import read_json
from .scorekeeper_sheet import EntryError, Sheet, check_first_dealer, check_names, read_names, stored_names

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
# Sheets
# ---------------------------------------------------------------------------------------------


def _rules(raw: Any) -> Rules:
    if raw is None:
        return Rules()
    if isinstance(raw, Mapping) and "preset" not in raw and "overrides" not in raw:
        raise RulesError('rules must be a preset name or {"preset": "classic", "overrides": {...}}')
    rules = Rules.from_json(raw)
    return rules


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
    names, first_dealer = read_names(row[1])
    return Sheet(row[0], names, Rules.from_json(json.loads(row[2])), json.loads(row[3]), row[4], row[5], first_dealer)


def _save(conn: Any, sheet: Sheet, entries: list[dict[str, Any]]) -> Sheet:
    """Check the new entries by building their ledger, then store them; nothing is stored on error."""
    new = Sheet(sheet.id, sheet.names, sheet.rules, entries, sheet.created, time.time(), sheet.first_dealer)
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
    """A correction that would end the game before the last hand, or (three and four players)
    change who plays a later hand: say which hand and what to do."""
    rule = getattr(exc, "rule", "")
    later = getattr(exc, "hand", None)
    if rule == "rotation" and isinstance(later, int) and (later > number or what == "delete" and later == number):
        was = f"hand {later + 1} (now hand {later})" if what == "delete" else f"hand {later}"
        return EntryError(
            f"cannot {what} hand {number}: it changes who deals and plays the hands after it, and {was} "
            f"no longer fits ({exc}); correct or delete the later hands first",
            rule="rotation",
        )
    if rule != "game_over":
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
    types = {"scorekeeper.js": "text/javascript", "scorekeeper_hand.js": "text/javascript",
             "scorekeeper.css": "text/css", "common.js": "text/javascript"}
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
    """Start a sheet: two, three or four names (four: the 1st and 3rd are partners against the 2nd and
    4th), a rule set and, for three or four, who deals first. Returns the sheet with its new id."""
    try:
        body = await _body(request)
        if not isinstance(body, Mapping):
            raise EntryError('send {"names": ["You", "Sam"], "rules": {"preset": "classic", "overrides": {}}}')
        unknown = sorted(set(body) - {"names", "rules", "first_dealer"})
        if unknown:
            more = f" and {len(unknown) - 3} more" if len(unknown) > 3 else ""
            raise EntryError(f"unknown field: {', '.join(str(k)[:40] for k in unknown[:3])}{more} "
                             "(use names, rules, first_dealer)")
        names = check_names(body.get("names"))
        first_dealer = check_first_dealer(body.get("first_dealer"), names)
        rules = _rules(body.get("rules"))
        sheet_id = secrets.token_urlsafe(ID_BYTES)
        now = time.time()
        with _store(request).connection() as conn:
            _conn_setup(conn)
            conn.execute(
                "INSERT INTO scorekeeper_sheets (id, names, rules, entries, created, updated) VALUES (?, ?, ?, ?, ?, ?)",
                (sheet_id, stored_names(names, first_dealer), json.dumps(rules.to_json()), "[]", now, now),
            )
        sheet = Sheet(sheet_id, names, rules, [], now, now, first_dealer)
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
                last = sheet.game_over_text()
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
