"""The web app dealing fixed decks, for browser tests that need an exact hand (a knock, a gin).

``python fixed_deck_server.py PORT DB DEALS [COMPUTER_DELAY]``: DB a SQLite file or a PostgreSQL URL
(an instance of a cluster), COMPUTER_DELAY 0.05 s unless given; DEALS is JSON, a list with one entry per hand,
``{"person": "As 2s ...", "computer": "...", "upcard": "Tc", "stock": "Kd ..."}`` (seat 0 is the
person; the stock from the top, the cards not named below it). Hands past the list are dealt the
last entry. An entry may name ``"first"`` and ``"second"`` instead of the person and the computer:
the cards of whoever is dealt first at that table (the non-dealer) and of its dealer, whichever
seats they are (games of three and four, whose tables change players each deal). It reaches the app
through ``create_app(deck_for=...)``, which no request can set.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any

from ginrummy.cards import parse_cards


def deck_for(deals: list[dict[str, Any]]) -> Callable[[int, int], list[int]]:
    def deck(hand_no: int, dealer: int) -> list[int]:
        d = deals[min(hand_no, len(deals) - 1)]
        up, stock = parse_cards(d["upcard"]), parse_cards(d.get("stock", ""))
        if "first" in d:
            nd, de = parse_cards(d["first"]), parse_cards(d["second"])
        else:
            person, computer = parse_cards(d["person"]), parse_cards(d["computer"])
            nd, de = (computer, person) if dealer == 0 else (person, computer)
        out: list[int] = []
        for a, b in zip(nd, de, strict=True):
            out += [a, b]
        out += up + stock
        return out + [c for c in range(52) if c not in set(out)]

    return deck


def main() -> None:
    import uvicorn

    from ginrummy.web.app import create_app
    from ginrummy.web.inputs import MAX_FRAME

    port, db, deals = int(sys.argv[1]), sys.argv[2], json.loads(sys.argv[3])
    delay = float(sys.argv[4]) if len(sys.argv) > 4 else 0.05
    app = create_app(db, computer_delay=delay, compute="thread", deck_for=deck_for(deals))
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning", ws_max_size=MAX_FRAME)


if __name__ == "__main__":
    main()
