"""Terminal games kept in the games store: ``ginrummy play`` and ``ginrummy tui`` save every
game as it is played, ``--resume`` continues the last one left unfinished, ``undo`` takes back a
move. The store is the web app's (:class:`~ginrummy.storage.Store`), so one history holds all.

A :class:`SavedGame` watches a :class:`~ginrummy.table.Table`: the table's ``before`` hook
appends every action to the store (committed) before the action is applied, so before anything
shows it as done; a hand's deck is stored with its first action (a hand dealt but not yet played
is dealt again from the game's seed after a resume: the same cards); a finished hand's result,
and the final result, as the match reports them (``Match.on_hand_end``).

Undo replays the stored game without the person's last move of the hand in progress and the
computer's moves after it. The log stays append-only: the game continues as a new game row
holding the moves kept (:meth:`~ginrummy.storage.Store.continue_game`); the old row's status
becomes ``replaced``. A card drawn from the stock cannot be taken back (it has been seen), nor a
move the computer answered with a knock (its melds have been laid open).

For an app that builds its own table (the TUI): :func:`save_game` saves a new game played on
it; :func:`resume_game` returns the last unfinished game, whose ``table`` and ``match`` the app
plays on. Its table's first ``start_hand`` continues the hand in progress instead of dealing.

Games of three or four players are kept the same way: each action under the number of its own
table's hand (both decks of a deal stored with its first action), replayed table by table
(:meth:`~ginrummy.storage.Store.load_game`). Undo works on the person's own table as with two
players, but not in a hand the person sits out; with four, every action stored after the
person's move goes too, at both tables (the other table's computers play those moves again),
unless the other table's hand ended after it (a finished hand cannot go back).
"""

from __future__ import annotations

import secrets
import uuid
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from .actions import Action, Kind
from .cards import card_str
from .errors import GinRummyError
from .hand import Hand
from .match import Match
from .players.base import Player
from .storage import DEFAULT_DB, HUMAN, TERMINAL_CLIENTS, GameRow, SeatRow, Store, final_deadwood, hash_token
from .table import Seat, Table

#: Makes the computer player of a resumed game from its stored name (``simple``, ``expert``...).
PlayerMaker = Callable[[str], Player]


class NothingToResume(GinRummyError):
    """No unfinished terminal game in the store."""


class SavedTable(Table[Any]):
    """A table of a resumed (or undone) game: its first deal continues the deal in progress,
    telling the computer players which seat they play (or that they sit it out), instead of
    dealing a new one."""

    continue_hand = False

    def deal(self, decks: Sequence[Sequence[int] | None] | None = None) -> tuple[Hand, ...]:
        game = self.match
        if self.continue_hand and game.in_progress:
            self.continue_hand = False
            self._tell_new_hand()
            return tuple(game.tables)
        self.continue_hand = False
        return super().deal(decks)

    def _tell_new_hand(self) -> None:
        game = self.match
        for i, s in enumerate(self.seats):
            at = game.where(i)
            hook = getattr(s.player, "new_hand" if at is not None else "sit_out", None)
            if hook is not None:
                hook(at[1] if at is not None else game.game_view(i))


class SavedGame:
    """One terminal game in the store, kept up to date with its table (see the module docstring)."""

    def __init__(self, store: Store, row: GameRow, table: Table[Any], *, actions: int, hands: int, undo: bool) -> None:
        self.store = store
        self.row = row
        self.table = table
        #: Actions and hands stored so far (the next action's ``seq``; hands with their deck).
        self.actions = actions
        self.hands = hands
        #: Whether ``undo`` may be used in this game.
        self.undo_allowed = undo
        self._attach()

    @property
    def match(self) -> Any:
        """The game being played, a :class:`Match` or with three or four players a
        :class:`~ginrummy.game.Game` (an undo replaces it: read it here or from the table)."""
        return self.table.match

    # -- opening ----------------------------------------------------------------------------

    @classmethod
    def start(cls, store: Store, table: Table[Any], *, client: str, undo: bool = True) -> SavedGame:
        """Save the new game played on ``table`` (no hand played yet) from now on."""
        match = table.match
        if any(h.history for h in match.hands):
            raise ValueError("a game is saved from its start: this table has played already")
        game_id = uuid.uuid4().hex[:12]
        seats = [
            # Terminal seats get a token nobody keeps: the game cannot be played through the web app.
            SeatRow(i, hash_token(secrets.token_urlsafe(24)), s.name, _player_name(s))
            for i, s in enumerate(table.seats)
        ]
        with store.connection():
            store.create_game(
                game_id=game_id, rules=match.rules.to_json(), seed=match.seed, first_dealer=match.first_dealer, seats=seats
            )
            store.mark_terminal(game_id, client, undo=undo)
        row = store.get_game(game_id)
        assert row is not None
        return cls(store, row, table, actions=0, hands=0, undo=undo)

    @classmethod
    def resume(
        cls, store: Store, *, clients: Sequence[str] = TERMINAL_CLIENTS, make_player: PlayerMaker | None = None
    ) -> SavedGame:
        """The newest unfinished game of these terminal apps, replayed, on a :class:`SavedTable`."""
        row = store.last_unfinished(clients)
        if row is None:
            raise NothingToResume(f"no unfinished game to resume in {store.path}: start one with ginrummy play")
        return cls._open(store, row.id, make_player or _default_player)

    @classmethod
    def _open(cls, store: Store, game_id: str, make_player: PlayerMaker) -> SavedGame:
        stored = store.load_game(game_id)
        assert stored is not None
        seats = [Seat(s.name, make_player(s.player)) if s.computer else Seat(s.name) for s in stored.row.seats]
        table = SavedTable(stored.match, seats)
        table.continue_hand = True
        terminal = store.terminal(game_id)
        undo = terminal[1] if terminal is not None else False
        return cls(store, stored.row, table, actions=len(stored.actions), hands=len(stored.hands), undo=undo)

    # -- saving -----------------------------------------------------------------------------

    def _attach(self) -> None:
        self.table.before = self._store_action
        self.table.match.on_hand_end = self._store_hand_end

    def _store_action(self, seat: int, action: Action) -> None:
        match = self.table.match
        for i in range(self.hands, len(match.hands)):  # the deal's hands (two tables: both), with their decks
            hand = match.hands[i]
            # Two players: the hand's dealer; three or four: the game seat that deals (the store's rule).
            dealer = hand.dealer if match.seats == 2 else match.pairings[i].dealt_by
            self.store.add_hand(self.row.id, i, dealer, list(hand.deck), secrets.token_hex(16))
        self.hands = len(match.hands)
        at = match.where(seat)
        assert at is not None
        self.store.append_action(self.row.id, self.actions, _index(match.hands, match.tables[at[0]]), seat, str(action))
        self.actions += 1

    def _store_hand_end(self, match: Match, hand: Hand) -> None:
        assert hand.result is not None
        self.store.end_hand(self.row.id, _index(match.hands, hand), hand.result.to_json(), final_deadwood(hand))
        if match.is_over:
            self.store.finish_game(self.row.id, match.final().to_json())

    def abandon(self) -> None:
        """The person left without keeping the game: ``--resume`` will not offer it."""
        self.store.set_status(self.row.id, "abandoned")

    # -- undo -------------------------------------------------------------------------------

    @property
    def person(self) -> int | None:
        return next((s.seat for s in self.row.seats if s.player == HUMAN), None)

    def _last_person_move(self) -> int | None:
        """Index in the history of the person's hand in progress of their last move in it."""
        game = self.table.match
        person = self.person
        at = game.where(person) if person is not None and game.tables else None
        if at is None or game.tables[at[0]].is_over:
            return None
        history = game.tables[at[0]].history
        return next((i for i in range(len(history) - 1, -1, -1) if history[i].seat == at[1]), None)

    def _last_person_seq(self) -> int:
        """The stored ``seq`` of the person's last move (of the hand in progress)."""
        game, person = self.table.match, self.person
        at = game.where(person) if person is not None else None
        assert at is not None
        number = _index(game.hands, game.tables[at[0]])
        return max(a.seq for a in self.store.actions(self.row.id) if a.hand_no == number and a.seat == person)

    def undo_refusal(self) -> str | None:
        """Why ``undo`` cannot be played now, or None if it can."""
        if not self.undo_allowed:
            return "undo is off in this game (it was started with --no-undo)"
        game = self.table.match
        if not game.in_progress:
            return "undo takes back a move of the hand in progress, and no hand is in progress"
        if self.person is None:
            return "nothing to undo: computer players play every seat of this game"
        at = game.where(self.person)
        names = self.table.names
        if at is None:
            a, b = game.current_pairings[0].seats  # three players: one table
            return (
                f"nothing to undo: you sit out this hand ({names[a]} against {names[b]}), and undo takes back "
                "a move of a hand you play"
            )
        hand = game.tables[at[0]]
        if hand.is_over:
            return "undo takes back a move of the hand in progress, and your hand is over"
        i = self._last_person_move()
        if i is None:
            return "nothing to undo: you have not moved yet in this hand"
        knock = next((s for s in hand.history[i + 1 :] if s.action.kind is Kind.KNOCK), None)
        if knock is not None:
            who = names[game.current_pairings[at[0]].seats[knock.seat]]
            return f"{who} knocked after your last move and laid its melds open: a knock cannot go back, you have seen its cards"
        step = hand.history[i]
        if step.action.kind is Kind.STOCK:
            return (
                f"your last move drew {card_str(step.drawn)} from the stock: a card drawn from the stock cannot go "
                "back, you have seen it"
            )
        return self._other_table_refusal(at[0])

    def _other_table_refusal(self, mine: int) -> str | None:
        """Four players: why not, when the other table's hand ended after the person's last move."""
        game = self.table.match
        ended = [t for t, h in enumerate(game.tables) if t != mine and h.is_over]
        if not ended:
            return None
        seq = self._last_person_seq()
        numbers = {_index(game.hands, game.tables[t]): t for t in ended}
        after = {numbers[a.hand_no] for a in self.store.actions(self.row.id) if a.hand_no in numbers and a.seq > seq}
        if not after:
            return None
        a, b = (self.table.names[s] for s in game.current_pairings[min(after)].seats)
        return f"the other table's hand ({a} against {b}) ended after your last move: a finished hand cannot go back"

    def undo(self) -> tuple[Action, int]:
        """Take back the person's last move and every move stored after it (with four players, the
        other table's too); returns that move and how many moves of the person's own table went
        with it. The table plays on the replayed game."""
        why = self.undo_refusal()
        if why is not None:
            raise GinRummyError(why)
        game, person = self.table.match, self.person
        at = game.where(person) if person is not None else None
        i = self._last_person_move()
        assert at is not None and i is not None
        history = game.tables[at[0]].history
        undone, dropped = history[i].action, len(history) - i - 1
        keep = self._last_person_seq()
        new_id = uuid.uuid4().hex[:12]
        self.store.continue_game(self.row.id, new_id, actions=keep)
        stored = self.store.load_game(new_id)
        assert stored is not None
        self.row, self.actions, self.hands = stored.row, keep, len(stored.hands)
        self.table.match = stored.match
        self._attach()
        for seat, s in enumerate(self.table.seats):
            hook = getattr(s.player, "new_hand", None)
            seated = stored.match.where(seat)
            if hook is not None and seated is not None:
                hook(seated[1])  # its memory of the hand is of moves that are gone
        return undone, dropped


def _index(hands: Sequence[Hand], hand: Hand) -> int:
    """The number of ``hand`` among every hand of the game (counted over every table)."""
    return next(i for i in range(len(hands) - 1, -1, -1) if hands[i] is hand)


def _player_name(seat: Seat) -> str:
    if not seat.is_computer:
        return HUMAN
    return str(getattr(seat.player, "name", None) or seat.name)


def _default_player(name: str) -> Player:
    from .players import get_player

    return get_player(name)


def open_store(path: str | Path | None) -> Store:
    """The games store at ``path`` (default :data:`~ginrummy.storage.DEFAULT_DB`)."""
    return Store(path or DEFAULT_DB)


def save_game(table: Table[Any], db: str | Path | None = None, *, client: str = "tui", undo: bool = True) -> SavedGame:
    """Save the new game an app plays on ``table`` in the store at ``db``."""
    return SavedGame.start(open_store(db), table, client=client, undo=undo)


def resume_game(db: str | Path | None = None, *, clients: Sequence[str] = TERMINAL_CLIENTS) -> SavedGame:
    """The last unfinished terminal game in the store at ``db``; play on its ``table``."""
    return SavedGame.resume(open_store(db), clients=clients)


__all__ = ["NothingToResume", "SavedGame", "SavedTable", "open_store", "resume_game", "save_game"]
