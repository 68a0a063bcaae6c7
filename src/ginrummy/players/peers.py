"""Play our players against OpenSpiel's ``simple_gin_rummy_bot`` in OpenSpiel's own game, and
against RLCard's ``GinRummyNoviceRuleAgent`` in ours (:class:`RLCardNovicePlayer`).

Optional: needs ``open_spiel`` / ``rlcard`` (``pip install 'ginrummy[peers]'``), imported only
when used; nothing else imports this module.

How a player of ours, which only understands a :class:`~ginrummy.observation.SeatView`,
plays inside OpenSpiel's ``gin_rummy``: we keep a *shadow* hand of our engine dealt from the
same deck and play every move on both. When it is our player's turn, it decides from the
shadow's view of its seat (so it sees exactly what it would see in our engine, and our
engine checks its move); the move is translated into OpenSpiel actions. The bot's moves are
translated back and played on the shadow. OpenSpiel's returns are the score.

Conventions that differ (checked against OpenSpiel 2.0.2):

- Cards: both are ``suit * 13 + rank`` with ace low, but OpenSpiel's suits are s, c, d, h
  and ours s, h, d, c, so hearts and clubs swap.
- Deal: OpenSpiel deals 10 cards to player 0, then 10 to player 1, then the upcard, and each
  stock draw is a chance node; player 0 acts first, so it is our non-dealer.
- Knock: OpenSpiel's knock is one action (55) followed by the discard; ours is ``knock c``.
- The wall: with 2 cards left in the stock OpenSpiel lets the next player knock with the
  discard (taking it) or end the hand; that is our ``last_chance`` rule.
- Melds: OpenSpiel has 185 meld actions (runs of 3 to 5 cards); a longer run of ours is laid
  there as two or more shorter runs.
- The defender: OpenSpiel lays off single cards first, then lays melds; ours lays melds,
  then lays off. Our defender's whole answer is decided on the shadow, then replayed in
  OpenSpiel's order.
- OpenSpiel allows throwing back the card just taken (a repeated move twice ends the hand)
  and ends a hand after 50 upcard draws; our engine does not. Such a hand cannot be mirrored:
  it is reported as ``desync`` and left out (with its seat-swapped twin) by callers.
- Scoring: OpenSpiel scores a defender's count *equal* to the knocker's as 0, where every
  rule document we follow calls it an undercut (0 plus the bonus). ``PeerResult.ours``
  keeps our engine's score of the same hand so the difference can be counted.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..actions import DONE, PASS, PILE, STOCK, Action, Kind
from ..cards import cards_of
from ..errors import IllegalActionError
from ..events import Phase
from ..hand import Hand, new_hand
from ..layout import layout_action
from ..observation import SeatView, observe
from ..rules import Rules
from .base import Player

#: Our rules that OpenSpiel's default gin_rummy plays: gin 25, undercut 25, knock 10, the wall.
OPENSPIEL_RULES = Rules.preset("eaai", last_chance=True)

OS_DRAW_UPCARD = 52
OS_DRAW_STOCK = 53
OS_PASS = 54
OS_KNOCK = 55
OS_MELD_BASE = 56


def to_os_card(card: int) -> int:
    """Our card id to OpenSpiel's (hearts and clubs swap places)."""
    suit, rank = divmod(card, 13)
    return (0, 3, 2, 1)[suit] * 13 + rank


to_our_card = to_os_card  # the map is its own inverse


class Desync(Exception):
    """A move of one engine that the other does not allow (the rules differ there)."""


@dataclass
class PeerResult:
    """One hand: our player's points (OpenSpiel's return for its seat), and our engine's view."""

    points: float
    desync: bool
    kind: str  # our engine's hand kind, or "desync" / "openspiel_end"
    decisions: int
    #: Our engine's score of the same hand for our player (None when it could not finish it);
    #: equal to ``points`` when both engines agree.
    ours: float | None = None


class OpenSpielTable:
    """One OpenSpiel ``gin_rummy`` game object and its two simple bots, reused across hands."""

    def __init__(self) -> None:
        import pyspiel

        self.pyspiel = pyspiel
        self.game = pyspiel.load_game("gin_rummy")
        params = self.game.get_parameters()
        self.bots = [pyspiel.make_simple_gin_rummy_bot(params, p) for p in range(2)]
        utils = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)
        self.meld_of_id: dict[int, int] = {}
        self.id_of_meld: dict[int, int] = {}
        for mid, os_cards in utils.int_to_meld.items():
            mask = 0
            for c in os_cards:
                mask |= 1 << to_our_card(c)
            self.meld_of_id[mid] = mask
            self.id_of_meld[mask] = mid
        self._knocking = False

    # -- melds ----------------------------------------------------------------------------

    def os_melds(self, mask: int) -> list[int]:
        """OpenSpiel meld actions for one of our melds (long runs split into 3- to 5-card runs)."""
        if mask in self.id_of_meld:
            return [OS_MELD_BASE + self.id_of_meld[mask]]
        cards = [c for c in range(52) if mask >> c & 1]
        parts: list[list[int]] = []
        while len(cards) > 5:
            take = 3 if len(cards) - 3 >= 3 and len(cards) != 8 else 4
            parts.append(cards[:take])
            cards = cards[take:]
        parts.append(cards)
        out = []
        for part in parts:
            m = 0
            for c in part:
                m |= 1 << c
            out.append(OS_MELD_BASE + self.id_of_meld[m])
        return out

    # -- one hand -------------------------------------------------------------------------

    def play(self, player: Player, our_os_seat: int, deck: Sequence[int]) -> PeerResult:
        """Play one hand: ``player`` as OpenSpiel player ``our_os_seat`` against the bot.

        ``deck`` is in OpenSpiel's dealing order with our card ids: 10 cards to OpenSpiel's
        player 0, 10 to player 1, the upcard, then the stock from the top.
        """
        # Our deck order: alternate non-dealer (OS player 0) and dealer (OS player 1).
        order: list[int] = []
        for i in range(10):
            order += [deck[i], deck[10 + i]]
        order += list(deck[20:])
        shadow = new_hand(OPENSPIEL_RULES, dealer=1, deck=order)  # our seat s = OS player s
        bot = self.bots[1 - our_os_seat]
        bot.restart()
        self._knocking = False
        state = self.game.new_initial_state()
        feed = [to_os_card(c) for c in deck]
        k = 0
        decisions = 0
        player.new_hand(our_os_seat)
        pending: list[int] = []  # OpenSpiel actions of ours still to play
        bot_defense: list[int] = []  # the bot's defender actions, replayed on the shadow at the end
        try:
            while not state.is_terminal():
                if state.is_chance_node():
                    state.apply_action(feed[k])
                    k += 1
                    continue
                cur = state.current_player()
                if cur == our_os_seat:
                    if not pending:
                        pending = self._our_moves(player, shadow, our_os_seat)
                        decisions += 1
                    state.apply_action(pending.pop(0))
                else:
                    a = bot.step(state)
                    os_phase = self._bot_move(shadow, a, bot_defense)
                    state.apply_action(a)
                    if os_phase == "defense_done":
                        self._replay_defense(shadow, bot_defense)
        except (Desync, IllegalActionError):
            return PeerResult(0.0, True, "desync", decisions)
        returns = state.returns()
        ours: float | None = None
        kind: str = "openspiel_end"  # unless our engine finished it too (not after OpenSpiel's
        # repeated-move or 50-upcard-draw ends)
        if shadow.is_over and shadow.result is not None:
            player.hand_over(observe(shadow, our_os_seat))
            r = shadow.result
            kind = r.kind
            ours = 0.0 if r.winner is None else float(r.points if r.winner == our_os_seat else -r.points)
        return PeerResult(float(returns[our_os_seat]), kind == "openspiel_end", kind, decisions, ours)

    # -- our moves ----------------------------------------------------------------------------

    def _our_moves(self, player: Player, shadow: Hand, seat: int) -> list[int]:
        """Our player decides on the shadow until OpenSpiel would wait for the bot; returns the
        OpenSpiel actions for those decisions."""
        if shadow.current != seat:
            raise Desync("OpenSpiel expects our move, our engine the bot's")
        p = shadow.phase
        a = player.decide(observe(shadow, seat))
        shadow.apply(a)
        if p is Phase.OFFER:
            return [OS_DRAW_UPCARD if a == PILE else OS_PASS]
        if p is Phase.DRAW:
            return [OS_DRAW_UPCARD if a == PILE else OS_DRAW_STOCK]
        if p is Phase.LAST_CHANCE:
            if a == PASS:
                return [OS_PASS]
            # Took the last discard to knock: OpenSpiel's wall knock, then the knock's discard.
            k = player.decide(observe(shadow, seat))
            shadow.apply(k)
            return [OS_KNOCK, to_os_card(k.card), *self._our_layout(player, shadow, seat)]
        if p is Phase.DISCARD:
            if a.kind is Kind.DISCARD:
                return [to_os_card(a.card)]
            if a.kind is Kind.KNOCK:
                return [OS_KNOCK, to_os_card(a.card), *self._our_layout(player, shadow, seat)]
            raise Desync("big gin is not played in OpenSpiel")
        if p is Phase.DEFENDER_LAYOUT:
            return self._our_defense(player, shadow, seat, first=a)
        raise Desync(f"unexpected phase {p.value} for our move")

    def _our_layout(self, player: Player, shadow: Hand, seat: int) -> list[int]:
        out: list[int] = []
        while shadow.phase is Phase.LAYOUT:
            a = player.decide(observe(shadow, seat))
            shadow.apply(a)
            out += self.os_melds(a.meld) if a.kind is Kind.MELD else [OS_PASS]
        return out

    def _our_defense(self, player: Player, shadow: Hand, seat: int, first: Action) -> list[int]:
        """Our defender's melds and layoffs on the shadow, replayed in OpenSpiel's order."""
        gin = shadow.knocker_deadwood() == 0
        melds: list[int] = []
        layoffs: list[int] = []
        a = first
        while True:
            if a.kind is Kind.MELD:
                melds.append(a.meld)
            elif a.kind is Kind.LAYOFF:
                layoffs.append(a.card)
            if shadow.phase not in (Phase.DEFENDER_LAYOUT, Phase.LAYOFF):
                break
            a = player.decide(observe(shadow, seat))
            shadow.apply(a)
        out = [] if gin else [to_os_card(c) for c in layoffs] + [OS_PASS]
        for m in melds:
            out += self.os_melds(m)
        return out + [OS_PASS]

    # -- the bot's moves ----------------------------------------------------------------------

    def _bot_move(self, shadow: Hand, a: int, defense: list[int]) -> str:
        """Play the bot's OpenSpiel action ``a`` on the shadow (defender moves are collected)."""
        p = shadow.phase
        if p in (Phase.DEFENDER_LAYOUT, Phase.LAYOFF) or defense:
            defense.append(a)
            # The defender is done after its second pass (or its first, against gin).
            passes = defense.count(OS_PASS)
            gin = shadow.knocker_deadwood() == 0
            return "defense_done" if a == OS_PASS and passes == (1 if gin else 2) else "defense"
        if p is Phase.OFFER:
            shadow.apply(PILE if a == OS_DRAW_UPCARD else PASS)
        elif p is Phase.DRAW:
            shadow.apply(PILE if a == OS_DRAW_UPCARD else STOCK)
        elif p is Phase.LAST_CHANCE:
            shadow.apply(PILE if a == OS_KNOCK else PASS)
        elif p is Phase.DISCARD:
            if a == OS_KNOCK:
                self._knocking = True  # OpenSpiel's knock: its discard is the next action
                return "knock"
            card = to_our_card(a)
            if self._knocking or shadow.must_knock:
                self._knocking = False
                shadow.apply(Action.knock(card))
            else:
                shadow.apply(Action.discard(card))
        elif p is Phase.LAYOUT:
            if a == OS_PASS:
                shadow.apply(DONE)
            else:
                shadow.apply(Action.lay_meld(self.meld_of_id[a - OS_MELD_BASE]))
        else:
            raise Desync(f"bot move {a} in phase {p.value}")
        return "play"

    def _replay_defense(self, shadow: Hand, defense: list[int]) -> None:
        """The bot's defender actions (OpenSpiel order: layoffs, pass, melds, pass) on the shadow."""
        gin = shadow.knocker_deadwood() == 0
        i = 0
        layoffs: list[int] = []
        if not gin:
            while defense[i] != OS_PASS:
                layoffs.append(to_our_card(defense[i]))
                i += 1
            i += 1
        for a in defense[i:]:
            if a != OS_PASS:
                shadow.apply(Action.lay_meld(self.meld_of_id[a - OS_MELD_BASE]))
        shadow.apply(DONE)
        if shadow.phase is Phase.LAYOFF:
            for c in layoffs:
                options = [x for x in shadow.legal_actions() if x.kind is Kind.LAYOFF and x.card == c]
                if not options:
                    raise Desync(f"the bot's layoff {c} has no place in our engine")
                shadow.apply(options[0])
            shadow.apply(DONE)
        defense.clear()


# ---------------------------------------------------------------------------------------------
# RLCard's GinRummyNoviceRuleAgent as one of our players
# ---------------------------------------------------------------------------------------------

#: RLCard 1.2.0 action ids (``rlcard.games.gin_rummy.utils.action_event``).
RL_DRAW_CARD = 2
RL_PICK_UP_DISCARD = 3
RL_DECLARE_DEAD_HAND = 4
RL_GIN = 5
RL_DISCARD_BASE = 6
RL_KNOCK_BASE = 58


class RLCardNovicePlayer(Player):
    """RLCard's ``GinRummyNoviceRuleAgent`` playing in our engine, from our SeatView only.

    Optional: needs ``rlcard`` (``pip install rlcard``). Card ids need no translation: RLCard's
    ``card_id = rank + 13 * suit`` with suits S, H, D, C is exactly ours.

    The agent's ``step(state)`` reads ``state['obs'][0]`` (its hand) and
    ``state['legal_actions']`` (an ordered dict of RLCard action ids). We build the full
    5 x 52 observation of RLCard's env (hand, top discard, the rest of the pile, the
    opponent's known cards, the unknown cards) from the view, and translate ``view.legal``
    into RLCard ids the way RLCard's judge would offer them:

    - draw: ``stock`` is RLCard's draw_card, ``pile`` its pick_up_discard. Our upcard offer
      (which RLCard does not have) is offered as pick_up_discard (take) or draw_card (pass),
      and our last-chance turn at the wall as pick_up_discard (take the discard to knock)
      or declare_dead_hand (pass). The novice agent picks among these at random.
    - discard: when some knock leaves no deadwood, RLCard offers only gin, and so do we
      (mapped back to a gin knock of ours, or big gin where our rules have it); otherwise
      each ``discard c`` and ``knock c`` of ours is RLCard's discard / knock of ``c``.
    - layout, defender melds and layoffs (RLCard scores a knock without them): our driver's
      default :func:`~ginrummy.players.driver.layout_action`.

    The agent breaks ties with ``np.random.choice``; we keep a numpy random state of our own
    (from ``seed``) and swap it in around each call, so play is reproducible and does not
    disturb anyone else's numpy randomness.
    """

    name = "rlcard-novice"

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        import numpy as np
        from rlcard.models.gin_rummy_rule_models import GinRummyNoviceRuleAgent

        self._np = np
        self.agent = GinRummyNoviceRuleAgent()
        self._np_state = np.random.RandomState(self.rng.getrandbits(32)).get_state()

    def decide(self, view: SeatView) -> Action:
        from ..melds import deadwood

        p = view.phase
        if p in (Phase.LAYOUT, Phase.DEFENDER_LAYOUT, Phase.LAYOFF):
            return layout_action(view)
        back: dict[int, Action] = {}
        if p is Phase.OFFER or p is Phase.DRAW or p is Phase.LAST_CHANCE:
            for a in view.legal:
                if a.kind is Kind.PILE:
                    back[RL_PICK_UP_DISCARD] = a
                elif a.kind is Kind.STOCK or (a.kind is Kind.PASS and p is Phase.OFFER):
                    back[RL_DRAW_CARD] = a
                elif a.kind is Kind.PASS:
                    back[RL_DECLARE_DEAD_HAND] = a
        elif p is Phase.DISCARD:
            gin = [a for a in view.legal if a.kind is Kind.BIG_GIN]
            gin += [a for a in view.legal if a.kind is Kind.KNOCK and deadwood(view.hand & ~(1 << a.card)) == 0]
            if gin:
                back[RL_GIN] = gin[0]
            else:
                for a in view.legal:
                    if a.kind is Kind.DISCARD:
                        back[RL_DISCARD_BASE + a.card] = a
                    elif a.kind is Kind.KNOCK:
                        back[RL_KNOCK_BASE + a.card] = a
        if not back:
            raise ValueError(f"RLCard has no move for phase {p.value} (legal: {[str(a) for a in view.legal]})")
        if len(back) == 1:
            return next(iter(back.values()))
        chosen = self._step(view, list(back))
        if chosen not in back:
            raise ValueError(f"RLCard's novice agent chose {chosen}, not one of {list(back)}")
        return back[chosen]

    def _observation(self, view: SeatView) -> Any:
        np = self._np
        planes = np.zeros((5, 52), dtype=int)
        pile_top = view.pile[-1] if view.pile else None
        seen = view.hand | view.opponent_known
        for c in cards_of(view.hand):
            planes[0, c] = 1
        if pile_top is not None:
            planes[1, pile_top] = 1
        for c in view.pile[:-1]:
            planes[2, c] = 1
        for c in cards_of(view.opponent_known):
            planes[3, c] = 1
        for c in view.pile:
            seen |= 1 << c
        for c in range(52):
            if not seen >> c & 1:
                planes[4, c] = 1
        return planes

    def _step(self, view: SeatView, ids: list[int]) -> int:
        from collections import OrderedDict

        np = self._np
        state = {"obs": self._observation(view), "legal_actions": OrderedDict((i, None) for i in ids)}
        state["raw_legal_actions"] = list(ids)
        outer = np.random.get_state()
        np.random.set_state(self._np_state)
        try:
            chosen = int(self.agent.step(state))
        finally:
            self._np_state = np.random.get_state()
            np.random.set_state(outer)
        return chosen


def stats(points: Sequence[float]) -> dict[str, Any]:
    """Mean and 95% normal interval of per-deal points (each the mean of a seat-swapped pair)."""
    n = len(points)
    if n == 0:
        return {"n": 0, "mean": 0.0, "ci95": [0.0, 0.0]}
    mean = sum(points) / n
    var = sum((x - mean) ** 2 for x in points) / (n - 1) if n > 1 else 0.0
    half = 1.959963984540054 * (var / n) ** 0.5
    return {"n": n, "mean": mean, "ci95": [mean - half, mean + half]}


__all__ = [
    "OPENSPIEL_RULES",
    "Desync",
    "OpenSpielTable",
    "PeerResult",
    "RLCardNovicePlayer",
    "stats",
    "to_os_card",
    "to_our_card",
]
