"""Rules: a frozen keyword-only dataclass, presets per document, overrides checked by name."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from ginrummy.errors import RulesError
from ginrummy.rules import PRESETS, RULE_NAMES, Rules, parse_rule_value


@pytest.mark.parametrize(
    ("preset", "figures"),
    [
        ("classic", dict(gin_bonus=20, undercut_bonus=10, big_gin=False, target=100, game_bonus=100, box_bonus=20,
                         shutout="bonus", shutout_bonus=200, first_dealer="high_cut", next_dealer="winner")),
        ("online", dict(gin_bonus=25, undercut_bonus=25, big_gin=False, big_gin_bonus=31, target=100, game_bonus=100,
                        box_bonus=25, shutout="bonus", shutout_bonus=200, first_dealer="random", next_dealer="winner")),
        ("app", dict(gin_bonus=25, undercut_bonus=25, big_gin=True, big_gin_bonus=31, target=100, game_bonus=0,
                     box_bonus=0, shutout="none", first_dealer="random", next_dealer="winner")),
        # Neller's GinRummyGame (the challenge's referee): random first starter, then alternating.
        ("eaai", dict(gin_bonus=25, undercut_bonus=25, game_bonus=0, box_bonus=0, shutout="none",
                      first_dealer="random", next_dealer="alternate")),
    ],
)
def test_presets_reproduce_each_document(preset: str, figures: dict[str, object]) -> None:
    r = Rules.preset(preset)
    assert r.name == preset
    for key, value in figures.items():
        assert getattr(r, key) == value, key
    assert r.knock_limit == 10 and r.upcard and not r.straight_gin and r.dead_hand_stock == 2


def test_classic_is_the_default() -> None:
    assert Rules() == Rules.preset("classic") and set(PRESETS) == {"classic", "online", "app", "eaai"}


def test_rules_are_frozen_and_keyword_only() -> None:
    r = Rules()
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.gin_bonus = 5  # type: ignore[misc]
    with pytest.raises(TypeError):
        Rules("classic")  # type: ignore[misc]


def test_overrides_by_name_and_unknown_names_with_a_hint() -> None:
    assert Rules.preset("online", knock_limit=7).knock_limit == 7
    with pytest.raises(RulesError, match="unknown rule 'gin_bonsu' \\(did you mean 'gin_bonus'\\?\\)"):
        Rules.preset("online", gin_bonsu=7)
    with pytest.raises(RulesError, match="unknown rule preset 'bridge': choose one of classic, online, app, eaai"):
        Rules.preset("bridge")
    with pytest.raises(RulesError, match="unknown rule preset 'clasic' \\(did you mean 'classic'\\?\\): choose one of"):
        Rules.preset("clasic")
    with pytest.raises(RulesError, match="unknown rule 'colour'"):
        Rules().replace(colour=1)


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        (dict(knock_limit=11), "knock_limit 11 is out of range: a knocker may hold 0..10 points of deadwood"),
        (dict(knock_limit=-1), "knock_limit -1 is out of range: a knocker may hold 0..10 points of deadwood"),
        (dict(knock_limit="7"), "knock_limit must be a whole number, not '7'"),
        (dict(big_gin=1), "big_gin must be true or false, not 1"),
        (dict(gin_bonus=-5), "gin_bonus -5 is out of range: a gin bonus is 0..1000 points"),
        (dict(target=0), "target 0 is out of range: a game goes to 1..10000 points"),
        (dict(target=10**30), "rule target 10\\^30 is out of range: a game goes to 1..10000 points"),
        (dict(shutout_bonus=10**5000), "shutout_bonus a number of about 5001 digits is out of range: a shutout bonus"),
        (dict(repetition_limit=1), "repetition_limit 1 is out of range: a position may come round 2..100 times"),
        (dict(shutout="triple"), "shutout cannot be 'triple': choose one of bonus, double_total, double_hands, none"),
        (dict(shutout=["x"] * 1000), "shutout cannot be \\['x', 'x', 'x', 'x', ...\\]: choose one of"),
        (dict(oklahoma_spade_double=True), "oklahoma_spade_double needs oklahoma = true"),
        (dict(straight_gin=True, oklahoma=True), "straight_gin and oklahoma cannot both be on"),
        (dict(dead_hand_stock=11), "dead_hand_stock 11 is out of range: a hand is dead with 0..10 cards left in the stock"),
    ],
)
def test_impossible_settings_are_refused_naming_them(changes: dict[str, object], message: str) -> None:
    with pytest.raises(RulesError, match=message):
        Rules(**changes)  # type: ignore[arg-type]


def test_json_round_trip_stores_preset_and_overrides() -> None:
    r = Rules.preset("online", knock_limit=8, big_gin=True)
    data = r.to_json()
    assert data == {"preset": "online", "overrides": {"knock_limit": 8, "big_gin": True}}
    assert Rules.from_json(json.loads(json.dumps(data))) == r and Rules.from_json("app") == Rules.preset("app")
    with pytest.raises(RulesError, match="unknown key in rules: 'colour' \\(use preset and overrides\\)"):
        Rules.from_json({"preset": "classic", "colour": 1})


def test_overrides_kept_once_leave_equality_hash_copies_and_pickles_alone() -> None:
    import copy
    import pickle

    r = Rules.preset("online", knock_limit=8)
    fresh = Rules.preset("online", knock_limit=8)
    assert r.overrides() == {"knock_limit": 8}
    assert r == fresh and hash(r) == hash(fresh) and repr(r) == repr(fresh)
    changed = r.replace(knock_limit=5, target=150)  # a new rule set works its overrides out again
    assert changed.overrides() == {"knock_limit": 5, "target": 150} and r.overrides() == {"knock_limit": 8}
    for other in (copy.copy(r), pickle.loads(pickle.dumps(r))):
        assert other == r and other.overrides() == {"knock_limit": 8}


def test_load_from_toml_and_json_files(tmp_path: Path) -> None:
    toml = tmp_path / "house.toml"
    toml.write_text('preset = "online"\nknock_limit = 7\nlast_chance = true\n', encoding="utf-8")
    r = Rules.load(toml)
    assert (r.name, r.knock_limit, r.last_chance, r.gin_bonus) == ("online", 7, True, 25)
    assert Rules.load(toml, knock_limit=5).knock_limit == 5
    js = tmp_path / "house.json"
    js.write_text(json.dumps({"preset": "app", "overrides": {"big_gin_bonus": 50}}), encoding="utf-8")
    assert Rules.load(js).big_gin_bonus == 50
    bad = tmp_path / "bad.toml"
    bad.write_text("knock_limt = 7\n", encoding="utf-8")
    with pytest.raises(RulesError, match="did you mean 'knock_limit'"):
        Rules.load(bad)
    broken = tmp_path / "broken.json"
    broken.write_text("{", encoding="utf-8")
    with pytest.raises(RulesError, match="not valid JSON"):
        Rules.load(broken)
    with pytest.raises(RulesError, match="cannot read rules file"):
        Rules.load(tmp_path / "missing.toml")


def test_command_line_flags_are_typed_by_rule() -> None:
    assert parse_rule_value("big_gin", "on") is True and parse_rule_value("knock_limit", " 7 ") == 7
    assert parse_rule_value("next_dealer", "loser") == "loser"
    with pytest.raises(RulesError, match="must be true or false"):
        parse_rule_value("big_gin", "maybe")
    with pytest.raises(RulesError, match="must be a whole number"):
        parse_rule_value("target", "lots")
    assert set(RULE_NAMES) >= {"knock_limit", "straight_gin", "oklahoma", "upcard", "last_chance", "throw_back"}


def test_hand_knock_limit_and_multiplier() -> None:
    ok = Rules(oklahoma=True, oklahoma_spade_double=True)
    assert ok.hand_knock_limit(9) == 10 and ok.hand_knock_limit(4) == 5  # T♠ → 10, 5♠ → 5
    assert ok.hand_multiplier(4) == 2 and ok.hand_multiplier(17) == 1 and ok.hand_multiplier(None) == 1
    assert Rules(knock_limit=4).hand_knock_limit(0) == 4 and Rules(straight_gin=True).hand_knock_limit(5) == 0


def test_describe_lists_the_rules_in_words() -> None:
    text = "\n".join(Rules.preset("app").describe())
    assert "Big gin" in text and "undercut bonus 25" in text


def test_every_number_rule_has_a_range_and_each_preset_is_inside_it() -> None:
    from ginrummy.rules import RANGES

    numbers = {f.name for f in dataclasses.fields(Rules) if f.type == "int"}
    assert set(RANGES) == numbers
    for name in PRESETS:
        r = Rules.preset(name)
        for rule, (low, high, _) in RANGES.items():
            assert low <= getattr(r, rule) <= high, (name, rule)
    for rule, (low, high, words) in RANGES.items():
        assert f"{low if rule != 'repetition_limit' else 2}..{high}" in words, rule
        Rules(**{rule: high})  # type: ignore[arg-type]
        with pytest.raises(RulesError, match=f"rule {rule} {high + 1} is out of range"):
            Rules(**{rule: high + 1})  # type: ignore[arg-type]


def test_refusals_quote_at_most_forty_characters_of_the_input() -> None:
    huge = "x" * 20_000_000
    for make in (
        lambda: Rules.preset(huge),
        lambda: Rules.preset("classic", **{huge: 1}),
        lambda: Rules(shutout=huge),  # type: ignore[arg-type]
        lambda: Rules(target=huge),  # type: ignore[arg-type]
        lambda: Rules.from_json({"preset": "classic", huge: 1}),
        lambda: parse_rule_value("target", huge),
    ):
        with pytest.raises(RulesError) as e:
            make()
        text = str(e.value).split(": the rules are ")[0]  # an unknown rule's message then lists them all
        assert len(text) < 200 and "(20000000 characters)" in text, text
    with pytest.raises(RulesError, match="the rule preset must be a name"):
        Rules.from_json({"preset": ["classic"]})
