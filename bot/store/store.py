"""The :class:`Store`: async persistence of games and their moves (SQLite backend).

All SQL is standard and parameterised; SQLite specifics (connection pragmas,
``BEGIN IMMEDIATE``, ``lastrowid``) are confined to a few private helpers, so a
PostgreSQL backend can offer the same public methods without touching callers.

Concurrency: every state change is a compare-and-set on ``games.version`` inside
one write transaction. Within one ``Store`` an ``asyncio.Lock`` serialises access to
the single connection; across connections/processes SQLite's write lock (with a
busy timeout) does.
"""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
import time
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from types import TracebackType
from typing import Any, Self

import aiosqlite

from .errors import ChannelBusy, GameNotFound, StoreError, VersionConflict, WrongStatus
from .migrations import apply_migrations
from .records import (
    ABANDONED,
    ACTIVE_STATUSES,
    FINISHED,
    GAME_COLUMNS,
    LOBBY,
    MOVE_COLUMNS,
    RUNNING,
    GameRecord,
    MoveRecord,
    StoredEvent,
    Timing,
    dump_json,
    game_from_row,
    move_from_row,
    timing_columns,
)
from .stats import GameResults, StatsQueries, insert_results

log = logging.getLogger(__name__)

Clock = Callable[[], float]
Row = Sequence[Any]
EventRow = tuple[int, str, int | None, dict[str, Any]]
"""An event to store: ``(turn, kind, player, data)``."""

_INT64_MIN, _INT64_MAX = -(2**63), 2**63 - 1
_ACTIVE_SQL = "status IN ('lobby', 'running')"


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


class Store(StatsQueries):
    """Persistence for games and moves, and the results of finished games.

    Create with ``await Store.open(path)`` or ``async with Store(path) as store``.
    ``clock`` returns unix seconds and stamps ``created_at``/``updated_at``/
    ``finished_at``/move ``created_at`` (default :func:`time.time`).
    """

    def __init__(
        self, path: str | Path, *, clock: Clock = time.time, busy_timeout: float = 5.0
    ) -> None:
        self.path = path
        self._clock = clock
        self._busy_timeout_ms = int(busy_timeout * 1000)
        self._db: aiosqlite.Connection | None = None
        self._lock = asyncio.Lock()

    # -- lifecycle -----------------------------------------------------------------

    @classmethod
    async def open(
        cls, path: str | Path, *, clock: Clock = time.time, busy_timeout: float = 5.0
    ) -> Self:
        """Connect to ``path`` (created if missing) and apply pending migrations."""
        store = cls(path, clock=clock, busy_timeout=busy_timeout)
        await store.connect()
        return store

    async def connect(self) -> None:
        """Open the connection and migrate; a no-op if already connected."""
        if self._db is not None:
            return
        db = await aiosqlite.connect(self.path, isolation_level=None)
        try:
            await self._configure(db)
            version = await apply_migrations(db, self._clock())
        except BaseException as exc:
            await db.close()
            if isinstance(exc, sqlite3.Error):
                raise StoreError(f"cannot open store {self.path}: {exc}") from exc
            raise
        self._db = db
        log.info("store %s open (schema version %d)", self.path, version)

    async def _configure(self, db: aiosqlite.Connection) -> None:
        await db.execute(f"PRAGMA busy_timeout = {self._busy_timeout_ms:d}")
        async with db.execute("PRAGMA journal_mode = WAL") as cur:
            row = await cur.fetchone()
        mode = str(row[0]) if row else "?"
        if mode.lower() != "wal":
            log.warning("store %s: journal_mode is %s, not WAL", self.path, mode)
        await db.execute("PRAGMA foreign_keys = ON")

    async def close(self) -> None:
        """Close the connection (idempotent)."""
        db, self._db = self._db, None
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

    # -- low-level helpers -----------------------------------------------------------

    def _conn(self) -> aiosqlite.Connection:
        if self._db is None:
            raise StoreError("store is not open")
        return self._db

    @asynccontextmanager
    async def _read(self) -> AsyncIterator[aiosqlite.Connection]:
        """Exclusive use of the connection outside any write transaction."""
        db = self._conn()
        async with self._lock:
            try:
                yield db
            except sqlite3.Error as exc:
                raise StoreError(str(exc)) from exc

    @asynccontextmanager
    async def _write(self) -> AsyncIterator[aiosqlite.Connection]:
        """One write transaction: committed on success, rolled back on any error."""
        db = self._conn()
        async with self._lock:
            try:
                await db.execute("BEGIN IMMEDIATE")
            except sqlite3.Error as exc:
                raise StoreError(f"cannot begin transaction: {exc}") from exc
            try:
                yield db
                await db.execute("COMMIT")
            except BaseException as exc:
                await self._rollback(db)
                if isinstance(exc, sqlite3.Error):
                    raise StoreError(str(exc)) from exc
                raise

    @staticmethod
    async def _rollback(db: aiosqlite.Connection) -> None:
        try:
            await db.execute("ROLLBACK")
        except sqlite3.Error as exc:  # e.g. no transaction left to roll back
            log.debug("rollback failed: %s", exc)

    @staticmethod
    async def _rows(db: aiosqlite.Connection, sql: str, params: Iterable[Any]) -> list[Row]:
        return list(await db.execute_fetchall(sql, tuple(params)))

    @classmethod
    async def _row(cls, db: aiosqlite.Connection, sql: str, params: Iterable[Any]) -> Row | None:
        rows = await cls._rows(db, sql, params)
        return rows[0] if rows else None

    @classmethod
    async def _load(cls, db: aiosqlite.Connection, game_id: int) -> GameRecord | None:
        row = await cls._row(db, f"SELECT {GAME_COLUMNS} FROM games WHERE id = ?", (game_id,))
        return None if row is None else game_from_row(row)

    @classmethod
    async def _load_existing(cls, db: aiosqlite.Connection, game_id: int) -> GameRecord:
        record = await cls._load(db, game_id)
        if record is None:
            raise GameNotFound(game_id)
        return record

    async def _compare_and_set(
        self,
        db: aiosqlite.Connection,
        game_id: int,
        expected_version: int,
        allowed: tuple[str, ...],
        changes: dict[str, Any],
        now: float,
    ) -> None:
        """Apply ``changes`` and bump the version iff version and status match.

        ``changes`` keys are trusted column names from this module, never user input.
        """
        assignments = "".join(f"{column} = ?, " for column in changes)
        statuses = ", ".join("?" for _ in allowed)
        sql = (
            f"UPDATE games SET {assignments}version = version + 1, updated_at = ? "
            f"WHERE id = ? AND version = ? AND status IN ({statuses})"
        )
        params = (*changes.values(), now, game_id, expected_version, *allowed)
        async with db.execute(sql, params) as cur:
            if cur.rowcount == 1:
                return
        await self._raise_cas_failure(db, game_id, expected_version, allowed)

    async def _raise_cas_failure(
        self, db: aiosqlite.Connection, game_id: int, expected: int, allowed: tuple[str, ...]
    ) -> None:
        """Explain why a compare-and-set touched no row, as the matching exception."""
        current = await self._load_existing(db, game_id)
        if current.version != expected:
            raise VersionConflict(game_id, expected, current.version)
        raise WrongStatus(game_id, current.status, allowed)

    # -- reads -----------------------------------------------------------------------

    async def get_game(self, game_id: int) -> GameRecord | None:
        """The game with ``game_id``, or None."""
        async with self._read() as db:
            return await self._load(db, game_id)

    async def game_in_channel(self, channel_id: int) -> GameRecord | None:
        """The lobby or running game in ``channel_id``, or None."""
        sql = f"SELECT {GAME_COLUMNS} FROM games WHERE channel_id = ? AND {_ACTIVE_SQL}"
        async with self._read() as db:
            row = await self._row(db, sql, (channel_id,))
        return None if row is None else game_from_row(row)

    async def games_for_channel(self, channel_id: int, *, limit: int = 20) -> list[GameRecord]:
        """Up to ``limit`` games of ``channel_id`` (any status), newest first."""
        sql = f"SELECT {GAME_COLUMNS} FROM games WHERE channel_id = ? ORDER BY id DESC LIMIT ?"
        async with self._read() as db:
            rows = await self._rows(db, sql, (channel_id, limit))
        return [game_from_row(row) for row in rows]

    async def active_games(self) -> list[GameRecord]:
        """Every lobby or running game, oldest first (e.g. to restore views on startup)."""
        sql = f"SELECT {GAME_COLUMNS} FROM games WHERE {_ACTIVE_SQL} ORDER BY id"
        async with self._read() as db:
            rows = await self._rows(db, sql, ())
        return [game_from_row(row) for row in rows]

    async def moves(self, game_id: int) -> list[MoveRecord]:
        """All moves of ``game_id`` in ``seq`` order (empty for an unknown game)."""
        sql = f"SELECT {MOVE_COLUMNS} FROM moves WHERE game_id = ? ORDER BY seq"
        async with self._read() as db:
            rows = await self._rows(db, sql, (game_id,))
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
        async with self._write() as db:
            sql = f"SELECT id FROM games WHERE channel_id = ? AND {_ACTIVE_SQL}"
            busy = await self._row(db, sql, (channel_id,))
            if busy is not None:
                raise ChannelBusy(channel_id, busy[0])
            now = self._clock()
            async with db.execute(
                "INSERT INTO games (guild_id, channel_id, host_id, variant, options, seed, "
                "players, status, version, created_at, updated_at, turn_time, next_due, "
                "shown_version) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?, 1)",
                (guild_id, channel_id, host_id, variant, options_json, seed,
                 players_json, LOBBY, now, now, turn_time, expires),
            ) as cur:  # fmt: skip
                game_id = cur.lastrowid
            record = await self._load_existing(db, game_id)
        log.info("game %d created in channel %d (%s)", record.id, channel_id, variant)
        return record

    async def update_lobby(
        self, game_id: int, expected_version: int, players: Sequence[int]
    ) -> GameRecord:
        """Replace the seat-ordered player list of a lobby (compare-and-set)."""
        players_json = dump_json(_check_players(players))
        async with self._write() as db:
            now = self._clock()
            changes = {"players": players_json}
            await self._compare_and_set(db, game_id, expected_version, (LOBBY,), changes, now)
            return await self._load_existing(db, game_id)

    async def start_game(
        self, game_id: int, expected_version: int, state: dict[str, Any],
        timing: Timing | None = None, events: Sequence[EventRow] = (),
    ) -> GameRecord:
        """Move a lobby to ``running`` with its initial ``state`` (compare-and-set)."""
        changes = {"state": dump_json(state), "status": RUNNING, **timing_columns(timing)}
        async with self._write() as db:
            now = self._clock()
            await self._compare_and_set(db, game_id, expected_version, (LOBBY,), changes, now)
            await self._insert_events(db, game_id, events)
            record = await self._load_existing(db, game_id)
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
        if status not in (RUNNING, FINISHED, ABANDONED):
            raise ValueError(f"record_move status must be running, finished or abandoned, "
                             f"not {status!r}")
        if results is not None and status != FINISHED:
            raise ValueError("results can only be recorded when the game finishes")
        for player_id, _, _ in moves:
            _check_int("player_id", player_id)
        rows = [(player_id, dump_json(move), source) for player_id, move, source in moves]
        changes: dict[str, Any] = {"state": dump_json(state), "status": status}
        changes.update(timing_columns(timing))
        if presence is not None:
            changes["presence"] = dump_json(presence)
        async with self._write() as db:
            now = self._clock()
            if status != RUNNING:
                changes.update(finished_at=now, next_due=None)
            await self._compare_and_set(db, game_id, expected_version, (RUNNING,), changes, now)
            for player_id, move_json, source in rows:
                await db.execute(
                    "INSERT INTO moves (game_id, seq, player_id, move, created_at, source) "
                    "SELECT ?, COALESCE(MAX(seq), 0) + 1, ?, ?, ?, ? FROM moves WHERE game_id = ?",
                    (game_id, player_id, move_json, now, source, game_id),
                )
            await self._insert_events(db, game_id, events)
            record = await self._load_existing(db, game_id)
            if results is not None:
                await insert_results(db, record, results, now)
        log.debug("game %d: %d move(s), now version %d", game_id, len(rows), record.version)
        if status == FINISHED:
            log.info("game %d finished", game_id)
        return record

    async def set_timing(self, game_id: int, expected_version: int, timing: Timing) -> GameRecord:
        """Replace the decision clock alone (a reminder went out), compare-and-set."""
        async with self._write() as db:
            now = self._clock()
            await self._compare_and_set(db, game_id, expected_version, (RUNNING,),
                                        timing_columns(timing), now)
            return await self._load_existing(db, game_id)

    async def due_games(self, now: float, limit: int = 50) -> list[GameRecord]:
        """Lobbies and running games with something due at ``now``, most overdue first."""
        sql = (f"SELECT {GAME_COLUMNS} FROM games WHERE status IN ('lobby', 'running') "
               "AND next_due <= ? ORDER BY next_due, id LIMIT ?")
        async with self._read() as db:
            rows = await self._rows(db, sql, (now, limit))
        return [game_from_row(row) for row in rows]

    async def running_games(self, guild_id: int) -> list[GameRecord]:
        """The running games of one server, oldest first."""
        sql = f"SELECT {GAME_COLUMNS} FROM games WHERE guild_id = ? AND status = 'running' " \
              "ORDER BY id"
        async with self._read() as db:
            rows = await self._rows(db, sql, (guild_id,))
        return [game_from_row(row) for row in rows]

    async def guild_turn_time(self, guild_id: int) -> int | None:
        """The server's default turn time in seconds, if one was set."""
        async with self._read() as db:
            row = await self._row(db, "SELECT turn_time FROM guild_settings WHERE guild_id = ?",
                                  (guild_id,))
        return None if row is None else int(row[0])

    async def set_guild_turn_time(self, guild_id: int, seconds: int) -> None:
        _check_int("guild_id", guild_id)
        async with self._write() as db:
            await db.execute(
                "INSERT INTO guild_settings (guild_id, turn_time) VALUES (?, ?) "
                "ON CONFLICT (guild_id) DO UPDATE SET turn_time = excluded.turn_time",
                (guild_id, seconds))

    async def abandon(self, game_id: int, expected_version: int,
                      events: Sequence[EventRow] = ()) -> GameRecord:
        """Mark a lobby or running game ``abandoned`` (sets ``finished_at``); frees the channel."""
        async with self._write() as db:
            now = self._clock()
            changes = {"status": ABANDONED, "finished_at": now, "next_due": None}
            await self._compare_and_set(
                db, game_id, expected_version, ACTIVE_STATUSES, changes, now
            )
            await self._insert_events(db, game_id, events)
            record = await self._load_existing(db, game_id)
        log.info("game %d abandoned", game_id)
        return record

    async def remember_name(self, guild_id: int, user_id: int, name: str) -> None:
        """Keep ``user_id``'s latest display name in ``guild_id``."""
        _check_int("guild_id", guild_id)
        _check_int("user_id", user_id)
        async with self._write() as db:
            await db.execute(
                "INSERT INTO player_names (guild_id, user_id, name, updated_at) "
                "VALUES (?, ?, ?, ?) ON CONFLICT (guild_id, user_id) "
                "DO UPDATE SET name = excluded.name, updated_at = excluded.updated_at",
                (guild_id, user_id, name, self._clock()),
            )

    async def names(self, guild_id: int, user_ids: Sequence[int]) -> dict[int, str]:
        """The remembered display names of ``user_ids`` in ``guild_id`` (unknown ones left out)."""
        if not user_ids:
            return {}
        marks = ", ".join("?" for _ in user_ids)
        sql = f"SELECT user_id, name FROM player_names WHERE guild_id = ? AND user_id IN ({marks})"
        async with self._read() as db:
            rows = await self._rows(db, sql, (guild_id, *user_ids))
        return {int(row[0]): str(row[1]) for row in rows}

    async def set_message(self, game_id: int, message_id: int | None) -> None:
        """Point the game at its current public message (or None), in any status.

        Presentation metadata only: does not check or bump ``version`` and leaves
        ``updated_at`` alone, so it never causes a :class:`VersionConflict`.
        """
        if message_id is not None:
            _check_int("message_id", message_id)
        async with self._write() as db:
            sql = "UPDATE games SET message_id = ? WHERE id = ?"
            async with db.execute(sql, (message_id, game_id)) as cur:
                if cur.rowcount != 1:
                    raise GameNotFound(game_id)

    # -- the channel's side ---------------------------------------------------------

    @staticmethod
    async def _insert_events(db: aiosqlite.Connection, game_id: int,
                             events: Sequence[EventRow]) -> None:
        for turn, kind, player, data in events:
            await db.execute(
                "INSERT INTO game_events (game_id, seq, turn, kind, player, data) "
                "SELECT ?, COALESCE(MAX(seq), 0) + 1, ?, ?, ?, ? FROM game_events "
                "WHERE game_id = ?",
                (game_id, turn, kind, player, dump_json(data), game_id))

    async def events(self, game_id: int, first_turn: int = 0) -> list[StoredEvent]:
        """The stored events of ``game_id`` from ``first_turn`` on, in order."""
        sql = ("SELECT seq, turn, kind, player, data FROM game_events "
               "WHERE game_id = ? AND turn >= ? ORDER BY seq")
        async with self._read() as db:
            rows = await self._rows(db, sql, (game_id, first_turn))
        return [StoredEvent(seq, turn, kind, player, json.loads(data))
                for seq, turn, kind, player, data in rows]

    async def lagging_games(self, limit: int = 50) -> list[int]:
        """Games whose channel shows an older version than the store holds, oldest first."""
        sql = ("SELECT id FROM games WHERE shown_version < version AND status != 'lobby' "
               "ORDER BY id LIMIT ?")
        async with self._read() as db:
            rows = await self._rows(db, sql, (limit,))
        return [int(row[0]) for row in rows]

    async def set_shown(self, game_id: int, version: int, message_id: int | None,
                        shown: dict[str, Any]) -> None:
        """Remember that the channel now shows ``version`` (never moves backwards).

        Presentation metadata: does not bump ``version``, so it never races a move.
        """
        if message_id is not None:
            _check_int("message_id", message_id)
        async with self._write() as db:
            await db.execute(
                "UPDATE games SET shown_version = MAX(shown_version, ?), message_id = ?, "
                "shown = ? WHERE id = ?", (version, message_id, dump_json(shown), game_id))
