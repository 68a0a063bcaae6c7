"""``ginrummy deadwood CARDS... [--json]``: the best arrangement of some cards and its count."""

from __future__ import annotations

import argparse
import json

from ..cards import card_str, cards_of, mask_of, parse_cards
from ..discard_search import best_discards
from ..errors import NotationError
from ..melds import best_arrangement


def configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("cards", nargs="+", help="cards such as As 10h K♦ (any count; 11 also shows the best discards)")
    p.add_argument("--json", action="store_true", help="print JSON")


def analyse(cards_text: list[str]) -> dict[str, object]:
    cards = parse_cards(cards_text)
    if not cards:
        raise NotationError("no cards given")
    mask = mask_of(cards)
    dead, melds = best_arrangement(mask)
    used = 0
    for m in melds:
        used |= m
    out: dict[str, object] = {
        "deadwood": dead,
        "melds": [[card_str(c) for c in cards_of(m)] for m in melds],
        "deadwood_cards": [card_str(c) for c in cards_of(mask & ~used)],
    }
    if len(cards) == 11:
        after, discards = best_discards(mask)
        out["best_discards"] = [card_str(c) for c in discards]
        out["deadwood_after_discard"] = after
    return out


def run(args: argparse.Namespace) -> int:
    out = analyse(args.cards)
    if args.json:
        print(json.dumps(out, ensure_ascii=False))
        return 0
    for m in out["melds"]:  # type: ignore[attr-defined]
        print("meld:    ", " ".join(m))
    print("deadwood:", " ".join(out["deadwood_cards"]) or "-", f"= {out['deadwood']}")  # type: ignore[arg-type]
    if "best_discards" in out:
        print(
            "discard: ", " or ".join(out["best_discards"]),  # type: ignore[arg-type]
            f"leaves {out['deadwood_after_discard']}",
        )
    return 0
