"""The hands the expert diagnostics walk: the expert against an opponent, seat alternating."""

from __future__ import annotations

from collections.abc import Iterator

from ginrummy.hand import Hand, new_hand
from ginrummy.observation import SeatView
from ginrummy.players import get_player
from ginrummy.players.expert import ExpertPlayer
from ginrummy.rules import Rules


def expert_views(rules: Rules, hands: int, opponent: str, seed_offset: int) -> Iterator[tuple[int, Hand, SeatView]]:
    """Yield ``(hand number, hand, view)`` at every decision of the expert (seat ``i % 2`` of hand
    ``i``, dealt from seed ``i + seed_offset``); the expert's move is played after the caller
    has looked, so the caller may read ``hand`` (the truth) only to score estimates."""
    for i in range(hands):
        hand = new_hand(rules, dealer=i % 2, seed=i + seed_offset)
        seat = i % 2
        players = [ExpertPlayer(seed=1), get_player(opponent, seed=1)]
        if seat == 1:
            players.reverse()
        for s, p in enumerate(players):
            p.new_hand(s)
        while not hand.is_over:
            cur = hand.current
            view = hand.observation(cur)
            if cur == seat:
                yield i, hand, view
            hand.apply(players[cur].decide(view))
