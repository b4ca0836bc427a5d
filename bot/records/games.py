"""A game as the store hands it out and takes a change of it in: its record, its
moves and events, its results and what its channel shows."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Literal

import orjson

GameStatus = Literal["lobby", "running", "finished", "abandoned"]

LOBBY: Final = "lobby"
RUNNING: Final = "running"
FINISHED: Final = "finished"
ABANDONED: Final = "abandoned"
STATUSES: Final[tuple[str, ...]] = (LOBBY, RUNNING, FINISHED, ABANDONED)
ACTIVE_STATUSES: Final[tuple[str, ...]] = (LOBBY, RUNNING)
ENDED_STATUSES: Final[tuple[str, ...]] = (FINISHED, ABANDONED)
NO_SERVER: Final = 0
"""The guild id of what belongs to no server the bot is in: a daily attempt or a practice
game begun in a direct message, a group chat or a server that never added the bot."""


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One row of ``games``, with ``options``/``players``/``state`` decoded from JSON.

    Timestamps are unix seconds (floats) from the store's clock. A record the store
    reads or writes keeps ``state`` as its stored text and decodes it at each read of
    the attribute (a new dict each time, see :func:`stored_state`).
    """

    id: int
    guild_id: int
    channel_id: int
    message_id: int | None
    host_id: int
    variant: str
    options: dict[str, Any]
    seed: int
    players: list[int]
    state: dict[str, Any] | None
    status: GameStatus
    version: int
    created_at: float
    updated_at: float
    finished_at: float | None
    turn_time: int = 86400
    """Seconds each decision may take before it resolves as "no cross"."""
    stage_started: float | None = None
    """When the current decision began (None while no decision is pending)."""
    deadline: float | None = None
    reminders: int = 0
    """Reminders already sent for the current decision (0-2)."""
    presence: dict[str, Any] = field(default_factory=dict)
    """Seats the game no longer waits for: ``{"away": [ids], "streak": {id: n}}``."""
    shown_version: int = 0
    """The version the channel shows; below ``version``, the channel lags the store."""
    shown: dict[str, Any] = field(default_factory=dict)
    """What the channel shows, as the publisher left it (turn of ``message_id``, who
    was mentioned in it, whether the end was posted)."""
    behind_since: float | None = None
    """When the channel first could not be brought up to date (a write to Discord failed,
    or a change was made while Discord was away); None while it is in sync, or lags only
    because nothing tried to show the change yet. Cleared by the write that brings the
    channel to ``version``; the catch-up after an outage goes oldest first by it."""

    @property
    def is_active(self) -> bool:
        """True while the game is in the lobby or running."""
        return self.status in ACTIVE_STATUSES


def in_no_channel(record: GameRecord) -> bool:
    """Whether ``record``'s game is played in no channel (a daily attempt, a practice
    game: its ``channel_id`` is a negative number of its own, see :mod:`bot.service.hidden`)."""
    return record.channel_id < 0


class _StateText:
    """A game's state as the JSON text it was stored as (see :func:`stored_state`)."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text


STATE_SLOT: Final = GameRecord.__dict__["state"]
"""Where a record keeps ``state``: a dict or None, or the text it was stored as."""
_load: Final[Callable[[str], Any]] = orjson.loads


def _read_state(record: GameRecord) -> dict[str, Any] | None:
    value = STATE_SLOT.__get__(record, GameRecord)
    state: dict[str, Any] | None = _load(value.text) if type(value) is _StateText else value
    return state


# ``GameRecord.state`` reads through this property; the dataclass's __init__ (and so
# ``replace``, ``==``, ``repr``) still set and read the attribute by its name.
GameRecord.state = property(  # type: ignore[misc, assignment]  # the field's slot read through a property
    _read_state, STATE_SLOT.__set__, doc="The game's state (None in the lobby)."
)


def stored_state(text: str | None) -> Any:
    """The value for :class:`GameRecord`'s ``state`` that keeps ``text`` (stored JSON)
    and decodes it only when the attribute is read: the service plays on its own game
    object and rarely reads a state, and a decoded state is several times the size of
    its text (about 7 KB against 1 KB, for each game kept in memory)."""
    return None if text is None else _StateText(text)


def state_text(record: GameRecord) -> str | None:
    """The text a record's state was stored as, if it keeps one (None otherwise)."""
    value = STATE_SLOT.__get__(record, GameRecord)
    return value.text if type(value) is _StateText else None


@dataclass(frozen=True, slots=True)
class MoveRecord:
    """One row of ``moves``: the ``seq``-th move of a game."""

    game_id: int
    seq: int
    player_id: int
    move: dict[str, Any]
    created_at: float
    source: str = "player"
    """Who decided: ``player``; ``computer`` for a computer seat; ``stand_in`` for a
    computer playing an away player's seat; or the game for a player (``expired``,
    ``away``)."""


@dataclass(frozen=True, slots=True)
class StoredEvent:
    """One row of ``game_events``: something that happened in ``turn`` of a game."""

    seq: int
    turn: int
    kind: str
    player: int | None
    data: dict[str, Any]


@dataclass(frozen=True, slots=True)
class Timing:
    """The pending decision's clock as stored; ``next_due`` is what the scheduler queries."""

    stage_started: float | None
    deadline: float | None
    reminders: int
    next_due: float | None


NO_TIMING: Final = Timing(None, None, 0, None)

EventRow = tuple[int, str, int | None, dict[str, Any]]
"""An event to store: ``(turn, kind, player, data)``."""


@dataclass(frozen=True, slots=True)
class PlayerResult:
    """One player's line of a finished game, as the service hands it to the store."""

    player_id: int
    seat: int  # 0-based seat order
    score: int
    rank: int  # 1 = best; equal scores share a rank
    won: bool
    stand_in: bool = False
    """A computer played the seat for a while (its player away): it counts for nobody."""


@dataclass(frozen=True, slots=True)
class GameResults:
    """What a game's end records (see :mod:`bot.store.stats`).

    ``counted`` is False for a game that ended without a ranking worth counting; it
    is kept in the history but left out of every statistic.
    """

    turns: int
    players: tuple[PlayerResult, ...]
    counted: bool = True
    practice: bool = False  # a solo practice game (its best scores are personal bests)
    hints: bool = False  # a game played with the Hint button


@dataclass(frozen=True, slots=True)
class GameChange:
    """What one step of a running game stores, in one transaction.

    ``moves`` are ``(player_id, move, source)`` in the order they were applied;
    ``source`` says who decided (``player``, ``computer``, or ``expired``/``away`` for
    the game). ``status`` is ``running``, ``finished`` (which sets ``finished_at``) or
    ``abandoned``; ``results`` (only with ``finished``) are recorded with it.
    ``timing`` and ``presence`` replace the game's when given; ``events`` (what the
    moves caused, for the channel) are appended.
    """

    moves: Sequence[tuple[int, dict[str, Any], str]]
    state: dict[str, Any]
    status: str = RUNNING
    results: GameResults | None = None
    timing: Timing | None = None
    presence: dict[str, Any] | None = None
    events: Sequence[EventRow] = ()


@dataclass(frozen=True, slots=True)
class Showing:
    """What a game's channel shows, to be stored with a change of the game: the
    ``version`` shown, in ``message_id``, with ``shown`` as the publisher left it (see
    :attr:`GameRecord.shown`)."""

    version: int
    message_id: int | None
    shown: dict[str, Any]


@dataclass(frozen=True, slots=True)
class Changed:
    """A stored change: the game's record after it, and its events as stored."""

    record: GameRecord
    events: tuple[StoredEvent, ...] = ()


@dataclass(frozen=True)
class InPlay:
    """A lobby or running game, with the people who still play in it: a lobby's
    seats, a running game's seats but those away (they left, or stopped deciding)."""

    game_id: int
    people: frozenset[int]
