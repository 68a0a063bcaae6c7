"""Property tests: invariants that must hold for every deck, rule set and line of play."""

from __future__ import annotations

import random
from functools import cache
from itertools import combinations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import lively_step, reference_history, state_key
from ginrummy.actions import NUM_ACTIONS, Action
from ginrummy.cards import CARD_VALUES, mask_of
from ginrummy.discard_search import best_discards, min_deadwood_after_discard
from ginrummy.errors import IllegalActionError
from ginrummy.events import Phase
from ginrummy.hand import Hand, new_hand
from ginrummy.melds import deadwood
from ginrummy.rules import Rules

FAST = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def rule_sets(draw: st.DrawFn) -> Rules:
    """Any consistent two-player rule set."""
    straight = draw(st.booleans())
    oklahoma = not straight and draw(st.booleans())
    return Rules(
        knock_limit=draw(st.integers(0, 10)),
        straight_gin=straight,
        oklahoma=oklahoma,
        oklahoma_ace_gin_only=oklahoma and draw(st.booleans()),
        oklahoma_spade_double=oklahoma and draw(st.booleans()),
        oklahoma_extra_boxes=oklahoma and draw(st.booleans()),
        upcard=draw(st.booleans()),
        last_chance=draw(st.booleans()),
        throw_back=draw(st.booleans()),
        big_gin=draw(st.booleans()),
        gin_bonus=draw(st.sampled_from([20, 25])),
        undercut_bonus=draw(st.sampled_from([10, 20, 25])),
    )


# ---------------------------------------------------------------- a brute-force deadwood oracle


def _oracle_melds(cards: frozenset[int]) -> list[frozenset[int]]:
    """Every set (3 or 4 of a rank) and run (3+ in a row of one suit, ace low) in the cards."""
    out: list[frozenset[int]] = []
    for rank in range(13):
        same = [c for c in cards if c % 13 == rank]
        for k in (3, 4):
            out += [frozenset(x) for x in combinations(same, k)]
    for suit in range(4):
        for lo in range(13):
            run = []
            for r in range(lo, 13):
                if suit * 13 + r not in cards:
                    break
                run.append(suit * 13 + r)
                if len(run) >= 3:
                    out.append(frozenset(run))
    return out


@cache
def oracle_deadwood(cards: frozenset[int]) -> int:
    """Least deadwood by trying, for the lowest card, 'loose' and every meld that holds it."""
    if not cards:
        return 0
    low = min(cards)
    best = CARD_VALUES[low] + oracle_deadwood(cards - {low})
    for meld in _oracle_melds(cards):
        if low in meld:
            best = min(best, oracle_deadwood(cards - meld))
    return best


@FAST
@given(st.lists(st.integers(0, 51), min_size=0, max_size=11, unique=True))
def test_deadwood_equals_a_brute_force_oracle_on_random_hands(hand: list[int]) -> None:
    assert deadwood(mask_of(hand)) == oracle_deadwood(frozenset(hand))


_BLOCK = st.one_of(
    # a run: suit, lowest rank, length
    st.tuples(st.just("run"), st.integers(0, 3), st.integers(0, 10), st.integers(3, 5)),
    # a set of three (leave one suit out) or of four (-1)
    st.tuples(st.just("set"), st.integers(0, 12), st.integers(-1, 3), st.just(0)),
)


@st.composite
def meld_rich_hands(draw: st.DrawFn, size: int = 11) -> list[int]:
    """Hands built around overlapping runs and sets, where arrangements compete for cards."""
    cards: list[int] = []
    for kind, a, b, n in draw(st.lists(_BLOCK, min_size=1, max_size=4)):
        block = (
            [a * 13 + r for r in range(b, min(b + n, 13))] if kind == "run" else [s * 13 + a for s in range(4) if s != b]
        )
        cards += [c for c in block if c not in cards]
    filler = draw(st.permutations(range(52)))
    cards = cards[:size] + [c for c in filler if c not in cards][: max(0, size - len(cards))]
    return sorted(cards)


@FAST
@given(meld_rich_hands(11))
def test_eleven_card_deadwood_after_the_best_discard_equals_the_oracle(hand: list[int]) -> None:
    m = mask_of(hand)
    want = min(oracle_deadwood(frozenset(hand) - {c}) for c in hand)
    assert min_deadwood_after_discard(m) == want
    best, discards = best_discards(m)
    assert best == want and all(oracle_deadwood(frozenset(hand) - {c}) == want for c in discards)


@FAST
@given(meld_rich_hands(10))
def test_deadwood_equals_the_oracle_on_meld_rich_hands(hand: list[int]) -> None:
    assert deadwood(mask_of(hand)) == oracle_deadwood(frozenset(hand))


# ---------------------------------------------------------------- whole random hands


def _play(rules: Rules, seed: int, steps: int | None = None) -> tuple[Hand, random.Random]:
    h = new_hand(rules, seed % 2, seed=seed)
    rng = random.Random(seed)
    n = 0
    while not h.is_over and (steps is None or n < steps):
        assert h.card_count_check(), "52 cards must be accounted for"
        legal = h.legal_actions()
        assert legal, f"no legal action in phase {h.phase}"
        # Half the games play purposefully (to reach knocks and layoffs), half uniformly.
        a = lively_step(h, rng) if seed % 2 else rng.choice(legal)
        h.apply(a)
        n += 1
        assert n < 3000, "the hand did not end"
    return h, rng


@settings(max_examples=60, deadline=None)
@given(rule_sets(), st.integers(0, 2**32), st.integers(0, 150))
def test_each_seats_information_state_is_its_reading_of_the_whole_history(rules: Rules, seed: int, steps: int) -> None:
    """The engine keeps each seat's history view step by step; at any point it equals a
    from-scratch reading of the history, in the hand and in its clone."""
    h, _ = _play(rules, seed, steps)
    for hand in (h, h.clone()):
        for seat in (0, 1):
            v = hand.observation(seat)
            events, discards, taken, declined, draws = reference_history(h, seat)
            assert list(v.events) == events
            assert (list(v.opponent_discards), list(v.opponent_taken), list(v.opponent_declined)) == (discards, taken, declined)
            assert v.opponent_stock_draws == draws


@FAST
@given(rule_sets(), st.integers(0, 2**32))
def test_every_random_game_ends_with_52_cards_accounted_for(rules: Rules, seed: int) -> None:
    h, _ = _play(rules, seed)
    assert h.is_over and h.card_count_check() and h.result is not None
    assert h.legal_actions() == []
    r = h.result
    if r.dead:
        assert r.winner is None and r.points == 0 and h.knocker is None
    else:
        assert r.knocker == h.knocker and r.winner in (0, 1) and r.points >= 0
        assert r.knocker_deadwood <= max(h.knock_limit, 0) or r.kind in ("gin", "big_gin")
        if r.kind in ("gin", "big_gin"):
            assert h.layoffs == [] and r.winner == h.knocker
        if r.kind == "undercut":
            assert r.defender_deadwood <= r.knocker_deadwood and r.winner != h.knocker


@settings(max_examples=60, deadline=None)
@given(rule_sets(), st.integers(0, 2**32), st.integers(0, 120))
def test_legal_actions_match_verify_over_the_whole_action_space(rules: Rules, seed: int, steps: int) -> None:
    h, _ = _play(rules, seed, steps)
    legal = set(h.legal_actions())
    for n in range(NUM_ACTIONS):
        a = Action.from_int(n)
        assert h.is_legal(a) == (a in legal), (h.phase, str(a))


@settings(max_examples=80, deadline=None)
@given(rule_sets(), st.integers(0, 2**32), st.integers(0, 120), st.data())
def test_refused_actions_change_nothing(rules: Rules, seed: int, steps: int, data: st.DataObject) -> None:
    h, _ = _play(rules, seed, steps)
    before = state_key(h)
    legal = set(h.legal_actions())
    for n in data.draw(st.lists(st.integers(0, NUM_ACTIONS - 1), min_size=5, max_size=20)):
        a = Action.from_int(n)
        if a in legal:
            continue
        try:
            h.apply(a)
        except IllegalActionError as e:
            assert e.rule and str(e)
        else:  # pragma: no cover - would be a bug
            raise AssertionError(f"{a} was applied though not legal")
        assert state_key(h) == before


def _hidden_shuffle(h: Hand, seat: int, rng: random.Random) -> Hand:
    """A copy where only cards hidden from ``seat`` moved: the opponent's unseen cards, the
    stock order and faces, and the opponent's face-down knock discard."""
    opp = 1 - seat
    fixed = h.observation(seat).opponent_known
    if h.upcard is not None:
        fixed |= 1 << h.upcard
    for step in h.history:
        if step.action.card >= 0 and step.action.kind.name == "DISCARD":
            fixed |= 1 << step.action.card
    opp_free = [c for c in range(52) if h.hands[opp] >> c & 1 and not fixed >> c & 1]
    slots: list[int] = opp_free + list(h.stock)
    hidden_kd = h.knock_discard is not None and h.knocker == opp and not fixed >> h.knock_discard & 1
    if hidden_kd:
        assert h.knock_discard is not None
        slots.append(h.knock_discard)
    new = slots[:]
    rng.shuffle(new)
    c = h.clone()
    c.hands[opp] = h.hands[opp] & ~mask_of(opp_free) | mask_of(new[: len(opp_free)])
    c.stock = new[len(opp_free) : len(opp_free) + len(h.stock)]
    if hidden_kd:
        c.knock_discard = new[-1]
    assert c.card_count_check()
    return c


@settings(max_examples=120, deadline=None)
@given(rule_sets(), st.integers(0, 2**32), st.integers(0, 150))
def test_a_seats_view_never_changes_when_only_hidden_cards_change(rules: Rules, seed: int, steps: int) -> None:
    h, rng = _play(rules, seed, steps)
    for seat in (0, 1):
        other = _hidden_shuffle(h, seat, rng)
        assert other.observation(seat) == h.observation(seat)


@settings(max_examples=40, deadline=None)
@given(rule_sets(), st.integers(0, 2**32))
def test_clone_then_replay_gives_the_same_hand(rules: Rules, seed: int) -> None:
    h, _ = _play(rules, seed)
    replay = new_hand(rules, h.dealer, deck=h.deck)
    for step in h.history:
        replay.apply(int(step.action))
    assert state_key(replay) == state_key(h)
    assert replay.result == h.result and replay.phase is Phase.OVER


def test_action_integers_and_text_round_trip_for_the_whole_space() -> None:
    for n in range(NUM_ACTIONS):
        a = Action.from_int(n)
        assert int(a) == n and Action.parse(str(a)) == a


def _best_defender_count(h: Hand, memo: dict[tuple[object, ...], int]) -> int:
    """The lowest defender count over every legal sequence of melds and layoffs (brute force)."""
    if h.is_over:
        assert h.result is not None
        return h.result.defender_deadwood
    key = (h.phase, frozenset(h.defender_melds), tuple(h.laid_on), frozenset(c for c, _ in h.layoffs))
    if key not in memo:
        best = 1 << 30
        for a in h.legal_actions():
            c = h.clone()
            c.apply(a)
            best = min(best, _best_defender_count(c, memo))
        memo[key] = best
    return memo[key]


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32))
def test_auto_defense_reaches_the_lowest_count_any_legal_defence_can(seed: int) -> None:
    rng = random.Random(seed)
    h = new_hand(Rules(), seed % 2, seed=seed)
    while not h.is_over and h.phase is not Phase.LAYOUT:
        h.apply(lively_step(h, rng))
    if h.phase is not Phase.LAYOUT:
        return
    # Any legal knocker layout (chosen at random), then compare the defences.
    while h.phase is Phase.LAYOUT:
        h.apply(rng.choice(h.legal_actions()))
    best = _best_defender_count(h.clone(), {})
    auto = h.clone()
    for a in auto.auto_defense():
        auto.apply(a)
    assert auto.result is not None and auto.result.defender_deadwood == best


@FAST
@given(st.integers(0, 12), st.lists(st.integers(0, 51), min_size=7, max_size=7, unique=True))
def test_eleven_cards_holding_a_rank_of_four_match_the_oracle(rank: int, others: list[int]) -> None:
    hand = {s * 13 + rank for s in range(4)}
    hand |= set([c for c in others if c not in hand][:7])
    m = mask_of(hand)
    assert min_deadwood_after_discard(m) == min(oracle_deadwood(frozenset(hand) - {c}) for c in hand)
    assert deadwood(m) == oracle_deadwood(frozenset(hand))


@settings(max_examples=100, deadline=None)
@given(rule_sets(), st.integers(0, 2**32), st.integers(0, 120))
def test_offered_knocks_are_exactly_the_discards_the_oracle_allows(rules: Rules, seed: int, steps: int) -> None:
    h, rng = _play(rules, seed, steps)
    while not h.is_over and h.phase is not Phase.DISCARD:
        h.apply(rng.choice(h.legal_actions()))
    if h.is_over:
        return
    hand = h.hands[h.current]
    cards = frozenset(c for c in range(52) if hand >> c & 1)
    banned = h.taken if h.taken is not None and (not rules.throw_back or h.must_knock) else None
    want = {c for c in cards if c != banned and oracle_deadwood(cards - {c}) <= h.knock_limit}
    got = {a.card for a in h.legal_actions() if a.kind.name == "KNOCK"}
    assert got == want
