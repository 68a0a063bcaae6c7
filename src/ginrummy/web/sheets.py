"""Printable sheets: ``GET /rules`` (the rule sheet) and ``GET /scoresheet`` (a blank score sheet).

Both are generated from a :class:`~ginrummy.rules.Rules` built from the query string
(``?preset=online&knock_limit=7&big_gin=yes``), so a printed sheet always carries the figures of
the rule set actually chosen. Both are plain HTML linking ``/static/sheets.css``, whose ``@media print``
rules fit one Letter or A4 page; the screen-only controls (choose the rules, print) vanish
when printed. Bad settings answer 400 with the rule's own error message.
"""

from __future__ import annotations

import html
from collections.abc import Iterable
from dataclasses import fields
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from .. import words
from ..commands.rules_sheet import changes_line, nav_html, page_html, render_html
from ..errors import GinRummyError, RulesError, shown
from ..rules import GROUP_RULES, PRESETS, RANGES, RULE_NAMES, Rules, parse_rule_value
from .errors import WebError
from .inputs import clean_name
from .sheets_group import group_grid, group_hollywood_grid, group_legend, pairings

router = APIRouter(tags=["sheets"])

#: Query keys that are not rules: the score sheet's players, their names and the number of rows.
SHEET_KEYS = frozenset({"preset", "rules", "names", "hands", "players"})

#: Rows that fit one page under the header and the bonus rows (checked by printing to PDF).
DEFAULT_HANDS = 28
HOLLYWOOD_HANDS = 24  # three header rows and more bonus rows
#: Three players and two teams: more text above the grid (the teams' names, the tables' pairings).
GROUP_HANDS = {3: 24, 4: 22}
GROUP_HOLLYWOOD_HANDS = 20  # a player's or team's name heads each of its three games
MAX_HANDS = 30


def rules_from_query(items: Iterable[tuple[str, str]]) -> Rules:
    """A rule set from query parameters: ``preset`` (or ``rules``) plus any rule by name.

    Empty values are ignored so a form can leave a field blank.

    >>> rules_from_query([('preset', 'online'), ('knock_limit', '7'), ('names', 'A,B')]).knock_limit
    7
    >>> rules_from_query([('knock_limt', '7')])
    Traceback (most recent call last):
    ...
    ginrummy.errors.RulesError: unknown rule 'knock_limt' (did you mean 'knock_limit'?)
    """
    preset = "classic"
    overrides: dict[str, Any] = {}
    for key, value in items:
        if key in ("preset", "rules"):
            preset = value or "classic"
        elif key in SHEET_KEYS or value == "":
            continue
        else:
            overrides[key] = parse_rule_value(key, value)
    return Rules.preset(preset, **overrides)


def query_of(rules: Rules) -> str:
    """The query string that rebuilds ``rules``: the preset and only the changed rules.

    >>> query_of(Rules.preset('online', big_gin=True))
    'preset=online&big_gin=true'
    """
    from urllib.parse import urlencode

    pairs: list[tuple[str, str]] = [("preset", rules.name)]
    for k, v in rules.overrides().items():
        pairs.append((k, str(v).lower() if isinstance(v, bool) else str(v)))
    return urlencode(pairs)


def _error_page(message: str, back: str) -> HTMLResponse:
    body = (
        nav_html()
        + '<main class="sheet"><h1>These rules cannot be used</h1>'
        + f'<p role="alert">{html.escape(message)}</p>'
        + f'<p><a href="{html.escape(back)}">Back to the classic rules</a></p></main>'
    )
    return HTMLResponse(page_html("Rules error", body, stylesheet=STYLESHEET), status_code=400)


# -- the screen-only controls -------------------------------------------------------------------

#: The controls' behaviour (send only changed rules, follow the preset, print) lives in a static
#: file: the Content-Security-Policy allows no inline script or handler.
_FORM_SCRIPT = '<script src="/static/sheets.js"></script>'

#: The web pages link the sheet stylesheet (the policy allows no inline style); ``ginrummy rules
#: --html`` still inlines it, so that file stands alone.
STYLESHEET = "/static/sheets.css"


def _rule_input(rules: Rules, base: Rules, name: str, kind: str) -> str:
    """One labelled control for one rule; ``data-default`` is the preset's value."""
    value = getattr(rules, name)
    default = getattr(base, name)
    label, help_text = words.rule_words(name)
    ident = f"rule-{name}"
    if kind == "bool":
        opts = "".join(
            f'<option value="{v}"{" selected" if value == b else ""}>{t}</option>'
            for v, b, t in (("true", True, "yes"), ("false", False, "no"))
        )
        d = "true" if default else "false"
        ctl = f'<select id="{ident}" name="{name}" data-default="{d}">{opts}</select>'
    elif kind == "int":
        low, high, _ = RANGES[name]
        ctl = (
            f'<input id="{ident}" name="{name}" type="number" min="{low}" max="{high}" value="{value}" '
            f'data-default="{default}">'
        )
    else:
        from ..rules import CHOICES

        opts = "".join(
            f'<option value="{c}"{" selected" if c == value else ""}>{html.escape(words.choice_label(name, c))}</option>'
            for c in CHOICES.get(name, (str(value),))
        )
        ctl = f'<select id="{ident}" name="{name}" data-default="{html.escape(str(default))}">{opts}</select>'
    ctl = ctl.replace(f'id="{ident}"', f'id="{ident}" title="{html.escape(help_text)}"', 1)
    return f'<label for="{ident}">{html.escape(label)}</label> {ctl}'


def _controls(rules: Rules, action: str, extra: str = "", keep: str = "") -> str:
    """Choose a preset, change any rule, print. ``extra`` adds fields (the score sheet's names)."""
    base = Rules.preset(rules.name)
    presets = "".join(
        f'<option value="{p}"{" selected" if p == rules.name else ""}>{html.escape(words.preset_label(p))}</option>'
        for p in PRESETS
    )
    kinds = {f.name: str(f.type) for f in fields(Rules)}
    inputs = "".join(
        f"<div>{_rule_input(rules, base, n, kinds[n])}</div>" for n in RULE_NAMES if n not in GROUP_RULES
    )
    other = "/scoresheet" if action == "/rules" else "/rules"
    other_label = "Score sheet for these rules" if action == "/rules" else "Rule sheet for these rules"
    q = query_of(rules)
    return (
        f'<form class="controls no-print" method="get" action="{action}" data-rules-form '
        f'data-keep="{html.escape(keep)}">'
        '<div class="row">'
        f'<label for="preset">Rule set</label> <select id="preset" name="preset">{presets}</select>'
        f"{extra}"
        '<button type="button" data-print>Print</button>'
        f'<a href="{other}?{html.escape(q)}">{other_label}</a>'
        f'<a href="/scorekeeper?{html.escape(q + ("&" + keep if keep else ""))}">Keep score with these rules</a>'
        "</div>"
        f'<details><summary>Change a rule</summary><fieldset>{inputs}</fieldset>'
        '<p><button type="submit">Show these rules</button></p></details>'
        "</form>" + _FORM_SCRIPT
    )


# -- the rule sheet -----------------------------------------------------------------------------


@router.get("/rules", response_class=HTMLResponse, summary="Printable rule sheet")
def rule_sheet(request: Request) -> HTMLResponse:
    """Every rule in force in plain words, with the scoring tables of that rule set."""
    try:
        rules = rules_from_query(request.query_params.multi_items())
    except GinRummyError as e:
        return _error_page(str(e), "/rules")
    return HTMLResponse(render_html(rules, controls=_controls(rules, "/rules"), stylesheet=STYLESHEET))


# -- the score sheet ----------------------------------------------------------------------------


def _figures(r: Rules, players: int = 2) -> str:
    """The scoring figures in one line, printed above the grid so nobody needs the rule sheet.

    Three and four players: the target is the team game's for four, and the bonuses only when the
    rule set's option for that many players keeps them.
    """
    parts = []
    if not r.straight_gin and (r.oklahoma or r.knock_limit):
        limit = "the upcard's value" if r.oklahoma else str(r.knock_limit)
        parts.append(f"Knock with {limit} or less: the difference")
        parts.append(f"undercut (equal or less): difference + {r.undercut_bonus}")
    parts.append(f"gin: {r.gin_bonus} + deadwood")
    if r.big_gin:
        parts.append(f"big gin: {r.big_gin_bonus} + deadwood")
    if r.oklahoma and r.oklahoma_spade_double:
        parts.append("spade upcard: hand doubled")
    line = "; ".join(parts) + "."
    if players == 4:
        line += " Four players: one table's hand each, the team with more points scores the difference."
    bonuses = {2: True, 3: r.three_player_bonuses, 4: r.team_bonuses}[players]
    target = r.team_target if players == 4 else r.target
    if not bonuses:
        return line + f" Game to {target}; hand points only, no bonuses."
    game = f" Game to {target}"
    if r.game_bonus:
        game += f": game bonus {r.game_bonus}"
    if r.shutout == "bonus" and r.game_bonus != r.shutout_bonus:
        game += f" ({r.shutout_bonus} for a shutout)"
    elif r.shutout == "double_total":
        game += " (shutout: whole score doubled)"
    elif r.shutout == "double_hands":
        game += " (shutout: each hand doubled)"
    if r.box_bonus:
        game += f", box bonus {r.box_bonus} a hand won"
        if r.oklahoma and r.oklahoma_extra_boxes:
            game += " and a box each extra box"
    game += ". Box bonuses do not count toward the target."
    return line + game


def _names(raw: str | None, players: int = 2) -> tuple[str, ...]:
    """``names=You,Sam``: at most ``players`` names, each bounded like every name (empty is fine: a blank header)."""
    parts = (raw or "").split(",", players)
    if len(parts) > players:
        raise RulesError(f"names takes at most {players} names, separated by commas (players={players})")
    try:
        clean = [clean_name(p, f"player name {i + 1}", empty_ok=True) for i, p in enumerate(parts)]
    except WebError as e:
        raise RulesError(str(e)) from None
    return tuple(clean + [""] * (players - len(clean)))


def _players(raw: str | None, names: str | None) -> int:
    """``players=3``: how many play (2, 3 or 4); by default as many as the names given, at least two."""
    if raw in (None, ""):
        given = len((names or "").split(",")) if names else 0
        return given if given in (3, 4) else 2
    if raw not in ("2", "3", "4"):
        raise RulesError(f"players must be 2, 3 or 4, not {shown(raw)}")
    return int(raw)


def _grid(rules: Rules, names: tuple[str, ...], hands: int) -> str:
    """The score grid: one column group per player (per game and player for Hollywood)."""
    shown = [html.escape(n) if n else f"Player {i + 1}" for i, n in enumerate(names)]
    foot_rows: list[tuple[str, str]] = []
    if rules.hollywood:
        games = 3
        head1 = '<th rowspan="3" class="num" scope="col">Hand</th>' + "".join(
            f'<th colspan="4" class="game-start" scope="colgroup">Game {g + 1}</th>' for g in range(games)
        )
        head2 = "".join(
            f'<th colspan="2" class="player{" game-start" if p == 0 else ""}" scope="colgroup">{shown[p]}</th>'
            for _ in range(games)
            for p in range(2)
        )
        head3 = "".join(
            f'<th{" class=game-start" if p == 0 else ""}>Pts</th><th>Total</th>' for _ in range(games) for p in range(2)
        )
        cells = "".join(
            f'<td{" class=game-start" if p == 0 else ""}></td><td></td>' for _ in range(games) for p in range(2)
        )
        body = "".join(f'<tr><td class="num">{i + 1}</td>{cells}</tr>' for i in range(hands))
        per_game = "".join(
            f'<td colspan="2"{" class=game-start" if p == 0 else ""}></td>' for _ in range(games) for p in range(2)
        )
        if rules.box_bonus:
            foot_rows.append((f"Boxes x {rules.box_bonus}", per_game))
        if rules.game_bonus or rules.shutout != "none":
            foot_rows.append(("Game bonus", per_game))
        foot_rows.append(("Game total", per_game))
        match = "".join(f'<td colspan="6"{" class=game-start" if p == 0 else ""}></td>' for p in range(2))
        foot_rows.append(("3 games added", match))
        head = f"<tr>{head1}</tr><tr>{head2}</tr><tr>{head3}</tr>"
        span = 13
    else:
        head1 = '<th rowspan="2" class="num" scope="col">Hand</th>' + "".join(
            f'<th colspan="3" class="player{" game-start" if p == 0 else ""}" scope="colgroup">{shown[p]}</th>'
            for p in range(2)
        )
        head2 = "".join('<th class="game-start">Points</th><th>Total</th><th>Box</th>' for _ in range(2))
        cells = '<td class="game-start"></td><td></td><td class="box"></td>' * 2
        body = "".join(f'<tr><td class="num">{i + 1}</td>{cells}</tr>' for i in range(hands))
        per_player = '<td colspan="3" class="game-start"></td><td colspan="3" class="game-start"></td>'
        if rules.box_bonus:
            foot_rows.append((f"Boxes x {rules.box_bonus}", per_player))
            if rules.oklahoma and rules.oklahoma_extra_boxes:
                foot_rows.append((f"Extra boxes x {rules.box_bonus}", per_player))
        if rules.game_bonus or rules.shutout != "none":
            foot_rows.append(("Game bonus", per_player))
        foot_rows.append(("Final total", per_player))
        head = f"<tr>{head1}</tr><tr>{head2}</tr>"
        span = 7
    foot = "".join(f'<tr><th scope="row">{html.escape(label)}</th>{c}</tr>' for label, c in foot_rows)
    foot += f'<tr><th scope="row">Margin</th><td colspan="{span - 1}"></td></tr>'
    return f'<table class="grid"><thead>{head}</thead><tbody>{body}</tbody><tfoot>{foot}</tfoot></table>'


def render_score_sheet(rules: Rules, names: tuple[str, ...] = ("", ""), hands: int = DEFAULT_HANDS,
                       controls: str = "", stylesheet: str | None = STYLESHEET) -> str:
    """A blank score sheet for ``rules``: write each hand's points under its winner.

    Three names make the three-player sheet, four the team sheet (:mod:`~ginrummy.web.sheets_group`).
    """
    group = len(names) > 2
    kind = ("Hollywood " if rules.hollywood else "") + {
        2: "score sheet", 3: "score sheet for three players", 4: "score sheet for two teams"}[len(names)]
    legend = (
        "Write each hand's points under its winner and each game's running total. A hand goes in game 1 on a "
        "player's first win, games 1 and 2 on the second, every open game after that. A game closes when a "
        f"player reaches {rules.target}."
        if rules.hollywood
        else "Write each hand's points under its winner, add them to the running total and tick a box for each "
        f"hand won. The first to {rules.target} wins; then add the bonuses. Dead hands: write a dash."
    )
    body = (
        nav_html()
        + '<main class="sheet score-sheet">'
        + controls
        + f"<h1>Gin Rummy {kind}: {html.escape(words.preset_label(rules.name))}"
        + (" (changed)" if rules.overrides() else "")
        + "</h1>"
        + f'<p class="changes">{html.escape(changes_line(rules))}</p>'
        + f'<p class="figures">{html.escape(_figures(rules, len(names)))}</p>'
        + (f'<p class="pairings">{html.escape(pairings(names))}</p>' if len(names) == 4 else "")
        + ((group_hollywood_grid if rules.hollywood else group_grid)(rules, names, hands) if group
           else _grid(rules, names, hands))
        + f'<p class="legend">{html.escape(group_legend(rules, names) if group else legend)} Date: ____________</p>'
        + "</main>"
    )
    return page_html(f"Gin Rummy {kind}: {words.preset_label(rules.name)}", body, stylesheet=stylesheet)


@router.get("/scoresheet", response_class=HTMLResponse, summary="Printable blank score sheet")
def score_sheet(request: Request) -> HTMLResponse:
    """A blank score sheet for the chosen rules (``names=You,Sam``, ``hands=24`` optional)."""
    params = request.query_params
    try:
        rules = rules_from_query(params.multi_items())
        raw_hands = params.get("hands") or str(DEFAULT_HANDS)
        if not (raw_hands.isdigit() and len(raw_hands) <= 3) or not 1 <= int(raw_hands) <= MAX_HANDS:
            raise RulesError(f"hands must be a whole number from 1 to {MAX_HANDS}, not {shown(raw_hands)}")
        players = _players(params.get("players"), params.get("names"))
        names = _names(params.get("names"), players)
    except GinRummyError as e:
        return _error_page(str(e), "/scoresheet")
    if params.get("hands"):
        hands = int(raw_hands)
    elif rules.hollywood:
        hands = GROUP_HOLLYWOOD_HANDS if players > 2 else HOLLYWOOD_HANDS
    else:
        hands = GROUP_HANDS.get(players, DEFAULT_HANDS)
    name_value = html.escape(",".join(names) if any(names) else "")
    counts = "".join(f'<option value="{n}"{" selected" if n == players else ""}>{n}</option>' for n in (2, 3, 4))
    extra = (
        f'<label for="players">Players</label> <select id="players" name="players">{counts}</select>'
        '<label for="names">Names</label> '
        f'<input id="names" name="names" type="text" placeholder="You,Sam" value="{name_value}">'
        f'<label for="hands">Rows</label> <input id="hands" name="hands" type="number" min="1" max="{MAX_HANDS}" '
        f'value="{hands}">'
    )
    from urllib.parse import urlencode

    keep = urlencode([(k, v) for k, v in (("players", str(players) if players > 2 else ""),
                                          ("names", ",".join(names) if any(names) else ""), ("hands", str(hands))) if v])
    return HTMLResponse(render_score_sheet(rules, names, hands, _controls(rules, "/scoresheet", extra, keep)))
