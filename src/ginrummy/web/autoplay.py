"""A scripted person for tests and the load benchmark: reads a state message, answers like a player would.

It speaks the same protocol as the browser (``action`` / ``auto`` / ``next`` with ``seq``) and
decides only from what the message shows its seat, so tests driving it also exercise exactly
what a browser can do. It is deliberately simple: take nothing, draw from the stock, discard the
card that leaves the least deadwood, knock as soon as it may.
"""

from __future__ import annotations

from typing import Any


def respond(msg: dict[str, Any]) -> dict[str, Any] | None:
    """The message a person at this seat would send now, or None if it is not their move."""
    if msg.get("type") != "state":
        return None
    game, view, seat = msg["game"], msg["view"], msg["seat"]
    if game["status"] == "finished":
        return None
    seq = msg["seq"]
    if view is None or view["phase"] == "over":
        # Three or four players: a seat that sits the hand out (no view), or whose table is done,
        # waits for every table of the deal before it is ready for the next.
        if not all(game.get("tables_over", [True])):
            return None
        return None if game["ready"][seat] else {"type": "next"}
    if view["current"] != view["seat"] or not view["legal"]:
        return None
    legal: list[str] = view["legal"]
    phase = view["phase"]
    if phase in ("layout", "defender_layout", "layoff"):
        return {"type": "auto", "seq": seq}
    if phase == "offer" or phase == "last_chance":
        return {"type": "action", "action": "pass", "seq": seq}
    if phase == "draw":
        return {"type": "action", "action": "stock" if "stock" in legal else legal[0], "seq": seq}
    after: dict[str, int] = msg["mine"].get("after") or {}
    if "big gin" in legal:
        return {"type": "action", "action": "big gin", "seq": seq}
    knocks = [a for a in legal if a.startswith("knock ")]
    if knocks:
        best = min(knocks, key=lambda a: after.get(a[6:], 99))
        return {"type": "action", "action": best, "seq": seq}
    discards = [a for a in legal if " " not in a and a not in ("stock", "pile", "pass", "done")]
    if discards:
        best = min(discards, key=lambda c: (after.get(c, 99), -"A23456789TJQK".index(c[0])))
        return {"type": "action", "action": best, "seq": seq}
    return {"type": "action", "action": legal[0], "seq": seq}
