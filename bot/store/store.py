"""The :class:`Store`: async persistence of games and their moves.

``Store(target)`` is SQLite for a file path (the default) and
:class:`~bot.store.postgres.PostgresStore` for a ``postgresql://`` URL. Both run the
same queries: each transaction is one synchronous function of a
:class:`~bot.store.sql.Connection` in this module (SQLite's spelling, translated for
PostgreSQL by :mod:`bot.store.dialect`); the subclass only swaps the connections
(:meth:`Store._transact`, :meth:`Store._fetch`, :meth:`Store.game_lock`).

Concurrency: every state change is a compare-and-set on ``games.version`` inside
one write transaction. Writes go through one connection whose thread (aiosqlite's)
runs each of this module's transactions as one function, in the order they were sent:
one round trip per transaction, and under load one for many (group commit: those sent
while the writer is busy share the next commit, each still atomic on its own).
Reads use a second connection (in WAL mode they never wait behind a write). Across
processes SQLite's write lock (with a busy timeout) serialises writers.

A click's read of its game reuses the record its last write left (see
:mod:`bot.store.cache`) while the row is unchanged; so does the service's rules object.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import time
from collections.abc import Callable, Sequence
from contextlib import AbstractAsyncContextManager
from functools import lru_cache
from pathlib import Path
from types import TracebackType
from typing import Any, Final, Self

import aiosqlite

from .cache import RecordCache
from .dialect import LOCK_ROW
from .errors import ChannelBusy, GameNotFound, StoreError, VersionConflict, WrongStatus
from .locks import KeyedLocks
from .migrations import apply_migrations
from .records import (
    ABANDONED,
    ACTIVE_STATUSES,
    FINISHED,
    GAME_COLUMNS,
    LOBBY,
    MOVE_COLUMNS,
    RUNNING,
    EventRow,
    GameChange,
    GameRecord,
    MoveRecord,
    StoredEvent,
    Timing,
    changed,
    dump_json,
    encoded,
    game_from_row,
    load_json,
    move_from_row,
    timing_columns,
)
from .sql import Connection, Row, T, Work
from .stats import GameResults, StatsQueries, write_results

log = logging.getLogger(__name__)

Clock = Callable[[], float]

_INT64_MIN, _INT64_MAX = -(2**63), 2**63 - 1
_POSTGRES_SCHEMES = ("postgresql:", "postgres:")
_ACTIVE_SQL = "status IN ('lobby', 'running')"
_NAMES_KEPT = 10_000  # display names remembered in memory, so an unchanged one costs nothing
_CHECKPOINT_EVERY = 200
"""Write transactions between two WAL checkpoints. These run on a connection (and
thread) of their own, so no click waits while pages are copied and flushed to disk."""
_BATCH = 128
"""Transactions committed together at most: the first of a long queue hears back
sooner, and the write lock is never held long for other processes."""
_WRITER_CHECKPOINT_PAGES = 10_000  # the writer checkpoints itself only if those fall behind


def _check_int(name: str, value: object) -> None:
    """Require a plain int that fits a signed 64-bit column (IDs, seeds)."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"{name} must be an int, got {type(value).__name__}")
    if not _INT64_MIN <= value <= _INT64_MAX:
        raise ValueError(f"{name} does not fit in a signed 64-bit integer: {value}")


def _check_players(players: Sequence[int]) -> list[int]:
    """Validate a seat-ordered list of distinct user ids."""
    players = list(players)
    for player in players:
        _check_int("player id", player)
    if len(set(players)) != len(players):
        raise ValueError(f"duplicate player ids: {players}")
    return players


def _is_memory(path: str | Path) -> bool:
    """An in-memory database: a second connection would open another, empty one."""
    return str(path) in ("", ":memory:")


def _atomically(conn: sqlite3.Connection, work: Work[T]) -> T:
    """Run ``work`` in one write transaction: committed on success, rolled back on any error."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        result = work(conn)
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    return result


Decode = Callable[[Row], GameRecord]
"""How a row becomes a record: :func:`game_from_row`, or a :class:`RecordCache`'s."""


class _WroteThenFailed(Exception):
    """A transaction of a batch failed after writing: the batch goes again, each under
    a savepoint of its own."""


def _atomically_each(conn: sqlite3.Connection,
                     works: Sequence[Work[Any]]) -> list[tuple[bool, Any]]:
    """Run ``works`` in order in one write transaction, each as if alone: what one
    raises undoes that one alone and is its outcome ``(False, error)``; the others'
    are ``(True, result)``. One commit for all: should it fail (or an error undo the
    whole transaction), every work fails with that error.

    A work that fails has mostly written nothing (a refused click, a lost
    compare-and-set): then there is nothing to undo. So the batch first runs without
    savepoints (two statements a work fewer); only if a work fails after writing is
    everything rolled back and run again, each work under a savepoint."""
    try:
        return _each_in_one(conn, works, saved=False)
    except _WroteThenFailed:
        return _each_in_one(conn, works, saved=True)


def _each_in_one(conn: sqlite3.Connection, works: Sequence[Work[Any]],
                 saved: bool) -> list[tuple[bool, Any]]:
    conn.execute("BEGIN IMMEDIATE")
    outcomes: list[tuple[bool, Any]] = []
    try:
        for work in works:
            if saved:
                conn.execute("SAVEPOINT work")
            written = conn.total_changes
            try:
                outcomes.append((True, work(conn)))
            except Exception as exc:
                if not conn.in_transaction:  # SQLite rolled everything back (I/O, full)
                    raise
                if saved:
                    conn.execute("ROLLBACK TO work")
                elif conn.total_changes != written:
                    raise _WroteThenFailed from exc
                outcomes.append((False, exc))
            if saved:
                conn.execute("RELEASE work")
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    return outcomes


Queued = tuple[Work[Any], "asyncio.Future[Any]"]


_GAME_SQL: Final = f"SELECT {GAME_COLUMNS} FROM games WHERE id = ?"
_LOCKED_GAME_SQL: Final = _GAME_SQL + LOCK_ROW


def _fetch_game(conn: Connection, game_id: int, lock: bool = False,
                decode: Decode = game_from_row) -> GameRecord | None:
    """The game's row; ``lock`` keeps other writers off it until the transaction ends
    (PostgreSQL's ``FOR UPDATE``; SQLite's one writer needs no more, and ignores the
    comment :mod:`bot.store.dialect` turns into it)."""
    row = conn.execute(_LOCKED_GAME_SQL if lock else _GAME_SQL, (game_id,)).fetchone()
    return None if row is None else decode(row)


def _existing_game(conn: Connection, game_id: int, lock: bool = False,
                   decode: Decode = game_from_row) -> GameRecord:
    record = _fetch_game(conn, game_id, lock, decode)
    if record is None:
        raise GameNotFound(game_id)
    return record


@lru_cache(maxsize=256)
def _update_sql(columns: tuple[str, ...], statuses: int) -> str:
    """The compare-and-set ``UPDATE`` of ``columns`` (a click's are a few, so each text is
    made once, and the connection's statement cache finds it by a hash kept with it)."""
    assignments = "".join(f"{column} = ?, " for column in columns)
    marks = ", ".join("?" * statuses)
    return (f"UPDATE games SET {assignments}version = version + 1, updated_at = ? "
            f"WHERE id = ? AND version = ? AND status IN ({marks})")


def _compare_and_set(conn: Connection, game_id: int, expected_version: int,
                     allowed: tuple[str, ...], changes: dict[str, Any], now: float) -> None:
    """Apply ``changes`` and bump the version iff version and status match.

    ``changes`` keys are trusted column names from this module, never user input.
    Raises :class:`VersionConflict` or :class:`WrongStatus` when no row matched.
    """
    params = (*changes.values(), now, game_id, expected_version, *allowed)
    if conn.execute(_update_sql(tuple(changes), len(allowed)), params).rowcount == 1:
        return
    current = _existing_game(conn, game_id)
    if current.version != expected_version:
        raise VersionConflict(game_id, expected_version, current.version)
    raise WrongStatus(game_id, current.status, allowed)


def _append_events(conn: Connection, game_id: int, events: Sequence[EventRow]) -> None:
    if not events:
        return
    conn.executemany(
        "INSERT INTO game_events (game_id, seq, turn, kind, player, data) VALUES (?, "
        "(SELECT COALESCE(MAX(seq), 0) + 1 FROM game_events WHERE game_id = ?), ?, ?, ?, ?)",
        [(game_id, game_id, turn, kind, player, dump_json(data))
         for turn, kind, player, data in events])


def _check_change(change: GameChange) -> None:
    if change.status not in (RUNNING, FINISHED, ABANDONED):
        raise ValueError(f"record_move status must be running, finished or abandoned, "
                         f"not {change.status!r}")
    if change.results is not None and change.status != FINISHED:
        raise ValueError("results can only be recorded when the game finishes")
    for player_id, _, _ in change.moves:
        _check_int("player_id", player_id)


_RECORD_COLUMNS = ("stage_started", "deadline", "reminders", "finished_at")
"""Columns a change may set that :class:`GameRecord` holds under the same name."""


def _store_change(conn: Connection, before: GameRecord, expected_version: int,
                  change: GameChange, now: float, records: RecordCache) -> GameRecord:
    """Write ``change`` to the running game ``before`` (compare-and-set) inside the open
    transaction; the record after it, built without reading the row again (and kept
    in ``records`` with the row the write left)."""
    # The record holds the values read back from the stored text, as a read would.
    columns: dict[str, Any] = {}
    fields: dict[str, Any] = {"status": change.status, "version": before.version + 1,
                              "updated_at": now}
    columns["state"], fields["state"] = encoded(change.state)
    if change.status != before.status:
        # Only then: setting a column rewrites the entries of every index that
        # names it (games_due, games_active_channel), a page each, even unchanged.
        columns["status"] = change.status
    columns.update(timing_columns(change.timing))
    if change.presence is not None and change.presence != before.presence:
        columns["presence"], fields["presence"] = encoded(change.presence)
    if change.status != RUNNING:
        columns.update(finished_at=now, next_due=None)
    _compare_and_set(conn, before.id, expected_version, (RUNNING,), columns, now)
    conn.executemany(
        "INSERT INTO moves (game_id, seq, player_id, move, created_at, source) VALUES (?, "
        "(SELECT COALESCE(MAX(seq), 0) + 1 FROM moves WHERE game_id = ?), ?, ?, ?, ?)",
        [(before.id, before.id, player_id, dump_json(move), now, source)
         for player_id, move, source in change.moves])
    _append_events(conn, before.id, change.events)
    fields.update({k: columns[k] for k in _RECORD_COLUMNS if k in columns})
    record = changed(before, fields)
    if change.results is not None:
        write_results(conn, record, change.results, now)
    records.written(before, {**columns, "version": record.version, "updated_at": now}, record)
    return record


Shards = tuple[Sequence[int], int]
"""``(shard_ids, shard_count)``: the shards a process runs (Discord's
``(guild_id >> 22) % shard_count``)."""


def _shard_filter(shards: Shards | None) -> tuple[str, tuple[int, ...]]:
    """The ``AND`` clause (and its parameters) keeping the games of ``shards``' guilds."""
    if shards is None:
        return "", ()
    ids, count = shards
    marks = ", ".join("?" for _ in ids) or "NULL"
    return f" AND (guild_id >> 22) % ? IN ({marks})", (count, *ids)


def _log_change(record: GameRecord, change: GameChange) -> None:
    log.debug("game %d: %d move(s), now version %d", record.id, len(change.moves),
              record.version)
    if change.status == FINISHED:
        log.info("game %d finished", record.id)


def is_postgres_url(target: str | Path) -> bool:
    """Whether ``target`` names a PostgreSQL database rather than a SQLite file."""
    if isinstance(target, Path) and str(target).startswith(_POSTGRES_SCHEMES):
        raise ValueError(f"{target}: pass a PostgreSQL URL as a str (a Path drops a slash)")
    return isinstance(target, str) and target.startswith(_POSTGRES_SCHEMES)


class Store(StatsQueries):
    """Persistence for games and moves, and the results of finished games.

    Create with ``await Store.open(target)`` or ``async with Store(target) as store``:
    ``target`` is a SQLite file path or a ``postgresql://`` URL (see the module).
    ``clock`` returns unix seconds and stamps ``created_at``/``updated_at``/
    ``finished_at``/move ``created_at`` (default :func:`time.time`).
    """

    schema_version = 0
    """The schema version found or made by :meth:`connect`."""

    def __new__(cls, path: str | Path, **_: Any) -> Self:
        if cls is Store and is_postgres_url(path):
            from .postgres import PostgresStore

            return super().__new__(PostgresStore)  # type: ignore[return-value]
        return super().__new__(cls)

    def __init__(
        self, path: str | Path, *, clock: Clock = time.time, busy_timeout: float = 5.0
    ) -> None:
        self.path = path
        self._clock = clock
        self._busy_timeout_ms = int(busy_timeout * 1000)
        self._db: aiosqlite.Connection | None = None
        self._reader: aiosqlite.Connection | None = None
        self._checkpointer: aiosqlite.Connection | None = None
        self._checkpointing: asyncio.Task[None] | None = None
        self._writes = 0
        self._lock = asyncio.Lock()
        self._queued: list[Queued] = []
        self._draining: asyncio.Task[None] | None = None  # kept: a task must be referenced
        self._writing = False
        self._idle = asyncio.Event()  # set while no transaction is sent or queued
        self._idle.set()
        self._names: dict[tuple[int, int], str] = {}
        self._game_locks = KeyedLocks()
        self._records = RecordCache()

    # -- lifecycle -----------------------------------------------------------------

    @classmethod
    async def open(
        cls, path: str | Path, *, clock: Clock = time.time, busy_timeout: float = 5.0
    ) -> Self:
        """Connect to ``path`` (a SQLite file, created if missing, or a PostgreSQL URL)
        and apply pending migrations."""
        store = cls(path, clock=clock, busy_timeout=busy_timeout)
        await store.connect()
        return store

    async def connect(self) -> None:
        """Open the connections and migrate; a no-op if already connected."""
        if self._db is not None:
            return
        db = await aiosqlite.connect(self.path, isolation_level=None)
        sides: list[aiosqlite.Connection] = []
        try:
            await self._configure(db)
            version = await apply_migrations(db, self._clock())
            if not _is_memory(self.path):
                sides.append(await self._open_side(reads_only=True))
                sides.append(await self._open_side(reads_only=False))
        except BaseException as exc:
            for connection in (*sides, db):
                await connection.close()
            if isinstance(exc, sqlite3.Error):
                raise StoreError(f"cannot open store {self.path}: {exc}") from exc
            raise
        self._db = db
        self._reader, self._checkpointer = sides or (db, None)
        self.schema_version = version
        log.info("store %s open (schema version %d)", self.path, version)

    async def _configure(self, db: aiosqlite.Connection) -> None:
        await db.execute(f"PRAGMA busy_timeout = {self._busy_timeout_ms:d}")
        async with db.execute("PRAGMA journal_mode = WAL") as cur:
            row = await cur.fetchone()
        mode = str(row[0]) if row else "?"
        if mode.lower() != "wal":
            log.warning("store %s: journal_mode is %s, not WAL", self.path, mode)
        # In WAL mode a commit then no longer waits for the disk; a power cut may lose
        # the last commits, never the file's consistency.
        await db.execute("PRAGMA synchronous = NORMAL")
        await db.execute(f"PRAGMA wal_autocheckpoint = {_WRITER_CHECKPOINT_PAGES:d}")
        await db.execute("PRAGMA foreign_keys = ON")

    async def _open_side(self, *, reads_only: bool) -> aiosqlite.Connection:
        """Another connection (and thread): for reads, or for checkpoints."""
        side = await aiosqlite.connect(self.path, isolation_level=None)
        try:
            await side.execute(f"PRAGMA busy_timeout = {self._busy_timeout_ms:d}")
            if reads_only:
                await side.execute("PRAGMA query_only = ON")
        except BaseException:
            await side.close()
            raise
        return side

    async def close(self) -> None:
        """Close the connections (idempotent)."""
        db, reader, checkpointer = self._db, self._reader, self._checkpointer
        self._db = self._reader = self._checkpointer = None
        if self._checkpointing is not None:
            await self._checkpointing
        await self._idle.wait()  # what was sent before is committed (or failed)
        for side in (reader, checkpointer):
            if side is not None and side is not db:
                await side.close()
        if db is not None:
            async with self._lock:
                await db.close()
            log.info("store %s closed", self.path)

    async def __aenter__(self) -> Self:
        await self.connect()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    def game_lock(self, game_id: int) -> AbstractAsyncContextManager[None]:
        """``async with store.game_lock(game_id):`` excludes every other holder of the
        same game's lock until the block ends (the publisher's per-game serialisation).

        SQLite: an :class:`asyncio.Lock` per game (one process per database file).
        PostgreSQL: also a session advisory lock, so it excludes other processes too.
        Not re-entrant: a task must not take the same game's lock twice.
        """
        return self._game_locks.hold(game_id)

    # -- low-level helpers -----------------------------------------------------------

    def _conn(self) -> aiosqlite.Connection:
        if self._db is None:
            raise StoreError("store is not open")
        return self._db

    async def _fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """The rows of one read, outside any write transaction: on the reader's own
        connection, or (in memory) the writer's."""
        reader = self._reader or self._conn()
        try:
            return list(await reader.execute_fetchall(sql, tuple(params)))
        except sqlite3.Error as exc:
            raise StoreError(str(exc)) from exc

    async def _fetch_one(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        rows = await self._fetch(sql, params)
        return rows[0] if rows else None

    async def _transact(self, work: Work[T]) -> T:
        """Run ``work`` as one write transaction in one round trip to the writer's thread.

        ``work`` gets the plain ``sqlite3`` connection and runs on that thread; what it
        raises rolls its changes back and reaches the caller. Transactions run in the
        order they were sent. Group commit: while one is on the writer's thread, those
        sent meanwhile queue up and then go together, in one transaction, each still
        undone alone if it fails (see :func:`_atomically_each`): under load, one
        commit (and one round trip) serves many clicks, and a page several of them
        change is written once. Each caller still hears back only after the commit.
        """
        db = self._conn()
        try:
            if self._writing:
                future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
                self._queued.append((work, future))
                result = await future
            else:
                self._writing = True
                self._idle.clear()
                try:
                    # aiosqlite runs queued functions on the connection's own thread:
                    # this (private) entry point makes a transaction one round trip.
                    result = await db._execute(_atomically, db._conn, work)
                finally:
                    self._send_queued(db)
        except sqlite3.Error as exc:
            raise StoreError(str(exc)) from exc
        self._wrote()
        return result

    def _send_queued(self, db: aiosqlite.Connection) -> None:
        """Let the writer go on with the transactions queued meanwhile, if any."""
        if self._queued:
            self._draining = asyncio.create_task(self._drain(db))
        else:
            self._writing = False
            self._idle.set()

    async def _drain(self, db: aiosqlite.Connection) -> None:
        """Send the queued transactions, a batch at a time, until none is left."""
        try:
            while self._queued:
                batch, self._queued = self._queued[:_BATCH], self._queued[_BATCH:]
                try:
                    outcomes = await db._execute(_atomically_each, db._conn,
                                                 [work for work, _ in batch])
                except asyncio.CancelledError:
                    for _, future in batch:
                        future.cancel()
                    raise
                except Exception as exc:  # the batch's commit failed, or the store closed
                    outcomes = [(False, exc)] * len(batch)
                for (_, future), (done, value) in zip(batch, outcomes, strict=True):
                    if future.done():  # its caller was cancelled
                        continue
                    if done:
                        future.set_result(value)
                    else:
                        future.set_exception(value)
        finally:  # emptied, unless the drain itself was cancelled
            self._writing = False
            self._idle.set()
            left, self._queued = self._queued, []
            for _, future in left:
                future.cancel()

    def _wrote(self) -> None:
        """Count a committed write; every so many, checkpoint the WAL in the background."""
        self._writes += 1
        busy = self._checkpointing is not None and not self._checkpointing.done()
        if self._writes < _CHECKPOINT_EVERY or self._checkpointer is None or busy:
            return
        self._writes = 0
        self._checkpointing = asyncio.create_task(self._checkpoint(self._checkpointer))

    async def _checkpoint(self, checkpointer: aiosqlite.Connection) -> None:
        try:
            await checkpointer.execute_fetchall("PRAGMA wal_checkpoint(PASSIVE)")
        except (sqlite3.Error, ValueError) as exc:  # ValueError: closed meanwhile
            log.warning("store %s: checkpoint failed: %s", self.path, exc)

    def _existing(self, conn: Connection, game_id: int, lock: bool = False) -> GameRecord:
        """:func:`_existing_game`, decoded through this store's :class:`RecordCache`."""
        return _existing_game(conn, game_id, lock, self._records.record)

    # -- reads -----------------------------------------------------------------------

    async def get_game(self, game_id: int) -> GameRecord | None:
        """The game with ``game_id``, or None."""
        row = await self._fetch_one(_GAME_SQL, (game_id,))
        return None if row is None else self._records.record(row)

    async def game_in_channel(self, channel_id: int) -> GameRecord | None:
        """The lobby or running game in ``channel_id``, or None."""
        sql = f"SELECT {GAME_COLUMNS} FROM games WHERE channel_id = ? AND {_ACTIVE_SQL}"
        row = await self._fetch_one(sql, (channel_id,))
        return None if row is None else self._records.record(row)

    async def games_for_channel(self, channel_id: int, *, limit: int = 20) -> list[GameRecord]:
        """Up to ``limit`` games of ``channel_id`` (any status), newest first."""
        sql = f"SELECT {GAME_COLUMNS} FROM games WHERE channel_id = ? ORDER BY id DESC LIMIT ?"
        rows = await self._fetch(sql, (channel_id, limit))
        return [game_from_row(row) for row in rows]

    async def active_games(self) -> list[GameRecord]:
        """Every lobby or running game, oldest first (e.g. to restore views on startup)."""
        sql = f"SELECT {GAME_COLUMNS} FROM games WHERE {_ACTIVE_SQL} ORDER BY id"
        rows = await self._fetch(sql, ())
        return [game_from_row(row) for row in rows]

    async def moves(self, game_id: int) -> list[MoveRecord]:
        """All moves of ``game_id`` in ``seq`` order (empty for an unknown game)."""
        sql = f"SELECT {MOVE_COLUMNS} FROM moves WHERE game_id = ? ORDER BY seq"
        rows = await self._fetch(sql, (game_id,))
        return [move_from_row(row) for row in rows]

    # -- writes ----------------------------------------------------------------------

    async def create_game(
        self,
        guild_id: int,
        channel_id: int,
        host_id: int,
        variant: str,
        options: dict[str, Any],
        seed: int,
        turn_time: int = 86400,
        expires: float | None = None,
    ) -> GameRecord:
        """Open a lobby (players ``[host_id]``, version 1); decisions get ``turn_time`` seconds.

        ``expires`` (unix seconds) is when an unstarted lobby closes by itself.
        Raises :class:`ChannelBusy` if the channel has a lobby or running game.
        """
        for name, value in (("guild_id", guild_id), ("channel_id", channel_id),
                            ("host_id", host_id), ("seed", seed)):  # fmt: skip
            _check_int(name, value)
        options_json, players_json = dump_json(options), dump_json([host_id])

        def work(conn: Connection) -> GameRecord:
            now = self._clock()
            # The unique index on the channel's active game decides, not a prior read:
            # of two processes creating at once, the second waits for the first's
            # commit and inserts nothing.
            created = conn.execute(
                "INSERT INTO games (guild_id, channel_id, host_id, variant, options, seed, "
                "players, status, version, created_at, updated_at, turn_time, next_due, "
                "shown_version) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?, 1) "
                f"ON CONFLICT (channel_id) WHERE {_ACTIVE_SQL} DO NOTHING RETURNING id",
                (guild_id, channel_id, host_id, variant, options_json, seed,
                 players_json, LOBBY, now, now, turn_time, expires),
            ).fetchall()  # fmt: skip
            if not created:
                busy = conn.execute(f"SELECT id FROM games WHERE channel_id = ? AND {_ACTIVE_SQL}",
                                    (channel_id,)).fetchone()
                raise ChannelBusy(channel_id, None if busy is None else busy[0])
            return _existing_game(conn, int(created[0][0]))

        record = await self._transact(work)
        log.info("game %d created in channel %d (%s)", record.id, channel_id, variant)
        return record

    async def _set(self, game_id: int, expected_version: int, allowed: tuple[str, ...],
                   changes: dict[str, Any], events: Sequence[EventRow] = (),
                   ends: bool = False) -> GameRecord:
        """Compare-and-set ``changes`` (and append ``events``), one round trip; ``ends``
        also stamps ``finished_at`` and clears ``next_due``."""
        def work(conn: Connection) -> GameRecord:
            now = self._clock()
            columns = {**changes, "finished_at": now, "next_due": None} if ends else changes
            _compare_and_set(conn, game_id, expected_version, allowed, columns, now)
            _append_events(conn, game_id, events)
            return _existing_game(conn, game_id)
        return await self._transact(work)

    async def update_lobby(
        self, game_id: int, expected_version: int, players: Sequence[int]
    ) -> GameRecord:
        """Replace the seat-ordered player list of a lobby (compare-and-set)."""
        players_json = dump_json(_check_players(players))
        return await self._set(game_id, expected_version, (LOBBY,), {"players": players_json})

    async def start_game(
        self, game_id: int, expected_version: int, state: dict[str, Any],
        timing: Timing | None = None, events: Sequence[EventRow] = (),
    ) -> GameRecord:
        """Move a lobby to ``running`` with its initial ``state`` (compare-and-set)."""
        changes = {"state": dump_json(state), "status": RUNNING, **timing_columns(timing)}
        record = await self._set(game_id, expected_version, (LOBBY,), changes, events)
        log.info("game %d started with %d players", game_id, len(record.players))
        return record

    async def record_move(
        self,
        game_id: int,
        expected_version: int,
        player_id: int,
        move: dict[str, Any],
        state: dict[str, Any],
        status: str = RUNNING,
        results: GameResults | None = None,
    ) -> GameRecord:
        """One player's move: :meth:`record_moves` with a single entry."""
        return await self.record_moves(game_id, expected_version, [(player_id, move, "player")],
                                       state, status, results)

    async def record_moves(
        self,
        game_id: int,
        expected_version: int,
        moves: Sequence[tuple[int, dict[str, Any], str]],
        state: dict[str, Any],
        status: str = RUNNING,
        results: GameResults | None = None,
        timing: Timing | None = None,
        presence: dict[str, Any] | None = None,
        events: Sequence[EventRow] = (),
    ) -> GameRecord:
        """Store the new ``state`` and append ``moves`` atomically (compare-and-set).

        ``events`` (what the moves caused, for the channel) go in the same transaction.

        ``moves`` are ``(player_id, move, source)`` in the order they were applied;
        ``source`` says who decided (``player``, or ``expired``/``away`` for the game).
        ``status`` is ``'running'`` or ``'finished'`` (which sets ``finished_at``).
        ``results`` (only with ``'finished'``) are recorded in the same transaction
        (see :mod:`bot.store.stats`); ``timing`` and ``presence`` replace the game's.
        Raises :class:`VersionConflict` if the game changed since ``expected_version``;
        then nothing is written.
        """
        change = GameChange(moves, state, status, results, timing, presence, events)
        return await self.record_change(game_id, expected_version, change)

    async def record_change(self, game_id: int, expected_version: int,
                            change: GameChange) -> GameRecord:
        """:meth:`record_moves` taking a :class:`GameChange`: one transaction, one round trip."""
        _check_change(change)
        record = await self._transact(
            lambda conn: _store_change(conn, self._existing(conn, game_id), expected_version,
                                       change, self._clock(), self._records))
        _log_change(record, change)
        return record

    async def change_game(
        self, game_id: int, decide: Callable[[GameRecord], tuple[GameChange | None, T]]
    ) -> tuple[GameRecord, T]:
        """Read the game, let ``decide`` say what to store, store it: one transaction and
        one round trip, so a click needs neither a separate read nor a retry.

        ``decide`` gets the current record and returns the change (None: nothing to
        store) and a value handed back with the stored record. It runs on the writer's
        thread inside the transaction, so it must be quick and must not touch the event
        loop; whatever it raises rolls back and reaches the caller.
        Raises :class:`GameNotFound`, or :class:`WrongStatus` unless the game is running
        when there is something to store.
        """
        def work(conn: Connection) -> tuple[GameRecord, T, GameChange | None]:
            record = self._existing(conn, game_id, lock=True)  # decide on the latest state
            change, value = decide(record)
            if change is not None:
                _check_change(change)
                record = _store_change(conn, record, record.version, change, self._clock(),
                                       self._records)
            return record, value, change

        record, value, change = await self._transact(work)
        if change is not None:
            _log_change(record, change)
        return record, value

    async def set_timing(self, game_id: int, expected_version: int, timing: Timing) -> GameRecord:
        """Replace the decision clock alone (a reminder went out), compare-and-set."""
        return await self._set(game_id, expected_version, (RUNNING,), timing_columns(timing))

    async def due_games(self, now: float, limit: int = 50,
                        shards: Shards | None = None) -> list[GameRecord]:
        """Lobbies and running games with something due at ``now``, most overdue first;
        with ``shards``, only those of guilds on these shards."""
        where, params = _shard_filter(shards)
        sql = (f"SELECT {GAME_COLUMNS} FROM games WHERE status IN ('lobby', 'running') "
               f"AND next_due <= ?{where} ORDER BY next_due, id LIMIT ?")
        rows = await self._fetch(sql, (now, *params, limit))
        return [game_from_row(row) for row in rows]

    async def running_games(self, guild_id: int) -> list[GameRecord]:
        """The running games of one server, oldest first."""
        sql = f"SELECT {GAME_COLUMNS} FROM games WHERE guild_id = ? AND status = 'running' " \
              "ORDER BY id"
        rows = await self._fetch(sql, (guild_id,))
        return [game_from_row(row) for row in rows]

    async def guild_turn_time(self, guild_id: int) -> int | None:
        """The server's default turn time in seconds, if one was set."""
        row = await self._fetch_one("SELECT turn_time FROM guild_settings WHERE guild_id = ?",
                                  (guild_id,))
        return None if row is None or row[0] is None else int(row[0])

    async def set_guild_turn_time(self, guild_id: int, seconds: int) -> None:
        _check_int("guild_id", guild_id)
        await self._transact(lambda conn: conn.execute(
            "INSERT INTO guild_settings (guild_id, turn_time) VALUES (?, ?) "
            "ON CONFLICT (guild_id) DO UPDATE SET turn_time = excluded.turn_time",
            (guild_id, seconds)))

    async def abandon(self, game_id: int, expected_version: int,
                      events: Sequence[EventRow] = ()) -> GameRecord:
        """Mark a lobby or running game ``abandoned`` (sets ``finished_at``); frees the channel."""
        record = await self._set(game_id, expected_version, ACTIVE_STATUSES,
                                 {"status": ABANDONED}, events, ends=True)
        log.info("game %d abandoned", game_id)
        return record

    async def remember_name(self, guild_id: int, user_id: int, name: str) -> None:
        """Keep ``user_id``'s latest display name in ``guild_id``.

        Writes only when the name differs from the one this store last wrote
        (the row's ``updated_at`` then says when the name last changed).
        """
        _check_int("guild_id", guild_id)
        _check_int("user_id", user_id)
        key = (guild_id, user_id)
        if self._names.get(key) == name:
            return
        await self._transact(lambda conn: conn.execute(
            "INSERT INTO player_names (guild_id, user_id, name, updated_at) "
            "VALUES (?, ?, ?, ?) ON CONFLICT (guild_id, user_id) "
            "DO UPDATE SET name = excluded.name, updated_at = excluded.updated_at "
            "WHERE player_names.name <> excluded.name",
            (guild_id, user_id, name, self._clock())))
        self._keep_name(key, name)

    def _keep_name(self, key: tuple[int, int], name: str) -> None:
        if len(self._names) >= _NAMES_KEPT:
            self._names.clear()
        self._names[key] = name

    async def names(self, guild_id: int, user_ids: Sequence[int]) -> dict[int, str]:
        """The remembered display names of ``user_ids`` in ``guild_id`` (unknown ones left out)."""
        if not user_ids:
            return {}
        marks = ", ".join("?" for _ in user_ids)
        sql = f"SELECT user_id, name FROM player_names WHERE guild_id = ? AND user_id IN ({marks})"
        rows = await self._fetch(sql, (guild_id, *user_ids))
        return {int(row[0]): str(row[1]) for row in rows}

    async def set_message(self, game_id: int, message_id: int | None) -> None:
        """Point the game at its current public message (or None), in any status.

        Presentation metadata only: does not check or bump ``version`` and leaves
        ``updated_at`` alone, so it never causes a :class:`VersionConflict`.
        """
        if message_id is not None:
            _check_int("message_id", message_id)

        def work(conn: Connection) -> None:
            sql = "UPDATE games SET message_id = ? WHERE id = ?"
            if conn.execute(sql, (message_id, game_id)).rowcount != 1:
                raise GameNotFound(game_id)
        await self._transact(work)

    # -- the channel's side ---------------------------------------------------------

    async def events(self, game_id: int, first_turn: int = 0) -> list[StoredEvent]:
        """The stored events of ``game_id`` from ``first_turn`` on, in order."""
        sql = ("SELECT seq, turn, kind, player, data FROM game_events "
               "WHERE game_id = ? AND turn >= ? ORDER BY seq")
        rows = await self._fetch(sql, (game_id, first_turn))
        return [StoredEvent(seq, turn, kind, player, load_json(data))
                for seq, turn, kind, player, data in rows]

    async def lagging_games(self, limit: int = 50,
                            shards: Shards | None = None) -> list[int]:
        """Games whose channel shows an older version than the store holds, oldest first;
        with ``shards``, only those of guilds on these shards."""
        where, params = _shard_filter(shards)
        sql = ("SELECT id FROM games WHERE shown_version < version AND status != 'lobby'"
               f"{where} ORDER BY id LIMIT ?")
        rows = await self._fetch(sql, (*params, limit))
        return [int(row[0]) for row in rows]

    async def set_shown(self, game_id: int, version: int, message_id: int | None,
                        shown: dict[str, Any]) -> None:
        """Remember that the channel now shows ``version`` (never moves backwards).

        Presentation metadata: does not bump ``version``, so it never races a move.
        """
        if message_id is not None:
            _check_int("message_id", message_id)
        await self._transact(lambda conn: conn.execute(
            "UPDATE games SET shown_version = CASE WHEN shown_version < ? THEN ? "
            "ELSE shown_version END, message_id = ?, shown = ? WHERE id = ?",
            (version, version, message_id, dump_json(shown), game_id)))

    # -- the server's language (issue 14) ------------------------------------------

    async def guild_language(self, guild_id: int) -> str | None:
        """The language a server chose for its public messages, if it chose one."""
        row = await self._fetch_one("SELECT language FROM guild_settings WHERE guild_id = ?",
                                  (guild_id,))
        return None if row is None else row[0]

    async def set_guild_language(self, guild_id: int, language: str) -> None:
        _check_int("guild_id", guild_id)
        await self._transact(lambda conn: conn.execute(
            "INSERT INTO guild_settings (guild_id, language) VALUES (?, ?) "
            "ON CONFLICT (guild_id) DO UPDATE SET language = excluded.language",
            (guild_id, language)))

    # -- lobby options (issue 16) ----------------------------------------------------

    async def update_lobby_seats(
        self, game_id: int, expected_version: int, players: Sequence[int],
        options: dict[str, Any],
    ) -> GameRecord:
        """Replace a lobby's players and options together (a computer seat and its
        level), compare-and-set."""
        changes = {"players": dump_json(_check_players(players)), "options": dump_json(options)}
        return await self._set(game_id, expected_version, (LOBBY,), changes)
