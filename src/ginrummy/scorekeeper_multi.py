"""The scorekeeper for three and four players, and :func:`keep_score` for any number.

Three players: the usual entry, naming the two who played::

    {"knocker": "A", "deadwood": {"A": 3, "B": 25}}

The dealer sits out and the loser deals the next hand, so who plays follows from hand 1 (the
player it does not name dealt first, unless the input gives ``"first_dealer"``); an entry that
names the wrong two is refused, saying who plays and why. A dead hand needs no names.

Four players, two teams (the 1st and 3rd named against the 2nd and 4th): each entry is a pair of
ordinary entries, one per table, in any order (a dead table may leave out its names)::

    {"tables": [{"knocker": "A", "deadwood": {"A": 3, "B": 25}},
                {"knocker": "D", "gin": true, "deadwood": {"C": 14, "D": 0}}]}

A team is named by its players' names joined: "AC" for A and C, "Ann & Cy" for longer names.

>>> k = keep_score(Rules(), [{"tables": [{"knocker": "A", "deadwood": {"A": 3, "B": 25}},
...                                      {"knocker": "D", "gin": True, "deadwood": {"C": 14, "D": 0}}]}])
>>> k.teams, k.report()["hands"][0]["totals"]
(('AC', 'BD'), {'AC': 0, 'BD': 12})
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .dealing import Pairing
from .errors import IllegalActionError, shown
from .multisheet import RoundResult, SeatedResult, TeamSheet, ThreeSheet, team_names
from .rules import Rules
from .scorekeeper import (
    ScoreInputError,
    Scorekeeper,
    and_list,
    by_name,
    final_json,
    games_json,
    hand_result,
    hollywood_rows,
    names_in,
    not_over_text,
    players_of,
    unknown_player,
)

#: The longest a player's name may be (it heads a column).
MAX_NAME = 24
INPUT_KEYS = frozenset({"players", "hands", "first_dealer"})


def _game_over(keeper: Any, number: int, names: Sequence[str]) -> ScoreInputError:
    f = keeper.sheet.final()
    w = names[f.winner] if f.winner is not None else "nobody"
    return ScoreInputError(
        f"hand {number}: the game was already over after hand {number - 1} ({w} won); "
        "start a new game for more hands (rule: game_over)",
        hand=number, rule="game_over",
    )


def check_names(players: Sequence[str], count: int) -> tuple[str, ...]:
    """The names of ``count`` players, refused when missing, too long or alike (any case)."""
    if len(players) != count or not all(isinstance(n, str) and n.strip() for n in players):
        raise ScoreInputError(f"the scorekeeper for {count} players needs {count} names, not {shown(list(players))}",
                              rule="players")
    if any(len(n) > MAX_NAME for n in players):
        raise ScoreInputError(f"a player's name has at most {MAX_NAME} characters", rule="players")
    if len({n.casefold() for n in players}) != count:
        raise ScoreInputError(f"the {count} players need different names, not {and_list(list(players))}",
                              rule="players")
    return tuple(players)


class _Rebuilt:
    """Corrections by replaying the entries: a changed hand changes who plays after it."""

    entries: list[Any]

    @property
    def hands(self) -> int:
        """Hands entered so far."""
        return len(self.entries)

    def _again(self, entries: Sequence[Any]) -> Any:
        raise NotImplementedError

    def replace(self, number: int, entry: Any) -> None:
        """Correct hand ``number`` (1-based); refused if a later hand no longer fits."""
        if not 1 <= number <= self.hands:
            raise ScoreInputError(f"there is no hand {number} to correct", hand=number)
        new = list(self.entries)
        new[number - 1] = entry
        try:
            fresh = self._again(new)
        except ScoreInputError as e:
            raise ScoreInputError(f"hand {number}: that correction is refused: {e}", hand=number, rule=e.rule) from None
        self.__dict__.update(fresh.__dict__)

    def remove(self, number: int) -> None:
        """Delete hand ``number`` (1-based)."""
        if not 1 <= number <= self.hands:
            raise ScoreInputError(f"there is no hand {number} to delete", hand=number)
        try:
            fresh = self._again([e for i, e in enumerate(self.entries) if i != number - 1])
        except ScoreInputError as e:
            raise ScoreInputError(f"deleting hand {number} is refused: {e}", hand=number, rule=e.rule) from None
        self.__dict__.update(fresh.__dict__)


class ThreeScorekeeper(_Rebuilt):
    """Three players: the dealer sits out, the loser deals next, individual scores."""

    def __init__(self, rules: Rules, players: Sequence[str], first_dealer: str | None = None) -> None:
        self.rules = rules
        self.players = check_names(players, 3)
        if first_dealer is not None and first_dealer not in self.players:
            raise ScoreInputError(unknown_player(first_dealer, self.players, "the first dealer"), rule="players")
        self.first_dealer = first_dealer
        self.entries: list[Any] = []
        self.sheet: ThreeSheet | None = None
        if first_dealer is not None:
            self.sheet = ThreeSheet(rules, self.players.index(first_dealer))

    @property
    def is_over(self) -> bool:
        return self.sheet is not None and self.sheet.is_over

    def _names(self, p: Pairing) -> tuple[str, str]:
        return self.players[p.seats[0]], self.players[p.seats[1]]

    def next_hand(self) -> dict[str, Any] | None:
        """Who deals (and sits out) and who plays the next hand; None before hand 1 says so."""
        if self.sheet is None or self.sheet.is_over:
            return None
        p = self.sheet.next_pairing
        return {"dealer": self.players[p.dealt_by], "players": list(self._names(p))}

    def _why(self, sheet: ThreeSheet) -> str:
        dealer = self.players[sheet.dealer]
        if not sheet.rows:
            return f"{dealer} deals first"
        last = sheet.rows[-1]
        n = last.index + 1
        return f"hand {n} was a dead hand, so {dealer} deals again" if last.result.winner is None \
            else f"{dealer} lost hand {n}"

    def add(self, entry: Any) -> SeatedResult:
        """Score the next hand and write it on the sheet."""
        number = self.hands + 1
        if self.sheet is not None and self.sheet.is_over:
            raise _game_over(self, number, self.players)

        def fail(msg: str, rule: str) -> ScoreInputError:
            return ScoreInputError(f"hand {number}: {msg} (rule: {rule})", hand=number, rule=rule)

        named = names_in(entry)
        for n in named:
            if n not in self.players:
                what = "the knocker" if isinstance(entry, Mapping) and n == entry.get("knocker") else "player"
                raise fail(unknown_player(n, self.players, what), "players")
        sheet = self.sheet
        if sheet is None:
            if len(named) != 2:
                raise fail("name the two who played hand 1 (give both deadwood counts, or \"players\" for a "
                           "dead hand); the third player dealt and sat out", "players")
            sheet = ThreeSheet(self.rules, next(s for s, n in enumerate(self.players) if n not in named))
        p = sheet.next_pairing
        pair = self._names(p)
        if any(n not in pair for n in named):
            raise fail(f"{self.players[p.dealt_by]} deals this hand and sits out ({self._why(sheet)}), so "
                       f"{pair[0]} and {pair[1]} play, not {and_list(named)}", "rotation")
        result = hand_result(self.rules, entry, pair, number, everyone=self.players)
        try:
            seated = sheet.add_hand(result)
        except IllegalActionError as e:
            raise fail(str(e), e.rule) from None
        self.sheet = sheet
        self.entries.append(entry)
        return seated

    def _again(self, entries: Sequence[Any]) -> ThreeScorekeeper:
        k = ThreeScorekeeper(self.rules, self.players, self.first_dealer)
        for e in entries:
            k.add(e)
        return k

    def report(self) -> dict[str, Any]:
        """Per-hand points, running totals, bonuses and final totals, keyed by player name."""
        names = self.players
        hands = []
        for row in self.sheet.rows if self.sheet else []:
            s = row.result
            item: dict[str, Any] = {
                "hand": row.index + 1,
                "dealer": names[s.pairing.dealt_by],
                "players": list(self._names(s.pairing)),
                "kind": s.kind,
                "knocker": None if s.knocker is None else names[s.knocker],
                "winner": None if s.winner is None else names[s.winner],
                "points": s.points,
                "extra_boxes": s.extra_boxes,
                "explain": s.explain(names),
                "totals": by_name(names, row.totals[0]),
            }
            if self.rules.hollywood and self.sheet:
                item.update(hollywood_rows(self.sheet, row.index, names))
            hands.append(item)
        out = {
            "players": list(names),
            "rules": self.rules.to_json(),
            "hands": hands,
            "next": self.next_hand(),
            "over": self.is_over,
            "scores": by_name(names, self.sheet.scores if self.sheet else (0, 0, 0)),
            "final": final_json(self.sheet.final(), names) if self.sheet and self.is_over else None,
        }
        if self.rules.hollywood and self.sheet:
            out["games"] = games_json(self.sheet, names)
        return out

    def table(self) -> str:
        """The sheet as a plain-text table: who dealt (and sat out), who won, the three totals."""
        names = self.players
        w = max(6, *(len(n) for n in names))
        lines = [self.rules.describe()[0] + "; three players: the dealer sits out, the loser deals next", ""]
        lines.append(f"{'Hand':>4}  {'Dealer':<{w}}  {'Won by':<{w}}  {'Points':>6}  "
                     + "  ".join(f"{n:>{w}}" for n in names) + "  What happened")
        for row in self.sheet.rows if self.sheet else []:
            s = row.result
            who = "-" if s.winner is None else names[s.winner]
            cols = ["/".join(str(t[i]) for t in row.totals) for i in range(3)]
            lines.append(f"{row.index + 1:>4}  {names[s.pairing.dealt_by]:<{w}}  {who:<{w}}  {s.points:>6}  "
                         + "  ".join(f"{c:>{w}}" for c in cols) + f"  {s.explain(names)}")
        lines.append("")
        if self.sheet and self.is_over:
            lines.extend(self.sheet.final().explain(names))
        elif self.sheet:
            lines.append(not_over_text(self.sheet, names))
            nxt = self.next_hand()
            if nxt:
                lines.append(f"Next: {nxt['dealer']} deals and sits out; {and_list(nxt['players'])} play.")
        else:
            lines.append("No hands yet.")
        return "\n".join(lines)


class TeamScorekeeper(_Rebuilt):
    """Four players in two teams: each hand two tables; the teams' scores."""

    def __init__(self, rules: Rules, players: Sequence[str], first_dealer: str | None = None) -> None:
        self.rules = rules
        self.players = check_names(players, 4)
        if first_dealer is not None and first_dealer not in self.players:
            raise ScoreInputError(unknown_player(first_dealer, self.players, "the first dealer"), rule="players")
        self.first_dealer = first_dealer
        self.teams = team_names(self.players)
        self.entries: list[Any] = []
        self.sheet = TeamSheet(rules, self.players.index(first_dealer) if first_dealer else 0)

    @property
    def is_over(self) -> bool:
        return self.sheet.is_over

    def _names(self, p: Pairing) -> tuple[str, str]:
        return self.players[p.seats[0]], self.players[p.seats[1]]

    def next_hand(self) -> dict[str, Any] | None:
        """The next hand's two tables: who plays whom, and who deals."""
        if self.sheet.is_over:
            return None
        return {"tables": [{"players": list(self._names(p)), "dealer": self.players[p.dealt_by]}
                           for p in self.sheet.next_round]}

    def add(self, entry: Any) -> RoundResult:
        """Score the next hand (both tables) and write it on the sheet."""
        number = self.hands + 1
        if self.sheet.is_over:
            raise _game_over(self, number, self.teams)

        def fail(msg: str, rule: str, table: int | None = None) -> ScoreInputError:
            where = f"hand {number}" + (f", table {table}" if table else "")
            return ScoreInputError(f"{where}: {msg} (rule: {rule})", hand=number, rule=rule)

        example = '{"tables": [{"knocker": "A", "deadwood": {"A": 3, "B": 25}}, {"dead": true}]}'
        if not isinstance(entry, Mapping) or set(entry) != {"tables"}:
            raise fail(f"a hand of the team game gives both tables, e.g. {example}", "tables")
        tables = entry["tables"]
        if not isinstance(tables, list) or len(tables) != 2:
            raise fail(f"\"tables\" holds the two tables' hands, e.g. {example}", "tables")
        pairs = [self._names(p) for p in self.sheet.next_round]
        seating = " and ".join(f"{a} plays {b}" for a, b in pairs)
        placed: list[tuple[int, Any] | None] = [None, None]
        unnamed: list[tuple[int, Any]] = []
        for i, t in enumerate(tables, start=1):
            named = names_in(t)
            for n in named:
                if n not in self.players:
                    what = "the knocker" if isinstance(t, Mapping) and n == t.get("knocker") else "player"
                    raise fail(unknown_player(n, self.players, what), "players", i)
            if not named:
                unnamed.append((i, t))
                continue
            fits = [j for j, pair in enumerate(pairs) if all(n in pair for n in named)]
            if not fits:
                mates = [(a, b) for a in named for b in named if a < b
                         and self.players.index(a) % 2 == self.players.index(b) % 2]
                why = f"{mates[0][0]} and {mates[0][1]} are partners; " if mates else ""
                raise fail(f"{why}partners switch opponents every hand: this hand {seating}, "
                           f"not {and_list(named)}", "rotation", i)
            j = fits[0]
            if placed[j] is not None:
                raise fail(f"both tables are {pairs[j][0]} against {pairs[j][1]}; this hand {seating}", "rotation", i)
            placed[j] = (i, t)
        for item in unnamed:
            placed[placed.index(None)] = item
        results = []
        for j, slot in enumerate(placed):
            assert slot is not None
            i, t = slot
            a, b = pairs[j]
            results.append(hand_result(self.rules, t, pairs[j], number, where=f"hand {number}, table {i} "
                                       f"({a} against {b})", everyone=self.players))
        try:
            r = self.sheet.add_round(results)
        except IllegalActionError as e:
            raise fail(str(e), e.rule) from None
        self.entries.append(entry)
        return r

    def _again(self, entries: Sequence[Any]) -> TeamScorekeeper:
        k = TeamScorekeeper(self.rules, self.players, self.first_dealer)
        for e in entries:
            k.add(e)
        return k

    def report(self) -> dict[str, Any]:
        """Per hand each table and the team points; running totals, bonuses, final totals per team."""
        names, teams = self.players, self.teams
        hands = []
        for row in self.sheet.rows:
            r = row.result
            item: dict[str, Any] = {
                "hand": row.index + 1,
                "tables": [
                    {
                        "players": list(self._names(t.pairing)),
                        "dealer": names[t.pairing.dealt_by],
                        "kind": t.kind,
                        "knocker": None if t.knocker is None else names[t.knocker],
                        "winner": None if t.winner is None else names[t.winner],
                        "team": None if t.winner is None else teams[t.winner % 2],
                        "points": t.points,
                        "extra_boxes": t.extra_boxes,
                        "explain": t.explain(names),
                    }
                    for t in r.tables
                ],
                "team_points": by_name(teams, r.team_points),
                "kind": r.kind,
                "winner": None if r.winner is None else teams[r.winner],
                "points": r.points,
                "extra_boxes": r.extra_boxes,
                "explain": r.explain(names, teams),
                "totals": by_name(teams, row.totals[0]),
            }
            if self.rules.hollywood:
                item.update(hollywood_rows(self.sheet, row.index, teams))
            hands.append(item)
        out = {
            "players": list(names),
            "teams": {teams[0]: [names[0], names[2]], teams[1]: [names[1], names[3]]},
            "rules": self.rules.to_json(),
            "hands": hands,
            "next": self.next_hand(),
            "over": self.is_over,
            "scores": by_name(teams, self.sheet.scores),
            "final": final_json(self.sheet.final(), teams, who="team") if self.is_over else None,
        }
        if self.rules.hollywood:
            out["games"] = games_json(self.sheet, teams)
        return out

    def table(self) -> str:
        """The sheet as plain text: each hand's tables, what the teams score, the team totals."""
        teams = self.teams
        w = max(6, *(len(n) for n in teams))
        lines = [self.rules.describe()[0] + f"; four players, {teams[0]} against {teams[1]}, "
                 f"first team to {self.sheet.target}", ""]
        lines.append(f"{'Hand':>4}  {'Won by':<{w}}  {'Points':>6}  {teams[0]:>{w}}  {teams[1]:>{w}}  What happened")
        for row in self.sheet.rows:
            r = row.result
            who = "-" if r.winner is None else teams[r.winner]
            cols = ["/".join(str(t[i]) for t in row.totals) for i in range(2)]
            lines.append(f"{row.index + 1:>4}  {who:<{w}}  {r.points:>6}  {cols[0]:>{w}}  {cols[1]:>{w}}  "
                         f"{r.explain(self.players, teams)}")
        lines.append("")
        if self.is_over:
            lines.extend(self.sheet.final().explain(teams))
        else:
            lines.append(not_over_text(self.sheet, teams))
            nxt = self.next_hand()
            if nxt:
                lines.append("Next: " + "; ".join(f"{t['players'][0]} against {t['players'][1]} "
                                                  f"({t['dealer']} deals)" for t in nxt["tables"]) + ".")
        return "\n".join(lines)


AnyKeeper = Scorekeeper | ThreeScorekeeper | TeamScorekeeper


def four_players_of(entries: Sequence[Any]) -> tuple[str, ...]:
    """The four names in seat order (partners 1st and 3rd) from the first two hands' tables.

    Hand 1's tables are opponents; in hand 2 partners switch opponents, so the first player's
    new opponent is the partner of the one it did not meet. With one hand only, the first
    named at each table are partners.

    >>> hands = [{"tables": [{"deadwood": {"A": 3, "B": 25}}, {"deadwood": {"D": 0, "C": 14}}]},
    ...          {"tables": [{"deadwood": {"A": 3, "D": 25}}, {"dead": True}]}]
    >>> four_players_of(hands)
    ('A', 'B', 'C', 'D')
    """

    def tables_of(e: Any) -> list[list[str]]:
        ts = e.get("tables") if isinstance(e, Mapping) else None
        return [names_in(t)[:2] for t in ts] if isinstance(ts, list) else []

    first = [t for t in tables_of(entries[0]) if len(t) == 2] if entries else []
    if len(first) != 2:
        return players_of(entries, 4)
    (x, y), (z, w) = first
    partner, other = z, w
    if len(entries) > 1:
        for t in tables_of(entries[1]):
            if x in t and len(t) == 2:
                met = t[1] if t[0] == x else t[0]
                if met == z:
                    partner, other = w, z
    names = (x, y, partner, other)
    return names if len(set(names)) == 4 else players_of(entries, 4)


def make_keeper(rules: Rules, players: Sequence[str], first_dealer: str | None = None) -> AnyKeeper:
    """The scorekeeper for as many players as are named (two, three, or four in two teams)."""
    if len(players) == 2:
        if first_dealer is not None:
            raise ScoreInputError("the two-player scorekeeper does not track the dealer", rule="players")
        return Scorekeeper(rules, check_names(players, 2))
    if len(players) == 3:
        return ThreeScorekeeper(rules, players, first_dealer)
    if len(players) == 4:
        return TeamScorekeeper(rules, players, first_dealer)
    raise ScoreInputError(f"gin rummy is kept for 2, 3 or 4 players, not {len(players)}", rule="players")


def keep_score(rules: Rules, data: Any, players: int | None = None) -> AnyKeeper:
    """Score a whole input: a list of hand entries, or ``{"players": [...], "hands": [...]}``.

    ``players`` is how many play (2, 3 or 4); by default the number of names in ``"players"``,
    else 4 when the entries have tables, else 2.
    """
    names: Sequence[str] | None = None
    first_dealer: str | None = None
    entries = data
    if isinstance(data, Mapping):
        unknown = sorted(str(k) for k in set(data) - INPUT_KEYS)
        if unknown:
            raise ScoreInputError(f"unknown key {', '.join(shown(k) for k in unknown)} in the input "
                                  f"(use {', '.join(sorted(INPUT_KEYS))})")
        entries = data.get("hands")
        if "players" in data:
            p = data["players"]
            if not isinstance(p, list) or not all(isinstance(n, str) for n in p):
                raise ScoreInputError("players must be a list of names", rule="players")
            names = p
        fd = data.get("first_dealer")
        if fd is not None and not isinstance(fd, str):
            raise ScoreInputError(f"first_dealer is a player's name, not {shown(fd)}", rule="players")
        first_dealer = fd
    if not isinstance(entries, list):
        raise ScoreInputError("the input must be a JSON list of hands (or an object with a 'hands' list)")
    count = players or (len(names) if names else None)
    if count is None:
        count = 4 if any(isinstance(e, Mapping) and "tables" in e for e in entries) else 2
    if names is not None and len(names) != count:
        raise ScoreInputError(f"{count} players play, but the input names {len(names)}: {shown(names)}",
                              rule="players")
    if names is None:
        names = four_players_of(entries) if count == 4 else players_of(entries, count)
    k = make_keeper(rules, names, first_dealer)
    for e in entries:
        k.add(e)
    return k


__all__ = ["AnyKeeper", "TeamScorekeeper", "ThreeScorekeeper", "check_names", "keep_score", "make_keeper",
           "team_names"]
