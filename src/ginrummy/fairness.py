"""Provably fair deals: each hand's deck is committed to before anyone sees a card.

When a hand is dealt the server publishes ``sha256(text)``, where ``text`` is one line::

    ginrummy-deal-v2 game GAME hand N nonce NONCE deck As 7h Kd ...

with the game's id, the hand's number from 1, a random nonce (so the hash tells nothing of the
deck) and the 52 cards in the order they are dealt from the top, written as in the rules' notation
(rank ``A23456789TJQK``, suit ``s h d c``), separated by single spaces. Once the game is over its
record reveals the nonce and the deck: anyone can rebuild the line, hash it (``sha256sum`` will do)
and compare with the value they were shown at the table. ``ginrummy verify RECORD`` does that
offline. Hands dealt before this scheme (``scheme`` 1) hashed ``GAME:N-1:NONCE:i,j,...`` with the
cards as numbers 0..51.
"""

from __future__ import annotations

import argparse
import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .cards import card_str, parse_card
from .errors import NotationError, RecordError

#: The scheme new deals are committed with.
SCHEME = 2


def commitment_text(game_id: str, hand: int, nonce: str, deck: Sequence[int], scheme: int = SCHEME) -> str:
    """The line whose SHA-256 is published before hand ``hand`` (numbered from 1) is played.

    >>> commitment_text("g1", 1, "ab", [0, 13, 51])
    'ginrummy-deal-v2 game g1 hand 1 nonce ab deck As Ah Kc'
    """
    if scheme == 1:
        return f"{game_id}:{hand - 1}:{nonce}:{','.join(map(str, deck))}"
    if scheme != SCHEME:
        raise ValueError(f"unknown deal commitment scheme {scheme}")
    return f"ginrummy-deal-v2 game {game_id} hand {hand} nonce {nonce} deck {' '.join(card_str(c) for c in deck)}"


def commitment(game_id: str, hand: int, nonce: str, deck: Sequence[int], scheme: int = SCHEME) -> str:
    """The published hash (hex) of :func:`commitment_text`."""
    return hashlib.sha256(commitment_text(game_id, hand, nonce, deck, scheme).encode()).hexdigest()


@dataclass(frozen=True, slots=True)
class DealCheck:
    """One hand of a record checked against its commitment (and against what a player saw)."""

    hand: int
    commitment: str
    matches: bool
    #: None when the player gave no value seen at the table for this hand.
    seen_matches: bool | None


def verify_record(record: Mapping[str, Any], seen: Sequence[str] = ()) -> list[DealCheck]:
    """Check each hand's deck and nonce in a web game's record against the commitment stored for it,
    and against ``seen`` (the values, or their first 16+ hex digits, shown at the table, in hand order).

    Raises :class:`RecordError` for a record without commitments.
    """
    game_id = record.get("game_id")
    hands = record.get("hands")
    if not isinstance(game_id, str) or not isinstance(hands, list):
        raise RecordError("not a web game's record: it needs game_id and hands with their deal commitments")
    out = []
    for i, hd in enumerate(hands):
        deal = hd.get("commitment") if isinstance(hd, Mapping) else None
        if not isinstance(deal, Mapping):
            raise RecordError(f"hand {i + 1} has no deal commitment", hand=i)
        try:
            deck = [parse_card(c) for c in hd["deck"]]
            stated = str(deal["sha256"]).lower()
            got = commitment(game_id, i + 1, str(deal["nonce"]), deck, int(deal.get("scheme", SCHEME)))
        except (KeyError, TypeError, ValueError, NotationError) as e:
            raise RecordError(f"hand {i + 1}: its deck or commitment cannot be read ({e})", hand=i) from None
        said = seen[i].lower() if i < len(seen) else None
        if said is not None and len(said) < 16:
            raise RecordError(f"hand {i + 1}: give at least 16 hex digits of the value seen at the table")
        out.append(DealCheck(i + 1, stated, got == stated, None if said is None else stated.startswith(said)))
    return out


def configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("record", help="a finished game's record, as exported by the web app")
    p.add_argument("--seen", nargs="*", default=[], metavar="HEX",
                   help="the commitments shown at the table, in hand order (16 hex digits or more each)")
    p.add_argument("--json", action="store_true", help="print the checks as JSON")


def run(args: argparse.Namespace) -> int:
    try:
        with open(args.record, encoding="utf-8") as f:
            record = json.load(f)
    except (OSError, json.JSONDecodeError) as e:
        raise RecordError(f"cannot read {args.record}: {e}") from None
    if not isinstance(record, dict):
        raise RecordError(f"{args.record} is not a game record")
    checks = verify_record(record, args.seen)
    ok = all(c.matches and c.seen_matches is not False for c in checks)
    if args.json:
        print(json.dumps({"ok": ok, "hands": [_json(c) for c in checks]}))
        return 0 if ok else 1
    for c in checks:
        line = f"hand {c.hand}: deck {'matches' if c.matches else 'does NOT match'} its commitment {c.commitment[:16]}…"
        if c.seen_matches is not None:
            line += "; the value seen at the table " + ("matches" if c.seen_matches else "does NOT match")
        print(line)
    print("every deal was fixed before its hand began" if ok else "a deal does NOT match its commitment")
    return 0 if ok else 1


def _json(c: DealCheck) -> dict[str, Any]:
    return {"hand": c.hand, "commitment": c.commitment, "matches": c.matches, "seen_matches": c.seen_matches}
