"""How a game's row changes: the compare-and-set on ``games.version`` every state
change is, the moves and events appended with it, and the checks of their arguments.

Each function runs inside the caller's write transaction (a :class:`~bot.store.engine.Tx`)
and is written once, in SQLite's spelling (PostgreSQL's engine translates it). A change
reads nothing: the compare-and-set returns the row as it wrote it (``RETURNING``), the
moves and events go in one ``INSERT`` each, whatever their count.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from functools import lru_cache
from operator import itemgetter
from typing import Any, Final

import orjson

from bot.records.errors import GameNotFound, VersionConflict, WrongStatus
from bot.records.games import (
    ABANDONED,
    FINISHED,
    RUNNING,
    Changed,
    EventRow,
    GameChange,
    GameRecord,
    Showing,
    StoredEvent,
)

from .cache import RecordCache
from .engine import Row, Tx, first
from .records import GAME_COLUMNS, dump_json, timing_columns
from .stats import write_results

log = logging.getLogger(__name__)

_INT64_MIN, _INT64_MAX = -(2**63), 2**63 - 1
ACTIVE_SQL: Final = "status IN ('lobby', 'running')"
GAME_SQL: Final = f"SELECT {GAME_COLUMNS} FROM games WHERE id = ?"


def check_int(name: str, value: object) -> None:
    """Require a plain int that fits a signed 64-bit column (IDs, seeds)."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"{name} must be an int, got {type(value).__name__}")
    if not _INT64_MIN <= value <= _INT64_MAX:
        raise ValueError(f"{name} does not fit in a signed 64-bit integer: {value}")


def check_players(players: Sequence[int]) -> list[int]:
    """Validate a seat-ordered list of distinct user ids."""
    players = list(players)
    for player in players:
        check_int("player id", player)
    if len(set(players)) != len(players):
        raise ValueError(f"duplicate player ids: {players}")
    return players


def check_change(change: GameChange) -> None:
    if change.status not in (RUNNING, FINISHED, ABANDONED):
        raise ValueError(
            f"a change's status must be running, finished or abandoned, not {change.status!r}"
        )
    if change.results is not None and change.status != FINISHED:
        raise ValueError("results can only be recorded when the game finishes")
    for player_id, _, _ in change.moves:
        check_int("player_id", player_id)


SHOWING_SQL: Final = (
    "shown_version = CASE WHEN shown_version < ? THEN ? ELSE shown_version END, "
    "message_id = CASE WHEN shown_version < ? THEN ? ELSE message_id END, "
    "shown = CASE WHEN shown_version < ? THEN ? ELSE shown END, "
    "behind_since = CASE WHEN shown_version < ? AND ? >= version THEN NULL "
    "ELSE behind_since END, "
)
"""What a :class:`~bot.records.games.Showing` sets, only if no newer or equal version is shown
already (another sync's, or another process's after a lost game lock): the
expressions read the row as it was before the ``UPDATE``."""


def showing_params(showing: Showing) -> tuple[Any, ...]:
    version = showing.version
    text = dump_json(showing.shown)
    return (version, version, version, showing.message_id, version, text, version, version)


@lru_cache(maxsize=256)
def _update_sql(columns: tuple[str, ...], statuses: int, showing: bool) -> str:
    """The compare-and-set ``UPDATE`` of ``columns`` (a click's are a few, so each text is
    made once, and the connection's statement cache finds it by a hash kept with it)."""
    assignments = "".join(f"{column} = ?, " for column in columns)
    marks = ", ".join("?" * statuses)
    return (
        f"UPDATE games SET {assignments}{SHOWING_SQL if showing else ''}"
        "version = version + 1, updated_at = ? "
        f"WHERE id = ? AND version = ? AND status IN ({marks}) RETURNING {GAME_COLUMNS}"
    )


async def compare_and_set(
    tx: Tx,
    game_id: int,
    expected_version: int,
    allowed: tuple[str, ...],
    changes: dict[str, Any],
    now: float,
    showing: Showing | None = None,
) -> Row:
    """Apply ``changes`` (and ``showing``) and bump the version iff version and status
    match; the row as written.

    ``changes`` keys are trusted column names from this package, never user input.
    Raises :class:`VersionConflict` or :class:`WrongStatus` when no row matched (only
    then is the row read, to say which).
    """
    shown = () if showing is None else showing_params(showing)
    params = (*changes.values(), *shown, now, game_id, expected_version, *allowed)
    sql = _update_sql(tuple(changes), len(allowed), showing is not None)
    row = first(await tx.fetch(sql, params))
    if row is not None:
        return row
    current = first(await tx.fetch("SELECT version, status FROM games WHERE id = ?", (game_id,)))
    if current is None:
        raise GameNotFound(game_id)
    if current[0] != expected_version:
        raise VersionConflict(game_id, expected_version, int(current[0]))
    raise WrongStatus(game_id, str(current[1]), allowed)


def json_texts(values: list[Any]) -> list[str]:
    """Each of ``values`` as :func:`~bot.store.records.dump_json` writes it (strict: no
    NaN or Infinity, nothing but JSON's own types), checked all at once: orjson's
    texts when the list of them reads back as ``values`` (then so does each, which is
    :func:`~bot.store.records.encoded`'s test), else each value's own way, with its
    text or its error. A click stores its state, move and events: one check, not five."""
    try:
        texts = list(map(orjson.dumps, values))  # map, not a comprehension: no frame
    except orjson.JSONEncodeError:
        return [dump_json(value) for value in values]
    if orjson.loads(b"[" + b",".join(texts) + b"]") == values:
        return list(map(bytes.decode, texts))
    return [dump_json(value) for value in values]


@lru_cache(maxsize=64)
def _appending(table: str, columns: str, values: str, per_row: int, count: int) -> str:
    """One ``INSERT`` of ``count`` rows into a game's log ``table``, numbered on from its
    last ``seq``, which returns their ``seq``s. ``values`` spells the columns after
    ``seq`` from ``v``, the rows of ``per_row`` parameters each (``VALUES`` names its
    columns ``column1``…; ``column1`` is the row's place, given here)."""
    marks = ", ".join("?" * per_row)
    rows = ", ".join(f"({k}, {marks})" for k in range(1, count + 1))
    return (
        f"INSERT INTO {table} (game_id, seq, {columns}) SELECT ?, tail.seq + v.column1, "
        f"{values} FROM (SELECT COALESCE(MAX(seq), 0) AS seq FROM {table} "
        f"WHERE game_id = ?) AS tail, (VALUES {rows}) AS v RETURNING seq"
    )


# Each log's columns after ``seq``, and how a ``VALUES`` row spells them with how many
# parameters (a move's time is one parameter for all its moves: the change's).
_EVENTS: Final = ("game_events", "turn, kind, player, data")
_EVENT_VALUES: Final = ("v.column2, v.column3, CAST(v.column4 AS BIGINT), v.column5", 4)
_MOVES: Final = ("moves", "player_id, move, created_at, source")
_MOVE_VALUES: Final = ("v.column2, v.column3, ?, v.column4", 3)
_MOVE: Final = itemgetter(1)
_DATA: Final = itemgetter(3)


async def append_events(
    tx: Tx, game_id: int, events: Sequence[EventRow], texts: Sequence[str] | None = None
) -> tuple[StoredEvent, ...]:
    """Append ``events`` (``texts``: their data as JSON, if written already); as stored."""
    if not events:
        return ()
    if texts is None:
        texts = json_texts(list(map(_DATA, events)))
    params: list[Any] = [game_id, game_id]
    for (turn, kind, player, _), text in zip(events, texts, strict=True):
        params += (turn, kind, player, text)
    sql = _appending(*_EVENTS, *_EVENT_VALUES, len(events))
    first_seq = min(row[0] for row in await tx.fetch(sql, params))
    return tuple(
        StoredEvent(first_seq + k, turn, kind, player, orjson.loads(text))
        for k, ((turn, kind, player, _), text) in enumerate(zip(events, texts, strict=True))
    )


async def append_moves(
    tx: Tx,
    game_id: int,
    moves: Sequence[tuple[int, dict[str, Any], str]],
    texts: Sequence[str],
    now: float,
) -> None:
    """Append ``moves`` (``texts``: each move as JSON), made at ``now``."""
    if not moves:
        return
    params: list[Any] = [game_id, now, game_id]
    for (player_id, _, source), text in zip(moves, texts, strict=True):
        params += (player_id, text, source)
    sql = _appending(*_MOVES, *_MOVE_VALUES, len(moves))
    await tx.fetch(sql, params)


async def store_change(
    tx: Tx,
    before: GameRecord,
    change: GameChange,
    now: float,
    records: RecordCache,
    showing: Showing | None = None,
) -> Changed:
    """Write ``change`` to the running game ``before`` (compare-and-set on its version),
    and ``showing`` with it, inside the open transaction; the record as written, and the
    events as stored."""
    moves, events = change.moves, change.events
    texts = json_texts([change.state, *map(_MOVE, moves), *map(_DATA, events)])
    columns: dict[str, Any] = {"state": texts[0]}
    if change.status != before.status:
        # Only then: setting a column rewrites the entries of every index that
        # names it (games_due, games_active_channel), a page each, even unchanged.
        columns["status"] = change.status
    columns.update(timing_columns(change.timing))
    if change.presence is not None and change.presence != before.presence:
        columns["presence"] = dump_json(change.presence)
    if change.status != RUNNING:
        columns.update(finished_at=now, next_due=None)
    game_id = before.id
    row = await compare_and_set(tx, game_id, before.version, (RUNNING,), columns, now, showing)
    moved = 1 + len(moves)
    await append_moves(tx, game_id, moves, texts[1:moved], now)
    stored = await append_events(tx, game_id, events, texts[moved:])
    record = records.record(row)
    if change.results is not None:
        await write_results(tx, record, change.results, now)
    return Changed(record, stored)


def log_change(record: GameRecord, change: GameChange) -> None:
    log.debug("game %d: %d move(s), now version %d", record.id, len(change.moves), record.version)
    if change.status == FINISHED:
        log.info("game %d finished", record.id)
