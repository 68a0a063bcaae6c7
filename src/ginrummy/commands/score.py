"""``ginrummy score [FILE] [--players 2|3|4] [--rules PRESET] [--rule key=value ...] [--json]``.

Scores a game played with real cards from a JSON file of hand entries (see
:mod:`ginrummy.scorekeeper`; three and four players: :mod:`ginrummy.scorekeeper_multi`) and
prints the sheet as a table, or as JSON: per-hand points, running totals, bonuses and the final
totals per player or per team.

With no file it keeps score at the terminal (:class:`Session`): it asks for the names, then for
each hand who knocked, how, the upcard (Oklahoma) and the counts. Each answer goes through the
same checks as the web page's scorekeeper (:func:`~ginrummy.scorekeeper.normalize_entry`, then
:func:`~ginrummy.scorekeeper.hand_result`); a bad answer gets the reason and the question again.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from ..cards import card_str, parse_card
from ..errors import IllegalActionError, NotationError
from ..rules import Rules, parse_rule_settings
from ..scorekeeper import ScoreInputError, and_list, normalize_entry, unknown_player
from ..scorekeeper_multi import AnyKeeper, TeamScorekeeper, ThreeScorekeeper, check_names, keep_score, make_keeper
from ..scoring import check_deadwood

#: The largest input file read (a real game is a few kilobytes).
MAX_INPUT = 1_000_000


def configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", nargs="?", default=None,
                   help="JSON list of hands, e.g. [{\"knocker\": \"A\", \"deadwood\": {\"A\": 3, \"B\": 25}}]; "
                        "- reads standard input; none: keep score at the terminal, hand by hand")
    p.add_argument("--players", type=int, choices=(2, 3, 4), default=None,
                   help="how many play: 2, 3 (the dealer sits out) or 4 (two teams, two tables a hand); "
                        "default: the number of names in the file's \"players\", else 2 (4 with \"tables\")")
    p.add_argument("--rules", default=None, metavar="PRESET", help="rule preset (classic, online, app, ...)")
    p.add_argument("--rule", action="append", default=[], metavar="KEY=VALUE",
                   help="change one rule, e.g. --rule target=150 (repeatable)")
    p.add_argument("--rules-file", default=None, metavar="FILE", help="rules from a TOML or JSON file")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument("--save", default=None, metavar="FILE",
                   help="at the terminal: write the hands to FILE after each one (ginrummy score FILE reads it)")


def rules_from_args(args: argparse.Namespace) -> Rules:
    """The rule set from ``--rules``, ``--rules-file`` and ``--rule key=value`` (applied last)."""
    overrides = parse_rule_settings(args.rule)
    if args.rules_file:
        return Rules.load(args.rules_file, preset=args.rules, **overrides)
    return Rules.preset(args.rules or "classic", **overrides)


def read_input(name: str) -> object:
    """The JSON of a file (``-``: standard input), refused with the reason when unreadable."""
    try:
        if name == "-":
            text = sys.stdin.read(MAX_INPUT + 1)
        else:
            with Path(name).open(encoding="utf-8") as f:
                text = f.read(MAX_INPUT + 1)
    except (OSError, UnicodeDecodeError) as e:
        raise ScoreInputError(f"cannot read {name}: {getattr(e, 'strerror', None) or e}") from None
    if len(text) > MAX_INPUT:
        raise ScoreInputError(f"{name} is larger than a score sheet can be ({MAX_INPUT} characters)")
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise ScoreInputError(f"{name} is not valid JSON: {e}") from None


class Stop(Exception):
    """The person asked to stop (quit, Ctrl-D, Ctrl-C)."""


class Undo(Exception):
    """The person asked to take the last hand back."""


HELP = ("Answer each question; Enter takes the answer in [brackets] when there is one. At 'who knocked': "
        "'dead' for a dead hand, 'undo' takes the last hand back, 'sheet' shows the score sheet. "
        "'quit' (or Ctrl-D) stops, printing the sheet.")


def deadwood_of(name: str) -> str:
    """"Sam's deadwood", but "Your deadwood" for a player called You."""
    return "Your deadwood" if name.strip().casefold() == "you" else f"{name}'s deadwood"


class Session:
    """Keeping score at a terminal: the names, then each hand, question by question.

    ``ask(prompt)`` returns a line (raising EOFError at the end of input) and ``say(text)``
    prints; both are parameters so the session can be driven by a test. Every entry is the one
    the web page would send, checked the same way; ``save`` gets the sheet after each hand.
    """

    def __init__(self, rules: Rules, players: int = 2, ask: Callable[[str], str] = input,
                 say: Callable[[str], None] = print, save: Callable[[dict[str, Any]], None] | None = None) -> None:
        self.rules = rules
        self.count = players
        self._ask = ask
        self.say = say
        self.save = save
        self.keeper: AnyKeeper | None = None

    # -- questions ---------------------------------------------------------------------------

    def ask(self, prompt: str, default: str | None = None) -> str:
        try:
            text = self._ask(prompt + (f" [{default}]" if default else "") + ": ")
        except (EOFError, KeyboardInterrupt):
            raise Stop from None
        text = text.strip()[:200]
        if text.casefold() in ("quit", "q", "exit"):
            raise Stop
        if text.casefold() in ("help", "?"):
            self.say(HELP)
            return self.ask(prompt, default)
        return text or (default or "")

    def names(self) -> AnyKeeper:
        defaults = ["A", "B", "C", "D"][: self.count]
        what = {2: "the two players", 3: "the three players",
                4: "the four players in seat order (partners 1st and 3rd)"}[self.count]
        while True:
            names = [n.strip() for n in self.ask(f"Names of {what}, separated by commas", ", ".join(defaults)).split(",")]
            first = None
            try:
                check_names(names, self.count)
                if self.count > 2:
                    first = self.choose("Who deals first" + (" (and sits out)" if self.count == 3 else ""), names,
                                        names, default=names[0] if self.count == 4 else None)
                return make_keeper(self.rules, names, first)
            except ScoreInputError as e:
                self.say(f"Refused: {e}")

    def choose(self, prompt: str, choices: Sequence[str], everyone: Sequence[str] | None = None,
               default: str | None = None, extra: Sequence[str] = (), hidden: Sequence[str] = ()) -> str:
        """One of ``choices`` (any case), or of the ``extra`` words (shown) or ``hidden`` ones (not).

        With ``everyone`` (the players) the choices are players: a stranger, or a player of
        another hand, is refused with the reason; otherwise the reason lists the answers."""
        shown = [*choices, *extra]
        while True:
            text = self.ask(f"{prompt} ({'/'.join(shown)})", default)
            for c in [*shown, *hidden]:
                if text.casefold() == c.casefold():
                    return c
            if everyone is not None and any(text.casefold() == n.casefold() for n in everyone):
                self.say(f"{text} does not play this hand ({and_list(list(choices))} do).")
            elif everyone is not None and text:
                self.say(unknown_player(text, list(everyone)) + ".")
            else:
                self.say(f"Answer {' or '.join(repr(c) for c in shown)}" + (f", not {text!r}." if text else "."))

    def count_of(self, prompt: str, whose: str) -> int:
        while True:
            text = self.ask(prompt)
            if not text.isdigit() or len(text) > 6:
                self.say(f"{whose} is a whole number of points, such as 12; not {text!r}.")
                continue
            try:
                check_deadwood(int(text), whose)
            except IllegalActionError as e:
                self.say(f"{e}.")
                continue
            return int(text)

    def upcard(self) -> str:
        while True:
            text = self.ask("Oklahoma: the first upcard of this hand (e.g. 7s; its value is the knock limit)")
            try:
                return card_str(parse_card(text))
            except NotationError as e:
                self.say(f"{e}.")

    def table(self, pair: Sequence[str], label: str) -> dict[str, Any]:
        """One two-player hand: who knocked or dead, how, the upcard, the counts."""
        assert self.keeper is not None
        who = self.choose(f"{label}{'w' if label else 'W'}ho knocked", pair, self.keeper.players, extra=("dead",),
                          hidden=("undo", "sheet"))
        if who == "undo":
            raise Undo
        if who == "sheet":
            self.say(self.keeper.table())
            return self.table(pair, label)
        if who == "dead":
            return {"dead": True, "players": list(pair)}
        other = pair[1] if who == pair[0] else pair[0]
        ways = ["knock", "gin", "big gin"] if self.rules.big_gin else ["knock", "gin"]
        how = self.choose(f"How did {who} end the hand", ways, default="gin" if self.rules.straight_gin else "knock")
        entry: dict[str, Any] = {"knocker": who}
        if how != "knock":
            entry["big_gin" if how == "big gin" else "gin"] = True
        if self.rules.oklahoma and self.rules.upcard:
            entry["upcard"] = self.upcard()
        kd = 0 if how != "knock" else self.count_of(deadwood_of(who), deadwood_of(who))
        od = self.count_of(deadwood_of(other) + (" after layoffs" if how == "knock" else ""), deadwood_of(other))
        entry["deadwood"] = {who: kd, other: od}
        return entry

    # -- the game ----------------------------------------------------------------------------

    def hand(self) -> dict[str, Any]:
        """Ask for the next hand's entry (both tables in the team game)."""
        k = self.keeper
        assert k is not None
        n = k.hands + 1
        if isinstance(k, TeamScorekeeper):
            nxt = k.next_hand()
            assert nxt is not None
            tables = nxt["tables"]
            self.say(f"Hand {n}: " + "; ".join(f"table {i} {t['players'][0]} against {t['players'][1]} "
                                               f"({t['dealer']} deals)" for i, t in enumerate(tables, 1)) + ".")
            return {"tables": [self.table(t["players"], f"Table {i}: ") for i, t in enumerate(tables, 1)]}
        if isinstance(k, ThreeScorekeeper):
            nxt = k.next_hand()
            if nxt is None:  # hand 1, the first dealer unknown: should not happen (asked with the names)
                raise Stop
            self.say(f"Hand {n}: {nxt['dealer']} deals and sits out; {and_list(nxt['players'])} play.")
            return self.table(nxt["players"], "")
        self.say(f"Hand {n}:")
        return self.table(k.players, "")

    def scores_line(self) -> str:
        assert self.keeper is not None
        rep = self.keeper.report()
        return "Scores: " + ", ".join(f"{n} {v}" for n, v in rep["scores"].items()) + "."

    def run(self) -> AnyKeeper | None:
        """Ask until the game is over or the person stops; returns the keeper (None: no names)."""
        try:
            self.keeper = self.names()
        except Stop:
            return None
        k = self.keeper
        target = self.rules.team_target if self.count == 4 else self.rules.target
        self.say(f"{self.rules.describe()[0]}, game to {target}. At 'who knocked', 'undo' takes the last hand back and 'sheet' "
                 "shows the sheet; 'help' for help, 'quit' to stop.")
        try:
            while not k.is_over:
                try:
                    entry = self.hand()
                except Undo:
                    if k.hands:
                        k.remove(k.hands)
                        self.say(f"Hand {k.hands + 1} taken back. {self.scores_line()}")
                    else:
                        self.say("There is no hand to take back.")
                    continue
                try:
                    k.add(normalize_entry(entry, k.players))
                except ScoreInputError as e:
                    self.say(f"Refused: {e}. Enter hand {k.hands + 1} again.")
                    continue
                self.say(k.report()["hands"][-1]["explain"] + " " + self.scores_line())
                if self.save:
                    self.save(saved_form(k))
        except Stop:
            pass
        return k


def saved_form(k: AnyKeeper) -> dict[str, Any]:
    """A sheet as ``ginrummy score FILE`` reads it."""
    out: dict[str, Any] = {"players": list(k.players)}
    if isinstance(k, (ThreeScorekeeper, TeamScorekeeper)) and k.first_dealer is not None:
        out["first_dealer"] = k.first_dealer
    out["hands"] = list(k.entries)
    return out


def interactive(args: argparse.Namespace, rules: Rules) -> int:
    writer: Callable[[dict[str, Any]], None] | None = None
    if args.save:
        path = Path(args.save)
        try:
            path.write_text("", encoding="utf-8")  # found out now, not after the game
        except OSError as e:
            raise ScoreInputError(f"cannot write {args.save}: {e.strerror}") from None

        def writer(data: dict[str, Any]) -> None:
            path.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")

    k = Session(rules, args.players or 2, save=writer).run()
    if k is None:
        return 0
    print(json.dumps(k.report(), ensure_ascii=False, indent=2) if args.json else "\n" + k.table())
    return 0


def run(args: argparse.Namespace) -> int:
    rules = rules_from_args(args)
    if args.file is None:
        return interactive(args, rules)
    k = keep_score(rules, read_input(args.file), players=args.players)
    if args.json:
        print(json.dumps(k.report(), ensure_ascii=False, indent=2))
    else:
        print(k.table())
    return 0
