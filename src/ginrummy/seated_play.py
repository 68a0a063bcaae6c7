"""A person at a three- or four-player table, for both terminal apps (``play`` and ``tui``):
who plays whom each deal, what they are told of a hand they do not play, the scores.

The person plays one seat of a :class:`~ginrummy.game.Game`; every other seat is a computer
player. A hand the person does not play (three players: the hand they deal and sit out; four
players: the other table, their partner against the other opponent) is played by the computers
while the person waits or plays their own, and the person is told nothing of it until it is
over. Then they learn its result and what its end shows face up to everyone: both hands after a
knock (melds, layoffs, deadwood; never the knocker's face-down discard), nothing after a dead
hand. The person's own hand ends the same way, so every hand reads alike.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from .cards import cards_of
from .game import Game
from .melds import points
from .multisheet import RoundResult, SeatedResult, team_names
from .scoresheet import Ledger
from .scoring import HandResult
from .table import Table

#: Writes one card (plain, coloured, markup): the app's card style.
Show = Callable[[int], str]

#: Said after an undo with four players: the moves stored after yours went at both tables.
OTHER_TABLE_BACK = "The other table went back to where it was at your move: its players play on from there."


def seat_names(person: str, strengths: Sequence[str]) -> tuple[str, ...]:
    """The names at the table: the person's, then each computer player's by its strength,
    numbered when two play the same one (``simple 1``, ``simple 2``).

    >>> seat_names('You', ['simple', 'expert', 'simple'])
    ('You', 'simple 1', 'expert', 'simple 2')
    """
    counts = Counter(strengths)
    seen: Counter[str] = Counter()
    out = [person]
    for s in strengths:
        seen[s] += 1
        out.append(f"{s} {seen[s]}" if counts[s] > 1 else s)
    return tuple(out)


def column_names(game: Game, names: Sequence[str]) -> tuple[str, ...]:
    """The score sheet's columns: the players, or with four players the two teams."""
    return team_names(names) if game.seats == 4 else tuple(names)


def my_table(game: Game, person: int) -> int | None:
    """The person's table in the latest deal, or None when they sit it out."""
    at = game.where(person)
    return None if at is None else at[0]


def hand_names(game: Game, names: Sequence[str], table: int) -> tuple[str, str]:
    """The names of hand seats 0 and 1 at ``table`` of the latest deal."""
    a, b = game.current_pairings[table].seats
    return names[a], names[b]


def _deals(who: str) -> str:
    return f"{who} deal" if who == "you" else f"{who} deals"


def deal_heading(game: Game, names: Sequence[str], person: int) -> str:
    """The latest deal as the person hears of it: who plays whom, who deals, who sits out.

    >>> g = Game(__import__('ginrummy.rules').rules.Rules(), players=['You', 'Bo', 'Cy'], first_dealer=0, seed=1)
    >>> _ = g.deal(); deal_heading(g, g.players, 0)
    'Hand 1: you deal and sit out; Bo plays Cy'
    """

    def who(seat: int) -> str:
        return "you" if seat == person else names[seat]

    number = f"Hand {game.deals}"
    pairings = game.current_pairings
    if game.seats == 3:
        p = pairings[0]
        assert p.sits_out is not None
        if p.sits_out == person:
            return f"{number}: you deal and sit out; {names[p.seats[0]]} plays {names[p.seats[1]]}"
        other = next(s for s in p.seats if s != person)
        return f"{number}: {_deals(names[p.dealt_by])} and sits out; you play {names[other]}"
    parts: list[str] = []
    for p in pairings:
        a, b = p.seats
        if person in p.seats:
            opp = b if a == person else a
            parts.insert(0, f"you play {names[opp]} ({_deals(who(p.dealt_by))})")
        else:
            partner = a if a % 2 == person % 2 else b
            opp = b if partner == a else a
            parts.append(f"at the other table your partner {names[partner]} plays {names[opp]} ({_deals(who(p.dealt_by))})")
    return f"{number}: " + "; ".join(parts)


def score_line(game: Game, names: Sequence[str]) -> str:
    """The totals toward the target, every column (players, or teams)."""
    cols = column_names(game, names)
    scores = ", ".join(f"{n} {s}" for n, s in zip(cols, game.scores, strict=True))
    first = "first team to" if game.seats == 4 else "target"
    return f"Score: {scores} ({first} {game.sheet.target})"


def others_to_act(table: Table[Any], person: int) -> list[int]:
    """The seats to act at the tables of the latest deal the person does not play."""
    game = table.match
    mine = my_table(game, person)
    return [s for s in table.acting if my_table(game, s) != mine or mine is None]


def step_others(table: Table[Any], person: int) -> None:
    """One move at each other table in progress: the computers there play on while the person
    plays their own hand (nothing of it is shown)."""
    for seat in others_to_act(table, person):
        table.computer_move(seat)


def finish_others(table: Table[Any], person: int) -> list[int]:
    """Play the other tables of the deal to their end; returns those tables."""
    game = table.match
    mine = my_table(game, person)
    while others_to_act(table, person):
        step_others(table, person)
    return [t for t in range(len(game.tables)) if t != mine]


def end_lines(game: Game, table: int, names: Sequence[str], show: Show, bracket: str = "[") -> list[str]:
    """Hand ``table`` of the latest deal, once over, as its end shows it to everyone: its result,
    then after a knock each hand laid out (melds, cards laid off, deadwood). ``bracket`` opens a
    meld (``\\[`` in Textual markup)."""
    h = game.tables[table]
    result = h.result
    if result is None:
        raise ValueError(f"the hand at table {table + 1} is not over")
    p = game.current_pairings[table]
    lines = [SeatedResult(p, result).explain(names)]
    knocker = h.knocker
    if knocker is None:
        lines.append("Nobody knocked, so the cards stay face down.")
        return lines
    view = h.observation(1 - knocker)  # the defender's: both hands face up, the face-down discard not
    laid_off = 0
    for c, _ in view.layoffs:
        laid_off |= 1 << c
    for hs in (knocker, 1 - knocker):
        cards = view.hand if hs == view.seat else view.opponent_known
        melds = view.knocker_melds if hs == knocker else view.defender_melds
        free = cards
        shown = []
        for i, m in enumerate(melds):
            free &= ~m
            text = " ".join(show(c) for c in cards_of(m))
            if hs == knocker and view.laid_on[i]:
                text += " + " + " ".join(show(c) for c in cards_of(view.laid_on[i]))
            shown.append(f"{bracket}{text}]")
        parts = ["melds " + ("  ".join(shown) if shown else "none")]
        if hs != knocker:
            free &= ~laid_off
            if laid_off:
                parts.append("laid off " + " ".join(show(c) for c in cards_of(laid_off)))
        loose = " ".join(show(c) for c in cards_of(free)) or "none"
        parts.append(f"deadwood {loose} = {points(free)}")
        role = "knocked" if hs == knocker else "defended"
        lines.append(f"{names[p.seats[hs]]} ({role}): " + "; ".join(parts))
    return lines


def deal_scoring(game: Game, names: Sequence[str]) -> str | None:
    """With four players, once a deal is over: what the team sheet wrote for it; else None."""
    if game.seats != 4 or game.in_progress or not game.sheet.rows:
        return None
    entry = game.sheet.rows[-1].result
    assert isinstance(entry, RoundResult)
    return entry.scoring(column_names(game, names))


def final_lines(game: Game, names: Sequence[str]) -> list[str]:
    """The game's end: each bonus, the totals and the winner (players, or teams)."""
    return game.final().explain(column_names(game, names))


#: A hand's kind, in a few words (the score sheets).
_KIND_WORDS = {"knock": "knock", "undercut": "undercut", "gin": "gin", "big_gin": "big gin"}


def result_words(result: HandResult, names: Sequence[str]) -> str:
    """A hand's result in a few words: who won it, how, and its points."""
    if result.winner is None:
        return "dead hand"
    return f"{names[result.winner]}: {_KIND_WORDS[result.kind]} +{result.points}"


#: How a hand of the team game scored, in a few words (:attr:`~ginrummy.multisheet.RoundResult.kind`).
_ROUND_WORDS = {
    "both": "won both tables", "difference": "one table each", "one_table": "one table dead", "even": "even",
    "dead": "both dead",
}


def _seated_words(entry: object, names: Sequence[str], columns: Sequence[str]) -> list[str]:
    """One entry of a three- or four-player sheet: who played whom and what each table scored."""
    def table(t: SeatedResult) -> str:
        a, b = (names[s] for s in t.pairing.seats)
        return f"{a} v {b}: {result_words(t.result, (a, b))}"

    if isinstance(entry, SeatedResult):
        return [table(entry)]
    assert isinstance(entry, RoundResult)
    w = entry.winner
    head = "nobody scores" if w is None else f"{columns[w]} +{entry.points}"
    return [f"{head} ({_ROUND_WORDS[entry.kind]})", *(f"  table {i + 1}: {table(t)}" for i, t in enumerate(entry.tables))]


def seated_sheet_lines(sheet: Ledger[Any], names: Sequence[str], columns: Sequence[str]) -> list[str]:
    """The score sheet of a three- or four-player game as text: each hand (with four players,
    each hand's two tables under it), the running totals of every column (players, or teams),
    then the totals toward the target and the boxes; the final breakdown once over."""
    rules = sheet.rules
    width = max(5, *(len(n) for n in columns))
    games = sheet.games
    rows = [(row, _seated_words(row.result, names, columns)) for row in sheet.rows]
    what = max([14, *(len(words[0]) for _, words in rows)])
    cols = "  ".join(" ".join(n.rjust(width) for n in columns) for _ in range(games))
    lines = [f"Hand  {'What happened'.ljust(what)}  {cols}"]
    for row, words in rows:
        cells = "  ".join(" ".join(str(t).rjust(width) for t in row.totals[g]) for g in range(games))
        lines.append(f"{row.index + 1:>4}  {words[0].ljust(what)}  {cells}")
        lines.extend(f"      {w}" for w in words[1:])
    if not rows:
        lines.append("      no hands yet")

    def summary(label: str, values: Callable[[int], Sequence[object]]) -> str:
        cells = "  ".join(" ".join(str(v).rjust(width) for v in values(g)) for g in range(games))
        return f"      {label.ljust(what)}  {cells}"

    lines.append(summary(f"toward {sheet.target}", sheet.game_scores))
    lines.append(summary("boxes", sheet.boxes))
    if not sheet.bonuses:
        lines.append("No game, box or shutout bonus in this game.")
    elif rules.box_bonus:
        lines.append(f"Each box is worth {rules.box_bonus} when the game is over; boxes never count toward the target.")
    else:
        lines.append("No box bonus under these rules.")
    if sheet.is_over:
        lines.append("")
        lines.extend(sheet.final().explain(columns))
    return lines


__all__ = [
    "OTHER_TABLE_BACK", "column_names", "deal_heading", "deal_scoring", "end_lines", "final_lines", "finish_others",
    "hand_names", "my_table", "others_to_act", "result_words", "score_line", "seat_names", "seated_sheet_lines",
    "step_others",
]
