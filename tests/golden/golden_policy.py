"""A small deterministic greedy player, used only to generate and check golden game records.

It asks the engine for the legal actions and picks among them: take a discard that lowers its
deadwood, knock (or go gin, big gin) as soon as it may, otherwise throw the card that leaves
the least deadwood; the layout phases use ``Hand.auto_layout()`` / ``Hand.auto_defense()``.
"""

from __future__ import annotations

from ginrummy.actions import Action, Kind
from ginrummy.discard_search import best_discards
from ginrummy.events import Phase
from ginrummy.game import Game
from ginrummy.hand import Hand
from ginrummy.match import Match
from ginrummy.melds import deadwood
from ginrummy.rules import Rules


def choose(h: Hand) -> list[Action]:
    """The actions the greedy player takes now (several for a layout)."""
    legal = h.legal_actions()
    seat = h.current
    hand = h.hands[seat]
    if h.phase in (Phase.OFFER, Phase.DRAW):
        top = h.top_discard
        pile = [a for a in legal if a.kind is Kind.PILE]
        if pile and top is not None:
            after, _ = best_discards(hand | 1 << top, exclude=1 << top)
            if after < deadwood(hand) - 2:
                return pile
        return [a for a in legal if a.kind in (Kind.STOCK, Kind.PASS)][:1]
    if h.phase is Phase.LAST_CHANCE:
        return [legal[0]]
    if h.phase is Phase.DISCARD:
        for a in legal:
            if a.kind is Kind.BIG_GIN:
                return [a]
        knocks = [a for a in legal if a.kind is Kind.KNOCK]
        if knocks:
            return [min(knocks, key=lambda a: (deadwood(hand & ~(1 << a.card)), int(a)))]
        discards = [a for a in legal if a.kind is Kind.DISCARD]
        return [min(discards, key=lambda a: (deadwood(hand & ~(1 << a.card)), -(a.card % 13), a.card))]
    if h.phase is Phase.LAYOUT:
        return h.auto_layout()
    if h.phase is Phase.DEFENDER_LAYOUT:
        return h.auto_defense()
    return [legal[0]]  # layoffs left after auto_defense: done


def play_hand(m: Match) -> None:
    h = m.start_hand()
    while not h.is_over:
        for a in choose(h):
            m.apply(a)


def play_game(rules: Rules, seed: int, players: tuple[str, str] = ("North", "South")) -> Match:
    m = Match(rules, seed=seed, players=players)
    while not m.is_over:
        play_hand(m)
    return m


def play_seated_game(rules: Rules, seed: int, players: tuple[str, ...]) -> Game:
    """A whole game of three or four players, each hand played out by the greedy player (with
    four players: table 1's hand, then table 2's)."""
    g = Game(rules, seed=seed, players=players)
    while not g.is_over:
        g.deal()
        for t, h in enumerate(g.tables):
            while not h.is_over:
                for a in choose(h):
                    g.apply(a, t)
    return g
