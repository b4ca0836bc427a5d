"""Typed records returned by :class:`bot.store.Store` reads, plus JSON helpers."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, fields
from json.encoder import (  # type: ignore[attr-defined]  # typeshed omits the C encoder
    c_make_encoder,
    encode_basestring,
)
from operator import attrgetter
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


class _StateText:
    """A game's state as the JSON text it was stored as (see :func:`stored_state`)."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text


_STATE_SLOT: Final = GameRecord.__dict__["state"]
"""Where a record keeps ``state``: a dict or None, or the text it was stored as."""


def _read_state(record: GameRecord) -> dict[str, Any] | None:
    value = _STATE_SLOT.__get__(record, GameRecord)
    state: dict[str, Any] | None = load_json(value.text) if type(value) is _StateText else value
    return state


# ``GameRecord.state`` reads through this property; the dataclass's __init__ (and so
# ``replace``, ``==``, ``repr``) still set and read the attribute by its name.
GameRecord.state = property(  # type: ignore[misc, assignment]  # the field's slot read through a property
    _read_state, _STATE_SLOT.__set__, doc="The game's state (None in the lobby)."
)


def stored_state(text: str | None) -> Any:
    """The value for :class:`GameRecord`'s ``state`` that keeps ``text`` (stored JSON)
    and decodes it only when the attribute is read: the service plays on its own game
    object and rarely reads a state, and a decoded state is several times the size of
    its text (about 7 KB against 1 KB, for each game kept in memory)."""
    return None if text is None else _StateText(text)


def state_text(record: GameRecord) -> str | None:
    """The text a record's state was stored as, if it keeps one (None otherwise)."""
    value = _STATE_SLOT.__get__(record, GameRecord)
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


def timing_columns(timing: Timing | None) -> dict[str, Any]:
    """The ``games`` columns a timing sets (none when ``timing`` is None)."""
    if timing is None:
        return {}
    return {
        "stage_started": timing.stage_started,
        "deadline": timing.deadline,
        "reminders": timing.reminders,
        "next_due": timing.next_due,
    }


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
    """What :meth:`Store.record_move` records with a game's end.

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


_FIELDS: Final = tuple(f.name for f in fields(GameRecord))
_FIELD_AT: Final = {name: i for i, name in enumerate(_FIELDS)}
_STATE_AT: Final = _FIELD_AT["state"]
_other_values: Final = attrgetter(*(name for name in _FIELDS if name != "state"))


def changed(record: GameRecord, changes: dict[str, Any]) -> GameRecord:
    """``dataclasses.replace(record, **changes)`` in a quarter of its time (it runs
    once per click, on the writer's thread); a state kept as text stays text."""
    values = list(_other_values(record))
    values.insert(_STATE_AT, _STATE_SLOT.__get__(record, GameRecord))
    for name, value in changes.items():
        values[_FIELD_AT[name]] = value
    return GameRecord(*values)


GAME_COLUMNS: Final = (
    "id, guild_id, channel_id, message_id, host_id, variant, options, seed, players, "
    "state, status, version, created_at, updated_at, finished_at, turn_time, stage_started, "
    "deadline, reminders, presence, shown_version, shown, behind_since"
)
MOVE_COLUMNS: Final = "game_id, seq, player_id, move, created_at, source"


_ENCODER: Final = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, allow_nan=False)
_C_ENCODE: Final = (
    None
    if c_make_encoder is None
    else c_make_encoder(
        None, _ENCODER.default, encode_basestring, None, ":", ",", False, False, False
    )
)
"""json's C encoder, made once (``json.dumps`` with options builds it, and an encoder,
on every call; a click encodes about six values). Made without the table of values
being encoded, which is what makes it safe to share between threads: a value that
contains itself raises :class:`RecursionError` rather than :class:`ValueError`."""


def _strict_json(value: Any) -> str:
    if _C_ENCODE is None:
        return _ENCODER.encode(value)
    return "".join(_C_ENCODE(value, 0))


def encoded(value: Any) -> tuple[str, Any]:
    """``value`` as strict, compact JSON (NaN/Infinity rejected, so any backend accepts
    it), and the value a read of that text finds.

    orjson writes the text, several times faster than :mod:`json`, whenever that text
    reads back as ``value`` itself, which is then exactly what :mod:`json` writes
    (floats aside, that may spell an exponent shorter: ``1e-7``). Whatever does not
    (NaN, which orjson writes as ``null``; keys that are not strings; a tuple; a value
    :mod:`json` refuses) takes :mod:`json`'s way, with its text or its error.
    """
    try:
        text = orjson.dumps(value)
    except orjson.JSONEncodeError:
        pass
    else:
        found = orjson.loads(text)
        if found == value:
            return text.decode(), found
    strict = _strict_json(value)
    return strict, load_json(strict)


def dump_json(value: Any) -> str:
    """:func:`encoded`'s text alone."""
    return encoded(value)[0]


load_json: Final[Callable[[str], Any]] = orjson.loads
"""Decode stored JSON: orjson reads what :func:`dump_json` writes (integers within
64 bits, as every stored one is) to the same values as :func:`json.loads`, in a fifth
of the time; a game's state is decoded after every write and every read the record
cache misses."""


def game_from_row(row: Any) -> GameRecord:
    """Build a :class:`GameRecord` from a row selected with :data:`GAME_COLUMNS`."""
    (gid, guild, channel, message, host, variant, options, seed, players,
     state, status, version, created, updated, finished, turn_time, stage_started,
     deadline, reminders, presence, shown_version, shown, behind_since) = row  # fmt: skip
    return GameRecord(
        id=gid,
        guild_id=guild,
        channel_id=channel,
        message_id=message,
        host_id=host,
        variant=variant,
        options=load_json(options),
        seed=seed,
        players=load_json(players),
        state=stored_state(state),
        status=status,
        version=version,
        created_at=created,
        updated_at=updated,
        finished_at=finished,
        turn_time=turn_time,
        stage_started=stage_started,
        deadline=deadline,
        reminders=reminders,
        presence=load_json(presence),
        shown_version=shown_version,
        shown=load_json(shown),
        behind_since=behind_since,
    )


def move_from_row(row: Any) -> MoveRecord:
    """Build a :class:`MoveRecord` from a row selected with :data:`MOVE_COLUMNS`."""
    game_id, seq, player_id, move, created, source = row
    return MoveRecord(game_id, seq, player_id, load_json(move), created, source)
