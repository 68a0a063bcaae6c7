"""The scorekeeper: score a game played with real cards, hand by hand.

Per hand, the players enter who knocked (or went gin / big gin, or that the hand was dead) and
both deadwood counts after layoffs. The scorekeeper decides knock, gin or undercut with the same
:func:`~ginrummy.scoring.score_hand` the engine uses, and keeps the sheet with the same ledgers
(:class:`~ginrummy.scoresheet.ScoreSheet`, and for three and four players the sheets of
:mod:`ginrummy.multisheet`), so bonuses, shutouts, Oklahoma boxes and Hollywood agree with played
games by construction. :func:`hand_result` reads one two-player hand's entry: every check of an
entry is there, for the command line and the web page alike.

Input, one object per hand (players are named by the keys used)::

    {"knocker": "A", "deadwood": {"A": 3, "B": 25}}
    {"knocker": "B", "gin": true, "deadwood": {"A": 14, "B": 0}}
    {"knocker": "A", "big_gin": true, "deadwood": {"A": 0, "B": 20}}
    {"knocker": "A", "upcard": "7s", "deadwood": {"A": 3, "B": 25}}     (Oklahoma)
    {"dead": true}                        (with three or four players: "players": ["A", "B"] may say who)

Three and four players: :mod:`ginrummy.scorekeeper_multi`.

000's worked example, final 263 to 86:

>>> k = Scorekeeper(Rules(), players=('You', 'Sam'))
>>> for e in [{'knocker': 'You', 'deadwood': {'You': 3, 'Sam': 25}},
...           {'knocker': 'Sam', 'gin': True, 'deadwood': {'You': 14, 'Sam': 0}},
...           {'knocker': 'You', 'deadwood': {'You': 8, 'Sam': 6}},
...           {'knocker': 'You', 'gin': True, 'deadwood': {'You': 0, 'Sam': 31}},
...           {'knocker': 'You', 'deadwood': {'You': 5, 'Sam': 35}}]:
...     _ = k.add(e)
>>> [r.points for r in k.sheet.results], k.sheet.final().totals
([22, 34, 12, 51, 30], (263, 86))
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from .cards import parse_card
from .errors import GinRummyError, IllegalActionError, NotationError, shown
from .rules import Rules
from .scoresheet import FinalResult, Ledger, ScoreSheet
from .scoring import DEAD_HAND, HandResult, check_deadwood, score_hand

ENTRY_KEYS = frozenset({"knocker", "deadwood", "gin", "big_gin", "upcard", "dead", "players"})
#: Default names, for players an input never names.
DEFAULT_NAMES = ("A", "B", "C", "D", "Player 1", "Player 2", "Player 3", "Player 4")


class ScoreInputError(GinRummyError, ValueError):
    """A hand entry the scorekeeper refuses. ``hand`` is 1-based; ``rule`` names the rule."""

    def __init__(self, message: str, hand: int | None = None, rule: str = "input") -> None:
        super().__init__(message)
        self.hand = hand
        self.rule = rule




def and_list(names: Sequence[str]) -> str:
    """'A', 'A and B', 'A, B and C'."""
    names = list(names)
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def names_in(entry: Any) -> list[str]:
    """The player names an entry mentions, in order: its deadwood keys, its "players", its knocker.

    The deadwood counts name both players of a hand, so a mistyped knocker is the odd one out.

    >>> names_in({'knocker': 'Sma', 'deadwood': {'You': 3, 'Sam': 25}})
    ['You', 'Sam', 'Sma']
    """
    out: list[str] = []
    if not isinstance(entry, Mapping):
        return out
    cands: list[Any] = []
    if isinstance(entry.get("deadwood"), Mapping):
        cands += list(entry["deadwood"])
    if isinstance(entry.get("players"), list):
        cands += entry["players"]
    cands.append(entry.get("knocker"))
    for n in cands:
        if isinstance(n, str) and n not in out:
            out.append(n)
    return out


def players_of(entries: Iterable[Any], count: int = 2) -> tuple[str, ...]:
    """``count`` player names, in order of first appearance in the entries (deadwood keys first).

    >>> players_of([{'dead': True}, {'knocker': 'Sam', 'deadwood': {'You': 3, 'Sam': 2}}])
    ('You', 'Sam')
    >>> players_of([{'knocker': 'Sma', 'deadwood': {'You': 3, 'Sam': 25}}])  # the typo is not a player
    ('You', 'Sam')
    """
    entries = list(entries)
    names: list[str] = []

    def take(n: Any) -> None:
        if isinstance(n, str) and n not in names:
            names.append(n)

    # Deadwood keys and "players" name players for certain; knockers only fill the gaps.
    for e in entries:
        for table in e.get("tables", [e]) if isinstance(e, Mapping) else []:
            if isinstance(table, Mapping):
                for n in names_in({k: v for k, v in table.items() if k != "knocker"}):
                    take(n)
    for e in entries:
        for table in e.get("tables", [e]) if isinstance(e, Mapping) else []:
            if isinstance(table, Mapping):
                take(table.get("knocker"))
    names = names[:count]  # an extra name is reported by the entry that uses it
    defaults = [n for n in DEFAULT_NAMES if n not in names]
    while len(names) < count:
        names.append(defaults.pop(0))
    return tuple(names)


def unknown_player(name: Any, players: Sequence[str], what: str = "player") -> str:
    """The words for a name that is not a player here: the name, then who the players are."""
    return f"{what} {shown(name)} is not a player here (the players are {and_list(players)})"


def _player(value: Any, names: Sequence[str], what: str) -> str:
    """A player given by name (any case, spaces around ignored) or seat number (0, 1, ...)."""
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < len(names):
        return names[value]
    if isinstance(value, str):
        for n in names:
            if value.strip().casefold() == n.casefold():
                return n
        if value.strip().isdigit() and int(value.strip()) < len(names):
            return names[int(value.strip())]
    raise ScoreInputError(unknown_player(value, names, what), rule="players")


def _count(value: Any) -> Any:
    """Digits typed in a form count as numbers; anything else is left for hand_result to refuse."""
    if isinstance(value, str) and value.strip().isdigit() and len(value.strip()) <= 6:
        return int(value.strip())
    return value


def normalize_entry(entry: Any, names: Sequence[str]) -> dict[str, Any]:
    """Bring a hand entry as people type it to the strict form :func:`hand_result` reads.

    Names in any case or as seat numbers, digits as numbers, a two-item deadwood list in seat
    order (two players), no count for a gin player (0), false flags and an empty upcard left
    out; a team game's ``tables`` each in turn. The web page and ``ginrummy score`` with no file
    both enter hands through here; what is stored is the strict form, so a saved sheet can be fed
    to ``ginrummy score FILE`` unchanged.

    >>> normalize_entry({"knocker": "sam", "gin": True, "deadwood": {"you": "14"}}, ("You", "Sam"))
    {'knocker': 'Sam', 'gin': True, 'deadwood': {'You': 14, 'Sam': 0}}
    """
    if not isinstance(entry, Mapping):
        raise ScoreInputError('a hand must be an object such as {"knocker": "You", "deadwood": {"You": 3, "Sam": 25}}')
    if "tables" in entry and isinstance(entry["tables"], list):
        return {**entry, "tables": [normalize_entry(t, names) for t in entry["tables"]]}
    out: dict[str, Any] = {}
    for key, value in entry.items():
        if key == "knocker" and value is not None:
            out["knocker"] = _player(value, names, "the knocker")
        elif key == "deadwood" and isinstance(value, Mapping):
            out["deadwood"] = {_player(k, names, "deadwood for"): _count(v) for k, v in value.items()}
        elif (key == "deadwood" and len(names) == 2 and isinstance(value, Sequence) and not isinstance(value, str)
              and len(value) == 2):
            out["deadwood"] = {names[s]: _count(v) for s, v in enumerate(value)}
        elif key == "players" and isinstance(value, list):
            out["players"] = [_player(v, names, "player") for v in value]
        elif key in ("gin", "big_gin", "dead") and value is False:
            continue
        elif key == "upcard" and value in (None, ""):
            continue
        else:
            out[key] = value
    if out.get("dead"):
        return out
    dw = out.get("deadwood")
    if (out.get("gin") or out.get("big_gin")) and isinstance(dw, dict) and "knocker" in out:
        dw.setdefault(out["knocker"], 0)  # a gin hand has no deadwood; a form need not ask for it
    return out


def hand_result(rules: Rules, entry: Any, players: Sequence[str], number: int, where: str | None = None,
                everyone: Sequence[str] | None = None) -> HandResult:
    """One two-player hand's entry as a HandResult in the seats of ``players`` (the two who played).

    Refuses the entry with a :class:`ScoreInputError` naming hand ``number`` (``where`` replaces
    "hand N" in the message, e.g. "hand 2, table 1") and the rule. ``everyone`` is the whole game's
    players, for telling a stranger from a player who sat this hand out.

    >>> hand_result(Rules(), {'knocker': 'A', 'deadwood': {'A': 12, 'B': 30}}, ('A', 'B'), 4)
    Traceback (most recent call last):
    ...
    ginrummy.scorekeeper.ScoreInputError: hand 4: cannot knock: deadwood 12 is over the knock limit 10 (rule: knock_limit)
    """
    where = where or f"hand {number}"
    everyone = everyone or players

    def fail(msg: str, rule: str = "input") -> ScoreInputError:
        return ScoreInputError(f"{where}: {msg} (rule: {rule})", hand=number, rule=rule)

    def check_name(name: Any, what: str) -> None:
        if name in players:
            return
        if name in everyone:
            raise fail(f"{name} did not play this hand ({and_list(players)} did)", "rotation")
        raise fail(unknown_player(name, everyone, what), "players")

    if not isinstance(entry, Mapping):
        raise fail(f"each hand must be an object, not {shown(entry)}")
    unknown = sorted(str(k) for k in set(entry) - ENTRY_KEYS)
    if unknown:
        raise fail(f"unknown key {', '.join(shown(k) for k in unknown)} (use {', '.join(sorted(ENTRY_KEYS))})")
    for flag in ("dead", "gin", "big_gin"):
        if flag in entry and not isinstance(entry[flag], bool):
            raise fail(f"{flag!r} must be true or false, not {shown(entry[flag])}")
    if "players" in entry:
        named = entry["players"]
        if not isinstance(named, list) or len(named) != 2:
            raise fail(f"\"players\" lists the two who played this hand, not {shown(named)}", "players")
        for name in named:
            check_name(name, "player")
    if entry.get("dead"):
        extra = sorted(set(entry) - {"dead", "upcard", "players"})
        if extra:
            raise fail(f"a dead hand has no {', '.join(extra)}: nobody knocked and nobody scores", "dead_hand")
        return DEAD_HAND
    knocker_name = entry.get("knocker")
    if knocker_name is None:
        raise fail("say who knocked ('knocker'), or mark the hand {\"dead\": true}")
    check_name(knocker_name, "the knocker")
    counts = entry.get("deadwood")
    if not isinstance(counts, Mapping):
        raise fail("give both deadwood counts after layoffs, e.g. "
                   f"\"deadwood\": {{\"{players[0]}\": 3, \"{players[1]}\": 25}}", "deadwood")
    for name in counts:
        check_name(name, "player")
    values: list[int] = []
    for name in players:
        if name not in counts:
            raise fail(f"missing deadwood count for {name}", "deadwood")
        v = counts[name]
        if not isinstance(v, int) or isinstance(v, bool):
            raise fail(f"{name}'s deadwood must be a whole number, not {shown(v)}", "deadwood")
        try:
            check_deadwood(v, f"{name}'s deadwood")
        except IllegalActionError as e:
            raise fail(str(e), e.rule) from None
        values.append(v)
    knocker = list(players).index(knocker_name)
    kd, dd = values[knocker], values[1 - knocker]
    upcard: int | None = None
    if "upcard" in entry and entry["upcard"] is not None:
        try:
            upcard = parse_card(str(entry["upcard"])[:10])
        except NotationError as e:
            raise fail(f"upcard: {e}", "upcard") from None
    elif rules.oklahoma and rules.upcard:
        raise fail("Oklahoma: enter the first upcard (\"upcard\": \"7s\"); its value is this hand's knock limit"
                   + (" and a spade doubles the score" if rules.oklahoma_spade_double else ""), "upcard")
    big = bool(entry.get("big_gin"))
    if (entry.get("gin") or big) and kd:
        label = "big gin" if big else "gin"
        raise fail(f"{label} means no deadwood, but {knocker_name} has {kd}", "big_gin" if big else "gin")
    try:
        return score_hand(rules, knocker=knocker, knocker_deadwood=kd, defender_deadwood=dd,
                          big_gin=big, upcard=upcard)
    except IllegalActionError as e:
        raise fail(str(e), e.rule) from None


def by_name(names: Sequence[str], values: Sequence[int]) -> dict[str, int]:
    return {names[s]: values[s] for s in range(len(names))}


def final_json(f: FinalResult, names: Sequence[str], who: str = "player") -> dict[str, Any]:
    """The final result keyed by name (players, or teams: ``who`` names the breakdown's key)."""
    out: dict[str, Any] = {
        "winner": None if f.winner is None else names[f.winner],
        "margin": f.margin,
        "points": by_name(names, f.points),
        "hands_won": by_name(names, f.hands_won),
        "extra_boxes": by_name(names, f.extra_boxes),
        "game_bonus": by_name(names, f.game_bonus),
        "box_bonus": by_name(names, f.box_bonus),
        "shutout": f.shutout,
        "shutout_bonus": by_name(names, f.shutout_bonus),
        "totals": by_name(names, f.totals),
        "breakdown": [
            {"game": ln.game + 1, who: names[ln.seat], "label": ln.label, "points": ln.points,
             **({"against": names[ln.against]} if ln.against is not None else {})}
            for ln in f.breakdown
        ],
        "explain": f.explain(names),
    }
    if f.hollywood:
        out["games"] = [
            {"game": g.index + 1, "winner": names[g.winner], "totals": by_name(names, g.totals),
             "points": by_name(names, g.points), "closed_by_hand": g.closed_by + 1}
            for g in f.games
        ]
    return out


def hollywood_rows(sheet: Ledger[Any], row_index: int, names: Sequence[str]) -> dict[str, Any]:
    """A Hollywood hand's extra figures: the games it was written in, each game's totals."""
    row = sheet.rows[row_index]
    return {
        "written_in_games": [g + 1 for g in row.written],
        "games": [by_name(names, t) for t in row.totals],
        "closed_games": [g + 1 for g in row.closed],
    }


def games_json(sheet: Ledger[Any], names: Sequence[str]) -> list[dict[str, Any]]:
    """Each game of a Hollywood sheet: open or closed, and how it closed (who, in which hand)."""
    out = []
    for g in range(sheet.games):
        closed = sheet.game_closed_by(g)
        out.append({
            "game": g + 1,
            "open": closed is None,
            "winner": None if closed is None else names[closed[0]],
            "closed_by_hand": None if closed is None else closed[1] + 1,
            "scores": by_name(names, sheet.game_scores(g)),
        })
    return out


def not_over_text(sheet: Ledger[Any], names: Sequence[str]) -> str:
    """The lines under an unfinished sheet: the scores toward the target; with Hollywood scoring,
    each game, and for a closed one who closed it and in which hand.

    >>> from ginrummy.scoring import HandResult
    >>> s = ScoreSheet(Rules(hollywood=True))
    >>> s.add(HandResult(kind='gin', winner=0, points=100, knocker=0))
    >>> print(not_over_text(s, ('You', 'Sam')))
    Not over yet (target 100, three games):
    Game 1 closed: You reached 100 in hand 1 (You 100, Sam 0).
    Game 2 open: You 0, Sam 0.
    Game 3 open: You 0, Sam 0.
    """

    def scores(t: Sequence[int]) -> str:
        return ", ".join(f"{names[i]} {t[i]}" for i in range(len(names)))

    if sheet.games == 1:
        return f"Not over yet: {scores(sheet.scores)} (target {sheet.target})."
    lines = [f"Not over yet (target {sheet.target}, three games):"]
    for g in games_json(sheet, names):
        t = sheet.game_scores(g["game"] - 1)
        if g["open"]:
            lines.append(f"Game {g['game']} open: {scores(t)}.")
        else:
            lines.append(f"Game {g['game']} closed: {g['winner']} reached {t[names.index(g['winner'])]} in hand "
                         f"{g['closed_by_hand']} ({scores(t)}).")
    return "\n".join(lines)


class Scorekeeper:
    """A score sheet for a two-player game played with real cards, fed one hand entry at a time."""

    def __init__(self, rules: Rules, players: Sequence[str] = ("A", "B")) -> None:
        if len(players) != 2 or players[0] == players[1]:
            raise ScoreInputError("the scorekeeper needs two different player names")
        self.rules = rules
        self.players: tuple[str, str] = (str(players[0]), str(players[1]))
        self.sheet = ScoreSheet(rules)
        #: The entries written, as given (what a saved sheet holds).
        self.entries: list[Any] = []

    @property
    def is_over(self) -> bool:
        return self.sheet.is_over

    @property
    def hands(self) -> int:
        return len(self.sheet.results)

    def next_hand(self) -> None:
        """Two players: both play every hand (the sheet does not track the dealer)."""
        return None

    # -- entries ---------------------------------------------------------------------------

    def result_of(self, entry: Any, number: int) -> HandResult:
        """Turn one entry into a HandResult, or refuse it naming hand ``number`` and the rule."""
        return hand_result(self.rules, entry, self.players, number)

    def add(self, entry: Any) -> HandResult:
        """Score the next hand and write it on the sheet."""
        number = len(self.sheet.results) + 1
        result = self.result_of(entry, number)
        if self.sheet.is_over:
            final = self.sheet.final()
            w = self.players[final.winner] if final.winner is not None else "nobody"
            raise ScoreInputError(
                f"hand {number}: the game was already over after hand {number - 1} ({w} won); "
                "start a new game for more hands (rule: game_over)",
                hand=number,
                rule="game_over",
            )
        self.sheet.add(result)
        self.entries.append(entry)
        return result

    def replace(self, number: int, entry: Any) -> HandResult:
        """Correct hand ``number`` (1-based); refused if the game would then end before a later hand."""
        if not 1 <= number <= len(self.sheet.results):
            raise ScoreInputError(f"there is no hand {number} to correct", hand=number)
        result = self.result_of(entry, number)
        try:
            self.sheet.replace(number - 1, result)
        except IllegalActionError as e:
            raise ScoreInputError(f"hand {number}: that correction is refused: {e}", hand=number,
                                  rule=e.rule) from None
        self.entries[number - 1] = entry
        return result

    def remove(self, number: int) -> HandResult:
        """Delete hand ``number`` (1-based)."""
        if not 1 <= number <= len(self.sheet.results):
            raise ScoreInputError(f"there is no hand {number} to delete", hand=number)
        try:
            removed = self.sheet.remove(number - 1)
        except IllegalActionError as e:
            raise ScoreInputError(f"deleting hand {number} is refused: {e}", hand=number, rule=e.rule) from None
        del self.entries[number - 1]
        return removed

    # -- output ----------------------------------------------------------------------------

    def report(self) -> dict[str, Any]:
        """Per-hand points, running totals, bonuses and final totals, keyed by player name."""
        names = self.players
        hands = []
        for row in self.sheet.rows:
            r = row.result
            item: dict[str, Any] = {
                "hand": row.index + 1,
                "kind": r.kind,
                "winner": None if r.winner is None else names[r.winner],
                "points": r.points,
                "extra_boxes": r.extra_boxes,
                "explain": r.explain(names),
                "totals": by_name(names, row.totals[0]),
            }
            if self.rules.hollywood:
                item.update(hollywood_rows(self.sheet, row.index, names))
            hands.append(item)
        out = {
            "players": list(names),
            "rules": self.rules.to_json(),
            "hands": hands,
            "over": self.sheet.is_over,
            "scores": by_name(names, self.sheet.scores),
            "final": final_json(self.sheet.final(), names) if self.sheet.is_over else None,
        }
        if self.rules.hollywood:
            out["games"] = games_json(self.sheet, names)
        return out

    def table(self) -> str:
        """The sheet as a plain-text table, like a paper score pad."""
        a, b = self.players
        w = max(6, len(a), len(b))
        lines = [self.rules.describe()[0], ""]
        lines.append(f"{'Hand':>4}  {'Won by':<{w}}  {'Points':>6}  {a:>{w}}  {b:>{w}}  What happened")
        for row in self.sheet.rows:
            r = row.result
            who = "-" if r.winner is None else self.players[r.winner]
            if self.rules.hollywood:
                t0 = "/".join(str(t[0]) for t in row.totals)
                t1 = "/".join(str(t[1]) for t in row.totals)
            else:
                t0, t1 = str(row.totals[0][0]), str(row.totals[0][1])
            lines.append(
                f"{row.index + 1:>4}  {who:<{w}}  {r.points:>6}  {t0:>{w}}  {t1:>{w}}  {r.explain(self.players)}"
            )
        lines.append("")
        if self.sheet.is_over:
            lines.extend(self.sheet.final().explain(self.players))
        else:
            lines.append(not_over_text(self.sheet, self.players))
        return "\n".join(lines)


__all__ = [
    "ENTRY_KEYS",
    "ScoreInputError",
    "Scorekeeper",
    "final_json",
    "hand_result",
    "names_in",
    "normalize_entry",
    "players_of",
]
