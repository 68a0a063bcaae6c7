"""``ginrummy rules [--rules PRESET] [--rule key=value ...] [--html]``: the rule sheet of one rule set.

The sheet is built from a :class:`~ginrummy.rules.Rules` object, never written by hand, so every
figure on it (bonuses, knock limit, target, shutout) is the one the engine and the scorekeeper use.
The same sections render as plain text (the terminal) and as a print-friendly HTML page (the
web app's ``/rules`` and ``--html``), so the two cannot drift apart.

>>> text = render_text(Rules.preset('online'))
>>> 'difference + 25' in text and 'Game bonus' in text
True
"""

from __future__ import annotations

import argparse
import html
from dataclasses import dataclass, field
from pathlib import Path

from .. import words
from ..rules import PRESETS, Rules
from ..scoring import score_hand
from . import options
from .options import add_rule_options

#: Plain names of the presets, shown on the sheet so a reader knows where the figures come from.
PRESET_TITLES: dict[str, str] = {p: f"{words.PRESET_LABELS[p]}: {words.PRESET_HELP[p]}" for p in PRESETS}


@dataclass
class Section:
    """One titled block of the sheet: some plain sentences and, optionally, a table."""

    title: str
    items: list[str] = field(default_factory=list)
    header: tuple[str, ...] = ()
    rows: list[tuple[str, ...]] = field(default_factory=list)
    note: str = ""


# -- content ----------------------------------------------------------------------------------


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def _knocking(r: Rules) -> list[str]:
    """How a hand may end, in the words of the rule set in force."""
    items: list[str] = []
    if r.straight_gin:
        items.append(
            "Straight gin: knocking is not allowed. A hand ends only when a player goes gin"
            + (" or big gin" if r.big_gin else "")
            + ", or as a dead hand."
        )
    elif r.oklahoma:
        items.append(
            "Oklahoma: the value of the first upcard is the knock limit for that hand (a 7 means you may "
            "knock with 7 or less; jacks, queens and kings count 10)."
        )
        if r.oklahoma_ace_gin_only:
            items.append("An ace upcard means gin only: nobody may knock with any deadwood that hand.")
        else:
            items.append("An ace upcard means a knock limit of 1.")
        if not r.upcard:
            items.append(f"With no upcard there is nothing to set the limit, so it is {r.knock_limit}.")
    elif r.knock_limit == 0:
        items.append("Gin only: the knock limit is 0, so a hand ends only by gin or as a dead hand.")
    else:
        items.append(
            f"After drawing, you may knock if your deadwood is {r.knock_limit} or less, counted without the card you "
            "discard face down. Knocking is never forced and is allowed on any turn, the first included."
        )
    if not r.straight_gin:
        items.append(
            "To knock, discard one card face down and lay out your 10 cards: melds apart from deadwood. "
            "You choose how to arrange your melds."
        )
    items.append("Gin is knocking with no deadwood at all. Two runs of five make gin too.")
    if r.big_gin:
        items.append(
            f"Big gin: if all 11 cards form melds after you draw, lay out all 11 without discarding. "
            f"It scores {r.big_gin_bonus} plus the other player's deadwood."
        )
    return items


def _hand_rows(r: Rules) -> list[tuple[str, str, str]]:
    """The hand-scoring table with this rule set's figures."""
    rows: list[tuple[str, str, str]] = []
    if not r.straight_gin and (r.oklahoma or r.knock_limit > 0):
        rows.append(("Knock, and the knocker has less deadwood", "Knocker", "The difference in deadwood"))
        rows.append(
            (
                "Undercut: the other player has the same deadwood or less",
                "Other player",
                f"The difference + {r.undercut_bonus}",
            )
        )
    rows.append(("Gin", "The player who went gin", f"{r.gin_bonus} + the other player's deadwood"))
    if r.big_gin:
        rows.append(("Big gin", "The player who went big gin", f"{r.big_gin_bonus} + the other player's deadwood"))
    rows.append(("Dead hand: the stock runs down with no knock", "Nobody", "0"))
    return rows


def _game_rows(r: Rules) -> list[tuple[str, str, str]]:
    """The end-of-game bonus table with this rule set's figures."""
    rows: list[tuple[str, str, str]] = []
    if r.game_bonus:
        rows.append((f"Game bonus: first to {r.target}", "The winner", str(r.game_bonus)))
    if r.shutout == "bonus":
        rows.append(
            (
                "Shutout: the loser scored nothing all game",
                "The winner",
                f"Game bonus {r.shutout_bonus} instead of {r.game_bonus}",
            )
        )
    elif r.shutout == "double_total":
        rows.append(("Shutout: the loser scored nothing all game", "The winner", "The winner's whole score doubled"))
    elif r.shutout == "double_hands":
        rows.append(
            (
                "Shutout: the winner won every hand",
                "The winner",
                "Each hand's points doubled, before the box bonuses",
            )
        )
    if r.box_bonus:
        rows.append(("Box bonus (line bonus)", "Each player", f"{r.box_bonus} for each hand won"))
        if r.oklahoma and r.oklahoma_extra_boxes:
            rows.append(("Extra boxes (Oklahoma)", "Each player", f"{r.box_bonus} for each extra box"))
    return rows


def _examples(r: Rules) -> list[tuple[str, str, str]]:
    """Worked hand scores computed by the scoring code itself, so the sheet's arithmetic is the engine's."""
    limit = 10 if r.oklahoma else r.knock_limit
    plain = r.replace(oklahoma=False, oklahoma_ace_gin_only=False, oklahoma_spade_double=False,
                      oklahoma_extra_boxes=False, straight_gin=False)
    rows: list[tuple[str, str, str]] = []
    if not r.straight_gin and limit > 0:
        k = min(3, limit)
        res = score_hand(plain, knocker=0, knocker_deadwood=k, defender_deadwood=25, knock_limit=limit)
        rows.append((f"You knock with {k}, Sam has 25", "You", f"25 - {k} = {res.points}"))
        k = min(8, limit)
        d = max(k - 2, 0)
        res = score_hand(plain, knocker=0, knocker_deadwood=k, defender_deadwood=d, knock_limit=limit)
        rows.append(
            (f"You knock with {k}, Sam has {d}: an undercut", "Sam", f"{k - d} + {r.undercut_bonus} = {res.points}")
        )
        res = score_hand(plain, knocker=0, knocker_deadwood=k, defender_deadwood=k, knock_limit=limit)
        rows.append((f"You knock with {k}, Sam has {k} too: an undercut", "Sam", f"0 + {r.undercut_bonus} = {res.points}"))
    res = score_hand(plain, knocker=1, knocker_deadwood=0, defender_deadwood=14, knock_limit=limit)
    rows.append(("Sam goes gin, you have 14", "Sam", f"{r.gin_bonus} + 14 = {res.points}"))
    if r.big_gin:
        res = score_hand(plain, knocker=0, knocker_deadwood=0, defender_deadwood=31, big_gin=True)
        rows.append(("You go big gin, Sam has 31", "You", f"{r.big_gin_bonus} + 31 = {res.points}"))
    if r.oklahoma and r.oklahoma_spade_double:
        res = score_hand(plain, knocker=1, knocker_deadwood=0, defender_deadwood=14, knock_limit=limit)
        rows.append(
            ("Sam goes gin, you have 14, the upcard was a spade", "Sam", f"({r.gin_bonus} + 14) x 2 = {res.points * 2}")
        )
    return rows


def sections(r: Rules) -> list[Section]:
    """Every rule in force, in plain words, grouped the way a reader looks for them."""
    out: list[Section] = []

    out.append(Section("These rules in short", items=r.describe()[1:]))

    out.append(
        Section(
            "Cards",
            items=[
                "One standard 52-card deck, no jokers. The ace is low: A-2-3 is a run, Q-K-A is not.",
            ],
            header=("Cards", "Count as deadwood"),
            rows=[("Ace", "1"), ("2 to 10", "The number on the card"), ("Jack, queen, king", "10")],
        )
    )

    deal: list[str] = []
    deal.append(
        {
            "high_cut": "First dealer: each player cuts a card; the higher card deals.",
            "low_cut": "First dealer: each player cuts a card; the lower card deals.",
            "random": "First dealer: chosen at random.",
        }[r.first_dealer]
    )
    if r.upcard:
        deal.append(
            "Deal 10 cards each, one at a time, the non-dealer first. Turn the next card face up: the upcard "
            "starts the discard pile. The other 31 cards are the stock, face down."
        )
        deal.append(
            "First turn: the non-dealer may take the upcard or pass. If they pass, the dealer may take it or pass. "
            "If both pass, the non-dealer draws from the stock. Whoever takes a card discards one; a player who "
            "passes does not discard."
        )
    else:
        deal.append(
            "No upcard: the non-dealer gets 11 cards and the dealer 10; no card is turned up. The other 31 cards "
            "are the stock. The non-dealer starts by discarding one card."
        )
    deal.append(
        {
            "winner": "Next dealer: the winner of each hand deals the next.",
            "loser": "Next dealer: the loser of each hand deals the next.",
            "alternate": "Next dealer: the players take turns to deal.",
        }[r.next_dealer]
        + " After a dead hand the same dealer deals again."
    )
    out.append(Section("Deal", items=deal))

    turn = [
        "Draw the top card of the stock or of the discard pile, then discard one card face up.",
    ]
    if r.throw_back:
        turn.append(
            "Throw-back allowed: you may take the top discard and discard it again on the same turn. The player "
            "who threw it first may not take it back unless they knock on that turn."
        )
    else:
        turn.append("A card taken from the discard pile may not be discarded on the same turn; a stock card may.")
    turn.append(
        "Melds: a set is 3 or 4 cards of one rank; a run is 3 or more cards in a row of one suit. A card is in "
        "one meld at most. Cards outside melds are deadwood; your count is the lowest over all ways to group them."
    )
    out.append(Section("Each turn", items=turn))

    out.append(Section("Knocking and gin", items=_knocking(r)))

    lay = [
        "After a knock that is not gin, the other player lays out their melds and may lay off deadwood on the "
        "knocker's melds: a fourth card on a set, the next card at either end of a run (again and again).",
        "The knocker never lays off. Nothing is laid off on deadwood, and nothing against gin"
        + (" or big gin." if r.big_gin else "."),
    ]
    out.append(Section("Laying off", items=lay))

    dead = [
        f"When the stock is down to {_plural(r.dead_hand_stock, 'card')} and the player who just drew discards "
        "without knocking, the hand is dead: nobody scores, nobody wins it, and the same dealer deals again.",
    ]
    if r.last_chance:
        dead.append(
            "Last chance: before the hand is dead, the other player may take that last discard and knock (or go "
            "gin) with it. If they cannot or will not, the hand ends with no score."
        )
    out.append(Section("Dead hand", items=dead))

    hand_items: list[str] = ["Only one player scores in each hand."]
    if r.oklahoma and r.oklahoma_spade_double:
        hand_items.append("A spade upcard doubles that hand's score, bonuses included.")
    if r.oklahoma and r.oklahoma_extra_boxes:
        hand_items.append(
            "Extra boxes: 1 for an undercut and 2 for gin (2 and 4 when the upcard is a spade); they do not count "
            "toward the target."
        )
    out.append(
        Section(
            "Scoring a hand",
            items=hand_items,
            header=("What happened", "Who scores", "Points"),
            rows=list(_hand_rows(r)),
        )
    )

    ex = _examples(r)
    out.append(
        Section(
            "Examples with these figures",
            header=("Hand", "Goes to", "Points"),
            rows=list(ex),
        )
    )

    game_items = [
        f"The first player whose total reaches {r.target} at the end of a hand wins the game.",
    ]
    if r.box_bonus or r.game_bonus:
        game_items.append("Then the bonuses below are added. Box bonuses never count toward the target.")
    game_items.append("The winning margin is the difference between the two final totals.")
    if r.hollywood:
        game_items.append(
            "Hollywood scoring: keep three games at once. A player's first hand win is written in game 1 only, "
            "the second in games 1 and 2, and each later win in every game still open. A game closes with its "
            "bonuses when a player reaches the target; play on until all three are closed, then add them up."
        )
    game_rows = _game_rows(r)
    out.append(
        Section(
            "End of the game",
            items=game_items,
            header=("Bonus", "Who gets it", "Points") if game_rows else (),
            rows=list(game_rows),
            note="" if game_rows else "No game, box or shutout bonus under these rules.",
        )
    )
    return out


def title(r: Rules) -> str:
    """The sheet's heading: the preset by its document's name and, when changed, that it was."""
    return f"Gin Rummy rules: {words.preset_label(r.name)}" + (" (changed)" if r.overrides() else "")


def _setting(rule: str, value: object) -> str:
    """One changed rule in the players' words: ``Knock with at most 7``, ``Next dealer: Loser of the hand deals``."""
    label = words.rule_label(rule)
    if isinstance(value, bool):
        return f"{label}: {'yes' if value else 'no'}"
    if isinstance(value, str):
        return f"{label}: {words.choice_label(rule, value)}"
    return f"{label} {value}"


def changes_line(r: Rules) -> str:
    """The preset's document and every changed rule, so a printed sheet shows exactly how it was made."""
    ov = r.overrides()
    if not ov:
        return f"Preset {PRESET_TITLES.get(r.name, r.name)} No changes."
    shown = "; ".join(_setting(k, v) for k, v in ov.items())
    return f"Preset {PRESET_TITLES.get(r.name, r.name)} Changed: {shown}."


# -- plain text -------------------------------------------------------------------------------


def _wrap(text: str, width: int, indent: str) -> list[str]:
    import textwrap

    return textwrap.wrap(text, width=width, initial_indent=indent + "- ", subsequent_indent=indent + "  ") or [""]


def _text_table(header: tuple[str, ...], rows: list[tuple[str, ...]]) -> list[str]:
    widths = [max(len(str(row[i])) for row in [header, *rows]) for i in range(len(header))]
    lines = ["  " + "  ".join(h.ljust(w) for h, w in zip(header, widths, strict=True)).rstrip()]
    lines.append("  " + "  ".join("-" * w for w in widths))
    for row in rows:
        lines.append("  " + "  ".join(str(c).ljust(w) for c, w in zip(row, widths, strict=True)).rstrip())
    return lines


def render_text(r: Rules, width: int = 100) -> str:
    """The rule sheet as plain text for a terminal."""
    lines = [title(r), "=" * len(title(r)), changes_line(r), ""]
    for s in sections(r):
        lines.append(s.title)
        lines.append("-" * len(s.title))
        for item in s.items:
            lines.extend(_wrap(item, width, ""))
        if s.rows:
            if s.items:
                lines.append("")
            lines.extend(_text_table(s.header, s.rows))
        if s.note:
            lines.append(s.note)
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


# -- HTML -------------------------------------------------------------------------------------


def sheets_css() -> str:
    """The shared print stylesheet, inlined so a saved or printed page needs no other file."""
    return (Path(__file__).resolve().parent.parent / "web" / "static" / "sheets.css").read_text(encoding="utf-8")


def nav_html() -> str:
    """The site header; hidden when printing."""
    return (
        '<header class="site no-print"><nav aria-label="Main">'
        '<a href="/">Play</a><a href="/scorekeeper">Scorekeeper</a><a href="/history">History</a>'
        '<a href="/rules" aria-current="page">Rules</a></nav></header>'
    )


def page_html(page_title: str, body: str, extra_head: str = "", stylesheet: str | None = None) -> str:
    """A whole page around ``body``: the sheet stylesheet linked from ``stylesheet`` (the web app,
    whose Content-Security-Policy forbids inline style), or inlined when None (a standalone file)."""
    css = f'<link rel="stylesheet" href="{html.escape(stylesheet)}">' if stylesheet else f"<style>{sheets_css()}</style>"
    return (
        "<!doctype html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        '<meta name="color-scheme" content="light dark">'
        f"<title>{html.escape(page_title)}</title>{css}{extra_head}</head>"
        f"<body>{body}</body></html>\n"
    )


def _table_html(header: tuple[str, ...], rows: list[tuple[str, ...]]) -> str:
    head = "".join(f'<th scope="col">{html.escape(h)}</th>' for h in header)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(str(c))}</td>" for c in row) + "</tr>" for row in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def sections_html(r: Rules) -> str:
    """The sections as HTML, without the page around them (the web app adds its own controls)."""
    parts: list[str] = []
    for i, s in enumerate(sections(r)):
        # The summary repeats the sections below: useful on screen, dropped on paper to keep one page.
        cls = "rule-block summary" if i == 0 else "rule-block"
        parts.append(f'<section class="{cls}"><h2>{html.escape(s.title)}</h2>')
        if s.items:
            parts.append("<ul>" + "".join(f"<li>{html.escape(i)}</li>" for i in s.items) + "</ul>")
        if s.rows:
            parts.append(_table_html(s.header, s.rows))
        if s.note:
            parts.append(f"<p>{html.escape(s.note)}</p>")
        parts.append("</section>")
    return "".join(parts)


def render_html(r: Rules, controls: str = "", nav: bool = True, stylesheet: str | None = None) -> str:
    """The printable rule sheet: one page, two columns when printed (``stylesheet``: see page_html)."""
    body = (
        (nav_html() if nav else "")
        + '<main class="sheet rule-sheet">'
        + controls
        + f"<h1>{html.escape(title(r))}</h1>"
        + f'<p class="changes">{html.escape(changes_line(r))}</p>'
        + f'<div class="columns">{sections_html(r)}</div>'
        + '<p class="foot">Generated from the rule set itself, so these figures are the ones the game and the '
        + "scorekeeper use.</p></main>"
    )
    return page_html(title(r), body, stylesheet=stylesheet)


# -- the subcommand ---------------------------------------------------------------------------


def configure(p: argparse.ArgumentParser) -> None:
    add_rule_options(p)
    p.add_argument("--html", action="store_true", help="print the printable HTML sheet instead of plain text")


def check(args: argparse.Namespace) -> None:
    options.rules_from_args(args)  # a combination the rules refuse is a usage error


def run(args: argparse.Namespace) -> int:
    rules = options.rules_from_args(args)
    print(render_html(rules) if args.html else render_text(rules), end="")
    return 0
