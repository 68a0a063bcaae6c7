"""``ginrummy rules``: the rule sheet of a preset with overrides, as text or printable HTML."""

from __future__ import annotations

import pytest

from ginrummy.cli import main
from ginrummy.commands.rules_sheet import render_text, sections
from ginrummy.rules import PRESETS, Rules


def test_default_is_the_classic_text_sheet(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Gin Rummy rules: Classic (family rules)\n")
    assert "The difference + 10" in out and "Game bonus 200 instead of 100" in out
    assert "<html" not in out


def test_preset_and_rule_overrides(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "--rules", "online", "--rule", "knock_limit=7", "--rule", "big_gin=yes"]) == 0
    out = capsys.readouterr().out
    assert "Gin Rummy rules: Online rules (changed)" in out
    assert "Changed: Big gin: yes; Knock with at most 7." in out
    assert "deadwood is 7 or less" in out and "31 + the other player's deadwood" in out


def test_html_sheet(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "--html", "--rule", "hollywood=true"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("<!doctype html>") and "@media print" in out
    assert "Hollywood scoring: keep three games at once" in out


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["rules", "--rule", "knock_limt=7"], "unknown rule 'knock_limt' (did you mean 'knock_limit'?)"),
        (["rules", "--rule", "knock_limit"], "must look like key=value"),
        (["rules", "--rules", "bridge"], "unknown rule preset 'bridge'"),
        (["rules", "--rule", "oklahoma_spade_double=yes"], "needs oklahoma = true"),
    ],
)
def test_bad_rules_exit_2_naming_the_rule(argv: list[str], words: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    assert words in capsys.readouterr().err


@pytest.mark.parametrize("preset", list(PRESETS))
def test_every_preset_and_variant_renders(preset: str) -> None:
    variants = [
        {},
        {"straight_gin": True},
        {"knock_limit": 0},
        {"oklahoma": True, "oklahoma_ace_gin_only": True, "oklahoma_spade_double": True, "oklahoma_extra_boxes": True},
        {"shutout": "double_hands", "hollywood": True, "upcard": False, "big_gin": True},
    ]
    for v in variants:
        text = render_text(Rules.preset(preset, **v))
        assert "Scoring a hand" in text and "End of the game" in text
        titles = [s.title for s in sections(Rules.preset(preset, **v))]
        assert titles[0] == "These rules in short"


def test_gin_only_sheet_has_no_knock_rows() -> None:
    text = render_text(Rules(straight_gin=True))
    assert "Straight gin: knocking is not allowed" in text
    assert "Undercut" not in text.split("Scoring a hand")[1].split("End of the game")[0]
