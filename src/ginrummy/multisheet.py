"""The score ledgers of three- and four-player games (RULES.md, "Three and four players").

Every hand of these games is an ordinary two-player hand, scored by
:func:`~ginrummy.scoring.score_hand` in its two hand seats; a :class:`SeatedResult` says which
game seats played it (a :class:`~ginrummy.dealing.Pairing`). The sheets are
:class:`~ginrummy.scoresheet.Ledger` objects, so the target, Hollywood's three games, Oklahoma's
extra boxes and every bonus rule are the two-player sheet's, written once.

- :class:`ThreeSheet`: two play each hand and the dealer sits out; the loser deals the next;
  individual scores; the first to the rule set's target wins. ``rules.three_player_bonuses``
  (on by default) gives the rule set's game, box and shutout bonuses; the shutout counts against
  each player who scored nothing (a decision of ours: the seed leaves scoring open).
- :class:`TeamSheet`: seats 0 and 2 against 1 and 3, two tables a hand, partners switching
  opponents every hand. A team that won both tables scores both results added; one table
  each, the team with more points scores the difference (equal points: nobody scores); a dead
  hand at one table scores 0 there. First team to ``rules.team_target`` (125) wins;
  ``rules.team_bonuses`` (on by default) gives the game bonus to the winning team, a box for each
  hand-pair a team scored (plus the Oklahoma extra boxes of the tables it won in that hand-pair)
  and the rule set's shutout when the other team scored nothing.

Seats are plain indices into the game's list of players; the sheets know no names.

>>> from ginrummy.scoring import score_hand
>>> rules = Rules(target=50)
>>> sheet = ThreeSheet(rules, first_dealer=0)      # seat 0 deals, seats 1 and 2 play
>>> sheet.next_pairing.seats
(1, 2)
>>> _ = sheet.add_hand(score_hand(rules, knocker=0, knocker_deadwood=2, defender_deadwood=40))
>>> sheet.scores, sheet.next_pairing.seats, sheet.next_pairing.sits_out   # seat 2 lost: it deals
((0, 38, 0), (0, 1), 2)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from .dealing import Pairing, team_of, team_round, three_next_dealer, three_pairing
from .errors import IllegalActionError
from .rules import Rules
from .scoresheet import Ledger, check_result
from .scoring import HandKind, HandResult


def team_names(players: Sequence[str]) -> tuple[str, str]:
    """Each team's name: its players' names joined ("AC"), with " & " when a name is longer.

    >>> team_names(['A', 'B', 'C', 'D']), team_names(['Ann', 'Bob', 'Cy', 'Di'])[0]
    (('AC', 'BD'), 'Ann & Cy')
    """
    sep = "" if all(len(n) == 1 for n in players) else " & "
    return sep.join((players[0], players[2])), sep.join((players[1], players[3]))


@dataclass(frozen=True, slots=True)
class SeatedResult:
    """One two-player hand of a bigger game: who played it and its result in hand seats.

    ``winner`` is the game seat that won (None: a dead hand); ``result`` keeps the hand seats
    (``result.winner`` 0 or 1, as :func:`~ginrummy.scoring.score_hand` returns it).
    """

    pairing: Pairing
    result: HandResult

    @property
    def winner(self) -> int | None:
        w = self.result.winner
        return None if w is None else self.pairing.seats[w]

    @property
    def loser(self) -> int | None:
        w = self.result.winner
        return None if w is None else self.pairing.seats[1 - w]

    @property
    def knocker(self) -> int | None:
        k = self.result.knocker
        return None if k is None else self.pairing.seats[k]

    @property
    def points(self) -> int:
        return self.result.points

    @property
    def extra_boxes(self) -> int:
        return self.result.extra_boxes

    @property
    def kind(self) -> HandKind:
        return self.result.kind

    def explain(self, names: Sequence[str]) -> str:
        """The hand's sentence with the names of the two who played it."""
        a, b = self.pairing.seats
        return self.result.explain((names[a], names[b]))

    def to_json(self) -> dict[str, Any]:
        return {"pairing": self.pairing.to_json(), "result": self.result.to_json(), "winner": self.winner}


def _check_seated(entry: Any, expected: Pairing, number: int) -> None:
    if not isinstance(entry, SeatedResult):
        raise IllegalActionError(f"hand {number}: not a seated hand result: {entry!r}", rule="hand_result")
    check_result(entry.result, 2)
    if entry.pairing != expected:
        raise IllegalActionError(
            f"hand {number}: seats {expected.seats[0]} and {expected.seats[1]} play this hand "
            f"(seat {expected.dealt_by} deals), not seats {entry.pairing.seats[0]} and {entry.pairing.seats[1]} "
            f"(seat {entry.pairing.dealt_by} dealing)",
            rule="rotation",
        )


class ThreeSheet(Ledger[SeatedResult]):
    """The three-player game: who plays and deals each hand, and the individual scores.

    ``first_dealer`` (0, 1 or 2) deals hand 1, by cut or at random
    (:func:`~ginrummy.dealing.cut_for_deal` with ``seats=3``). :attr:`next_pairing` says who
    deals and plays the next hand; :meth:`add_hand` writes its result (in the pairing's hand
    seats). A correction that changes a hand's loser changes who deals after it, so it is
    refused when later hands were played by others.
    """

    players = 3

    def __init__(self, rules: Rules, first_dealer: int, results: Iterable[SeatedResult] = ()) -> None:
        if first_dealer not in (0, 1, 2):
            raise ValueError(f"the first dealer is seat 0, 1 or 2, not {first_dealer!r}")
        super().__init__(rules, columns=3, bonuses=rules.three_player_bonuses)
        self.first_dealer = first_dealer
        self.dealer = first_dealer
        for r in results:
            self.add(r)

    @property
    def next_pairing(self) -> Pairing:
        """Who deals (and sits out) and who plays the next hand."""
        return three_pairing(self.dealer)

    def check(self, result: SeatedResult) -> None:
        _check_seated(result, self.next_pairing, len(self.results) + 1)

    def _entered(self, result: SeatedResult) -> None:
        self.dealer = three_next_dealer(result.pairing, result.result)

    def _fresh(self) -> ThreeSheet:
        return ThreeSheet(self.rules, self.first_dealer)

    def add_hand(self, result: HandResult) -> SeatedResult:
        """Write the next hand's result, given in its pairing's hand seats."""
        seated = SeatedResult(self.next_pairing, result)
        self.add(seated)
        return seated

    def replace_hand(self, index: int, result: HandResult) -> SeatedResult:
        """Correct hand ``index`` (0-based), played by the same two; later hands are checked again."""
        seated = SeatedResult(self.rows[index].result.pairing, result)
        self.replace(index, seated)
        return seated


@dataclass(frozen=True, slots=True)
class RoundResult:
    """One hand of the four-player game: its two tables, and what the team sheet writes.

    ``winner`` is the team (0: seats 0 and 2, 1: seats 1 and 3) that scores, None when nobody
    does; ``points`` what it scores. One formula covers every clause: each team's points at the
    tables it won, and the team with more scores the difference (both tables won: both
    results added, the other team having 0; a dead table: 0 there; equal: nobody scores).
    """

    tables: tuple[SeatedResult, SeatedResult]

    @property
    def team_points(self) -> tuple[int, int]:
        """Points each team won at the tables (before netting)."""
        pts = [0, 0]
        for t in self.tables:
            if t.winner is not None:
                pts[team_of(t.winner)] += t.points
        return pts[0], pts[1]

    @property
    def winner(self) -> int | None:
        a, b = self.team_points
        return None if a == b else (0 if a > b else 1)

    @property
    def points(self) -> int:
        a, b = self.team_points
        return abs(a - b)

    @property
    def extra_boxes(self) -> int:
        """The Oklahoma extra boxes of the tables the scoring team won."""
        w = self.winner
        if w is None:
            return 0
        return sum(t.extra_boxes for t in self.tables if t.winner is not None and team_of(t.winner) == w)

    @property
    def kind(self) -> str:
        """How the hand-pair scored: ``both`` (one team won both tables), ``difference`` (one each),
        ``one_table`` (the other table dead), ``even`` (equal points), ``dead`` (both tables dead)."""
        won = [team_of(t.winner) for t in self.tables if t.winner is not None]
        if not won:
            return "dead"
        if self.winner is None:
            return "even"
        if len(won) == 1:
            return "one_table"
        return "both" if won[0] == won[1] else "difference"

    def explain(self, names: Sequence[str], teams: Sequence[str]) -> str:
        """What each table did and what the team sheet writes, in plain words."""
        parts = [f"Table {i + 1}: {t.explain(names)}" for i, t in enumerate(self.tables)]
        return " ".join([*parts, self.scoring(teams)])

    def scoring(self, teams: Sequence[str]) -> str:
        """What the team sheet writes for this hand, in one sentence (the tables left out)."""
        parts: list[str] = []
        a, b = self.team_points
        w = self.winner
        kind = self.kind
        if kind == "dead":
            parts.append("Both hands dead: nobody scores.")
        elif kind == "even":
            parts.append(f"{teams[0]} {a} and {teams[1]} {b} at the tables: equal, so nobody scores.")
        elif kind == "both":
            assert w is not None
            t1, t2 = (t.points for t in self.tables)
            parts.append(f"{teams[w]} won both hands and score both results added: {t1} + {t2} = {self.points}.")
        elif kind == "one_table":
            assert w is not None
            parts.append(f"The other hand is dead and scores 0 there: {teams[w]} score {self.points}.")
        else:
            assert w is not None
            hi, lo = (a, b) if w == 0 else (b, a)
            parts.append(
                f"One hand each: {teams[w]} have more points and score the difference, {hi} - {lo} = {self.points}."
            )
        return parts[0]

    def to_json(self) -> dict[str, Any]:
        return {
            "tables": [t.to_json() for t in self.tables],
            "team_points": list(self.team_points),
            "winner": self.winner,
            "points": self.points,
            "extra_boxes": self.extra_boxes,
            "kind": self.kind,
        }


class TeamSheet(Ledger[RoundResult]):
    """The four-player team game: each hand's two tables, and the team scores.

    The columns are the teams (:data:`~ginrummy.dealing.TEAMS`): 0 is seats 0 and 2, 1 is seats 1
    and 3. ``first_dealer`` (a seat, by cut or at random) makes its team deal at both tables of
    hand 1. :attr:`next_round` gives the next hand's two tables; :meth:`add_round` writes their
    results (each in its pairing's hand seats, tables in :attr:`next_round`'s order).
    """

    players = 4
    column_word = "Team"

    def __init__(self, rules: Rules, first_dealer: int = 0, results: Iterable[RoundResult] = ()) -> None:
        if first_dealer not in (0, 1, 2, 3):
            raise ValueError(f"the first dealer is seat 0 to 3, not {first_dealer!r}")
        super().__init__(rules, columns=2, target=rules.team_target, bonuses=rules.team_bonuses)
        self.first_dealer = first_dealer
        for r in results:
            self.add(r)

    @property
    def next_round(self) -> tuple[Pairing, Pairing]:
        """The two tables of the next hand (who plays whom, who deals)."""
        return team_round(len(self.results), self.first_dealer)

    def check(self, result: RoundResult) -> None:
        number = len(self.results) + 1
        if not isinstance(result, RoundResult) or len(result.tables) != 2:
            raise IllegalActionError(f"hand {number}: a hand of the team game has two tables", rule="hand_result")
        for table, expected in zip(result.tables, self.next_round, strict=True):
            _check_seated(table, expected, number)

    def _fresh(self) -> TeamSheet:
        return TeamSheet(self.rules, self.first_dealer)

    def add_round(self, results: Sequence[HandResult]) -> RoundResult:
        """Write the next hand's two table results (in :attr:`next_round`'s order)."""
        if len(results) != 2:
            raise IllegalActionError("a hand of the team game has two tables", rule="hand_result")
        a, b = self.next_round
        entry = RoundResult((SeatedResult(a, results[0]), SeatedResult(b, results[1])))
        self.add(entry)
        return entry

    def replace_round(self, index: int, results: Sequence[HandResult]) -> RoundResult:
        """Correct hand ``index`` (0-based): its two tables' results, in the order played."""
        if len(results) != 2:
            raise IllegalActionError("a hand of the team game has two tables", rule="hand_result")
        a, b = self.rows[index].result.tables
        entry = RoundResult((SeatedResult(a.pairing, results[0]), SeatedResult(b.pairing, results[1])))
        self.replace(index, entry)
        return entry


__all__ = ["RoundResult", "SeatedResult", "TeamSheet", "ThreeSheet", "team_names"]
