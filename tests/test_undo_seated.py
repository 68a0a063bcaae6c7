"""Undo in games of three and four players kept in the store (:class:`ginrummy.saved.SavedGame`):
your last move of the hand you play goes back with every move stored after it (with four
players, at both tables), by replay; it is refused in plain words in a hand you sit out, before
your first move of a hand, and when the other table's hand ended after your move; the game plays
on, and the store replays it exactly as it is in memory."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from ginrummy.actions import Kind
from ginrummy.errors import GinRummyError
from ginrummy.events import Phase
from ginrummy.game import Game
from ginrummy.players import get_player
from ginrummy.record import dumps, match_to_record
from ginrummy.rules import Rules
from ginrummy.saved import SavedGame
from ginrummy.seated_play import finish_others, my_table, seat_names, step_others
from ginrummy.storage import Store
from ginrummy.table import Seat, Table

PERSON = 0
STRENGTHS = ["simple", "greedy", "easy"]


def saved_game(db: Path, players: int, seed: int, first_dealer: int | None = None, **rules: Any) -> SavedGame:
    """A new game of ``players`` kept in the store at ``db``: you at seat 0, computers at the others."""
    strengths = STRENGTHS[: players - 1]
    names = seat_names("You", strengths)
    computers = zip(names[1:], strengths, strict=True)
    seats = [Seat("You"), *(Seat(n, get_player(p, seed=seed + k)) for k, (n, p) in enumerate(computers))]
    game = Game(Rules.preset("classic", **rules), players=names, seed=seed, first_dealer=first_dealer)
    return SavedGame.start(Store(db), Table(game, seats), client="play")


def state(game: Game) -> str:
    """Everything played so far (every table's deck and moves, the results), as the record says it."""
    return dumps(match_to_record(game))


def step(saved: SavedGame, you: Any) -> None:
    """One step as the terminal apps play it: a deal, your move (``you`` decides it) or the
    computer's at your table, then one move at the other table; a hand you sit out, played out."""
    table = saved.table
    game = table.match
    if table.can_deal:
        table.deal()
        return
    mine = my_table(game, PERSON)
    if mine is None or game.tables[mine].is_over:
        finish_others(table, PERSON)
        return
    hand = game.tables[mine]
    seat = game.current_pairings[mine].seats[hand.current]
    if seat == PERSON:
        table.act(PERSON, you.decide(table.view(PERSON)))
    else:
        table.computer_move(seat)
    step_others(table, PERSON)


def your_turn(saved: SavedGame, phases: tuple[Phase, ...] | None = None) -> bool:
    game = saved.table.match
    mine = my_table(game, PERSON) if game.in_progress else None
    if mine is None or game.tables[mine].is_over:
        return False
    view = saved.table.view(PERSON)
    return view.my_turn and (phases is None or view.phase in phases)


def play_until(saved: SavedGame, you: Any, done: Any, limit: int = 3000) -> None:
    for _ in range(limit):
        if done():
            return
        assert not saved.table.match.is_over, "the game ended first"
        step(saved, you)
    raise AssertionError("not reached")


def undoable_discard(saved: SavedGame, you: Any, then: Any = None) -> str:
    """Play on to a discard of yours that undo may take back once the computer at your table has
    answered it; returns the game as it was just before that discard (``then``: called after it)."""
    for _ in range(200):
        play_until(saved, you, lambda: your_turn(saved, (Phase.DISCARD,)))
        before = state(saved.table.match)
        step(saved, you)
        if then is not None:
            then()
        play_until(saved, you, lambda: your_turn(saved) or not saved.table.match.in_progress)
        if your_turn(saved, (Phase.DRAW,)) and saved.undo_refusal() is None:
            return before
    raise AssertionError("no discard of yours could be taken back")


def resumed(saved: SavedGame) -> SavedGame:
    """The game as ``--resume`` finds it, through a store opened afresh."""
    return SavedGame.resume(Store(saved.store.path))


def test_undo_three_players_takes_back_own_move_and_computer_replies(tmp_path):
    saved = saved_game(tmp_path / "g.sqlite3", 3, seed=3, first_dealer=1)  # seat 1 deals: you play hand seat 1
    you = get_player("simple", seed=9)
    before = undoable_discard(saved, you)
    game = saved.table.match
    assert game.deals == 1 and game.current_pairings[0].seats.index(PERSON) == 1  # hand seat 1 is game seat 0
    old = saved.row.id
    played = len(game.tables[0].history)

    undone, dropped = saved.undo()
    assert undone.kind is Kind.DISCARD and dropped >= 1
    assert state(saved.table.match) == before
    assert len(saved.table.match.tables[0].history) == played - dropped - 1
    view = saved.table.view(PERSON)
    assert view.my_turn and view.phase is Phase.DISCARD
    # The log stays append-only: the game goes on as a new row, the old one replaced.
    assert saved.store.get_game(old).status == "replaced" and saved.row.id != old
    assert state(resumed(saved).match) == state(saved.table.match)


def test_undo_three_players_is_refused_when_you_sit_out_or_have_not_moved(tmp_path):
    saved = saved_game(tmp_path / "g.sqlite3", 3, seed=4, first_dealer=0)  # you deal hand 1: you sit it out
    saved.table.deal()
    sit_out = "nothing to undo: you sit out this hand (simple against greedy), and undo takes back a move of a hand you play"
    assert saved.undo_refusal() == sit_out
    saved.table.computer_move()  # the hand you sit out goes on: still nothing of yours to take back
    assert saved.undo_refusal() == sit_out
    with pytest.raises(GinRummyError, match="you sit out this hand"):
        saved.undo()
    finish_others(saved.table, PERSON)
    assert saved.undo_refusal() == "undo takes back a move of the hand in progress, and no hand is in progress"
    saved.table.deal()  # hand 2: you play it, and have not moved yet
    assert my_table(saved.table.match, PERSON) == 0
    saved.table.play_computers()
    assert saved.undo_refusal() == "nothing to undo: you have not moved yet in this hand"


def test_undo_four_players_takes_back_your_move_and_every_move_after_it_at_both_tables(tmp_path):
    saved = saved_game(tmp_path / "g.sqlite3", 4, seed=5)
    you = get_player("simple", seed=9)
    moves: dict[str, list[int]] = {}

    def count() -> None:  # each table's moves once your discard is played
        moves["discarded"] = [len(h.history) for h in saved.table.match.tables]

    before = undoable_discard(saved, you, then=count)
    mine = my_table(saved.table.match, PERSON)
    assert mine is not None
    other = 1 - mine
    played = [len(h.history) for h in saved.table.match.tables]

    undone, dropped = saved.undo()
    assert undone.kind is Kind.DISCARD and dropped == played[mine] - moves["discarded"][mine]
    assert state(saved.table.match) == before  # both tables as they were before your discard
    back = [len(h.history) for h in saved.table.match.tables]
    assert back[mine] == moves["discarded"][mine] - 1 and back[other] < played[other]  # the other table's too
    assert not any(h.is_over for h in saved.table.match.tables)
    assert state(resumed(saved).match) == state(saved.table.match)


def test_undo_four_players_is_refused_when_the_other_tables_hand_ended_after_your_move(tmp_path):
    saved = saved_game(tmp_path / "g.sqlite3", 4, seed=6)
    you = get_player("simple", seed=9)
    table = saved.table
    for _ in range(50):
        play_until(saved, you, lambda: your_turn(saved, (Phase.DISCARD,)))
        mine = my_table(table.match, PERSON)
        assert mine is not None
        table.act(PERSON, you.decide(table.view(PERSON)))
        finish_others(table, PERSON)  # the other table's hand ends after your discard
        play_until(saved, you, lambda: your_turn(saved) or not table.match.in_progress)
        if your_turn(saved, (Phase.DRAW,)):
            break
    else:
        raise AssertionError("your hand never outlasted the other table's")
    other = 1 - mine
    a, b = (table.names[s] for s in table.match.current_pairings[other].seats)
    why = saved.undo_refusal()
    assert why == f"the other table's hand ({a} against {b}) ended after your last move: a finished hand cannot go back"
    with pytest.raises(GinRummyError, match="ended after your last move"):
        saved.undo()

    # A move of yours after that end may go back: the other table's hand stays as it ended.
    result = table.match.tables[other].result
    before = undoable_discard(saved, you)
    assert table.match.tables[other].result == result
    saved.undo()
    assert state(table.match) == before and table.match.tables[other].result == result
    assert state(resumed(saved).match) == state(table.match)


@pytest.mark.parametrize("players", [3, 4])
def test_a_game_plays_on_after_undo_and_the_store_replays_it_as_in_memory(players, tmp_path):
    saved = saved_game(tmp_path / "g.sqlite3", players, seed=7, first_dealer=1, target=30, team_target=30)
    you = get_player("simple", seed=9)
    undoable_discard(saved, you)
    saved.undo()
    for _ in range(6):  # your moves after the undo are stored on the new row
        step(saved, you)
    assert state(resumed(saved).match) == state(saved.table.match)
    play_until(saved, you, lambda: saved.table.match.is_over, limit=20000)
    stored = saved.store.load_game(saved.row.id)
    assert stored is not None and stored.row.status == "finished"
    assert state(stored.match) == state(saved.table.match)
