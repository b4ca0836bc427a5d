"""The :class:`Store`: the games' queries (a repository), run by an engine.

``await open_store(target)`` opens one: ``target`` is a SQLite file path or a
``postgresql://`` URL, and :func:`engine_for` picks the engine that runs the queries
(:mod:`bot.store.sqlite` or :mod:`bot.store.postgres`; connections, threads and
commits are theirs, see :mod:`bot.store.engine`). The queries are written once, each
transaction one synchronous function of a connection (:mod:`bot.store.queries`, and
:mod:`bot.store.stats` for the results); PostgreSQL's engine translates their SQL.

Concurrency: every state change is a compare-and-set on ``games.version`` inside
one write transaction, one round trip to the engine. A click's read of its game
reuses the record its last write left (see :mod:`bot.store.cache`) while the row is
unchanged; so does the service's rules object.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from contextlib import AbstractAsyncContextManager
from pathlib import Path
from types import TracebackType
from typing import Any, Final, Self

from .cache import RecordCache
from .daily import DailyQueries
from .engine import Engine, is_postgres_url
from .errors import ChannelBusy, GameNotFound, StoreError
from .limits import LimitQueries
from .migrations import apply_migrations
from .privacy import PrivacyQueries
from .queries import (
    ACTIVE_SQL,
    GAME_SQL,
    Shards,
    check_change,
    check_int,
    check_players,
    existing_game,
    log_change,
    set_columns,
    shard_filter,
    store_change,
)
from .ratings import RatingQueries
from .records import (
    ABANDONED,
    ACTIVE_STATUSES,
    GAME_COLUMNS,
    LOBBY,
    MOVE_COLUMNS,
    RUNNING,
    EventRow,
    GameChange,
    GameRecord,
    GameResults,
    MoveRecord,
    StoredEvent,
    Timing,
    dump_json,
    game_from_row,
    load_json,
    move_from_row,
    timing_columns,
)
from .sql import Connection, Row, T, Work
from .sqlite import SqliteEngine
from .stats import StatsQueries

log = logging.getLogger(__name__)

Clock = Callable[[], float]

_NAMES_KEPT: Final = 10_000  # display names remembered in memory, so an unchanged one costs nothing

__all__ = ["Clock", "Shards", "Store", "engine_for", "is_postgres_url", "open_store"]


def engine_for(target: str | Path, *, busy_timeout: float = 5.0) -> Engine:
    """The engine of ``target``: PostgreSQL for a ``postgresql://`` URL (a str), else
    SQLite for a file path (``busy_timeout``: seconds a write waits for another
    process's lock)."""
    if is_postgres_url(target):
        # Imported only here: psycopg and libpq are a tenth of the bot's resident
        # memory, and a bot on SQLite never needs them.
        from .postgres import PostgresEngine

        return PostgresEngine(str(target))
    return SqliteEngine(target, busy_timeout=busy_timeout)


async def open_store(
    target: str | Path, *, clock: Clock = time.time, busy_timeout: float = 5.0
) -> Store:
    """The store of ``target`` (a SQLite file, created if missing, or a PostgreSQL URL),
    connected and migrated."""
    return await Store.open(target, clock=clock, busy_timeout=busy_timeout)


class Store(StatsQueries, RatingQueries, PrivacyQueries, LimitQueries, DailyQueries):
    """Persistence for games and moves, and the results of finished games.

    Create with ``await open_store(target)`` (or ``Store.open``), or ``async with
    Store(target) as store``: ``target`` is a SQLite file path or a ``postgresql://``
    URL, whose engine :func:`engine_for` picks. ``clock`` returns unix seconds and stamps
    ``created_at``/``updated_at``/``finished_at``/move ``created_at`` (default
    :func:`time.time`).
    """

    schema_version = 0
    """The schema version found or made by :meth:`connect`."""

    def __init__(
        self, path: str | Path, *, clock: Clock = time.time, busy_timeout: float = 5.0
    ) -> None:
        self.path = path
        self._clock = clock
        self._engine = engine_for(path, busy_timeout=busy_timeout)
        self._names: dict[tuple[int, int], str] = {}
        self._records = RecordCache()

    @property
    def backend(self) -> str:
        """``"sqlite"`` or ``"postgresql"``."""
        return self._engine.backend

    # -- lifecycle -----------------------------------------------------------------

    @classmethod
    async def open(
        cls, path: str | Path, *, clock: Clock = time.time, busy_timeout: float = 5.0
    ) -> Self:
        """Connect to ``path`` and apply pending migrations (see :func:`open_store`)."""
        store = cls(path, clock=clock, busy_timeout=busy_timeout)
        await store.connect()
        return store

    async def connect(self) -> None:
        """Open the engine's connections and migrate; a no-op if already connected."""
        engine = self._engine
        if engine.is_open:
            return
        await engine.open()
        try:
            version = await apply_migrations(engine, self._clock())
        except BaseException:
            await engine.close()
            raise
        self.schema_version = version
        log.info("store %s open (schema version %d)", engine.label, version)

    async def close(self) -> None:
        """Close the connections once what was sent is done (idempotent)."""
        if self._engine.is_open:
            await self._engine.close()
            log.info("store %s closed", self._engine.label)

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
        PostgreSQL: also a session advisory lock, so it excludes other processes too;
        should its connection break, which frees it, the holder's :meth:`set_shown` is
        refused. Not re-entrant: a task must not take the same game's lock twice.
        """
        return self._engine.game_lock(game_id)

    # -- the engine ------------------------------------------------------------------

    def _conn(self) -> Engine:
        """The engine, once open."""
        if not self._engine.is_open:
            raise StoreError("store is not open")
        return self._engine

    async def _fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """The rows of one read, outside any write transaction."""
        return await self._conn().fetch(sql, params)

    async def _fetch_one(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        rows = await self._fetch(sql, params)
        return rows[0] if rows else None

    async def _transact(self, work: Work[T]) -> T:
        """Run ``work`` (it gets the connection) as one write transaction, one round trip."""
        return await self._conn().transact(work)

    def _existing(self, conn: Connection, game_id: int, lock: bool = False) -> GameRecord:
        """:func:`~bot.store.queries.existing_game`, decoded through this store's
        :class:`RecordCache`."""
        return existing_game(conn, game_id, lock, self._records.record)

    # -- reads -----------------------------------------------------------------------

    async def get_game(self, game_id: int) -> GameRecord | None:
        """The game with ``game_id``, or None."""
        row = await self._fetch_one(GAME_SQL, (game_id,))
        return None if row is None else self._records.record(row)

    async def game_in_channel(self, channel_id: int) -> GameRecord | None:
        """The lobby or running game in ``channel_id``, or None."""
        sql = f"SELECT {GAME_COLUMNS} FROM games WHERE channel_id = ? AND {ACTIVE_SQL}"
        row = await self._fetch_one(sql, (channel_id,))
        return None if row is None else self._records.record(row)

    async def games_for_channel(self, channel_id: int, *, limit: int = 20) -> list[GameRecord]:
        """Up to ``limit`` games of ``channel_id`` (any status), newest first."""
        sql = f"SELECT {GAME_COLUMNS} FROM games WHERE channel_id = ? ORDER BY id DESC LIMIT ?"
        rows = await self._fetch(sql, (channel_id, limit))
        return [game_from_row(row) for row in rows]

    async def active_games(self) -> list[GameRecord]:
        """Every lobby or running game, oldest first (e.g. to restore views on startup)."""
        sql = f"SELECT {GAME_COLUMNS} FROM games WHERE {ACTIVE_SQL} ORDER BY id"
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
            check_int(name, value)
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
                f"ON CONFLICT (channel_id) WHERE {ACTIVE_SQL} DO NOTHING RETURNING id",
                (guild_id, channel_id, host_id, variant, options_json, seed,
                 players_json, LOBBY, now, now, turn_time, expires),
            ).fetchall()  # fmt: skip
            if not created:
                busy = conn.execute(
                    f"SELECT id FROM games WHERE channel_id = ? AND {ACTIVE_SQL}", (channel_id,)
                ).fetchone()
                raise ChannelBusy(channel_id, None if busy is None else busy[0])
            return existing_game(conn, int(created[0][0]))

        record = await self._transact(work)
        log.info("game %d created in channel %d (%s)", record.id, channel_id, variant)
        return record

    async def _set(
        self,
        game_id: int,
        expected_version: int,
        allowed: tuple[str, ...],
        changes: dict[str, Any],
        events: Sequence[EventRow] = (),
        ends: bool = False,
    ) -> GameRecord:
        """Compare-and-set ``changes`` (and append ``events``), one round trip; ``ends``
        also stamps ``finished_at`` and clears ``next_due``."""
        return await self._transact(
            lambda conn: set_columns(
                conn, game_id, expected_version, allowed, changes, events, ends, self._clock()
            )
        )

    async def update_lobby(
        self, game_id: int, expected_version: int, players: Sequence[int]
    ) -> GameRecord:
        """Replace the seat-ordered player list of a lobby (compare-and-set)."""
        players_json = dump_json(check_players(players))
        return await self._set(game_id, expected_version, (LOBBY,), {"players": players_json})

    async def start_game(
        self,
        game_id: int,
        expected_version: int,
        state: dict[str, Any],
        timing: Timing | None = None,
        events: Sequence[EventRow] = (),
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
        return await self.record_moves(
            game_id, expected_version, [(player_id, move, "player")], state, status, results
        )

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

    async def record_change(
        self, game_id: int, expected_version: int, change: GameChange
    ) -> GameRecord:
        """:meth:`record_moves` taking a :class:`GameChange`: one transaction, one round trip."""
        check_change(change)
        record = await self._transact(
            lambda conn: store_change(
                conn,
                self._existing(conn, game_id),
                expected_version,
                change,
                self._clock(),
                self._records,
            )
        )
        log_change(record, change)
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
                check_change(change)
                record = store_change(
                    conn, record, record.version, change, self._clock(), self._records
                )
            return record, value, change

        record, value, change = await self._transact(work)
        if change is not None:
            log_change(record, change)
        return record, value

    async def set_timing(self, game_id: int, expected_version: int, timing: Timing) -> GameRecord:
        """Replace the decision clock alone (a reminder went out), compare-and-set."""
        return await self._set(game_id, expected_version, (RUNNING,), timing_columns(timing))

    async def due_games(
        self, now: float, limit: int = 50, shards: Shards | None = None
    ) -> list[GameRecord]:
        """Lobbies and running games with something due at ``now``, most overdue first;
        with ``shards``, only those of guilds on these shards."""
        where, params = shard_filter(shards)
        sql = (
            f"SELECT {GAME_COLUMNS} FROM games WHERE status IN ('lobby', 'running') "
            f"AND next_due <= ?{where} ORDER BY next_due, id LIMIT ?"
        )
        rows = await self._fetch(sql, (now, *params, limit))
        return [game_from_row(row) for row in rows]

    async def running_games(self, guild_id: int) -> list[GameRecord]:
        """The running games of one server, oldest first."""
        sql = (
            f"SELECT {GAME_COLUMNS} FROM games WHERE guild_id = ? AND status = 'running' "
            "ORDER BY id"
        )
        rows = await self._fetch(sql, (guild_id,))
        return [game_from_row(row) for row in rows]

    async def guild_turn_time(self, guild_id: int) -> int | None:
        """The server's default turn time in seconds, if one was set."""
        row = await self._fetch_one(
            "SELECT turn_time FROM guild_settings WHERE guild_id = ?", (guild_id,)
        )
        return None if row is None or row[0] is None else int(row[0])

    async def set_guild_turn_time(self, guild_id: int, seconds: int) -> None:
        check_int("guild_id", guild_id)
        await self._transact(
            lambda conn: conn.execute(
                "INSERT INTO guild_settings (guild_id, turn_time) VALUES (?, ?) "
                "ON CONFLICT (guild_id) DO UPDATE SET turn_time = excluded.turn_time",
                (guild_id, seconds),
            )
        )

    async def abandon(
        self, game_id: int, expected_version: int, events: Sequence[EventRow] = ()
    ) -> GameRecord:
        """Mark a lobby or running game ``abandoned`` (sets ``finished_at``); frees the channel."""
        record = await self._set(
            game_id, expected_version, ACTIVE_STATUSES, {"status": ABANDONED}, events, ends=True
        )
        log.info("game %d abandoned", game_id)
        return record

    async def remember_name(self, guild_id: int, user_id: int, name: str) -> None:
        """Keep ``user_id``'s latest display name in ``guild_id``.

        Writes only when the name differs from the one this store last wrote
        (the row's ``updated_at`` then says when the name last changed).
        """
        check_int("guild_id", guild_id)
        check_int("user_id", user_id)
        key = (guild_id, user_id)
        if self._names.get(key) == name:
            return
        await self._transact(
            lambda conn: conn.execute(
                "INSERT INTO player_names (guild_id, user_id, name, updated_at) "
                "VALUES (?, ?, ?, ?) ON CONFLICT (guild_id, user_id) "
                "DO UPDATE SET name = excluded.name, updated_at = excluded.updated_at "
                "WHERE player_names.name <> excluded.name",
                (guild_id, user_id, name, self._clock()),
            )
        )
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
            check_int("message_id", message_id)

        def work(conn: Connection) -> None:
            sql = "UPDATE games SET message_id = ? WHERE id = ?"
            if conn.execute(sql, (message_id, game_id)).rowcount != 1:
                raise GameNotFound(game_id)

        await self._transact(work)

    # -- the channel's side ---------------------------------------------------------

    async def events(self, game_id: int, first_turn: int = 0) -> list[StoredEvent]:
        """The stored events of ``game_id`` from ``first_turn`` on, in order."""
        sql = (
            "SELECT seq, turn, kind, player, data FROM game_events "
            "WHERE game_id = ? AND turn >= ? ORDER BY seq"
        )
        rows = await self._fetch(sql, (game_id, first_turn))
        return [
            StoredEvent(seq, turn, kind, player, load_json(data))
            for seq, turn, kind, player, data in rows
        ]

    async def lagging_games(self, limit: int = 50, shards: Shards | None = None) -> list[int]:
        """Games whose channel shows an older version than the store holds: the one
        behind longest first (``behind_since``), then those never found behind, each
        group by id; with ``shards``, only those of guilds on these shards."""
        where, params = shard_filter(shards)
        sql = (
            "SELECT id FROM games WHERE shown_version < version AND status != 'lobby'"
            f"{where} ORDER BY behind_since IS NULL, behind_since, id LIMIT ?"
        )
        rows = await self._fetch(sql, (*params, limit))
        return [int(row[0]) for row in rows]

    async def mark_behind(self, game_id: int, since: float) -> None:
        """The channel of ``game_id`` could not be updated at ``since``: remembered as
        its ``behind_since`` unless an earlier time is, and only while it lags."""
        await self._transact(
            lambda conn: conn.execute(
                "UPDATE games SET behind_since = ? WHERE id = ? AND behind_since IS NULL "
                "AND shown_version < version",
                (since, game_id),
            )
        )

    async def mark_left_behind(
        self, before: float, since: float, shards: Shards | None = None
    ) -> int:
        """The games whose channel lags a change made before ``before`` (a process's
        start: the one before it stopped without showing the change) could not be
        updated: their ``behind_since`` is ``since`` unless set (with ``shards``: of
        guilds on these shards only). How many."""
        where, params = shard_filter(shards)
        return await self._transact(
            lambda conn: (
                conn.execute(
                    "UPDATE games SET behind_since = ? WHERE shown_version < version "
                    f"AND status != 'lobby' AND behind_since IS NULL AND updated_at < ?{where}",
                    (since, before, *params),
                ).rowcount
            )
        )

    async def set_shown(
        self, game_id: int, version: int, message_id: int | None, shown: dict[str, Any]
    ) -> None:
        """Remember that the channel now shows ``version`` (never moves backwards);
        shown up to the stored version, it is no longer behind (``behind_since``). Under
        the game's lock (:meth:`game_lock`), stored only while the lock is still held
        (else :class:`~bot.store.errors.LockLost`).

        Presentation metadata: does not bump ``version``, so it never races a move.
        """
        if message_id is not None:
            check_int("message_id", message_id)
        await self._conn().write_holding(
            game_id,
            "UPDATE games SET shown_version = CASE WHEN shown_version < ? THEN ? "
            "ELSE shown_version END, behind_since = CASE WHEN ? >= version THEN NULL "
            "ELSE behind_since END, message_id = ?, shown = ? WHERE id = ?",
            (version, version, version, message_id, dump_json(shown), game_id),
        )

    # -- the server's language ------------------------------------------

    async def guild_language(self, guild_id: int) -> str | None:
        """The language a server chose for its public messages, if it chose one."""
        row = await self._fetch_one(
            "SELECT language FROM guild_settings WHERE guild_id = ?", (guild_id,)
        )
        return None if row is None else row[0]

    async def set_guild_language(self, guild_id: int, language: str) -> None:
        check_int("guild_id", guild_id)
        await self._transact(
            lambda conn: conn.execute(
                "INSERT INTO guild_settings (guild_id, language) VALUES (?, ?) "
                "ON CONFLICT (guild_id) DO UPDATE SET language = excluded.language",
                (guild_id, language),
            )
        )

    # -- lobby options ----------------------------------------------------

    async def update_lobby_seats(
        self,
        game_id: int,
        expected_version: int,
        players: Sequence[int],
        options: dict[str, Any],
    ) -> GameRecord:
        """Replace a lobby's players and options together (a computer seat and its
        level), compare-and-set."""
        changes = {"players": dump_json(check_players(players)), "options": dump_json(options)}
        return await self._set(game_id, expected_version, (LOBBY,), changes)
