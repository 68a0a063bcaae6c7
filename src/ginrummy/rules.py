"""Every rule of ``RULES.md`` as a switch of one frozen, keyword-only dataclass.

Presets reproduce each rule document; any field can be overridden by name.

>>> Rules().gin_bonus, Rules.preset('online').undercut_bonus
(20, 25)
>>> Rules.preset('classic', knock_limit=7).knock_limit
7
>>> Rules.preset('classic', knock_limt=7)
Traceback (most recent call last):
...
ginrummy.errors.RulesError: unknown rule 'knock_limt' (did you mean 'knock_limit'?)
"""

from __future__ import annotations

import dataclasses
import difflib
import functools
import json
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any, Literal, get_args

from .errors import RulesError, shown
from .words import preset_label

ShutoutMode = Literal["bonus", "double_total", "double_hands", "none"]
FirstDealer = Literal["high_cut", "low_cut", "random"]
NextDealer = Literal["winner", "loser", "alternate"]

#: The allowed values of each rule that is a choice among words.
CHOICES: dict[str, tuple[str, ...]] = {
    "shutout": get_args(ShutoutMode),
    "first_dealer": get_args(FirstDealer),
    "next_dealer": get_args(NextDealer),
}

#: Every rule that is a number: its lowest and highest value and what the number counts, in the
#: words its refusal uses ("rule target 10^30 is out of range: a game goes to 1..10000 points").
#: The bounds are generous (no table plays a game to 10000) but keep every figure a sane size.
RANGES: dict[str, tuple[int, int, str]] = {
    "gin_bonus": (0, 1000, "a gin bonus is 0..1000 points"),
    "undercut_bonus": (0, 1000, "an undercut bonus is 0..1000 points"),
    "big_gin_bonus": (0, 1000, "a big gin bonus is 0..1000 points"),
    "knock_limit": (0, 10, "a knocker may hold 0..10 points of deadwood"),
    "dead_hand_stock": (0, 10, "a hand is dead with 0..10 cards left in the stock"),
    "repetition_limit": (0, 100, "a position may come round 2..100 times before the hand is dead (0 = never)"),
    "target": (1, 10000, "a game goes to 1..10000 points"),
    "team_target": (1, 10000, "a team game goes to 1..10000 points"),
    "game_bonus": (0, 10000, "a game bonus is 0..10000 points"),
    "box_bonus": (0, 1000, "a box bonus is 0..1000 points a hand"),
    "shutout_bonus": (0, 10000, "a shutout bonus is 0..10000 points"),
}


@dataclass(frozen=True, kw_only=True)
class Rules:
    """One rule set. The defaults are the ``classic`` preset (document 000).

    Figures are points; ``knock_limit`` is the most deadwood a knocker may hold.
    """

    name: str = field(default="classic", compare=False)
    # Hand scoring.
    gin_bonus: int = 20
    undercut_bonus: int = 10
    big_gin: bool = False
    big_gin_bonus: int = 31
    knock_limit: int = 10
    straight_gin: bool = False
    # Play.
    upcard: bool = True
    last_chance: bool = False
    throw_back: bool = False
    dead_hand_stock: int = 2
    #: A hand whose position (both hands, the pile, the player to draw) comes round this many
    #: times ends as a dead hand (0 = never). Not in the seeds: it keeps play from looping.
    repetition_limit: int = 3
    # Oklahoma.
    oklahoma: bool = False
    oklahoma_ace_gin_only: bool = False
    oklahoma_spade_double: bool = False
    oklahoma_extra_boxes: bool = False
    # The game.
    target: int = 100
    game_bonus: int = 100
    box_bonus: int = 20
    shutout: ShutoutMode = "bonus"
    shutout_bonus: int = 200
    first_dealer: FirstDealer = "high_cut"
    next_dealer: NextDealer = "winner"
    hollywood: bool = False
    # Three and four players (``ginrummy.multisheet``); a two-player game ignores them.
    #: Three players: the rule set's game, box and shutout bonuses (off: hand points only).
    three_player_bonuses: bool = True
    #: Four players in two teams: the team target, and whether the game and box bonuses apply.
    team_target: int = 125
    team_bonuses: bool = True

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name in CHOICES:
                if not isinstance(value, str) or value not in CHOICES[f.name]:
                    raise RulesError(
                        f"rule {f.name} cannot be {shown(value)}: choose one of {', '.join(CHOICES[f.name])}"
                    )
            elif f.type in ("int",):
                if not isinstance(value, int) or isinstance(value, bool):
                    raise RulesError(f"rule {f.name} must be a whole number, not {shown(value)}")
                low, high, words = RANGES[f.name]
                if not low <= value <= high or (f.name == "repetition_limit" and value == 1):
                    raise RulesError(f"rule {f.name} {shown(value)} is out of range: {words}")
            elif f.type in ("bool",) and not isinstance(value, bool):
                raise RulesError(f"rule {f.name} must be true or false, not {shown(value)}")
        oklahoma_options = ("oklahoma_ace_gin_only", "oklahoma_spade_double", "oklahoma_extra_boxes")
        for name in oklahoma_options:
            if getattr(self, name) and not self.oklahoma:
                raise RulesError(f"rule {name} needs oklahoma = true")
        if self.straight_gin and self.oklahoma:
            raise RulesError(
                "rules straight_gin and oklahoma cannot both be on: straight gin allows no knock, "
                "Oklahoma takes a knock limit from the upcard"
            )
        _check_preset(self.name)

    # -- presets and overrides ------------------------------------------------------

    @classmethod
    def preset(cls, name: str = "classic", **overrides: Any) -> Rules:
        """A named preset with some rules changed.

        Switching Oklahoma on makes the target 150 unless a target is given (seed 000: "The
        game usually goes to 150").

        >>> Rules.preset('app').big_gin, Rules.preset('eaai').box_bonus
        (True, 0)
        >>> Rules.preset('classic', oklahoma=True).target, Rules.preset('classic', oklahoma=True, target=100).target
        (150, 100)
        """
        _check_preset(name)
        base = dict(PRESETS[name])
        for key in overrides:
            _check_name(key)
        if overrides.get("oklahoma") is True and not base.get("oklahoma") and "target" not in overrides:
            base["target"] = OKLAHOMA_TARGET
        base.update(overrides)
        base["name"] = name
        return cls(**base)

    def overrides(self) -> dict[str, Any]:
        """The settings that differ from this rule set's preset, for records.

        Worked out once per rule set (it is frozen) and kept on the instance, outside the fields:
        the web app sends them with every state message. Each call returns a fresh copy.

        >>> r = Rules.preset('online', knock_limit=8)
        >>> r.overrides()['target'] = 1
        >>> r.overrides()
        {'knock_limit': 8}
        """
        cached: dict[str, Any] | None = self.__dict__.get("_overrides")
        if cached is None:
            base = _preset_rules(self.name)
            # Oklahoma switched on changes the target's default: keep the target, whatever it is.
            keep = {"target"} if self.oklahoma and not base.oklahoma else set()
            cached = {
                f.name: getattr(self, f.name)
                for f in fields(self)
                if f.name != "name" and (getattr(self, f.name) != getattr(base, f.name) or f.name in keep)
            }
            object.__setattr__(self, "_overrides", cached)
        return dict(cached)

    def to_json(self) -> dict[str, Any]:
        """``{"preset": name, "overrides": {...}}``: the form records store.

        >>> Rules.preset('online', knock_limit=8).to_json()
        {'preset': 'online', 'overrides': {'knock_limit': 8}}
        """
        return {"preset": self.name, "overrides": self.overrides()}

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | str) -> Rules:
        """Read the form ``to_json`` writes, or a bare preset name."""
        if isinstance(data, str):
            return cls.preset(data)
        if not isinstance(data, Mapping):
            raise RulesError("rules must be a preset name or an object with 'preset' and 'overrides'")
        unknown = sorted(str(k) for k in set(data) - {"preset", "overrides"})
        if unknown:
            more = f" and {len(unknown) - 3} more" if len(unknown) > 3 else ""
            raise RulesError(
                f"unknown key in rules: {', '.join(shown(k) for k in unknown[:3])}{more} (use preset and overrides)"
            )
        overrides = data.get("overrides") or {}
        if not isinstance(overrides, Mapping):
            raise RulesError("rules overrides must be an object")
        preset = data.get("preset", "classic")
        if not isinstance(preset, str):
            raise RulesError(f"the rule preset must be a name such as 'classic', not {shown(preset)}")
        for key in overrides:
            if not isinstance(key, str):
                raise RulesError(f"unknown rule {shown(key)}")
        return cls.preset(preset, **dict(overrides))

    @classmethod
    def load(cls, path: str | Path, preset: str | None = None, **overrides: Any) -> Rules:
        """Read rules from a TOML or JSON file: ``preset = "online"`` plus any rule by name."""
        p = Path(path)
        try:
            text = p.read_text(encoding="utf-8")
        except OSError as e:
            raise RulesError(f"cannot read rules file {p}: {e.strerror}") from e
        try:
            data = json.loads(text) if p.suffix == ".json" else tomllib.loads(text)
        except (json.JSONDecodeError, tomllib.TOMLDecodeError) as e:
            raise RulesError(f"rules file {p} is not valid {'JSON' if p.suffix == '.json' else 'TOML'}: {e}") from e
        if not isinstance(data, dict):
            raise RulesError(f"rules file {p} must hold a table of rules")
        data = dict(data)
        if "overrides" in data and isinstance(data["overrides"], dict):
            data.update(data.pop("overrides"))
        name = preset or str(data.pop("preset", "classic"))
        data.pop("preset", None)
        data.update(overrides)
        return cls.preset(name, **data)

    def replace(self, **changes: Any) -> Rules:
        for key in changes:
            _check_name(key)
        return dataclasses.replace(self, **changes)

    # -- derived --------------------------------------------------------------------

    def hand_knock_limit(self, upcard: int | None) -> int:
        """The knock limit of one hand: Oklahoma takes it from the first upcard.

        >>> Rules(oklahoma=True).hand_knock_limit(6), Rules(oklahoma=True).hand_knock_limit(12)
        (7, 10)
        >>> Rules(oklahoma=True, oklahoma_ace_gin_only=True).hand_knock_limit(0)
        0
        >>> Rules(oklahoma=True, upcard=False).hand_knock_limit(None), Rules(straight_gin=True).hand_knock_limit(None)
        (10, 0)
        """
        if self.straight_gin:
            return 0
        if not self.oklahoma:
            return self.knock_limit
        if upcard is None:
            # RULES.md: "With no upcard, Oklahoma uses the knock limit 10."
            return 10
        rank = upcard % 13
        if rank == 0 and self.oklahoma_ace_gin_only:
            return 0
        return min(rank + 1, 10)

    def hand_multiplier(self, upcard: int | None) -> int:
        """2 when Oklahoma's spade upcard doubles the hand, else 1."""
        if self.oklahoma and self.oklahoma_spade_double and upcard is not None and upcard // 13 == 0:
            return 2
        return 1

    def describe(self) -> list[str]:
        """Plain-language lines for a rule sheet or a table's header."""
        lines = [f"Rules: {preset_label(self.name)}" + (" (changed)" if self.overrides() else "")]
        if self.straight_gin:
            lines.append("Straight gin: no knocking; a hand ends only by gin or as a dead hand.")
        elif self.oklahoma:
            lines.append("Oklahoma: the first upcard's value is the knock limit (face cards 10).")
            if self.oklahoma_ace_gin_only:
                lines.append("An ace upcard means gin only.")
            if self.oklahoma_spade_double:
                lines.append("A spade upcard doubles the hand's score, bonuses included.")
            if self.oklahoma_extra_boxes:
                lines.append("Extra boxes: 1 for an undercut, 2 for gin (2 and 4 with a spade upcard).")
        else:
            lines.append(f"Knock with {self.knock_limit} or less deadwood" + (" (gin only)." if not self.knock_limit else "."))
        lines.append(f"Gin bonus {self.gin_bonus}; undercut bonus {self.undercut_bonus} (an equal count is an undercut).")
        if self.big_gin:
            lines.append(f"Big gin (all 11 cards melded, no discard): {self.big_gin_bonus} plus the defender's deadwood.")
        if not self.upcard:
            lines.append("No upcard: the non-dealer gets 11 cards and starts by discarding.")
        if self.last_chance:
            lines.append("Last chance: the last discard before a dead hand may be taken to knock.")
        if self.throw_back:
            lines.append("Throw-back: the top discard may be taken and discarded again the same turn.")
        lines.append(f"Dead hand when {self.dead_hand_stock} cards are left in the stock and nobody knocks.")
        if self.repetition_limit:
            lines.append(
                f"A hand that comes back to the same position {self.repetition_limit} times "
                "(players only trading discards) is a dead hand too."
            )
        lines.append(f"Game to {self.target}" + (", Hollywood scoring (three games at once)." if self.hollywood else "."))
        if self.game_bonus or self.box_bonus:
            lines.append(f"Game bonus {self.game_bonus}; box bonus {self.box_bonus} a hand won (not counted toward the target).")
        shutout = {
            "bonus": f"Shutout: the game bonus is {self.shutout_bonus} when the loser scored nothing.",
            "double_total": "Shutout: the winner's whole score is doubled when the loser scored nothing.",
            "double_hands": "Shutout: a winner who won every hand doubles each hand's points before the box bonuses.",
            "none": "No shutout bonus.",
        }[self.shutout]
        lines.append(shutout)
        lines.append(
            {
                "high_cut": "First dealer: the higher cut card.",
                "low_cut": "First dealer: the lower cut card.",
                "random": "First dealer: chosen at random.",
            }[self.first_dealer]
            + " "
            + {
                "winner": "The winner of each hand deals the next.",
                "loser": "The loser of each hand deals the next.",
                "alternate": "The players take turns to deal.",
            }[self.next_dealer]
        )
        return lines


@functools.cache
def _preset_rules(name: str) -> Rules:
    """The plain preset, built once: records and seat views compare against it often."""
    return Rules.preset(name)


RULE_NAMES: tuple[str, ...] = tuple(f.name for f in fields(Rules) if f.name != "name")
#: The rules only games of three or four players use (a two-player table's forms leave them out).
GROUP_RULES: tuple[str, ...] = ("three_player_bonuses", "team_target", "team_bonuses")


def _check_name(key: str) -> None:
    if key not in RULE_NAMES:
        hint = _did_you_mean(key, RULE_NAMES) if isinstance(key, str) else ""
        raise RulesError(f"unknown rule {shown(key)}{hint or ': the rules are ' + ', '.join(RULE_NAMES)}")


def _check_preset(name: object) -> None:
    """Refuse anything but a preset's name, suggesting the nearest one.

    >>> _check_preset('onlin')
    Traceback (most recent call last):
    ...
    ginrummy.errors.RulesError: unknown rule preset 'onlin' (did you mean 'online'?): choose one of classic, online, app, eaai
    """
    if not isinstance(name, str) or name not in PRESETS:
        hint = _did_you_mean(name, tuple(PRESETS)) if isinstance(name, str) else ""
        raise RulesError(f"unknown rule preset {shown(name)}{hint}: choose one of {', '.join(PRESETS)}")


def _did_you_mean(word: str, names: tuple[str, ...]) -> str:
    """`` (did you mean 'x'?)`` for the nearest name, or nothing; a long word is nobody's typo."""
    if len(word) > 2 * max(len(n) for n in names):
        return ""
    close = difflib.get_close_matches(word, names, n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""


#: The target when Oklahoma is switched on and no target is given (seed 000).
OKLAHOMA_TARGET = 150

#: Presets: one per rule document, plus ``eaai`` for comparing computer players.
PRESETS: dict[str, dict[str, Any]] = {
    "classic": {},
    "online": {
        "gin_bonus": 25,
        "undercut_bonus": 25,
        "box_bonus": 25,
        "shutout_bonus": 200,
        "first_dealer": "random",
    },
    "app": {
        "gin_bonus": 25,
        "undercut_bonus": 25,
        "big_gin": True,
        "big_gin_bonus": 31,
        "game_bonus": 0,
        "box_bonus": 0,
        "shutout": "none",
        "first_dealer": "random",
    },
    # The game of the 2021 EAAI challenge (Neller's GinRummyGame): the starting player
    # alternates after every scored hand, and a hand with two stock cards left is replayed.
    "eaai": {
        "next_dealer": "alternate",
        "gin_bonus": 25,
        "undercut_bonus": 25,
        "game_bonus": 0,
        "box_bonus": 0,
        "shutout": "none",
        "first_dealer": "random",
    },
}


def parse_rule_settings(items: Iterable[str]) -> dict[str, Any]:
    """Rule overrides from ``key=value`` strings, as every ``--rule`` option takes them
    (dashes in a key read as underscores).

    >>> parse_rule_settings(['knock_limit=7', 'big-gin=yes'])
    {'knock_limit': 7, 'big_gin': True}
    >>> parse_rule_settings(['knock_limit'])
    Traceback (most recent call last):
    ...
    ginrummy.errors.RulesError: rule setting 'knock_limit' must look like key=value
    """
    overrides: dict[str, Any] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep:
            raise RulesError(f"rule setting {shown(item)} must look like key=value")
        key = key.strip().replace("-", "_")
        overrides[key] = parse_rule_value(key, value)
    return overrides


def parse_rule_value(key: str, text: str) -> Any:
    """Turn a command-line ``key=value`` into the right type for that rule.

    >>> parse_rule_value('big_gin', 'yes'), parse_rule_value('target', '150')
    (True, 150)
    """
    _check_name(key)
    kind = next(f.type for f in fields(Rules) if f.name == key)
    t = text.strip().lower()
    if kind == "bool":
        if t in ("1", "true", "yes", "on"):
            return True
        if t in ("0", "false", "no", "off"):
            return False
        raise RulesError(f"rule {key} must be true or false, not {shown(text)}")
    if kind == "int":
        try:
            return int(t)
        except ValueError:
            raise RulesError(f"rule {key} must be a whole number, not {shown(text)}") from None
    return text.strip()
