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
    with pytest.raises(RulesError, match="unknown rule 'colour'"):
        Rules().replace(colour=1)


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        (dict(knock_limit=11), "knock_limit must be 0 to 10, not 11"),
        (dict(knock_limit=-1), "knock_limit must be 0 to 10, not -1"),
        (dict(knock_limit="7"), "knock_limit must be a whole number, not '7'"),
        (dict(big_gin=1), "big_gin must be true or false, not 1"),
        (dict(gin_bonus=-5), "gin_bonus cannot be negative \\(-5\\)"),
        (dict(target=0), "target must be at least 1, not 0"),
        (dict(shutout="triple"), "shutout cannot be 'triple': choose one of bonus, double_total, double_hands, none"),
        (dict(oklahoma_spade_double=True), "oklahoma_spade_double needs oklahoma = true"),
        (dict(straight_gin=True, oklahoma=True), "straight_gin and oklahoma cannot both be on"),
        (dict(dead_hand_stock=11), "dead_hand_stock must be 0 to 10, not 11"),
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
    with pytest.raises(RulesError, match="unknown key in rules: colour"):
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
