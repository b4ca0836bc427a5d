"""Each game's last rules object, so a click does not rebuild it from the stored JSON.

Every change of a game's state is a compare-and-set that moves its ``version`` on and
stamps ``updated_at``, so a game built from a record holds for every record of the same
game with the same version and stamp: :class:`GameMemo` keeps it with the record it
came from, and hands it out for any such record, whichever read or write made it. The
record kept is what a click decides on without reading the row: compare-and-set then
checks that nobody changed the game meanwhile (see :mod:`bot.service.keeper`).
"""

from __future__ import annotations

import sys
import threading
from typing import Any, Final

from bot.records.games import GameRecord
from bot.records.memo import KEPT
from bot.rules import Game, game_from_json


def load_game(record: GameRecord) -> Game | None:
    """The game a record's state holds (None for a lobby), built from the state with its
    texts interned (:func:`interned`)."""
    state = record.state
    return game_from_json(interned(state)) if state else None


def interned(value: Any) -> Any:
    """``value`` (decoded JSON, changed in place) with every text in it interned.

    A game keeps texts of its state: each game's phase, the kinds and rows of the moves
    chosen, the board of an On Board game saved on a board not shipped (a shipped one is
    the shared board itself, :meth:`~bot.rules.boards.Board.from_json`). Decoded, each
    is a string of its own; interned, the games kept share one of each (0.1-0.2 MB less
    with 1,000 games open, ``bench_startup``). A
    game is built from its state only when the memo does not hold it (after a start, or
    a change made elsewhere), so clicks do not pay for this."""
    if type(value) is str:
        return sys.intern(value)
    if type(value) is dict:
        for key, item in value.items():
            if type(item) in _CONTAINERS:
                value[key] = interned(item)
    elif type(value) is list:
        for index, item in enumerate(value):
            if type(item) in _CONTAINERS:
                value[index] = interned(item)
    return value


_CONTAINERS: Final = frozenset({str, dict, list})


class GameMemo:
    """The last record seen of each lobby and running game, with its game (read on the
    computers' threads too)."""

    def __init__(self, kept: int = KEPT) -> None:
        self._kept = kept
        self._games: dict[int, tuple[GameRecord, Game | None]] = {}
        self._lock = threading.Lock()

    def game(self, record: GameRecord) -> Game | None:
        """``load_game(record)``, built only if the game kept is of another version; the
        record is kept as the latest seen either way."""
        kept = self._games.get(record.id)
        game = kept[1] if kept is not None and same_version(kept[0], record) else load_game(record)
        self.keep(record, game)
        return game

    def held(self, game_id: int) -> tuple[GameRecord, Game | None] | None:
        """The record last seen of ``game_id`` and its game, if kept."""
        return self._games.get(game_id)

    def keep(self, record: GameRecord, game: Game | None) -> None:
        """``game`` is what ``record``'s state holds (the game just stored with it);
        an ended game is let go rather than kept."""
        with self._lock:
            if not record.is_active:
                self._games.pop(record.id, None)
                return
            if len(self._games) >= self._kept and record.id not in self._games:
                self._games.clear()
            self._games[record.id] = (record, game)


def same_version(one: GameRecord, other: GameRecord) -> bool:
    """Whether two records of a game hold the same state (see the module)."""
    return one.version == other.version and one.updated_at == other.updated_at
