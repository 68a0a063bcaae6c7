"""Regenerate the golden game records: ``.venv/bin/python tests/golden/generate.py``.

Each case is a whole game (or one hand) played by the greedy test player under one rule set;
two of them are games of three and of four players.
Regenerate only on purpose (a rules change); the test checks the stored files replay exactly.
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))

from golden_policy import play_game, play_hand, play_seated_game  # noqa: E402

from ginrummy.match import Match  # noqa: E402
from ginrummy.record import dumps, match_to_record  # noqa: E402
from ginrummy.rules import Rules  # noqa: E402

#: name -> (rules, seed)
CASES: dict[str, tuple[Rules, int]] = {
    "classic_game": (Rules.preset("classic"), 2),
    "online_game": (Rules.preset("online"), 5),
    "app_game": (Rules.preset("app"), 3),
    "oklahoma_game": (
        Rules.preset("classic", oklahoma=True, oklahoma_spade_double=True, oklahoma_extra_boxes=True, target=150),
        4,
    ),
    "hollywood_game": (Rules.preset("online", hollywood=True, next_dealer="alternate"), 5),
    "straight_gin_loser_deals": (Rules.preset("classic", straight_gin=True, next_dealer="loser", target=60), 5),
    "no_upcard_variants": (
        Rules.preset("classic", upcard=False, last_chance=True, throw_back=True, shutout="double_hands",
                     first_dealer="low_cut"),
        7,
    ),
}


#: name -> (rules, seed, players): whole games of three and four players.
SEATED: dict[str, tuple[Rules, int, tuple[str, ...]]] = {
    "three_player_game": (Rules.preset("classic"), 2, ("North", "East", "South")),
    "four_player_game": (
        Rules.preset("classic", oklahoma=True, oklahoma_spade_double=True, oklahoma_extra_boxes=True), 2,
        ("North", "East", "South", "West"),
    ),
}


def build(name: str) -> str:
    if name in SEATED:
        rules, seed, players = SEATED[name]
        return dumps(match_to_record(play_seated_game(rules, seed, players)))
    rules, seed = CASES[name]
    return dumps(match_to_record(play_game(rules, seed)))


def build_single_hand() -> str:
    m = Match(Rules.preset("online", big_gin=True), seed=11, players=("You", "Sam"))
    play_hand(m)
    return dumps(match_to_record(m, kind="hand"))


def main() -> None:
    for name in [*CASES, *SEATED]:
        (HERE / f"{name}.json").write_text(build(name), encoding="utf-8")
    (HERE / "single_hand.json").write_text(build_single_hand(), encoding="utf-8")


if __name__ == "__main__":
    main()
