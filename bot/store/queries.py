"""The games' transactions, each a synchronous function of a
:class:`~bot.store.sql.Connection` run inside one write transaction by the engine
(:mod:`bot.store.engine`), and the checks of their arguments.

Written once, in SQLite's spelling: the PostgreSQL engine translates each statement
(:mod:`bot.store.dialect`), so both backends run these very functions. Every state
change is a compare-and-set on ``games.version``.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from functools import lru_cache
from operator import itemgetter
from typing import Any, Final

import orjson

from .cache import RecordCache
from .dialect import LOCK_ROW
from .errors import GameNotFound, VersionConflict, WrongStatus
from .records import (
    ABANDONED,
    FINISHED,
    GAME_COLUMNS,
    RUNNING,
    EventRow,
    GameChange,
    GameRecord,
    changed,
    dump_json,
    encoded,
    game_from_row,
    stored_state,
    timing_columns,
)
from .sql import Connection, Row
from .stats import write_results

log = logging.getLogger(__name__)

_INT64_MIN, _INT64_MAX = -(2**63), 2**63 - 1
ACTIVE_SQL: Final = "status IN ('lobby', 'running')"


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


Decode = Callable[[Row], GameRecord]
"""How a row becomes a record: :func:`game_from_row`, or a :class:`RecordCache`'s."""


GAME_SQL: Final = f"SELECT {GAME_COLUMNS} FROM games WHERE id = ?"
LOCKED_GAME_SQL: Final = GAME_SQL + LOCK_ROW


def fetch_game(
    conn: Connection, game_id: int, lock: bool = False, decode: Decode = game_from_row
) -> GameRecord | None:
    """The game's row; ``lock`` keeps other writers off it until the transaction ends
    (PostgreSQL's ``FOR UPDATE``; SQLite's one writer needs no more, and ignores the
    comment :mod:`bot.store.dialect` turns into it)."""
    row = conn.execute(LOCKED_GAME_SQL if lock else GAME_SQL, (game_id,)).fetchone()
    return None if row is None else decode(row)


def existing_game(
    conn: Connection, game_id: int, lock: bool = False, decode: Decode = game_from_row
) -> GameRecord:
    record = fetch_game(conn, game_id, lock, decode)
    if record is None:
        raise GameNotFound(game_id)
    return record


@lru_cache(maxsize=256)
def _update_sql(columns: tuple[str, ...], statuses: int) -> str:
    """The compare-and-set ``UPDATE`` of ``columns`` (a click's are a few, so each text is
    made once, and the connection's statement cache finds it by a hash kept with it)."""
    assignments = "".join(f"{column} = ?, " for column in columns)
    marks = ", ".join("?" * statuses)
    return (
        f"UPDATE games SET {assignments}version = version + 1, updated_at = ? "
        f"WHERE id = ? AND version = ? AND status IN ({marks})"
    )


def compare_and_set(
    conn: Connection,
    game_id: int,
    expected_version: int,
    allowed: tuple[str, ...],
    changes: dict[str, Any],
    now: float,
) -> None:
    """Apply ``changes`` and bump the version iff version and status match.

    ``changes`` keys are trusted column names from this module, never user input.
    Raises :class:`VersionConflict` or :class:`WrongStatus` when no row matched.
    """
    params = (*changes.values(), now, game_id, expected_version, *allowed)
    if conn.execute(_update_sql(tuple(changes), len(allowed)), params).rowcount == 1:
        return
    current = existing_game(conn, game_id)
    if current.version != expected_version:
        raise VersionConflict(game_id, expected_version, current.version)
    raise WrongStatus(game_id, current.status, allowed)


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


_MOVE: Final = itemgetter(1)
_DATA: Final = itemgetter(3)


_EVENT_SQL: Final = (
    "INSERT INTO game_events (game_id, seq, turn, kind, player, data) VALUES (?, "
    "(SELECT COALESCE(MAX(seq), 0) + 1 FROM game_events WHERE game_id = ?), ?, ?, ?, ?)"
)
_MOVE_SQL: Final = (
    "INSERT INTO moves (game_id, seq, player_id, move, created_at, source) VALUES (?, "
    "(SELECT COALESCE(MAX(seq), 0) + 1 FROM moves WHERE game_id = ?), ?, ?, ?, ?)"
)


def _append_events(
    conn: Connection, game_id: int, events: Sequence[EventRow], texts: Sequence[str] | None = None
) -> None:
    """Append ``events``; ``texts``: their data as JSON, if written already."""
    if not events:
        return
    if texts is None:
        texts = json_texts(list(map(_DATA, events)))
    conn.executemany(
        _EVENT_SQL,
        [
            (game_id, game_id, turn, kind, player, text)
            for (turn, kind, player, _), text in zip(events, texts, strict=True)
        ],
    )


def check_change(change: GameChange) -> None:
    if change.status not in (RUNNING, FINISHED, ABANDONED):
        raise ValueError(
            f"record_move status must be running, finished or abandoned, not {change.status!r}"
        )
    if change.results is not None and change.status != FINISHED:
        raise ValueError("results can only be recorded when the game finishes")
    for player_id, _, _ in change.moves:
        check_int("player_id", player_id)


_RECORD_COLUMNS: Final = ("stage_started", "deadline", "reminders", "finished_at")
"""Columns a change may set that :class:`GameRecord` holds under the same name."""


def store_change(
    conn: Connection,
    before: GameRecord,
    expected_version: int,
    change: GameChange,
    now: float,
    records: RecordCache,
) -> GameRecord:
    """Write ``change`` to the running game ``before`` (compare-and-set) inside the open
    transaction; the record after it, built without reading the row again (and kept
    in ``records`` with the row the write left)."""
    # The record holds the values read back from the stored text, as a read would.
    moves, events = change.moves, change.events
    texts = json_texts([change.state, *map(_MOVE, moves), *map(_DATA, events)])
    columns: dict[str, Any] = {"state": texts[0]}
    fields: dict[str, Any] = {
        "status": change.status,
        "version": before.version + 1,
        "updated_at": now,
        "state": stored_state(texts[0]),
    }
    if change.status != before.status:
        # Only then: setting a column rewrites the entries of every index that
        # names it (games_due, games_active_channel), a page each, even unchanged.
        columns["status"] = change.status
    columns.update(timing_columns(change.timing))
    if change.presence is not None and change.presence != before.presence:
        columns["presence"], fields["presence"] = encoded(change.presence)
    if change.status != RUNNING:
        columns.update(finished_at=now, next_due=None)
    fields.update({k: columns[k] for k in _RECORD_COLUMNS if k in columns})
    game_id = before.id
    compare_and_set(conn, game_id, expected_version, (RUNNING,), columns, now)
    moved = 1 + len(moves)
    conn.executemany(
        _MOVE_SQL,
        [
            (game_id, game_id, player_id, text, now, source)
            for (player_id, _, source), text in zip(moves, texts[1:moved], strict=True)
        ],
    )
    _append_events(conn, game_id, events, texts[moved:])
    record = changed(before, fields)
    if change.results is not None:
        write_results(conn, record, change.results, now)
    records.written(before, {**columns, "version": record.version, "updated_at": now}, record)
    return record


Shards = tuple[Sequence[int], int]
"""``(shard_ids, shard_count)``: the shards a process runs (Discord's
``(guild_id >> 22) % shard_count``)."""


def shard_filter(shards: Shards | None) -> tuple[str, tuple[int, ...]]:
    """The ``AND`` clause (and its parameters) keeping the games of ``shards``' guilds."""
    if shards is None:
        return "", ()
    ids, count = shards
    marks = ", ".join("?" for _ in ids) or "NULL"
    return f" AND (guild_id >> 22) % ? IN ({marks})", (count, *ids)


def log_change(record: GameRecord, change: GameChange) -> None:
    log.debug("game %d: %d move(s), now version %d", record.id, len(change.moves), record.version)
    if change.status == FINISHED:
        log.info("game %d finished", record.id)


def set_columns(
    conn: Connection,
    game_id: int,
    expected_version: int,
    allowed: tuple[str, ...],
    changes: dict[str, Any],
    events: Sequence[EventRow],
    ends: bool,
    now: float,
) -> GameRecord:
    """Compare-and-set ``changes`` and append ``events``; ``ends`` also stamps
    ``finished_at`` and clears ``next_due``. The record as it now is."""
    columns = {**changes, "finished_at": now, "next_due": None} if ends else changes
    compare_and_set(conn, game_id, expected_version, allowed, columns, now)
    _append_events(conn, game_id, events)
    return existing_game(conn, game_id)
