"""The score ledger: hand results in; totals, game end and bonuses out.

:class:`Ledger` keeps the columns (players, or teams) of any game; :class:`ScoreSheet`, the
two-player sheet, takes :class:`~ginrummy.scoring.HandResult` objects one at a time (the
engine's, or the scorekeeper's for a game played with real cards), keeps the running totals,
decides when the game is over and computes the bonuses: game bonus, box bonuses (never counted
toward the target), every shutout mode, Oklahoma extra boxes, and Hollywood scoring (three games
at once). A hand can be corrected afterwards (:meth:`ScoreSheet.replace`), because people mistype.
The three- and four-player sheets (:mod:`ginrummy.multisheet`) are ledgers too, so every bonus
rule is written once, here; who deals and who plays is :mod:`ginrummy.dealing`.

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

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

from .errors import IllegalActionError
from .rules import Rules
from .scoring import HandResult

#: Number of games Hollywood scoring keeps at once.
HOLLYWOOD_GAMES = 3


# ---------------------------------------------------------------------------------------------
# The ledger
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Line:
    """One line of a final breakdown, for UIs: ``seat`` gets ``points`` for ``label``.

    ``seat`` is a column of the ledger (a player, or a team in the four-player game);
    ``against`` names the column a shutout line is taken against when more than one other
    column could be shut out (None in a two-column game).
    """

    game: int
    seat: int
    label: str
    points: int
    against: int | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"game": self.game, "seat": self.seat, "label": self.label, "points": self.points}
        if self.against is not None:
            out["against"] = self.against
        return out


@dataclass(frozen=True, slots=True)
class GameResult:
    """The final score of one game (a Hollywood match has three).

    ``points`` are the hand points written in this game (as played, before any shutout
    doubling); ``game_bonus`` is the plain game bonus; ``shutout_bonus`` is what the shutout
    adds on top (the extra game bonus, or the doubling); ``box_bonus`` counts hands won plus
    Oklahoma extra boxes. ``totals = points + game_bonus + box_bonus + shutout_bonus``.
    ``shut_out`` lists the columns the winner shut out (each counts once).
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
    shut_out: tuple[int, ...] = ()

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
    tie); ``margin`` is the winner's final total minus the best other (the settlement). In a
    single game the margin can in principle be negative: box bonuses do not count toward the
    target, so a loser who won many small hands may end with the larger total; we report it as
    it is.
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
                against = f" ({names[line.against]} shut out)" if line.against is not None else ""
                out.append(f"{prefix}{names[line.seat]}: {line.label}{against} {line.points:+d}.")
            if self.hollywood:
                out.append(
                    f"{prefix}" + " to ".join(str(t) for t in g.totals) + f", won by {names[g.winner]}."
                )
        if self.winner is None:
            out.append("A tie at " + " to ".join(str(t) for t in self.totals) + ".")
        elif len(self.totals) == 2:
            others = [t for s, t in enumerate(self.totals) if s != self.winner]
            out.append(
                f"{names[self.winner]} win{'' if names[self.winner] == 'You' or ' & ' in names[self.winner] else 's'} "
                f"{self.totals[self.winner]} to {max(others)}, by {self.margin}."
            )
        else:
            order = sorted(range(len(self.totals)), key=lambda s: -self.totals[s])
            out.append(
                f"{names[self.winner]} win{'' if names[self.winner] == 'You' or ' & ' in names[self.winner] else 's'}: "
                + ", ".join(f"{names[s]} {self.totals[s]}" for s in order)
                + f"; by {self.margin} over the next best."
            )
        return out

    def to_json(self) -> dict[str, Any]:
        return {
            **_tally_json(self),
            "games": [g.to_json() for g in self.games] if self.hollywood else [],
            "breakdown": [line.to_json() for line in self.breakdown],
        }


class Scored(Protocol):
    """What a ledger writes of one entry: who scored it (None: nobody), its points, extra boxes.

    A :class:`~ginrummy.scoring.HandResult` is one; so are the three- and four-player entries of
    :mod:`ginrummy.multisheet`, which say which column (player or team) scored.
    """

    @property
    def winner(self) -> int | None: ...

    @property
    def points(self) -> int: ...

    @property
    def extra_boxes(self) -> int: ...


R = TypeVar("R", bound=Scored)


@dataclass(frozen=True, slots=True)
class Row(Generic[R]):
    """One entry on the score sheet: its result, the games it was written in, the running totals.

    ``totals[g]`` are game ``g``'s totals toward the target after this entry.
    """

    index: int
    result: R
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


class Ledger(Generic[R]):
    """The columns of one match: entries in; totals, game end and bonuses out.

    A column is whoever scores: a player, or a team in the four-player game. Each entry (a
    :class:`Scored`) is written for its winner: its points toward ``target``, a box, its extra
    boxes; an entry won by nobody writes nothing. Hollywood (``rules.hollywood``) keeps three
    games: a column's 1st scoring entry is written in game 1 only, the 2nd in games 1 and 2,
    each later one in every game still open. A game closes when a column reaches the target in
    it and takes its bonuses then (game bonus, a box bonus per entry won and per extra box,
    never counted toward the target, and the rule set's shutout against each column that
    scored nothing); the match is over when every game has closed. ``bonuses=False`` leaves
    game, box and shutout bonuses out.

    Subclasses say what an entry is (:meth:`check`) and how to start afresh (:meth:`_fresh`):
    :class:`ScoreSheet` for two players, :mod:`ginrummy.multisheet` for three and four.
    """

    #: What a column is called in messages ("Player 2 reached 100").
    column_word = "Player"

    def __init__(self, rules: Rules, *, columns: int, target: int | None = None, bonuses: bool = True) -> None:
        self.rules = rules
        self.columns = columns
        self.target = rules.target if target is None else target
        self.bonuses = bonuses
        self.results: list[R] = []
        self._games = [_Column(columns) for _ in range(HOLLYWOOD_GAMES if rules.hollywood else 1)]
        self._rows: list[Row[R]] = []
        self._wins = [0] * columns

    # -- what subclasses say ----------------------------------------------------------

    def check(self, result: R) -> None:
        """Refuse (IllegalActionError) an entry that cannot be the next one on this sheet."""

    def _fresh(self) -> Ledger[R]:
        """An empty sheet like this one (for corrections, which rebuild from the entries)."""
        raise NotImplementedError

    def _entered(self, result: R) -> None:
        """Called after ``result`` is written (subclasses keep their own state, e.g. the dealer)."""

    # -- entering hands ---------------------------------------------------------------

    def add(self, result: R) -> None:
        """Write one finished entry (dead hands included) on the sheet."""
        self.check(result)
        n = len(self.results)
        if self.is_over:
            closer = max(self._games, key=lambda g: g.closed_by)
            assert closer.winner is not None
            raise IllegalActionError(
                f"hand {n + 1}: the game is already over ({self.column_word} {closer.winner + 1} reached "
                f"{self.target} in hand {closer.closed_by + 1})",
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
                if col.points[w] >= self.target:
                    col.winner = w
                    col.closed_by = n
                    closed.append(g)
        self._rows.append(
            Row(n, result, tuple(written), tuple(tuple(c.points) for c in self._games), tuple(closed))
        )
        self._check()
        self._entered(result)

    def replace(self, index: int, result: R) -> None:
        """Correct entry ``index`` (0-based) and recompute everything after it.

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

    def remove(self, index: int = -1) -> R:
        """Take entry ``index`` (default: the last) off the sheet; later entries move up."""
        new = list(self.results)
        removed = new.pop(index)
        self._rebuild(new)
        return removed

    def _rebuild(self, results: Sequence[R]) -> None:
        fresh = self._fresh()
        for r in results:
            fresh.add(r)  # raises before anything here is changed
        self.__dict__.update(fresh.__dict__)

    def _check(self) -> None:
        """Invariants: totals are the sums of the points written; one winner per closed game."""
        for g, col in enumerate(self._games):
            sums = [0] * self.columns
            for row in self._rows:
                if g in row.written:
                    assert row.result.winner is not None
                    sums[row.result.winner] += row.result.points
            assert sums == col.points, (g, sums, col.points)
            if col.winner is not None:
                assert col.points[col.winner] >= self.target
                assert all(p < self.target for s, p in enumerate(col.points) if s != col.winner)

    # -- queries -----------------------------------------------------------------------

    @property
    def rows(self) -> list[Row[R]]:
        """Each entry as written: result, games written in, running totals."""
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

    def game_closed_by(self, game: int) -> tuple[int, int] | None:
        """(the column that won game ``game``, the 0-based entry that closed it); None while open."""
        col = self._games[game]
        return None if col.winner is None else (col.winner, col.closed_by)

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
            return tuple(sum(getattr(g, name)[s] for g in games) for s in range(self.columns))

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
        w, n = col.winner, self.columns
        points = list(col.points)
        game_value = r.game_bonus if self.bonuses else 0
        box_value = r.box_bonus if self.bonuses else 0
        mode = r.shutout if self.bonuses else "none"
        game_bonus = [game_value if s == w else 0 for s in range(n)]
        boxes = [(col.wins[s] + col.extra[s]) * box_value for s in range(n)]
        # The shutout counts against each other column that scored nothing (that won no hand,
        # for the doubled hands): with two players, against the loser.
        if mode == "double_hands":
            shut = [s for s in range(n) if s != w and not col.wins[s]]
        elif mode in ("bonus", "double_total"):
            shut = [s for s in range(n) if s != w and not points[s]]
        else:
            shut = []
        each = {
            "bonus": r.shutout_bonus - r.game_bonus,
            "double_total": points[w] + game_bonus[w] + boxes[w],
            "double_hands": points[w],
            "none": 0,
        }[mode]
        extra = [each * len(shut) if s == w else 0 for s in range(n)]
        totals = tuple(points[s] + game_bonus[s] + boxes[s] + extra[s] for s in range(n))
        lines: list[Line] = []
        if game_bonus[w]:
            lines.append(Line(g, w, f"game bonus for reaching {self.target} first", game_bonus[w]))
        if each:
            label = {
                "bonus": f"shutout: game bonus {r.shutout_bonus} instead of {r.game_bonus}",
                "double_total": "shutout: whole score doubled",
                "double_hands": "shutout: every hand won, each hand's points doubled",
            }[mode]
            for s in shut:
                lines.append(Line(g, w, label, each, against=s if n > 2 else None))
        for s in range(n):
            if boxes[s]:
                what = f"{col.wins[s]} hand{'s' if col.wins[s] != 1 else ''} won"
                if col.extra[s]:
                    what += f" + {col.extra[s]} extra box{'es' if col.extra[s] != 1 else ''}"
                lines.append(Line(g, s, f"box bonus: {what}, {box_value} each", boxes[s]))
        return GameResult(
            index=g,
            points=tuple(points),
            hands_won=tuple(col.wins),
            extra_boxes=tuple(col.extra),
            game_bonus=tuple(game_bonus),
            box_bonus=tuple(boxes),
            shutout=bool(shut),
            shutout_bonus=tuple(extra),
            totals=totals,
            winner=w,
            closed_by=col.closed_by,
            lines=tuple(lines),
            shut_out=tuple(shut),
        )


class ScoreSheet(Ledger[HandResult]):
    """The score ledger of a two-player match: hand results in, totals, game end and bonuses out.

    Used by :class:`~ginrummy.match.Match` and by the scorekeeper (which has no cards, only
    results). It knows nothing of dealing or dealers; it only needs the rule set's game and
    bonus figures. Everything else is :class:`Ledger`'s.

    ``seats`` is the number of players whose columns the sheet keeps (2; the ledger itself does
    not assume two).

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
        super().__init__(rules, columns=seats)
        self.seats = seats
        for r in results:
            self.add(r)

    def check(self, result: HandResult) -> None:
        check_result(result, self.seats)

    def _fresh(self) -> ScoreSheet:
        return ScoreSheet(self.rules, seats=self.seats)


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
    "FinalResult",
    "GameResult",
    "Ledger",
    "Line",
    "Row",
    "ScoreSheet",
    "Scored",
    "check_result",
]
