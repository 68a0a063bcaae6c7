"""Printable sheets: the rule sheet and the blank score sheet carry the figures of the chosen rules."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from fastapi import FastAPI  # noqa: E402
from fastapi.testclient import TestClient  # noqa: E402

from ginrummy.web import sheets  # noqa: E402

STATIC = Path(sheets.__file__).parent / "static"


@pytest.fixture(scope="module")
def client() -> TestClient:
    app = FastAPI()
    app.include_router(sheets.router)
    return TestClient(app)


def text_of(html: str) -> str:
    """Visible text, roughly: tags out, entities for quotes back, whitespace squeezed."""
    body = re.sub(r"<(style|script)[^>]*>.*?</\1>", " ", html, flags=re.S)
    body = re.sub(r"<[^>]+>", " ", body).replace("&#x27;", "'").replace("&quot;", '"').replace("&amp;", "&")
    return " ".join(body.split())


def assert_print_stylesheet(page: str) -> None:
    """The page links the sheet stylesheet (no inline style: the CSP allows none) and it has print rules."""
    assert '<link rel="stylesheet" href="/static/sheets.css">' in page and "<style" not in page
    assert "@media print" in (STATIC / "sheets.css").read_text(encoding="utf-8")


def test_the_command_line_sheet_still_inlines_its_stylesheet() -> None:
    from ginrummy.commands.rules_sheet import render_html
    from ginrummy.rules import Rules

    page = render_html(Rules.preset("classic"))
    assert "<style>" in page and "@media print" in page and "<link" not in page


def test_classic_rule_sheet_has_the_classic_figures(client: TestClient) -> None:
    r = client.get("/rules")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    t = text_of(r.text)
    assert "Gin Rummy rules: Classic (family rules)" in t
    assert "The difference + 10" in t
    assert "20 + the other player's deadwood" in t
    assert "Game bonus 200 instead of 100" in t
    assert "20 for each hand won" in t
    assert "You knock with 8, Sam has 6: an undercut Sam 2 + 10 = 12" in t
    assert "the higher card deals" in t
    assert_print_stylesheet(r.text)
    for link in ('href="/"', 'href="/scorekeeper"', 'href="/history"', 'href="/rules"'):
        assert link in r.text


def test_rule_sheet_follows_preset_and_overrides(client: TestClient) -> None:
    t = text_of(client.get("/rules?preset=online&knock_limit=7&big_gin=yes&next_dealer=loser").text)
    assert "Gin Rummy rules: Online rules (changed)" in t
    assert "Changed: Big gin: yes; Knock with at most 7; Next dealer: Loser of the hand deals." in t
    assert "deadwood is 7 or less" in t
    assert "The difference + 25" in t and "31 + the other player's deadwood" in t
    assert "25 for each hand won" in t
    assert "the loser of each hand deals the next" in t


def test_rule_sheet_variants_in_words(client: TestClient) -> None:
    q = ("oklahoma=true&oklahoma_ace_gin_only=true&oklahoma_spade_double=true&oklahoma_extra_boxes=true"
         "&hollywood=true&last_chance=true&throw_back=true&upcard=false&shutout=double_total&target=150")
    t = text_of(client.get("/rules?" + q).text)
    assert "value of the first upcard is the knock limit" in t
    assert "An ace upcard means gin only" in t
    assert "A spade upcard doubles that hand's score" in t
    assert "Extra boxes" in t
    assert "Hollywood scoring: keep three games at once" in t
    assert "Last chance" in t and "Throw-back allowed" in t
    assert "No upcard: the non-dealer gets 11 cards" in t
    assert "whole score doubled" in t
    assert "reaches 150" in t


def test_app_preset_has_no_game_bonus(client: TestClient) -> None:
    t = text_of(client.get("/rules?preset=app").text)
    assert "No game, box or shutout bonus" in t and "Big gin" in t


def test_bad_rules_answer_400_naming_the_rule(client: TestClient) -> None:
    r = client.get("/rules?knock_limt=7")
    assert r.status_code == 400
    assert "unknown rule 'knock_limt' (did you mean 'knock_limit'?)" in text_of(r.text)
    r = client.get("/rules?big_gin=perhaps")
    assert r.status_code == 400 and "big_gin must be true or false" in text_of(r.text)
    r = client.get("/scoresheet?preset=nope")
    assert r.status_code == 400 and "unknown rule preset 'nope'" in text_of(r.text)
    r = client.get("/scoresheet?hands=500")
    assert r.status_code == 400 and "hands must be a whole number from 1 to 30" in text_of(r.text)


def test_score_sheet_columns_per_player(client: TestClient) -> None:
    r = client.get("/scoresheet?names=You,Sam&hands=12")
    assert r.status_code == 200
    t = text_of(r.text)
    assert "Gin Rummy score sheet: Classic (family rules)" in t
    assert "You" in t and "Sam" in t and "Points Total Box" in t
    assert r.text.count('<td class="box">') == 12 * 2
    assert "Boxes x 20" in t and "Game bonus" in t and "Final total" in t and "Margin" in t
    assert "gin: 20 + deadwood" in t and "(200 for a shutout)" in t
    assert_print_stylesheet(r.text)


def test_hollywood_score_sheet_has_three_games(client: TestClient) -> None:
    r = client.get("/scoresheet?hollywood=true&names=Ann,Bob&hands=10")
    t = text_of(r.text)
    assert "Hollywood score sheet" in t
    assert "Game 1" in t and "Game 2" in t and "Game 3" in t
    assert t.count("Ann") >= 3 and t.count("Bob") >= 3
    assert "3 games added" in t


def test_names_are_escaped(client: TestClient) -> None:
    r = client.get("/scoresheet?names=<b>x</b>,Sam")
    assert "<b>x</b>" not in r.text and "&lt;b&gt;x&lt;/b&gt;" in r.text


def test_query_round_trip() -> None:
    from ginrummy.rules import Rules

    rules = Rules.preset("online", knock_limit=8, hollywood=True)
    from urllib.parse import parse_qsl

    assert sheets.rules_from_query(parse_qsl(sheets.query_of(rules))) == rules


# -- three players and two teams ----------------------------------------------------------------


def test_three_player_score_sheet(client: TestClient) -> None:
    r = client.get("/scoresheet?players=3&names=Ann,Bob,Cy&hands=10")
    assert r.status_code == 200
    t = text_of(r.text)
    assert "Gin Rummy score sheet for three players: Classic (family rules)" in t
    assert "Hand Dealer Ann Bob Cy Points Total Box Points Total Box Points Total Box" in t
    assert r.text.count('<td class="box">') == 10 * 3 and r.text.count('<td class="dealer">') == 10 + 3
    assert "the dealer sits out; the loser of each hand deals the next" in t and "The first to 100 wins" in t
    assert "Boxes x 20" in t and "Game bonus" in t and "Final total" in t
    # Names alone say how many play; bonuses off leave only the totals.
    t = text_of(client.get("/scoresheet?names=Ann,Bob,Cy&three_player_bonuses=false").text)
    assert "for three players" in t and "Boxes x" not in t and "hand points only, no bonuses" in t
    assert '<option value="3" selected>3</option>' in r.text  # the form keeps how many play
    assert_print_stylesheet(r.text)


def test_team_score_sheet_says_who_plays_whom_at_each_table(client: TestClient) -> None:
    r = client.get("/scoresheet?players=4&names=Ann,Bob,Cy,Dee&hands=8")
    assert r.status_code == 200
    t = text_of(r.text)
    assert "Gin Rummy score sheet for two teams" in t
    assert ("Table 1: Ann v Bob in hands 1, 3, 5…, Ann v Dee in hands 2, 4, 6…. "
            "Table 2: Cy v Dee, then Cy v Bob.") in t
    assert "Hand Table 1 Table 2 Ann & Cy Bob & Dee Won by Points Won by Points Points Total Box Points Total Box" in t
    assert r.text.count('<td class="box">') == 8 * 2
    assert "Game to 125" in t and "The first team to 125 wins" in t
    assert "the team with more points scores the difference (equal: nobody scores)" in t
    r = client.get("/scoresheet?players=4&team_target=200&team_bonuses=no")
    t = text_of(r.text)
    assert "Game to 200; hand points only" in t and "Player 1 & Player 3" in t
    assert '<th scope="row">Game bonus</th>' not in r.text and '<th scope="row">Final total</th>' in r.text


def test_hollywood_sheet_for_three_players(client: TestClient) -> None:
    r = client.get("/scoresheet?players=3&hollywood=true&names=Ann,Bob,Cy&hands=10")
    assert r.status_code == 200
    t = text_of(r.text)
    assert "Gin Rummy Hollywood score sheet for three players" in t
    assert "Hand Dealer Hand won Game 1 Game 2 Game 3 By Pts Ann Bob Cy Ann Bob Cy Ann Bob Cy" in t
    assert r.text.count('<td class="dealer">') == 10  # a dealer per hand, none in the foot
    assert "Game total" in t and "3 games added Ann: Bob: Cy:" in t and "Boxes x 20" in t
    assert "in game 1 on its first scoring hand, games 1 and 2 on its second" in t and "reaches 100" in t
    assert_print_stylesheet(r.text)


def test_hollywood_sheet_for_two_teams(client: TestClient) -> None:
    r = client.get("/scoresheet?players=4&hollywood=true&names=Ann,Bob,Cy,Dee&hands=8&team_target=50")
    assert r.status_code == 200
    t = text_of(r.text)
    assert "Gin Rummy Hollywood score sheet for two teams" in t
    assert ("Hand Table 1 Table 2 Scored Game 1 Game 2 Game 3 Won by Pts Won by Pts Team Pts "
            "Ann & Cy Bob & Dee Ann & Cy Bob & Dee Ann & Cy Bob & Dee") in t
    assert "Table 1: Ann v Bob in hands 1, 3, 5…" in t
    assert "3 games added Ann & Cy: Bob & Dee:" in t and "A game closes when a team reaches 50" in t
    # Every row of the body and the foot spans the head's 13 columns.
    import re

    rows = re.findall(r"<tr>(.*?)</tr>", r.text.split("<tbody>")[1].split("</table>")[0])
    assert len(rows) == 8 + 5  # the hands, then boxes, game bonus, game total, 3 games added, margin
    for row in rows:
        cells = re.findall(r"<t[dh]([^>]*)>", row)
        width = sum(int(m.group(1)) if (m := re.search(r'colspan="(\d+)"', c)) else 1 for c in cells)
        assert width == 13, row


@pytest.mark.parametrize(
    ("query", "words"),
    [
        ("players=5", "players must be 2, 3 or 4, not '5'"),
        ("players=3&names=A,B,C,D", "names takes at most 3 names"),
        ("names=A,B,C,D,E", "names takes at most 2 names"),
        ("players=4&hollywood=true&hands=0", "hands must be a whole number from 1 to"),
    ],
)
def test_bad_group_sheet_queries_are_400(client: TestClient, query: str, words: str) -> None:
    r = client.get("/scoresheet?" + query)
    assert r.status_code == 400 and words in text_of(r.text)
