"""The players' words: every preset, strength, rule and choice has a label; the move log says each
move as the rule documents do (melds numbered from 1, hidden cards unsaid); the web app sends them
(``/api/options``, each state's ``log``, the history and the replay) and its errors read as sentences."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from conftest import hand_for, play
from ginrummy import words
from ginrummy.rules import CHOICES, GROUP_RULES, PRESETS, RULE_NAMES, Rules
from ginrummy.web.app import create_app
from ginrummy.web.computer import STRENGTHS

# -- the tables ---------------------------------------------------------------------------------


def test_every_rule_preset_strength_and_choice_has_a_plain_label() -> None:
    assert set(RULE_NAMES) <= set(words.RULE_LABELS)
    assert set(words.PRESET_LABELS) == set(PRESETS) == set(words.PRESET_HELP)
    assert set(words.STRENGTH_LABELS) == set(STRENGTHS) == set(words.STRENGTH_HELP)
    for rule, choices in CHOICES.items():
        assert set(words.CHOICE_LABELS[rule]) == set(choices), rule
    every = [*words.PRESET_LABELS.values(), *words.STRENGTH_LABELS.values(), *(lab for lab, _ in words.RULE_LABELS.values())]
    every += [lab for table in words.CHOICE_LABELS.values() for lab in table.values()]
    for text in every:
        assert "_" not in text and text[0].isupper(), text  # "Higher card deals", never "high_cut"
    for _label, help_text in words.RULE_LABELS.values():
        assert help_text.endswith(".") and help_text[0].isupper(), help_text
    assert len(set(words.STRENGTH_LABELS.values())) == len(STRENGTHS)
    assert len(set(words.PRESET_LABELS.values())) == len(PRESETS)


def test_the_levels_and_documents_people_know() -> None:
    assert [words.strength_label(s) for s in STRENGTHS] == ["Beginner", "Easy", "Medium", "Hard", "Expert"]
    assert words.preset_label("eaai") == "Computer challenge rules (EAAI)"
    assert words.preset_label("classic") == "Classic (family rules)"
    assert words.choice_label("first_dealer", "high_cut") == "Higher card deals"
    assert words.choice_label("next_dealer", "loser") == "Loser of the hand deals"
    assert words.computer_name("expert") == "Computer (Expert)"


def test_the_rule_list_names_the_preset_by_its_document() -> None:
    assert Rules.preset("eaai").describe()[0] == "Rules: Computer challenge rules (EAAI)"
    assert Rules.preset("online", target=150).describe()[0] == "Rules: Online rules (changed)"


def test_errors_are_sentences() -> None:
    assert words.sentence("it is not your turn") == "It is not your turn."
    assert words.sentence("Gin!") == "Gin!"


# -- the move log -------------------------------------------------------------------------------


def knock_and_layoffs() -> Any:
    """Ann (seat 0) passes the upcard, draws the 2♦ and knocks with it; Bo lays off on melds 1 and 3."""
    h = hand_for("As 2s 3s 7h 7d 7c Jc Qc Kc 5d", "4s Tc 5h 6h 8s 9d Ts Jd Qh Kh", upcard="9h", stock="2d")
    play(h, "pass", "pass", "stock", "knock 5d", "meld As2s3s", "meld 7h7d7c", "meld JcQcKc", "done", "done")
    play(h, "layoff 4s 0", "layoff Tc 2", "done")
    return h


def test_the_move_log_says_each_move_in_the_documents_words() -> None:
    h = knock_and_layoffs()
    v = h.observation(0)
    assert words.hand_log(v.events, ("Ann", "Bo"), v.result.knocker_deadwood) == [
        "Ann passed on the upcard",
        "Bo passed on the upcard",
        "Ann drew the 2♦ from the stock",
        "Ann knocked with 2 deadwood, discarding the 5♦ face down",
        "Ann laid out meld 1: A♠ 2♠ 3♠",
        "Ann laid out meld 2: 7♥ 7♦ 7♣",
        "Ann laid out meld 3: J♣ Q♣ K♣",
        "Ann finished laying out",
        "Bo finished laying out",
        "Bo laid off 4♠ on meld 1",
        "Bo laid off 10♣ on meld 3",
        "Bo finished laying off",
    ]


def test_the_move_log_never_says_a_card_the_seat_may_not_see() -> None:
    h = knock_and_layoffs()
    v = h.observation(1)
    log = words.hand_log(v.events, ("Ann", "Bo"), None)
    assert log[2] == "Ann drew from the stock" and log[3] == "Ann knocked"
    assert not any("2♦" in line or "5♦" in line for line in log)


def test_the_move_log_of_the_draw_and_discard_game() -> None:
    h = hand_for("As 2s 3s 7h 7d 7c Jc Qc Kc 5d", "4s Tc 5h 6h 8s 9d Ts Jd Qh Kh", upcard="9h", stock="2d 8d")
    play(h, "pile", "5d", "stock", "Kh", "pile")
    log = words.hand_log(h.observation(0).events, ("Ann", "Bo"))
    assert log == [
        "Ann took the upcard 9♥",
        "Ann discarded the 5♦",
        "Bo drew from the stock",
        "Bo discarded the K♥",
        "Ann took the K♥ from the discard pile",
    ]


# -- the web app --------------------------------------------------------------------------------


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(tmp_path / "w.sqlite3", computer_delay=0, compute="thread")) as c:
        yield c


def test_options_carry_every_label_and_help(client: TestClient) -> None:
    o = client.get("/api/options").json()
    by_name = {r["name"]: r for r in o["rules"]}
    assert set(by_name) == set(RULE_NAMES)  # the three- and four-player rules too (for those games)
    assert {by_name[n]["players"] for n in GROUP_RULES} == {3, 4}
    for name, r in by_name.items():
        assert (r["label"], r["help"]) == words.RULE_LABELS[name] and r["help"]
    assert by_name["first_dealer"]["choice_labels"] == {
        "high_cut": "Higher card deals", "low_cut": "Lower card deals", "random": "Chosen at random",
    }
    assert by_name["next_dealer"]["choice_labels"]["loser"] == "Loser of the hand deals"
    assert o["preset_labels"]["eaai"]["label"] == "Computer challenge rules (EAAI)"
    assert [o["strength_labels"][s]["label"] for s in o["strengths"]] == ["Beginner", "Easy", "Medium", "Hard", "Expert"]
    assert o["strengths"] == list(STRENGTHS)  # the internal names stay the API's


def test_a_computer_game_names_each_player_once_and_logs_in_words(client: TestClient) -> None:
    g = client.post("/api/games", json={"opponent": "greedy", "names": ["Ann"], "rules": "online"}).json()
    headers = {"X-Seat-Token": g["token"]}
    s = client.get(f"/api/games/{g['id']}/state", headers=headers).json()
    assert s["game"]["names"] == ["Ann", "Computer (Hard)"]
    assert s["game"]["rules_text"][0] == "Rules: Online rules"
    assert len(s["log"]) == len(s["view"]["events"])
    for entry in s["log"]:
        assert entry["text"].startswith(("Ann ", "Computer (Hard) ")), entry
        assert not re.search(r"\b[A2-9TJQK][shdc]\b", entry["text"]), entry  # card names, not notation
    default = client.post("/api/games", json={"opponent": "random"}).json()
    pub = client.get(f"/api/games/{default['id']}").json()
    assert pub["names"] == ["Player 1", "Computer (Beginner)"]


def test_web_errors_are_sentences(client: TestClient) -> None:
    g = client.post("/api/games", json={"opponent": "human"}).json()
    # Seat 1 (the friend) acts when it is not their move, and a bad token is refused.
    friend = {"X-Seat-Token": g["invite_token"]}
    s = client.get(f"/api/games/{g['id']}/state", headers=friend).json()
    mover = s["view"]["current"]
    token = g["token"] if mover == 1 else g["invite_token"]
    r = client.post(f"/api/games/{g['id']}/actions", json={"action": "stock", "seq": s["seq"]}, headers={"X-Seat-Token": token})
    assert r.status_code == 409
    assert r.json()["message"] == f"It is not your turn: wait for Player {mover + 1} to play."
    r = client.get(f"/api/games/{g['id']}/state", headers={"X-Seat-Token": "nope"})
    assert r.status_code == 403 and r.json()["message"].endswith("open the link you were given.")
    r = client.post("/api/games", json={"opponent": "exprt"})
    assert r.json()["message"][0].isupper() and r.json()["message"].endswith(".")


def test_history_and_replay_use_the_words(client: TestClient) -> None:
    from test_web_identity import finished_game

    gid = finished_game(client)
    game = client.get("/api/history").json()["games"][0]
    assert game["id"] == gid and game["rules_label"] == "Classic (family rules) (changed)"
    replay = client.get(f"/api/games/{gid}/replay").json()
    for h in replay["hands"]:
        frames = h["frames"]
        assert frames[0]["words"] == f"{replay['names'][h['dealer']]} dealt"
        for f in frames[1:]:
            assert f["words"].startswith(replay["names"][f["seat"]] + " "), f["words"]
        layoffs = [f["words"] for f in frames if f["action"].startswith("layoff ")]
        for f in frames:
            if f["action"].startswith("layoff "):
                assert f["words"].endswith(f"on meld {int(f['action'].split()[2]) + 1}")
        assert all(" on meld 0" not in w for w in layoffs)
