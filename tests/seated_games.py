"""Helpers for tests of three- and four-player games: play whole games with built-in players,
seat by seat, and say which cards each seat may not know at each moment.

The secrets are worked out here from the true hand and what the test saw happen (which cards
each hand seat took face up from the pile), not from the engine's own views, so a leak in the
views cannot hide itself.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from typing import Any

from ginrummy.actions import Kind
from ginrummy.cards import card_str, cards_of
from ginrummy.events import Phase
from ginrummy.game import Game
from ginrummy.hand import Hand
from ginrummy.players import get_player
from ginrummy.rules import Rules
from ginrummy.table import Seat, Table

CARD_RUN = re.compile(r"\b((?:[A2-9TJQK][shdc])+)\b")


def cards_in(data: Any) -> set[str]:
    """Every card named anywhere in plain data (alone or run together as in a meld)."""
    found: set[str] = set()
    for run in CARD_RUN.findall(json.dumps(data)):
        found.update(run[i : i + 2] for i in range(0, len(run), 2))
    return found


def secrets(hand: Hand, seat: int, taken: list[set[int]]) -> set[str]:
    """The cards hand seat ``seat`` may not know now; ``taken[s]``: cards seat ``s`` took face up."""
    opp = 1 - seat
    secret = set(hand.stock)
    if hand.knocker == opp and hand.knock_discard is not None and hand.knock_discard not in taken[opp]:
        secret.add(hand.knock_discard)
    if hand.knocker is not None:
        # A hand is face up once its owner has finished laying it out after a knock.
        face_up = hand.phase is not Phase.LAYOUT if hand.knocker == opp else hand.phase in (Phase.LAYOFF, Phase.OVER)
        if face_up:
            return {card_str(c) for c in secret}
    public = set(taken[opp])
    if hand.knocker is not None:
        for m in hand.knocker_melds if hand.knocker == opp else hand.defender_melds:
            public.update(cards_of(m))
    secret.update(set(cards_of(hand.hands[opp])) - public)
    return {card_str(c) for c in secret}


def new_game(players: list[str], rules: Rules, seed: int) -> tuple[Game, Table]:
    names = ["Ann", "Bob", "Cy", "Di"][: len(players)]
    game = Game(rules, players=names, seed=seed)
    seats = [Seat(n, get_player(p, seed=seed * 10 + i)) for i, (n, p) in enumerate(zip(names, players, strict=True))]
    return game, Table(game, seats)


def play_watched(
    table: Table, check: Callable[[Game, list[list[set[int]]]], None], max_deals: int = 200
) -> Iterator[int]:
    """Play the table's game to its end, one action at a time, calling ``check(game, taken)``
    after each deal and each action (``taken[t][s]``: cards hand seat ``s`` at table ``t`` took
    face up from the pile). Yields the number of actions of each deal."""
    game = table.match
    for _ in range(max_deals):
        if game.is_over:
            return
        table.deal()
        taken: list[list[set[int]]] = [[set(), set()] for _ in game.tables]
        check(game, taken)
        n = 0
        while game.to_act:
            # With two tables, alternate between them so both hands are in progress at once.
            acting = game.to_act
            seat = acting[n % len(acting)]
            at = game.where(seat)
            assert at is not None
            t, hs = at
            h = game.tables[t]
            top = h.top_discard
            player = table.seats[seat].player
            assert player is not None
            action = player.decide(table.view(seat))
            table.act(seat, action)
            if action.kind is Kind.PILE and top is not None:
                taken[t][hs].add(top)
            n += 1
            check(game, taken)
        yield n
    raise AssertionError(f"the game did not end within {max_deals} deals")
