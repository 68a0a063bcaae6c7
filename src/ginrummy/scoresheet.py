"""The score ledger of a two-player game: hand results in; totals, game end and bonuses out.

:class:`ScoreSheet` takes :class:`~ginrummy.scoring.HandResult` objects one at a time (the
engine's, or the scorekeeper's for a game played with real cards), keeps the running totals,
decides when the game is over and computes the bonuses: game bonus, box bonuses (never counted
toward the target), every shutout mode, Oklahoma extra boxes, and Hollywood scoring (three games
at once). A hand can be corrected afterwards (:meth:`ScoreSheet.replace`), because people mistype.
It also holds the dealer rules (:func:`next_dealer`, :func:`cut_for_deal`), which need no cards
in play either.

Why a module of its own: the scorekeeper needs the ledger and nothing of dealing or playing, so
it imports nothing of :mod:`ginrummy.hand` or :mod:`ginrummy.observation`;
:class:`~ginrummy.match.Match` writes each hand it plays on a sheet from here.

000's worked five-hand example, scored from the hand results alone:

>>> from ginrummy.scoring import score_hand
>>> rules = Rules()
>>> sheet = ScoreSheet(rules)
>>> for k, kd, dd in [(0, 3, 25), (1, 0, 14), (0, 8, 6), (0, 0, 31), (0, 5, 35)]:
...     sheet.add(score_hand(rules, knocker=k, knocker_deadwood=kd, defender_deadwood=dd))
>>> sheet.is_over, sheet.winner, sheet.scores
(True, 0, (103, 46))
>>> f = sheet.final()
>>> f.totals, f.margin
((263, 86), 177)
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .cards import Card, rank_of
from .errors import IllegalActionError
from .rules import Rules
from .scoring import HandResult

#: Number of games Hollywood scoring keeps at once.
HOLLYWOOD_GAMES = 3


# ---------------------------------------------------------------------------------------------
# Dealers
# ---------------------------------------------------------------------------------------------


def next_dealer(rules: Rules, dealer: int, result: HandResult) -> int:
    """Who deals after a hand dealt by ``dealer`` ended with ``result``.

    The same dealer deals again after a dead hand, whatever the rule (every document agrees).

    >>> from ginrummy.scoring import DEAD_HAND, HandResult
    >>> won_by_1 = HandResult(kind='knock', winner=1, points=5, knocker=1)
    >>> [next_dealer(Rules(next_dealer=r), 0, won_by_1) for r in ('winner', 'loser', 'alternate')]
    [1, 0, 1]
    >>> next_dealer(Rules(next_dealer='alternate'), 0, DEAD_HAND)
    0
    """
    if result.winner is None:
        return dealer
    if rules.next_dealer == "winner":
        return result.winner
    if rules.next_dealer == "loser":
        return 1 - result.winner
    return 1 - dealer


@dataclass(frozen=True, slots=True)
class Cut:
    """One round of cutting for the deal: ``cards[seat]`` is the card that seat drew."""

    cards: tuple[Card, ...]

    @property
    def tie(self) -> bool:
        ranks = [rank_of(c) for c in self.cards]
        return len(set(ranks)) < len(ranks)


def cut_for_deal(rules: Rules, rng: random.Random) -> tuple[int, list[Cut]]:
    """Choose the first dealer per ``rules.first_dealer``: returns (dealer, the cuts made).

    Cutting: each seat draws a card from a shuffled deck; kings are high and aces low, suits do
    not count, so equal ranks cut again (from a new shuffle). ``random`` draws no cards.

    >>> d, cuts = cut_for_deal(Rules(), random.Random(7))
    >>> d in (0, 1) and len(cuts) >= 1
    True
    >>> cut_for_deal(Rules(first_dealer='random'), random.Random(7))[1]
    []
    """
    if rules.first_dealer == "random":
        return rng.randrange(2), []
    cuts: list[Cut] = []
    while True:
        deck = list(range(52))
        rng.shuffle(deck)
        cut = Cut(tuple(deck[:2]))
        cuts.append(cut)
        if cut.tie:
            continue
        ranks = [rank_of(c) for c in cut.cards]
        best = max(ranks) if rules.first_dealer == "high_cut" else min(ranks)
        return ranks.index(best), cuts


# ---------------------------------------------------------------------------------------------
# The ledger
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Line:
    """One line of a final breakdown, for UIs: ``seat`` gets ``points`` for ``label``."""

    game: int
    seat: int
    label: str
    points: int

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "seat": self.seat, "label": self.label, "points": self.points}


@dataclass(frozen=True, slots=True)
class GameResult:
    """The final score of one game (a Hollywood match has three).

    ``points`` are the hand points written in this game (as played, before any shutout
    doubling); ``game_bonus`` is the plain game bonus; ``shutout_bonus`` is what the shutout
    adds on top (the extra game bonus, or the doubling); ``box_bonus`` counts hands won plus
    Oklahoma extra boxes. ``totals = points + game_bonus + box_bonus + shutout_bonus``.
    """

    index: int
    points: tuple[int, ...]
    hands_won: tuple[int, ...]
    extra_boxes: tuple[int, ...]
    game_bonus: tuple[int, ...]
    box_bonus: tuple[int, ...]
    shutout: bool
    shutout_bonus: tuple[int, ...]
    totals: tuple[int, ...]
    winner: int
    #: Hand number (0-based, over the whole match) whose points closed this game.
    closed_by: int
    lines: tuple[Line, ...]

    @property
    def margin(self) -> int:
        """The winner's final total minus the best other total."""
        others = [t for s, t in enumerate(self.totals) if s != self.winner]
        return self.totals[self.winner] - max(others)

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.index,
            **_tally_json(self),
            "closed_by": self.closed_by,
        }


@dataclass(frozen=True, slots=True)
class FinalResult:
    """The final result of a match, summed over its games (one, or three for Hollywood).

    ``winner`` is the player who reached the target (for Hollywood: the larger sum, None on a
    tie); ``margin`` is the winner's final total minus the other's (the settlement). In a single
    game the margin can in principle be negative: box bonuses do not count toward the target, so
    a loser who won many small hands may end with the larger total; we report it as it is.
    """

    points: tuple[int, ...]
    hands_won: tuple[int, ...]
    extra_boxes: tuple[int, ...]
    game_bonus: tuple[int, ...]
    box_bonus: tuple[int, ...]
    shutout: bool
    shutout_bonus: tuple[int, ...]
    totals: tuple[int, ...]
    winner: int | None
    margin: int
    games: tuple[GameResult, ...]
    hollywood: bool = False

    @property
    def breakdown(self) -> list[Line]:
        """Every bonus line of every game, in order, for a final screen."""
        return [line for g in self.games for line in g.lines]

    def explain(self, names: Sequence[str] = ("Player 1", "Player 2")) -> list[str]:
        """Plain-language lines: each bonus, then the totals and the margin.

        >>> from ginrummy.scoring import score_hand
        >>> s = ScoreSheet(Rules())
        >>> s.add(score_hand(Rules(), knocker=0, knocker_deadwood=0, defender_deadwood=90))
        >>> s.final().explain(('You', 'Sam'))[-1]
        'You win 330 to 0, by 330.'
        """
        out = []
        for g in self.games:
            prefix = f"Game {g.index + 1}: " if self.hollywood else ""
            out.append(prefix + ", ".join(f"{names[s]} {g.points[s]} from hands" for s in range(len(g.points))) + ".")
            for line in g.lines:
                out.append(f"{prefix}{names[line.seat]}: {line.label} {line.points:+d}.")
            if self.hollywood:
                out.append(
                    f"{prefix}" + " to ".join(str(t) for t in g.totals) + f", won by {names[g.winner]}."
                )
        if self.winner is None:
            out.append("A tie at " + " to ".join(str(t) for t in self.totals) + ".")
        else:
            others = [t for s, t in enumerate(self.totals) if s != self.winner]
            out.append(
                f"{names[self.winner]} win{'s' if names[self.winner] != 'You' else ''} "
                f"{self.totals[self.winner]} to {max(others)}, by {self.margin}."
            )
        return out

    def to_json(self) -> dict[str, Any]:
        return {
            **_tally_json(self),
            "games": [g.to_json() for g in self.games] if self.hollywood else [],
            "breakdown": [line.to_json() for line in self.breakdown],
        }


@dataclass(frozen=True, slots=True)
class Row:
    """One hand on the score sheet: its result, the games it was written in, the running totals.

    ``totals[g]`` are game ``g``'s totals toward the target after this hand.
    """

    index: int
    result: HandResult
    written: tuple[int, ...]
    totals: tuple[tuple[int, ...], ...]
    #: Games that closed with this hand.
    closed: tuple[int, ...]


@dataclass
class _Column:
    """One game's columns: hand points and boxes per seat, and whether it has closed."""

    seats: int
    points: list[int] = field(default_factory=list)
    wins: list[int] = field(default_factory=list)
    extra: list[int] = field(default_factory=list)
    winner: int | None = None
    closed_by: int = -1

    def __post_init__(self) -> None:
        self.points = [0] * self.seats
        self.wins = [0] * self.seats
        self.extra = [0] * self.seats

    @property
    def open(self) -> bool:
        return self.winner is None


def check_result(result: HandResult, seats: int = 2) -> None:
    """Refuse a HandResult that breaks the invariants of hand scoring.

    Only one player scores in a hand; a dead hand scores nothing and is won by nobody.

    >>> check_result(HandResult(kind='knock', winner=None, points=3))
    Traceback (most recent call last):
    ...
    ginrummy.errors.IllegalActionError: a knock hand needs a winner
    """
    if not isinstance(result, HandResult):
        raise IllegalActionError(f"not a hand result: {result!r}", rule="hand_result")
    if result.kind == "dead":
        if result.winner is not None or result.points or result.extra_boxes:
            raise IllegalActionError("a dead hand is won by nobody and scores nothing", rule="dead_hand")
        return
    if result.winner is None:
        raise IllegalActionError(f"a {result.kind} hand needs a winner", rule="hand_result")
    if not 0 <= result.winner < seats:
        raise IllegalActionError(f"no player {result.winner} in a {seats}-player game", rule="players")
    if result.points < 0 or result.extra_boxes < 0:
        raise IllegalActionError("hand points and extra boxes cannot be negative", rule="hand_result")


class ScoreSheet:
    """The pure score ledger of one match: hand results in, totals, game end and bonuses out.

    Used by :class:`~ginrummy.match.Match` and by the scorekeeper (which has no cards, only results). It knows
    nothing of dealing or dealers; it only needs the rule set's game and bonus figures.

    Hollywood (``rules.hollywood``) keeps three games: a player's 1st hand win is written in
    game 1 only, the 2nd in games 1 and 2, each later win in every game still open (a win is
    written only in games still open). A game closes when a player reaches the target in it and
    takes its bonuses then; the match is over when all three have closed.

    ``seats`` is the number of players whose columns the sheet keeps (2; the ledger itself does
    not assume two, so games of more players can be scored on it).

    >>> s = ScoreSheet(Rules(target=10))
    >>> s.add(HandResult(kind='knock', winner=1, points=12, knocker=1))
    >>> s.is_over, s.winner, s.final().totals
    (True, 1, (0, 232))
    >>> s.add(HandResult(kind='knock', winner=0, points=5, knocker=0))
    Traceback (most recent call last):
    ...
    ginrummy.errors.IllegalActionError: hand 2: the game is already over (Player 2 reached 10 in hand 1)
    """

    def __init__(self, rules: Rules, results: Iterable[HandResult] = (), *, seats: int = 2) -> None:
        self.rules = rules
        self.seats = seats
        self.results: list[HandResult] = []
        self._games = self._empty_games()
        self._rows: list[Row] = []
        self._wins = [0] * seats
        for r in results:
            self.add(r)

    def _empty_games(self) -> list[_Column]:
        n = HOLLYWOOD_GAMES if self.rules.hollywood else 1
        return [_Column(self.seats) for _ in range(n)]

    # -- entering hands ---------------------------------------------------------------

    def add(self, result: HandResult) -> None:
        """Write one finished hand (dead hands included) on the sheet."""
        check_result(result, self.seats)
        n = len(self.results)
        if self.is_over:
            closer = self._games[-1] if not self.rules.hollywood else max(self._games, key=lambda g: g.closed_by)
            assert closer.winner is not None
            raise IllegalActionError(
                f"hand {n + 1}: the game is already over (Player {closer.winner + 1} reached "
                f"{self.rules.target} in hand {closer.closed_by + 1})",
                rule="game_over",
            )
        self.results.append(result)
        written: list[int] = []
        closed: list[int] = []
        if result.winner is not None:
            w = result.winner
            self._wins[w] += 1
            k = self._wins[w]
            for g, col in enumerate(self._games):
                # Hollywood: the k-th win is written in the first k games (only while open).
                if not col.open or (self.rules.hollywood and g >= k):
                    continue
                col.points[w] += result.points
                col.wins[w] += 1
                col.extra[w] += result.extra_boxes
                written.append(g)
                if col.points[w] >= self.rules.target:
                    col.winner = w
                    col.closed_by = n
                    closed.append(g)
        self._rows.append(
            Row(n, result, tuple(written), tuple(tuple(c.points) for c in self._games), tuple(closed))
        )
        self._check()

    def replace(self, index: int, result: HandResult) -> None:
        """Correct hand ``index`` (0-based) and recompute everything after it.

        Refused (and nothing changes) if the correction would end the game before a later hand.

        >>> s = ScoreSheet(Rules())
        >>> s.add(HandResult(kind='knock', winner=0, points=30, knocker=0))
        >>> s.add(HandResult(kind='knock', winner=0, points=30, knocker=0))
        >>> s.replace(0, HandResult(kind='gin', winner=1, points=40, knocker=1))
        >>> s.scores
        (30, 40)
        """
        if not 0 <= index < len(self.results):
            raise IndexError(f"no hand {index + 1} on the sheet ({len(self.results)} hands)")
        new = list(self.results)
        new[index] = result
        self._rebuild(new)

    def remove(self, index: int = -1) -> HandResult:
        """Take hand ``index`` (default: the last) off the sheet; later hands move up."""
        new = list(self.results)
        removed = new.pop(index)
        self._rebuild(new)
        return removed

    def _rebuild(self, results: Sequence[HandResult]) -> None:
        fresh = ScoreSheet(self.rules, seats=self.seats)
        for r in results:
            fresh.add(r)  # raises before anything here is changed
        self.results, self._games, self._rows, self._wins = fresh.results, fresh._games, fresh._rows, fresh._wins

    def _check(self) -> None:
        """Invariants: totals are the sums of the points written; one winner per closed game."""
        for g, col in enumerate(self._games):
            sums = [0] * self.seats
            for row in self._rows:
                if g in row.written:
                    assert row.result.winner is not None
                    sums[row.result.winner] += row.result.points
            assert sums == col.points, (g, sums, col.points)
            if col.winner is not None:
                assert col.points[col.winner] >= self.rules.target
                assert all(p < self.rules.target for s, p in enumerate(col.points) if s != col.winner)

    # -- queries -----------------------------------------------------------------------

    @property
    def rows(self) -> list[Row]:
        """Each hand as written: result, games written in, running totals."""
        return list(self._rows)

    @property
    def games(self) -> int:
        """How many games are kept at once: 1, or 3 with Hollywood scoring."""
        return len(self._games)

    def game_scores(self, game: int) -> tuple[int, ...]:
        """Totals toward the target in one game (boxes excluded)."""
        return tuple(self._games[game].points)

    def game_open(self, game: int) -> bool:
        return self._games[game].open

    @property
    def scores(self) -> tuple[int, ...]:
        """Totals toward the target (boxes excluded). Hollywood: the first game still open
        (the last game once all are closed)."""
        for col in self._games:
            if col.open:
                return tuple(col.points)
        return tuple(self._games[-1].points)

    @property
    def hands_won(self) -> tuple[int, ...]:
        return tuple(self._wins)

    def boxes(self, game: int = 0) -> tuple[int, ...]:
        """Boxes each seat has in one game so far: hands won there plus Oklahoma extra boxes
        (each is worth the box bonus once the game is over).

        >>> s = ScoreSheet(Rules())
        >>> s.add(HandResult(kind='gin', winner=1, points=40, knocker=1, extra_boxes=2))
        >>> s.boxes()
        (0, 3)
        """
        col = self._games[game]
        return tuple(w + x for w, x in zip(col.wins, col.extra, strict=True))

    @property
    def is_over(self) -> bool:
        return all(not c.open for c in self._games)

    @property
    def winner(self) -> int | None:
        """The match winner once over (Hollywood: the larger sum; None on a tie)."""
        if not self.is_over:
            return None
        if not self.rules.hollywood:
            return self._games[0].winner
        return self.final().winner

    def final(self) -> FinalResult:
        """The bonuses and the final totals. Only once the game is over."""
        if not self.is_over:
            raise IllegalActionError("the game is not over yet", rule="game")
        games = tuple(self._game_result(g) for g in range(len(self._games)))

        def total(name: str) -> tuple[int, ...]:
            return tuple(sum(getattr(g, name)[s] for g in games) for s in range(self.seats))

        totals = total("totals")
        if self.rules.hollywood:
            best = max(totals)
            leaders = [s for s, t in enumerate(totals) if t == best]
            winner: int | None = leaders[0] if len(leaders) == 1 else None
            second = max([t for s, t in enumerate(totals) if s != leaders[0]])
            margin = best - second
        else:
            winner = games[0].winner
            margin = games[0].margin
        return FinalResult(
            points=total("points"),
            hands_won=total("hands_won"),
            extra_boxes=total("extra_boxes"),
            game_bonus=total("game_bonus"),
            box_bonus=total("box_bonus"),
            shutout=any(g.shutout for g in games),
            shutout_bonus=total("shutout_bonus"),
            totals=totals,
            winner=winner,
            margin=margin,
            games=games,
            hollywood=self.rules.hollywood,
        )

    def _game_result(self, g: int) -> GameResult:
        r = self.rules
        col = self._games[g]
        assert col.winner is not None
        w, n = col.winner, self.seats
        points = list(col.points)
        game_bonus = [r.game_bonus if s == w else 0 for s in range(n)]
        boxes = [(col.wins[s] + col.extra[s]) * r.box_bonus for s in range(n)]
        others_scored = any(points[s] for s in range(n) if s != w)
        others_won = any(col.wins[s] for s in range(n) if s != w)
        shutout = False
        extra = [0] * n
        if r.shutout == "bonus" and not others_scored:
            shutout = True
            extra[w] = r.shutout_bonus - r.game_bonus
        elif r.shutout == "double_total" and not others_scored:
            shutout = True
            extra[w] = points[w] + game_bonus[w] + boxes[w]
        elif r.shutout == "double_hands" and not others_won:
            shutout = True
            extra[w] = points[w]
        totals = tuple(points[s] + game_bonus[s] + boxes[s] + extra[s] for s in range(n))
        lines: list[Line] = []
        if game_bonus[w]:
            lines.append(Line(g, w, f"game bonus for reaching {r.target} first", game_bonus[w]))
        if shutout and extra[w]:
            label = {
                "bonus": f"shutout: game bonus {r.shutout_bonus} instead of {r.game_bonus}",
                "double_total": "shutout: whole score doubled",
                "double_hands": "shutout: every hand won, each hand's points doubled",
            }[r.shutout]
            lines.append(Line(g, w, label, extra[w]))
        for s in range(n):
            if boxes[s]:
                what = f"{col.wins[s]} hand{'s' if col.wins[s] != 1 else ''} won"
                if col.extra[s]:
                    what += f" + {col.extra[s]} extra box{'es' if col.extra[s] != 1 else ''}"
                lines.append(Line(g, s, f"box bonus: {what}, {r.box_bonus} each", boxes[s]))
        return GameResult(
            index=g,
            points=tuple(points),
            hands_won=tuple(col.wins),
            extra_boxes=tuple(col.extra),
            game_bonus=tuple(game_bonus),
            box_bonus=tuple(boxes),
            shutout=shutout,
            shutout_bonus=tuple(extra),
            totals=totals,
            winner=w,
            closed_by=col.closed_by,
            lines=tuple(lines),
        )


def _tally_json(r: GameResult | FinalResult) -> dict[str, Any]:
    """The figures a game's result and the final result share, as JSON."""
    return {
        "points": list(r.points),
        "hands_won": list(r.hands_won),
        "extra_boxes": list(r.extra_boxes),
        "game_bonus": list(r.game_bonus),
        "box_bonus": list(r.box_bonus),
        "shutout": r.shutout,
        "shutout_bonus": list(r.shutout_bonus),
        "totals": list(r.totals),
        "winner": r.winner,
        "margin": r.margin,
    }


__all__ = [
    "HOLLYWOOD_GAMES",
    "Cut",
    "FinalResult",
    "GameResult",
    "Line",
    "Row",
    "ScoreSheet",
    "check_result",
    "cut_for_deal",
    "next_dealer",
]
