"""The store's tables (:mod:`ginrummy.storage`) and how an older file is brought up to date.

Kept apart from the reads and writes so each stays short; nothing here is used by anything but
:class:`~ginrummy.storage.Store`.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from .fairness import commitment
from .rules import PRESETS

if TYPE_CHECKING:
    from .storage_backend import Database

#: The parameter placeholder the store's SQL is written with (:mod:`~ginrummy.storage_backend`
#: turns it into ``%s`` for psycopg).
PARAM = "?"

#: The ``player`` of a seat taken by a person (a computer seat names its strength, e.g. "simple").
HUMAN = "human"

#: The schema this code writes. 0: files made before versions were kept, with the two seats as
#: columns of ``games`` (``token0``/``token1``, ``names``, ``opponent``, ``computer_seat``);
#: 1: seats as rows of ``seats``; 2: each seat's player identity (``player_hash``, see
#: :mod:`~ginrummy.web.identity`), a game's ``shared`` flag, and each hand's deal commitment as
#: published at the deal (:mod:`ginrummy.fairness`). Games stored before version 2 have no
#: identities and were open to everyone, so the migration marks them shared; their hands keep the
#: commitment of the scheme they were dealt under (1).
#: 3: what several app instances on one database must share beyond the log: which seats are
#: ready for the next hand (``ready``) and the computer's pace a person chose (``games.pace``).
#: A table added later (``terminal_games``, the terminal apps' own facts) is created when a file is
#: opened and changes no existing table, so it needs no version of its own (older code ignores it).
#: A PostgreSQL database keeps its version in ``schema_version``; its migrations are the same steps.
SCHEMA_VERSION = 3


_GAMES = """CREATE TABLE IF NOT EXISTS games (
        id TEXT PRIMARY KEY,
        rules TEXT NOT NULL,
        seed TEXT NOT NULL,
        first_dealer INTEGER NOT NULL,
        created REAL NOT NULL,
        finished REAL,
        status TEXT NOT NULL,
        final TEXT,
        shared INTEGER NOT NULL DEFAULT 0,
        pace REAL
    )"""

#: A seat ready for the hand after ``hand_no`` (0-based); a row per seat, so two instances
#: marking two seats at once cannot lose one.
_READY = """CREATE TABLE IF NOT EXISTS ready (
        game_id TEXT NOT NULL,
        hand_no INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        PRIMARY KEY (game_id, hand_no, seat)
    )"""

_SCHEMA = [
    _GAMES,
    """CREATE TABLE IF NOT EXISTS seats (
        game_id TEXT NOT NULL REFERENCES games (id),
        seat INTEGER NOT NULL,
        token_hash TEXT NOT NULL,
        name TEXT NOT NULL,
        player TEXT NOT NULL,
        player_hash TEXT,
        PRIMARY KEY (game_id, seat)
    )""",
    """CREATE TABLE IF NOT EXISTS hands (
        game_id TEXT NOT NULL,
        hand_no INTEGER NOT NULL,
        dealer INTEGER NOT NULL,
        deck TEXT NOT NULL,
        nonce TEXT NOT NULL,
        result TEXT,
        deadwood TEXT,
        commitment TEXT NOT NULL DEFAULT '',
        scheme INTEGER NOT NULL DEFAULT 1,
        PRIMARY KEY (game_id, hand_no)
    )""",
    """CREATE TABLE IF NOT EXISTS actions (
        game_id TEXT NOT NULL,
        seq INTEGER NOT NULL,
        hand_no INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        action TEXT NOT NULL,
        created REAL NOT NULL,
        PRIMARY KEY (game_id, seq)
    )""",
    "CREATE INDEX IF NOT EXISTS games_status ON games (status, finished)",
    "CREATE INDEX IF NOT EXISTS seats_player ON seats (player_hash)",
    """CREATE TABLE IF NOT EXISTS terminal_games (
        game_id TEXT PRIMARY KEY REFERENCES games (id),
        client TEXT NOT NULL,
        undo INTEGER NOT NULL,
        replaces TEXT
    )""",
    _READY,
]

#: PostgreSQL only: an insertion order for games (SQLite's ``rowid``), the tie-break of equal times.
_PG_EXTRA = ["ALTER TABLE games ADD COLUMN IF NOT EXISTS rowid BIGSERIAL"]

GAME_COLUMNS = "id, rules, seed, first_dealer, created, finished, status, final, shared, pace"
#: The columns of games as version 1 had them (the migrations copy these).
_GAME_COLUMNS_V1 = "id, rules, seed, first_dealer, created, finished, status, final"


def upgrade(db: Database, c: Any, version: int) -> None:
    """Create the tables, first migrating a database of an older ``version``; inside the caller's transaction."""
    games = db.columns(c, "games")
    if version == 0 and "token0" in games:
        _migrate_seat_columns_to_rows(c)  # builds games as they are now (pace included)
    elif version == 1:
        _migrate_add_identities(c)
    if games and "pace" not in db.columns(c, "games"):
        _migrate_table_state(c)
    for stmt in _SCHEMA:
        c.execute(stmt)
    if db.dialect == "postgresql":
        for stmt in _PG_EXTRA:
            c.execute(stmt)
    db.set_version(c, SCHEMA_VERSION)


def _migrate_table_state(c: Any) -> None:
    """Schema 2 -> 3: games gain ``pace``; the ``ready`` table is created with the others (empty:
    a hand over before the upgrade waits for its seats to say they are ready again)."""
    c.execute("ALTER TABLE games ADD COLUMN pace REAL")


def _migrate_seat_columns_to_rows(c: Any) -> None:
    """Schema 0 -> 2: each game's ``token0``/``token1``, ``names``, ``opponent`` and
    ``computer_seat`` become two rows of ``seats``; ``games`` is rebuilt without those columns
    (SQLite cannot drop them in place on every version) and every game is shared, as it was open to
    everyone then. Runs inside the caller's transaction."""
    old = c.execute("SELECT id, names, opponent, computer_seat, token0, token1 FROM games").fetchall()
    c.execute(_GAMES.replace("games", "games_new", 1))
    c.execute(f"INSERT INTO games_new ({_GAME_COLUMNS_V1}) SELECT {_GAME_COLUMNS_V1} FROM games")
    c.execute("DROP TABLE games")  # its index goes with it; the schema creates it again
    c.execute("ALTER TABLE games_new RENAME TO games")
    c.execute(_SCHEMA[1])
    seat_rows = []
    for game_id, names, opponent, computer_seat, token0, token1 in old:
        seat_names = json.loads(names)
        for seat, token_hash in enumerate((token0, token1)):
            player = opponent if computer_seat == seat else HUMAN
            seat_rows.append((game_id, seat, token_hash, seat_names[seat], player))
    c.executemany(f"INSERT INTO seats (game_id, seat, token_hash, name, player) VALUES ({', '.join([PARAM] * 5)})", seat_rows)
    c.execute("UPDATE games SET shared = 1")
    _migrate_deal_commitments(c)
    _pin_oklahoma_targets(c)


def _migrate_add_identities(c: Any) -> None:
    """Schema 1 -> 2: seats gain ``player_hash``, games ``shared``. Games of version 1 were open to
    everyone who had their address, so they stay open (shared). Runs inside the caller's transaction."""
    c.execute("ALTER TABLE seats ADD COLUMN player_hash TEXT")
    c.execute("ALTER TABLE games ADD COLUMN shared INTEGER NOT NULL DEFAULT 0")
    c.execute("UPDATE games SET shared = 1")
    _migrate_deal_commitments(c)
    _pin_oklahoma_targets(c)


def _pin_oklahoma_targets(c: Any) -> None:
    """Oklahoma switched on from a preset now plays to 150 unless a target is given; a game stored
    before, with Oklahoma on and no target of its own, played to its preset's target: say so."""
    for game_id, text in c.execute("SELECT id, rules FROM games").fetchall():
        rules = json.loads(text)
        over = rules.get("overrides") if isinstance(rules, dict) else None
        if isinstance(over, dict) and over.get("oklahoma") is True and "target" not in over:
            preset = PRESETS.get(rules.get("preset", "classic"), {})
            if not preset.get("oklahoma"):
                over["target"] = preset.get("target", 100)
                c.execute(f"UPDATE games SET rules = {PARAM} WHERE id = {PARAM}", (json.dumps(rules), game_id))


def _migrate_deal_commitments(c: Any) -> None:
    """Hands dealt before version 2 get the commitment they were published with (scheme 1)."""
    c.execute("ALTER TABLE hands ADD COLUMN commitment TEXT NOT NULL DEFAULT ''")
    c.execute("ALTER TABLE hands ADD COLUMN scheme INTEGER NOT NULL DEFAULT 1")
    rows = c.execute("SELECT game_id, hand_no, deck, nonce FROM hands").fetchall()
    c.executemany(
        f"UPDATE hands SET commitment = {PARAM} WHERE game_id = {PARAM} AND hand_no = {PARAM}",
        [(commitment(g, n + 1, nonce, json.loads(deck), scheme=1), g, n) for g, n, deck, nonce in rows],
    )
