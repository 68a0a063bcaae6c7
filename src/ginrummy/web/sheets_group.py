"""The blank score sheets of three players and of two teams (``/scoresheet?players=3|4``).

One game, one page wide on A4 and Letter (the grid has eleven columns, as the two-player sheet's
seven plus the dealer's or the tables'). Three players: who dealt (and sat out) each hand, then
points, running total and a box per player. Four players: each table's winner and points, then
points, running total and a box per team; the head says who plays whom at each table, from
:func:`~ginrummy.dealing.team_round` (partners switch opponents every hand), so the sheet and the
scorekeeper cannot disagree. Hollywood keeps three games at once: each hand's winner and points
once, then each game's running total per player or team (thirteen columns).
"""

from __future__ import annotations

import html
from collections.abc import Sequence

from ..dealing import team_round
from ..multisheet import team_names
from ..rules import Rules


def shown_names(names: Sequence[str]) -> list[str]:
    """Each name as printed ("Player 3" for a blank one)."""
    return [n or f"Player {i + 1}" for i, n in enumerate(names)]


def _bonuses(rules: Rules, players: int) -> bool:
    return rules.three_player_bonuses if players == 3 else rules.team_bonuses


def _foot(rules: Rules, players: int, per: str, span: int, totals: Sequence[tuple[str, str]] = ()) -> str:
    """The bonus rows (when the rule set has them), then ``totals`` (default: a final total), then the margin."""
    rows: list[tuple[str, str]] = []
    if _bonuses(rules, players):
        if rules.box_bonus:
            rows.append((f"Boxes x {rules.box_bonus}", per))
        if rules.game_bonus or rules.shutout != "none":
            rows.append(("Game bonus", per))
    rows.extend(totals or [("Final total", per)])
    foot = "".join(f'<tr><th scope="row">{html.escape(label)}</th>{c}</tr>' for label, c in rows)
    return foot + f'<tr><th scope="row">Margin</th><td colspan="{span - 1}"></td></tr>'


def group_grid(rules: Rules, names: Sequence[str], hands: int) -> str:
    """The score grid of three players or of two teams (``len(names)`` is 3 or 4)."""
    players = len(names)
    shown = [html.escape(n) for n in shown_names(names)]
    if players == 3:
        head1 = ('<th rowspan="2" class="num" scope="col">Hand</th>'
                 '<th rowspan="2" class="dealer" scope="col">Dealer</th>') + "".join(
            f'<th colspan="3" class="player game-start" scope="colgroup">{n}</th>' for n in shown)
        head2 = '<th class="game-start">Points</th><th>Total</th><th>Box</th>' * 3
        cells = '<td class="dealer"></td>' + '<td class="game-start"></td><td></td><td class="box"></td>' * 3
        per = '<td class="dealer"></td>' + '<td colspan="3" class="game-start"></td>' * 3
        span = 11
    else:
        teams = [html.escape(t) for t in team_names(shown_names(names))]
        head1 = '<th rowspan="2" class="num" scope="col">Hand</th>' + "".join(
            f'<th colspan="2" class="player game-start" scope="colgroup">Table {t + 1}</th>' for t in range(2))
        head1 += "".join(f'<th colspan="3" class="player game-start" scope="colgroup">{n}</th>' for n in teams)
        head2 = '<th class="game-start">Won by</th><th>Points</th>' * 2
        head2 += '<th class="game-start">Points</th><th>Total</th><th>Box</th>' * 2
        cells = '<td class="game-start"></td><td></td>' * 2
        cells += '<td class="game-start"></td><td></td><td class="box"></td>' * 2
        per = '<td colspan="2" class="game-start"></td>' * 2 + '<td colspan="3" class="game-start"></td>' * 2
        span = 11
    body = "".join(f'<tr><td class="num">{i + 1}</td>{cells}</tr>' for i in range(hands))
    head = f"<tr>{head1}</tr><tr>{head2}</tr>"
    foot = _foot(rules, players, per, span)
    return f'<table class="grid group"><thead>{head}</thead><tbody>{body}</tbody><tfoot>{foot}</tfoot></table>'


def group_hollywood_grid(rules: Rules, names: Sequence[str], hands: int) -> str:
    """The Hollywood grid of three players or two teams: who scored each hand and how much, once,
    then three games side by side, a running total per player (or team) in each."""
    players = len(names)
    shown = [html.escape(n) for n in shown_names(names)]
    cols = shown if players == 3 else [html.escape(t) for t in team_names(shown_names(names))]
    # Nine or six narrow columns: each headed by a first name (the full names head the foot's totals).
    first = [n.split()[0][:12] if n.split() else n for n in shown_names(names)]
    heads = [html.escape(f) for f in first] if players == 3 else [
        html.escape(f"{first[a]} & {first[b]}") for a, b in ((0, 2), (1, 3))]
    if players == 3:
        lead1 = ('<th rowspan="2" class="dealer" scope="col">Dealer</th>'
                 '<th colspan="2" class="player game-start" scope="colgroup">Hand won</th>')
        lead2 = '<th class="game-start">By</th><th>Pts</th>'
        lead_cells = '<td class="dealer"></td><td class="game-start"></td><td></td>'
        lead_span = 3
    else:
        lead1 = "".join(f'<th colspan="2" class="player game-start" scope="colgroup">Table {t + 1}</th>'
                        for t in range(2)) + '<th colspan="2" class="player game-start" scope="colgroup">Scored</th>'
        lead2 = '<th class="game-start">Won by</th><th>Pts</th>' * 2 + '<th class="game-start">Team</th><th>Pts</th>'
        lead_cells = '<td class="game-start"></td><td></td>' * 3
        lead_span = 6
    n = len(cols)
    head1 = '<th rowspan="2" class="num" scope="col">Hand</th>' + lead1 + "".join(
        f'<th colspan="{n}" class="player game-start" scope="colgroup">Game {g + 1}</th>' for g in range(3))
    head2 = lead2 + "".join(f'<th{" class=game-start" if c == 0 else ""}>{name}</th>'
                            for _ in range(3) for c, name in enumerate(heads))
    per_game = "".join(f'<td{" class=game-start" if c == 0 else ""}></td>' for _ in range(3) for c in range(n))
    cells = lead_cells + per_game
    body = "".join(f'<tr><td class="num">{i + 1}</td>{cells}</tr>' for i in range(hands))
    lead_blank = f'<td colspan="{lead_span}" class="game-start"></td>'
    added = "".join(f'<td colspan="3" class="game-start">{name}: </td>' for name in cols)
    foot = _foot(rules, players, lead_blank + per_game, 1 + lead_span + 3 * n,
                 [("Game total", lead_blank + per_game), ("3 games added", lead_blank + added)])
    head = f"<tr>{head1}</tr><tr>{head2}</tr>"
    return f'<table class="grid group hollywood"><thead>{head}</thead><tbody>{body}</tbody><tfoot>{foot}</tfoot></table>'


def pairings(names: Sequence[str]) -> str:
    """Who plays whom at each table of a team game: partners switch opponents every hand.

    >>> pairings(['Ann', 'Bob', 'Cy', 'Dee'])
    'Table 1: Ann v Bob in hands 1, 3, 5…, Ann v Dee in hands 2, 4, 6…. Table 2: Cy v Dee, then Cy v Bob.'
    """
    shown = shown_names(names)
    odd, even = team_round(0, 0), team_round(1, 0)
    pair = [[f"{shown[r[t].seats[0]]} v {shown[r[t].seats[1]]}" for r in (odd, even)] for t in range(2)]
    return (f"Table 1: {pair[0][0]} in hands 1, 3, 5…, {pair[0][1]} in hands 2, 4, 6…. "
            f"Table 2: {pair[1][0]}, then {pair[1][1]}.")


def group_legend(rules: Rules, names: Sequence[str]) -> str:
    """How to fill the sheet in, with the rule set's target and whether bonuses apply."""
    players = len(names)
    extras = ("then add the bonuses" if _bonuses(rules, players)
              else "hand points only: no game, box or shutout bonus")
    if rules.hollywood:
        who = "player" if players == 3 else "team"
        target = rules.target if players == 3 else rules.team_target
        how = ("Three players: two play each hand and the dealer sits out; the loser of each hand deals the next. "
               if players == 3 else
               f"Two teams, {' against '.join(team_names(shown_names(names)))}: each hand is played at two tables; a "
               "team that won both scores both added, one each scores the difference to the team with more. ")
        return (how + f"Hollywood: three games at once. Write each hand's winning {who} and points, then the "
                f"{who}'s running total: in game 1 on its first scoring hand, games 1 and 2 on its second, every "
                f"open game after that. A game closes when a {who} reaches {target}; {extras} for each game.")
    if players == 3:
        return ("Three players: two play each hand and the dealer sits out; the loser of each hand deals the next "
                "(after a dead hand the same dealer deals again). Write who dealt, then the hand's points under its "
                "winner, add them to the running total and tick a box for each hand won. The first to "
                f"{rules.target} wins; {extras}.")
    teams = team_names(shown_names(names))
    return (f"Two teams, {teams[0]} against {teams[1]}: each hand is played at two tables and partners switch "
            "opponents every hand. Write each table's winner and points. A team that won both tables scores both "
            "added; one table each, the team with more points scores the difference (equal: nobody scores); a dead "
            f"hand scores 0 at its table. The first team to {rules.team_target} wins; {extras}.")


__all__ = ["group_grid", "group_hollywood_grid", "group_legend", "pairings", "shown_names"]
