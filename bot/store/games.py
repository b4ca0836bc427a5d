"""The games: their rows, moves and events, how they change, and what their channels
show (``shown_version``, ``behind_since``).

Every state change is a compare-and-set on ``games.version`` in one write
transaction (see :mod:`bot.store.changes`), which returns the record as written. A
read of a game reuses the record of an unchanged row (:mod:`bot.store.cache`), and so
does the service's game built from it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import Any, Final

from bot.records.errors import ChannelBusy, GameNotFound
from bot.records.games import (
    ABANDONED,
    ACTIVE_STATUSES,
    LOBBY,
    RUNNING,
    Changed,
    EventRow,
    GameChange,
    GameRecord,
    InPlay,
    MoveRecord,
    Showing,
    StoredEvent,
    Timing,
)

from .cache import RecordCache
from .changes import (
    ACTIVE_SQL,
    GAME_SQL,
    append_events,
    check_change,
    check_int,
    check_players,
    compare_and_set,
    log_change,
    store_change,
)
from .engine import Engine, Row, Tx, first
from .records import (
    GAME_COLUMNS,
    MOVE_COLUMNS,
    changed,
    dump_json,
    encoded,
    game_from_row,
    load_json,
    move_from_row,
    timing_columns,
)

log = logging.getLogger(__name__)

Clock = Callable[[], float]
Shards = tuple[Sequence[int], int]
"""``(shard_ids, shard_count)``: the shards a process runs (Discord's
``(guild_id >> 22) % shard_count``)."""

# No ORDER BY: SQLite would then walk the whole table in id order rather than the
# partial index of active games. A daily challenge's game holds no channel (its id is
# negative, see bot/service/daily.py) and counts against no limit.
IN_PLAY_SQL: Final = (
    f"SELECT id, players, status, presence FROM games WHERE {ACTIVE_SQL} "
    "AND guild_id = ? AND channel_id > 0"
)
SHOWN_SQL: Final = (
    "UPDATE games SET shown_version = CASE WHEN shown_version < ? THEN ? "
    "ELSE shown_version END, behind_since = CASE WHEN ? >= version THEN NULL "
    "ELSE behind_since END, message_id = ?, shown = ? WHERE id = ? "
    "RETURNING shown_version, behind_since"
)


def shard_filter(shards: Shards | None) -> tuple[str, tuple[int, ...]]:
    """The ``AND`` clause (and its parameters) keeping the games of ``shards``' guilds."""
    if shards is None:
        return "", ()
    ids, count = shards
    marks = ", ".join("?" for _ in ids) or "NULL"
    return f" AND (guild_id >> 22) % ? IN ({marks})", (count, *ids)


def in_play(row: Row) -> InPlay:
    game_id, players, status, presence = row
    away = set(load_json(presence or "{}").get("away", [])) if status == RUNNING else set()
    return InPlay(int(game_id), frozenset(p for p in load_json(players) if p not in away))


class GameRepository:
    """The games of one store (``store.games``)."""

    def __init__(self, engine: Engine, clock: Clock) -> None:
        self._engine = engine
        self._clock = clock
        self._records = RecordCache()

    async def _all(self, sql: str, params: Sequence[Any] = ()) -> list[GameRecord]:
        return [game_from_row(row) for row in await self._engine.fetch(sql, params)]

    # -- reads -----------------------------------------------------------------------

    async def get(self, game_id: int) -> GameRecord | None:
        """The game with ``game_id``, or None."""
        row = first(await self._engine.fetch(GAME_SQL, (game_id,)))
        return None if row is None else self._records.record(row)

    async def in_channel(self, channel_id: int) -> GameRecord | None:
        """The lobby or running game in ``channel_id``, or None."""
        sql = f"SELECT {GAME_COLUMNS} FROM games WHERE channel_id = ? AND {ACTIVE_SQL}"
        row = first(await self._engine.fetch(sql, (channel_id,)))
        return None if row is None else self._records.record(row)

    async def of_channel(self, channel_id: int, *, limit: int = 20) -> list[GameRecord]:
        """Up to ``limit`` games of ``channel_id`` (any status), newest first."""
        sql = f"SELECT {GAME_COLUMNS} FROM games WHERE channel_id = ? ORDER BY id DESC LIMIT ?"
        return await self._all(sql, (channel_id, limit))

    async def active(self) -> list[GameRecord]:
        """Every lobby or running game, oldest first (e.g. to restore views on startup)."""
        return await self._all(f"SELECT {GAME_COLUMNS} FROM games WHERE {ACTIVE_SQL} ORDER BY id")

    async def running(self, guild_id: int) -> list[GameRecord]:
        """The running games of one server, oldest first."""
        sql = (
            f"SELECT {GAME_COLUMNS} FROM games WHERE guild_id = ? AND status = 'running' "
            "ORDER BY id"
        )
        return await self._all(sql, (guild_id,))

    async def due(
        self, now: float, limit: int = 50, shards: Shards | None = None
    ) -> list[GameRecord]:
        """Lobbies and running games with something due at ``now``, most overdue first;
        with ``shards``, only those of guilds on these shards."""
        where, params = shard_filter(shards)
        sql = (
            f"SELECT {GAME_COLUMNS} FROM games WHERE status IN ('lobby', 'running') "
            f"AND next_due <= ?{where} ORDER BY next_due, id LIMIT ?"
        )
        return await self._all(sql, (now, *params, limit))

    async def seated(self, user_id: int) -> list[GameRecord]:
        """The running games ``user_id`` sits in, on every server, oldest first (a daily
        attempt, which has no channel, is none of them)."""
        return await self._all(
            f"SELECT {GAME_COLUMNS} FROM games WHERE id IN "
            "(SELECT game_id FROM game_seats WHERE user_id = ?) "
            "AND status = 'running' AND channel_id > 0 ORDER BY id",
            (user_id,),
        )

    async def in_play(self, guild_id: int) -> list[InPlay]:
        """The lobbies and running games of ``guild_id``, oldest first, with who plays
        in them (what the limits against abuse count: :mod:`bot.service.limits`). One
        read, of the active games only (the ``games_due`` partial index bounds it)."""
        found = [in_play(row) for row in await self._engine.fetch(IN_PLAY_SQL, (guild_id,))]
        return sorted(found, key=lambda game: game.game_id)

    async def moves(self, game_id: int) -> list[MoveRecord]:
        """All moves of ``game_id`` in ``seq`` order (empty for an unknown game)."""
        sql = f"SELECT {MOVE_COLUMNS} FROM moves WHERE game_id = ? ORDER BY seq"
        return [move_from_row(row) for row in await self._engine.fetch(sql, (game_id,))]

    async def events(self, game_id: int, first_turn: int = 0) -> list[StoredEvent]:
        """The stored events of ``game_id`` from ``first_turn`` on, in order."""
        sql = (
            "SELECT seq, turn, kind, player, data FROM game_events "
            "WHERE game_id = ? AND turn >= ? ORDER BY seq"
        )
        rows = await self._engine.fetch(sql, (game_id, first_turn))
        return [
            StoredEvent(seq, turn, kind, player, load_json(data))
            for seq, turn, kind, player, data in rows
        ]

    async def lagging(self, limit: int = 50, shards: Shards | None = None) -> list[int]:
        """Games whose channel shows an older version than the store holds: the one
        behind longest first (``behind_since``), then those never found behind, each
        group by id; with ``shards``, only those of guilds on these shards."""
        where, params = shard_filter(shards)
        sql = (
            "SELECT id FROM games WHERE shown_version < version AND status != 'lobby'"
            f"{where} ORDER BY behind_since IS NULL, behind_since, id LIMIT ?"
        )
        return [int(row[0]) for row in await self._engine.fetch(sql, (*params, limit))]

    # -- writes ----------------------------------------------------------------------

    async def create(
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

        async def work(tx: Tx) -> GameRecord:
            now = self._clock()
            # The unique index on the channel's active game decides, not a prior read:
            # of two processes creating at once, the second waits for the first's
            # commit and inserts nothing.
            created = await tx.fetch(
                "INSERT INTO games (guild_id, channel_id, host_id, variant, options, seed, "
                "players, status, version, created_at, updated_at, turn_time, next_due, "
                "shown_version) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?, 1) "
                f"ON CONFLICT (channel_id) WHERE {ACTIVE_SQL} DO NOTHING "
                f"RETURNING {GAME_COLUMNS}",
                (guild_id, channel_id, host_id, variant, options_json, seed,
                 players_json, LOBBY, now, now, turn_time, expires),
            )  # fmt: skip
            if not created:
                busy = first(
                    await tx.fetch(
                        f"SELECT id FROM games WHERE channel_id = ? AND {ACTIVE_SQL}", (channel_id,)
                    )
                )
                raise ChannelBusy(channel_id, None if busy is None else busy[0])
            return self._records.record(created[0])

        record = await self._engine.transact(work)
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
        seated: Sequence[int] = (),
    ) -> GameRecord:
        """Compare-and-set ``changes`` (and append ``events``), one transaction; ``ends``
        also stamps ``finished_at`` and clears ``next_due``; ``seated``: the people who
        now sit in the game (see :mod:`bot.store.members`)."""

        async def work(tx: Tx) -> GameRecord:
            now = self._clock()
            columns = {**changes, "finished_at": now, "next_due": None} if ends else changes
            row = await compare_and_set(tx, game_id, expected_version, allowed, columns, now)
            await append_events(tx, game_id, events)
            if seated:
                await tx.executemany(
                    "INSERT INTO game_seats (game_id, user_id) VALUES (?, ?) "
                    "ON CONFLICT (user_id, game_id) DO NOTHING",
                    [(game_id, person) for person in seated],
                )
            return self._records.record(row)

        return await self._engine.transact(work)

    async def set_players(
        self,
        game_id: int,
        expected_version: int,
        players: Sequence[int],
        options: dict[str, Any] | None = None,
    ) -> GameRecord:
        """Replace a lobby's seat-ordered players, and its ``options`` if given (a
        computer seat and its level), compare-and-set."""
        changes = {"players": dump_json(check_players(players))}
        if options is not None:
            changes["options"] = dump_json(options)
        return await self._set(game_id, expected_version, (LOBBY,), changes)

    async def start(
        self,
        game_id: int,
        expected_version: int,
        state: dict[str, Any],
        timing: Timing | None = None,
        events: Sequence[EventRow] = (),
        presence: dict[str, Any] | None = None,
        people: Sequence[int] = (),
    ) -> GameRecord:
        """Move a lobby to ``running`` with its initial ``state`` (compare-and-set), and
        its seats' ``presence`` if given (the people's preferences); ``people``, those
        seated, are found in their games on every server from now on (:meth:`seated`)."""
        changes = {"state": dump_json(state), "status": RUNNING, **timing_columns(timing)}
        if presence is not None:
            changes["presence"] = dump_json(presence)
        record = await self._set(
            game_id, expected_version, (LOBBY,), changes, events, seated=people
        )
        log.info("game %d started with %d players", game_id, len(record.players))
        return record

    async def change(
        self, before: GameRecord, change: GameChange, showing: Showing | None = None
    ) -> Changed:
        """Store ``change`` of the running game ``before``: its state, moves (in the order
        they were applied) and events, one transaction that reads nothing (a
        compare-and-set on ``before.version``). ``change.results`` (only when it finishes
        the game) are recorded with it (see :mod:`bot.store.stats`). ``showing``: what the
        channel shows, stored in the same statement unless a version as new is shown
        already (then it is left out; no game lock is needed for it).

        Raises :class:`~bot.records.errors.VersionConflict` if the game changed since
        ``before``, :class:`~bot.records.errors.WrongStatus` if it is not running; then nothing
        is written.
        """
        check_change(change)
        changed = await self._engine.transact(
            lambda tx: store_change(tx, before, change, self._clock(), self._records, showing)
        )
        log_change(changed.record, change)
        return changed

    async def set_timing(self, game_id: int, expected_version: int, timing: Timing) -> GameRecord:
        """Replace the decision clock alone (a reminder went out), compare-and-set."""
        return await self._set(game_id, expected_version, (RUNNING,), timing_columns(timing))

    async def set_pace(
        self,
        game_id: int,
        expected_version: int,
        turn_time: int,
        options: dict[str, Any],
        presence: dict[str, Any],
        timing: Timing,
        events: Sequence[EventRow] = (),
    ) -> GameRecord:
        """The running game's turn time and options (played live or slow), its seats'
        presence and the pending decision's clock, compare-and-set."""
        changes = {
            "turn_time": turn_time,
            "options": dump_json(options),
            "presence": dump_json(presence),
            **timing_columns(timing),
        }
        return await self._set(game_id, expected_version, (RUNNING,), changes, events)

    async def abandon(
        self, game_id: int, expected_version: int, events: Sequence[EventRow] = ()
    ) -> GameRecord:
        """Mark a lobby or running game ``abandoned`` (sets ``finished_at``); frees the channel."""
        record = await self._set(
            game_id, expected_version, ACTIVE_STATUSES, {"status": ABANDONED}, events, ends=True
        )
        log.info("game %d abandoned", game_id)
        return record

    async def set_message(self, game_id: int, message_id: int | None) -> None:
        """Point the game at its current public message (or None), in any status.

        Presentation metadata only: does not check or bump ``version`` and leaves
        ``updated_at`` alone, so it never causes a :class:`VersionConflict`.
        """
        if message_id is not None:
            check_int("message_id", message_id)

        async def work(tx: Tx) -> None:
            sql = "UPDATE games SET message_id = ? WHERE id = ?"
            if await tx.execute(sql, (message_id, game_id)) != 1:
                raise GameNotFound(game_id)

        await self._engine.transact(work)

    # -- the channel's side ---------------------------------------------------------

    async def mark_behind(self, game_id: int, since: float) -> None:
        """The channel of ``game_id`` could not be updated at ``since``: remembered as
        its ``behind_since`` unless an earlier time is, and only while it lags."""
        await self._engine.transact(
            lambda tx: tx.execute(
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
        return await self._engine.transact(
            lambda tx: tx.execute(
                "UPDATE games SET behind_since = ? WHERE shown_version < version "
                f"AND status != 'lobby' AND behind_since IS NULL AND updated_at < ?{where}",
                (since, before, *params),
            )
        )

    async def set_shown(
        self, record: GameRecord, message_id: int | None, shown: dict[str, Any]
    ) -> GameRecord:
        """Remember that the channel now shows ``record`` (its version; never moves
        backwards), in ``message_id`` with ``shown``; shown up to the stored version, it
        is no longer behind (``behind_since``). Under the game's lock
        (:meth:`bot.store.Store.game_lock`), stored only while the lock is still held
        (else :class:`~bot.records.errors.LockLost`). ``record`` as it now is.

        Presentation metadata: does not bump ``version``, so it never races a move.
        """
        if message_id is not None:
            check_int("message_id", message_id)
        version, (text, value) = record.version, encoded(shown)
        params = (version, version, version, message_id, text, record.id)
        row = first(await self._engine.write_holding(record.id, SHOWN_SQL, params))
        shown_version, behind_since = row or (max(version, record.shown_version), None)
        return changed(
            record,
            {
                "message_id": message_id,
                "shown": value,
                "shown_version": shown_version,
                "behind_since": behind_since,
            },
        )
