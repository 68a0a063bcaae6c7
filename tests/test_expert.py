"""The expert player: legal under every rule variant, gin when it can, no throw-backs, seeded."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Iterator
from itertools import product

import pytest

from ginrummy.actions import PILE, Action, Kind
from ginrummy.cards import CARD_VALUES, cards_of, parse_card, parse_cards
from ginrummy.events import Phase
from ginrummy.hand import Hand, new_hand
from ginrummy.melds import best_arrangement, deadwood, deadwood_cards
from ginrummy.observation import SeatView
from ginrummy.players import get_player
from ginrummy.players.base import Player
from ginrummy.players.expert import ExpertParams, ExpertPlayer, build_knowledge
from ginrummy.players.expert.knowledge import next_discard_chances
from ginrummy.players.expert.value import Decision
from ginrummy.rules import Rules

VARIANTS = {
    "classic": Rules.preset("classic"),
    "eaai": Rules.preset("eaai"),
    "oklahoma": Rules.preset("classic", oklahoma=True, oklahoma_ace_gin_only=True, oklahoma_spade_double=True),
    "straight_gin": Rules.preset("classic", straight_gin=True),
    "big_gin": Rules.preset("app"),
    "no_upcard_last_chance": Rules.preset("classic", upcard=False, last_chance=True),
    "throw_back": Rules.preset("classic", throw_back=True, knock_limit=7),
}


class _Random(Player):
    name = "rnd"

    def decide(self, view):  # type: ignore[no-untyped-def]
        return self.rng.choice(view.legal)


def play(hand: Hand, players: list[Player], check=None) -> list[Action]:  # type: ignore[no-untyped-def]
    """Play a hand out; every action goes through the engine's checks."""
    actions = []
    for seat, p in enumerate(players):
        p.new_hand(seat)
    while not hand.is_over:
        seat = hand.current
        view = hand.observation(seat)
        a = players[seat].decide(view)
        assert a in view.legal, (str(a), [str(x) for x in view.legal])
        if check is not None:
            check(players[seat], view, a)
        hand.apply(a)
        actions.append(a)
    return actions


@pytest.mark.parametrize("name", list(VARIANTS))
def test_legal_under_every_variant(name: str) -> None:
    rules = VARIANTS[name]
    rng = random.Random(name)
    for i in range(3):
        h = new_hand(rules, dealer=i % 2, seed=rng.getrandbits(32))
        opponent: Player = _Random(seed=i) if i == 2 else ExpertPlayer(seed=i + 100)
        play(h, [ExpertPlayer(seed=i), opponent])
        assert h.is_over and h.card_count_check()


def test_plays_against_the_baselines() -> None:
    rules = Rules.preset("eaai")
    for i, other in enumerate(("simple", "greedy")):
        opp = get_player(other, seed=i)
        h = new_hand(rules, dealer=i, seed=40 + i)
        play(h, [ExpertPlayer(seed=i), opp])
        assert h.result is not None


def _deck_for(non_dealer: list[int], dealer: list[int], upcard: int) -> list[int]:
    rest = [c for c in range(52) if c not in set(non_dealer) | set(dealer) | {upcard}]
    deck: list[int] = []
    for a, b in zip(non_dealer, dealer, strict=True):
        deck += [a, b]
    return deck + [upcard] + rest


def test_takes_the_upcard_and_knocks_with_gin() -> None:
    nd = parse_cards("As 2s 3s 4h 5h 6h 7c 7d 7s Kc")
    dl = parse_cards("9s Ts Jd 2h 3d 4c 8c 9d Qh Kh")
    h = Hand(Rules.preset("eaai"), dealer=1)
    h.deal(_deck_for(nd, dl, parse_card("7h")))
    expert = ExpertPlayer(seed=1)
    assert expert.decide(h.observation(0)) == PILE
    h.apply(PILE)
    a = expert.decide(h.observation(0))
    assert a.kind is Kind.KNOCK and a.card == parse_card("Kc")
    assert deadwood(h.hand_of(0) & ~(1 << a.card)) == 0


def test_big_gin_when_it_can() -> None:
    nd = parse_cards("As 2s 3s 4h 5h 6h 7h 7c 7d 7s")
    dl = parse_cards("9s Ts Jd 2h 3d 4c 8c 9d Qh Kh")
    h = Hand(Rules.preset("app"), dealer=1)
    h.deal(_deck_for(nd, dl, parse_card("8h")))
    h.apply(PILE)
    assert ExpertPlayer(seed=0).decide(h.observation(0)).kind is Kind.BIG_GIN


def test_gin_whenever_offered_in_play() -> None:
    """Across many positions: whenever a knock with 0 deadwood is legal, the expert takes it."""
    rules = Rules.preset("eaai")
    seen = 0

    def check(p: Player, view, a: Action) -> None:  # type: ignore[no-untyped-def]
        nonlocal seen
        if not isinstance(p, ExpertPlayer) or view.phase is not Phase.DISCARD:
            return
        gins = [x for x in view.legal if x.kind is Kind.KNOCK and deadwood(view.hand & ~(1 << x.card)) == 0]
        if gins:
            seen += 1
            assert a.kind is Kind.KNOCK and deadwood(view.hand & ~(1 << a.card)) == 0

    rng = random.Random(5)
    for i in range(6):
        play(new_hand(rules, dealer=i % 2, seed=rng.getrandbits(32)), [ExpertPlayer(seed=i), ExpertPlayer(seed=-i)], check)


@pytest.mark.parametrize("rules", [Rules.preset("eaai"), Rules.preset("classic", throw_back=True)])
def test_never_throws_back_the_card_just_taken(rules: Rules) -> None:
    taken_checks = 0

    def check(p: Player, view, a: Action) -> None:  # type: ignore[no-untyped-def]
        nonlocal taken_checks
        if isinstance(p, ExpertPlayer) and view.phase is Phase.DISCARD and view.taken is not None:
            taken_checks += 1
            assert a.card != view.taken

    rng = random.Random(11)
    for i in range(5):
        play(new_hand(rules, dealer=i % 2, seed=rng.getrandbits(32)), [ExpertPlayer(seed=i), ExpertPlayer(seed=9)], check)
    assert taken_checks > 0


def test_deterministic_for_a_seed() -> None:
    rules = Rules.preset("classic")
    runs = []
    for _ in range(2):
        h = new_hand(rules, dealer=0, seed=1234)
        runs.append([int(a) for a in play(h, [ExpertPlayer(seed=7), ExpertPlayer(seed=8)])])
    assert runs[0] == runs[1]


def test_knowledge_uses_only_the_view() -> None:
    """The opponent model's unseen cards never include our own, the pile or known cards."""
    h = new_hand(Rules(), dealer=0, seed=99)
    players = [ExpertPlayer(seed=1), ExpertPlayer(seed=2)]
    for _ in range(12):
        if h.is_over:
            break
        seat = h.current
        view = h.observation(seat)
        k = build_knowledge(view, ExpertParams())
        pile = 0
        for c in view.pile:
            pile |= 1 << c
        assert k.unseen & (view.hand | pile | view.opponent_known) == 0
        assert all(0.0 <= x <= 1.0 for x in k.p_opp)
        assert all(k.p_opp[c] == 0.0 for c in range(52) if not k.unseen >> c & 1)
        # The weighting spreads exactly the opponent's hidden cards; the exact reading of a pile
        # take (``take_melds``) then raises the cards around it without lowering the others.
        base = build_knowledge(view, ExpertParams(take_melds=0))
        assert abs(sum(base.p_opp) - base.opp_hidden) < 1e-6 or base.opp_hidden == 0
        assert sum(k.p_opp) >= sum(base.p_opp) - 1e-9
        h.apply(players[seat].decide(view))


def test_two_experts_never_cycle_through_the_pile() -> None:
    """Two pile-takers could pass the same cards back and forth forever (the stock never
    shrinks); the expert never takes back its own discard unless it can knock with it."""
    rules = Rules.preset("eaai")
    rng = random.Random(139)
    for i in range(4):
        h = new_hand(rules, dealer=i % 2, seed=rng.getrandbits(32))
        players = [ExpertPlayer(seed=i), ExpertPlayer(seed=i + 7)]
        steps = 0
        while not h.is_over:
            seat = h.current
            view = h.observation(seat)
            a = players[seat].decide(view)
            if a == PILE and view.pile:
                mine = [e.card for e in view.events if e.seat == seat and e.kind is Kind.DISCARD]
                top = view.pile[-1]
                if top in mine:
                    assert deadwood(view.hand | 1 << top) <= view.knock_limit or any(
                        deadwood((view.hand | 1 << top) & ~(1 << c)) <= view.knock_limit
                        for c in range(52)
                        if view.hand >> c & 1
                    )
            h.apply(a)
            steps += 1
            assert steps < 400


def _worlds(cards: list[int], p: list[float], known: int = 0) -> Iterator[tuple[int, float]]:
    """Every holding of ``cards`` (each held independently with chance ``p``, a ``known`` card
    surely) as (the held cards with ``known``, its probability); impossible ones left out."""
    for bits in product((0, 1), repeat=len(cards)):
        prob = 1.0
        hand = known
        for c, b in zip(cards, bits, strict=True):
            q = 1.0 if known >> c & 1 else p[c]
            prob *= q if b else 1.0 - q
            if b:
                hand |= 1 << c
        if prob:
            yield hand, prob


def test_meld_chance_matches_enumeration_of_independent_cards() -> None:
    """The closed-form danger equals the exact chance when the cards are held independently."""
    from ginrummy.melds import joins_meld
    from ginrummy.players.expert.knowledge import meld_join_chance

    rng = random.Random(5)
    for x in (0, 1, 6, 11, 12, 25, 38, 51):
        r = x % 13
        relevant = [t * 13 + r for t in range(4) if t * 13 + r != x]
        relevant += [x + d for d in (-2, -1, 1, 2) if 0 <= r + d < 13]
        for _ in range(5):
            p = [0.0] * 52
            known = 0
            for c in relevant:
                p[c] = rng.choice([0.0, 0.1, 0.5, 0.9, 1.0])
            if rng.random() < 0.3:
                known = 1 << rng.choice(relevant)
            exact = sum(prob for hand, prob in _worlds(relevant, p, known) if joins_meld(hand, x))
            assert abs(meld_join_chance(p, known, x) - exact) < 1e-9, (x, [p[c] for c in relevant], known)


def test_gin_reach_is_worth_most_when_only_gin_ends_the_hand() -> None:
    """With knock limit 0 (straight gin) a hand that can reach gin gets ``gin_only_bonus``,
    not the knock-rules ``gin_bonus``: there, the chance of gin is nearly all a hand is worth."""
    params = ExpertParams()
    assert params.gin_only_bonus > params.gin_bonus

    def phi(rules: Rules, d: int) -> float:
        view = new_hand(rules, dealer=0, seed=3).observation(0)
        return Decision(view, params, random.Random(0)).phi(d)

    straight = Rules.preset("classic", straight_gin=True)
    assert phi(straight, 0) == -(params.knock_bonus + params.gin_only_bonus)
    assert phi(straight, 1) == 1.0  # no knock short of gin: deadwood only
    classic = Rules.preset("classic")
    assert phi(classic, 0) == -(params.knock_bonus + params.gin_bonus)
    assert phi(classic, 10) == 10 - params.knock_bonus
    # Oklahoma: the upcard sets the limit; a low one (here an ace, limit 1) is nearly straight gin.
    assert Rules.preset("classic", oklahoma=True).hand_knock_limit(parse_card("Ac")) == 1
    view = new_hand(Rules.preset("classic", oklahoma=True), dealer=0, seed=3).observation(0)
    dec = Decision(view, params, random.Random(0))
    dec.limit = 1
    assert dec.phi(0) == -(params.knock_bonus + params.gin_only_bonus)
    dec.limit = params.gin_only_limit + 1
    assert dec.phi(0) == -(params.knock_bonus + params.gin_bonus)


def test_each_point_under_the_knock_limit_counts_more_when_undercuts_pay() -> None:
    """Under EAAI (undercut bonus 25) a point of deadwood below the knock limit is worth
    ``1 + undercut_slope`` (another chance to undercut a knock); with the classic 10, just 1."""
    params = ExpertParams()
    assert params.undercut_slope > 0

    def step(rules: Rules, d: int) -> float:
        view = new_hand(rules, dealer=0, seed=3).observation(0)
        dec = Decision(view, params, random.Random(0))
        return dec.phi(d) - dec.phi(d + 1)

    eaai, classic = Rules.preset("eaai"), Rules.preset("classic")
    assert step(eaai, 4) == -(1 + params.undercut_slope)
    assert step(eaai, 12) == -1  # above the limit: deadwood only
    assert step(classic, 4) == -1
    assert abs(step(Rules.preset("classic", undercut_bonus=20), 4) + 1 + params.undercut_slope * 10 / 15) < 1e-9


def test_the_stock_draw_is_valued_over_every_unseen_card() -> None:
    """Pile or stock: the stock's side is the exact expectation over every unseen card, so the
    values do not depend on the player's seed. Sampling 14 of the cards (the old way, noisier
    and measured worse) gave each seed its own values."""
    nd = parse_cards("As 2s 5h 6h 9c 9d Js Qd Kc 3c")
    dl = parse_cards("Ts Jd 2h 3d 4c 8c 8d Qh Kh 7s")
    h = Hand(Rules.preset("eaai"), dealer=1)
    h.deal(_deck_for(nd, dl, parse_card("4s")))
    view = h.observation(0)
    assert PILE in view.legal

    def values(params: ExpertParams) -> set[tuple[float, ...]]:
        return {tuple(v for _, v, _ in ExpertPlayer(seed=s, params=params).evaluate(view)) for s in range(4)}

    assert len(values(ExpertParams())) == 1
    assert len(values(ExpertParams(stock_draws=14))) > 1


def test_wait_margin_follows_the_undercut_bonus() -> None:
    """Waiting for the opponent to knock into an undercut pays with a bonus of 25 (EAAI), not
    with the classic 10: the expert's knock-or-wait margin follows the rules it plays."""
    p = ExpertPlayer(seed=1)

    def margin(rules: Rules) -> float:
        h = new_hand(rules, dealer=0, seed=3)
        return p._wait_margin(h.observation(0))

    assert margin(Rules.preset("eaai")) == p.params.wait_margin == 12.0
    assert margin(Rules.preset("classic")) == p.params.wait_margin_low == -8.0
    assert margin(Rules.preset("classic", undercut_bonus=0)) == -8.0
    assert margin(Rules.preset("classic", undercut_bonus=40)) == 12.0
    assert abs(margin(Rules.preset("classic", undercut_bonus=20)) - (-8.0 + 20.0 * 10 / 15)) < 1e-9


def test_layoff_chance_matches_enumeration_of_independent_cards() -> None:
    """The closed-form layoff chance equals the exact chance that some meld of the opponent's
    hand takes the card as a layoff, when the cards are held independently."""
    from ginrummy.layout import layoff_targets
    from ginrummy.melds import melds_in
    from ginrummy.players.expert.knowledge import layoff_chance

    rng = random.Random(7)
    for x in (0, 2, 3, 6, 9, 10, 12, 25, 38, 51):
        r = x % 13
        relevant = [t * 13 + r for t in range(4) if t * 13 + r != x]
        relevant += [x + d for d in (-3, -2, -1, 1, 2, 3) if 0 <= r + d < 13]
        for _ in range(4):
            p = [0.0] * 52
            for c in relevant:
                p[c] = rng.choice([0.0, 0.2, 0.5, 0.9, 1.0])
            known = 1 << rng.choice(relevant) if rng.random() < 0.3 else 0
            exact = sum(
                prob for hand, prob in _worlds(relevant, p, known)
                if any(layoff_targets(m) >> x & 1 for m in melds_in(hand))
            )
            assert abs(layoff_chance(p, known, x) - exact) < 1e-9, (x, [p[c] for c in relevant], known)


def test_hand_value_credits_cards_that_lay_off_on_the_opponents_known_meld() -> None:
    """A loose card that extends a meld the opponent is known to hold costs the defender
    nothing when the opponent knocks: the hand value credits it, and only where layoffs exist."""
    import dataclasses

    params = ExpertParams()
    assert params.layoff_credit > 0
    off = dataclasses.replace(params, layoff_credit=0.0)
    hand10 = sum(1 << c for c in parse_cards("As 2s 3s 9c 9d 9s 6h Kd Qc 4c"))
    known = sum(1 << c for c in parse_cards("7h 8h 9h"))

    def values(rules: Rules) -> tuple[float, float, Decision]:
        base = new_hand(rules, dealer=0, seed=3).observation(0)
        view = base._replace(hand=hand10, pile=(), opponent_known=known, events=())
        on_dec = Decision(view, params, random.Random(0))
        return on_dec.value(hand10), Decision(view, off, random.Random(0)).value(hand10), on_dec

    with_credit, without, dec = values(Rules.preset("eaai"))
    loose = deadwood_cards(hand10, best_arrangement(hand10)[1])
    # 6h lays off on 7h 8h 9h for sure; the other loose cards hardly ever.
    assert dec._layoff_points(loose) >= 6.0
    assert without - with_credit == pytest.approx(params.layoff_credit * dec._layoff_points(loose))
    straight_with, straight_without, _ = values(Rules.preset("eaai", straight_gin=True))
    assert straight_with == straight_without


def test_a_taken_card_sharpens_its_meld_partners_exactly() -> None:
    """After the opponent takes a card to meld, the chance of each card around it is the exact
    chance given that some meld with the taken card is in the opponent's hand."""
    from ginrummy.melds import joins_meld
    from ginrummy.players.expert.knowledge import _condition_on_meld

    rng = random.Random(11)
    for t in (0, 1, 5, 11, 12, 30, 45):
        r, s = t % 13, t // 13
        around = [x * 13 + r for x in range(4) if x != s]
        around += [s * 13 + r + d for d in (-2, -1, 1, 2) if 0 <= r + d < 13]
        for _ in range(4):
            p = [0.0] * 52
            unseen = 0
            for c in around:
                if rng.random() < 0.8:  # the rest: seen elsewhere (ours, or in the pile)
                    unseen |= 1 << c
                    p[c] = rng.choice([0.1, 0.3, 0.6, 0.9])
            known = 1 << t
            rel = [c for c in around if unseen >> c & 1]
            z = 0.0
            marg = dict.fromkeys(rel, 0.0)
            for held, prob in _worlds(rel, p):
                if joins_meld(held, t):
                    z += prob
                    for c in rel:
                        if held >> c & 1:
                            marg[c] += prob
            before = list(p)
            _condition_on_meld(p, known, unseen, t)
            for c in rel:
                want = min(0.98, marg[c] / z) if z > 0 else before[c]
                assert p[c] == pytest.approx(want), (t, c)
            assert all(p[c] == before[c] for c in range(52) if c not in rel)


def test_knowledge_conditions_on_the_meld_of_a_taken_card() -> None:
    """When the opponent holds a card it took from the pile, the model raises the chance of
    the cards that would meld with it (and only with ``take_melds`` on)."""
    rules = Rules.preset("eaai")
    checked = 0
    for seed in range(40):
        hand = new_hand(rules, dealer=0, seed=seed)
        players = [ExpertPlayer(1), get_player("simple", seed=2)]
        for i, pl in enumerate(players):
            pl.new_hand(i)
        while not hand.is_over:
            view = hand.observation(hand.current)
            if hand.current == 0 and view.opponent_known:
                on = build_knowledge(view, ExpertParams())
                off = build_knowledge(view, ExpertParams(take_melds=0))
                t = next(c for c in range(52) if view.opponent_known >> c & 1)
                partners = [c for c in range(52) if on.unseen >> c & 1 and (c % 13 == t % 13 or
                            (c // 13 == t // 13 and abs(c - t) <= 2))]
                assert all(on.p_opp[c] >= off.p_opp[c] - 1e-12 for c in partners)
                assert sum(on.p_opp[c] for c in partners) > sum(off.p_opp[c] for c in partners)
                checked += 1
                break
            hand.apply(players[hand.current].decide(view))
        if checked >= 3:
            break
    assert checked >= 3


def _mid_hand_view(rules: Rules, opp_discards: int, last: Callable[[int], bool] | None = None) -> tuple[Hand, int]:
    """Play ``simple`` against itself until the seat to move has seen the opponent discard
    ``opp_discards`` times (the hand still going), the value of its last discard passing
    ``last`` if given; returns the hand and that seat."""
    for seed in range(400):
        h = new_hand(rules, dealer=0, seed=seed)
        players = [get_player("simple", seed=0), get_player("simple", seed=1)]
        for s, p in enumerate(players):
            p.new_hand(s)
        while not h.is_over:
            seat = h.current
            view = h.observation(seat)
            opp = [e.card for e in view.events if e.kind is Kind.DISCARD and e.seat != seat]
            if len(opp) == opp_discards and any(a.kind is Kind.DISCARD for a in view.legal):
                if last is None or last(CARD_VALUES[opp[-1]]):
                    return h, seat
                break
            h.apply(players[seat].decide(view))
    raise AssertionError("no hand lasted that long")


def test_the_opponents_knock_chance_grows_with_its_turns() -> None:
    """The chance that the opponent knocks on its next turn (``hazard_rate`` per turn after
    its first, capped) weights what its knock would catch; none where only gin ends a hand."""
    params = ExpertParams(hazard_rate=0.05, hazard_cap=0.3, hazard_last=0.0)
    eaai = Rules.preset("eaai")
    for n, want in ((0, 0.0), (1, 0.0), (3, 0.1), (5, 0.2), (8, 0.3)):
        h, seat = _mid_hand_view(eaai, n)
        assert Decision(h.observation(seat), params, random.Random(0)).hazard == pytest.approx(want)
    h, seat = _mid_hand_view(Rules.preset("eaai", straight_gin=True), 5)
    assert Decision(h.observation(seat), params, random.Random(0)).hazard == 0.0


def test_a_knock_catches_more_deadwood_at_a_higher_cost() -> None:
    """What the opponent's knock would cost: an undercut (a gain) at low deadwood, rising
    with every point, and the mix moves a hand's value toward it by the knock chance."""
    import dataclasses

    h, seat = _mid_hand_view(Rules.preset("eaai"), 5)
    view = h.observation(seat)
    dec = Decision(view, ExpertParams(hazard_rate=0.05, hazard_last=0.0, met=0.0, hazard_ahead=0.0), random.Random(0))
    costs = [dec.caught_cost(d, float(d)) for d in range(0, 31)]
    assert costs[0] < -20  # most knocks are undercut
    assert all(a < b for a, b in zip(costs, costs[1:], strict=False))
    assert costs[30] == pytest.approx(0.05 * (25 + 30) + 0.95 * (30 - sum(
        k * (1 if k <= 6 else 2) for k in range(1, 11)) / 14))
    hand10 = view.hand & ~(1 << next(a.card for a in view.legal if a.kind is Kind.DISCARD))
    off = Decision(view, dataclasses.replace(dec.params, hazard_rate=0.0), random.Random(0))
    dw, melds = best_arrangement(hand10)
    lp = dec._layoff_points(deadwood_cards(hand10, melds))
    hz = dec.hazard
    assert hz == pytest.approx(0.2)
    assert dec.value(hand10) == pytest.approx((1 - hz) * off.value(hand10) + hz * dec.caught_cost(dw, dw - lp))


def test_the_opponents_next_discard_is_one_more_way_to_improve() -> None:
    """``pile_outs``: the opponent's next discard may be a card the hand wants, so the hand is
    worth at least as much as on the stock alone; a higher loose card is the likelier discard."""
    h, seat = _mid_hand_view(Rules.preset("eaai"), 4)
    view = h.observation(seat)
    on = Decision(view, ExpertParams(pile_outs=1.0), random.Random(0))
    off = Decision(view, ExpertParams(pile_outs=0.0), random.Random(0))
    assert sum(on.pile_q.values()) == pytest.approx(1.0)
    assert off.pile_q == {}
    better = 0
    for a in view.legal:
        if a.kind is Kind.DISCARD:
            hand10 = view.hand & ~(1 << a.card)
            assert on.value(hand10) <= off.value(hand10) + 1e-9
            better += on.value(hand10) < off.value(hand10) - 1e-9
    assert better > 0
    # Two unseen cards the model weighs alike, a king and an ace: the king is the likelier
    # throw, by the ratio of their values squared; a card that melds with the opponent's is not.
    king, ace = parse_card("Kc"), parse_card("Ad")
    p = [0.0] * 52
    p[king] = p[ace] = 0.5
    q = next_discard_chances(p, 0, [king, ace], 2.0)
    assert q[king] == pytest.approx(100 * q[ace]) and sum(q.values()) == pytest.approx(1.0)
    known = sum(1 << c for c in parse_cards("Kd Kh"))
    q = next_discard_chances(p, known, [king, ace], 2.0)
    assert q[king] == pytest.approx(0.0)


def test_a_card_unrelated_to_the_hand_improves_it_only_by_replacing_its_worst_loose_card() -> None:
    """The shortcut of the hand value: for a card outside ``_related(hand)`` the best deadwood
    after drawing it is the best nine of the hand plus that card (or the hand as it was)."""
    from ginrummy.discard_search import min_deadwood_after_discard
    from ginrummy.players.expert.value import _related

    rng = random.Random(12)
    checked = 0
    for _ in range(400):
        cards = rng.sample(range(52), 11)
        hand = sum(1 << c for c in cards[:10])
        c = cards[10]
        exact = min_deadwood_after_discard(hand | 1 << c)
        if _related(hand) >> c & 1:
            continue
        checked += 1
        assert exact == min(deadwood(hand), min_deadwood_after_discard(hand) + CARD_VALUES[c])
    assert checked > 50
    # And a related card can do better than that: 7h melds with 5h 6h.
    hand = sum(1 << x for x in parse_cards("5h 6h Ks Kd 2c 4c 9s 9d Jc Qh"))
    seven = parse_card("7h")
    assert _related(hand) >> seven & 1
    assert min_deadwood_after_discard(hand | 1 << seven) < min_deadwood_after_discard(hand) + 7


def _view_after_discard(rules: Rules, opp_discards: int, low: bool) -> SeatView:
    """A view in which the opponent has discarded ``opp_discards`` times, its last discard a
    card of 6 or less (``low``) or a ten-point card."""
    h, seat = _mid_hand_view(rules, opp_discards, (lambda v: v <= 6) if low else (lambda v: v == 10))
    return h.observation(seat)


def test_a_low_last_discard_raises_the_opponents_knock_chance() -> None:
    """``hazard_last``: a player who throws its highest loose card and has just thrown a low
    one is near a knock, so its chance to knock next turn is scaled up (down after a ten)."""
    from ginrummy.players.expert.knowledge import HAZARD_BY_LAST

    base = ExpertParams(hazard_rate=0.05, hazard_cap=0.9, hazard_last=0.0)
    on = dataclasses.replace(base, hazard_last=1.0)
    low, high = (_view_after_discard(Rules.preset("eaai"), 5, flag) for flag in (True, False))
    for view, want_up in ((low, True), (high, False)):
        plain = Decision(view, base, random.Random(0)).hazard
        scaled = Decision(view, on, random.Random(0)).hazard
        assert plain == pytest.approx(0.2)
        last = next(e.card for e in reversed(view.events) if e.kind is Kind.DISCARD and e.seat != view.seat)
        assert scaled == pytest.approx(0.2 * HAZARD_BY_LAST[CARD_VALUES[last]])
        assert (scaled > plain) if want_up else (scaled < plain)


def test_a_discard_the_opponent_melds_costs_more_the_nearer_it_is_to_knocking() -> None:
    """``gift``: the cost of a discard the opponent would take is its meld chance times the
    extra knock chance of a take (growing with its turns) times what the knock would cost."""
    view = _view_after_discard(Rules.preset("eaai"), 5, False)
    dec = Decision(view, ExpertParams(gift=1.0, take_knock=0.2, take_knock_cap=0.45, hazard_ahead=0.0),
                    random.Random(0))
    off = Decision(view, ExpertParams(gift=0.0), random.Random(0))
    assert dec.take_knock == pytest.approx(0.3)  # 0.2 + 0.02 per turn, five turns
    hand = view.hand
    costs = []
    for c in cards_of(hand):
        rest = hand & ~(1 << c)
        g = dec.gift(rest, dec.danger(c))
        assert off.gift(rest, dec.danger(c)) == 0.0
        dw, melds = best_arrangement(rest)
        lp = dec._layoff_points(deadwood_cards(rest, melds))
        unmixed = dataclasses.replace(dec.params, hazard_rate=0.0, gift=0.0)
        prospects = Decision(view, unmixed, random.Random(0)).value(rest)
        assert g == pytest.approx(0.3 * dec.danger(c) * (dec.caught_cost(dw, dw - lp) - prospects))
        costs.append(g)
    assert any(g != 0.0 for g in costs)


def test_the_match_equity_weighs_what_the_opponents_knock_would_cost() -> None:
    """``met``: in a race to the target (no game bonus), what the opponent's knock would cost is
    what it does to the chance of winning the game: at 0 to 0 about its points, at 40 to 96
    the same for every knock it wins (each ends the game). With a game bonus the points stay."""
    h, seat = _mid_hand_view(Rules.preset("eaai"), 5)
    view = h.observation(seat)
    params = ExpertParams(met=1.0, hazard_last=0.0)
    plain = Decision(view, ExpertParams(hazard_last=0.0, met=0.0), random.Random(0))
    early = Decision(view, params, random.Random(0))
    assert early.worth is not None
    for d in (5, 15, 25):
        assert early.caught_cost(d, float(d)) == pytest.approx(plain.caught_cost(d, float(d)), abs=3.0)
    scores = (40, 96) if seat == 0 else (96, 40)
    late = Decision(view._replace(scores=scores), params, random.Random(0))
    lost = [late.caught_cost(d, float(d)) for d in (20, 30, 40)]
    assert lost[0] == pytest.approx(lost[2], rel=0.05)  # losing the game costs the same however
    assert late.caught_cost(0, 0.0) < lost[0]  # an undercut still helps
    classic = view._replace(rules=Rules.preset("classic"))
    assert Decision(classic, params, random.Random(0)).worth is None


def test_the_opponents_knock_after_our_next_draw_weighs_the_hand_that_draw_leaves() -> None:
    """``hazard_ahead``: the opponent may also knock on the turn after next (its chance one
    turn further on), catching whatever our next draw leaves; the hand's future value is mixed
    with that cost, computed here over every unseen card by the stock's weights."""
    from ginrummy.discard_search import min_deadwood_after_discard

    h, seat = _mid_hand_view(Rules.preset("eaai"), 5)
    view = h.observation(seat)
    base = ExpertParams(hazard_rate=0.05, hazard_cap=0.9, hazard_last=0.0, pile_outs=0.0, met=0.0,
                        hazard_ahead=0.0)
    off = Decision(view, base, random.Random(0))
    on = Decision(view, dataclasses.replace(base, hazard_ahead=1.0), random.Random(0))
    assert off.hazard_next == 0.0
    assert on.hazard == pytest.approx(0.2) and on.hazard_next == pytest.approx(0.25)
    changed = 0
    for a in view.legal:
        if a.kind is not Kind.DISCARD:
            continue
        hand10 = view.hand & ~(1 << a.card)
        dw, melds = best_arrangement(hand10)
        lp = on._layoff_points(deadwood_cards(hand10, melds))
        hz, h1 = on.hazard, on.hazard_next
        future = (off.value(hand10) - hz * off.caught_cost(dw, dw - lp)) / (1 - hz)
        tw = sum(w for _, w in on.stock_w)
        caught = 0.0
        for c, w in on.stock_w:
            d = min(dw, min_deadwood_after_discard(hand10 | 1 << c))
            caught += w * on.caught_cost(d, d - lp)
        want = (1 - hz) * ((1 - h1) * future + h1 * caught / tw) + hz * on.caught_cost(dw, dw - lp)
        assert on.value(hand10) == pytest.approx(want)
        changed += abs(on.value(hand10) - off.value(hand10)) > 1e-6
    assert changed > 0
