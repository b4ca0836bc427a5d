"""Tournaments' records (schema version 16): a repository, ``store.tournaments``.

Tables (see :data:`TOURNAMENT_TABLES`); each has the server's ``guild_id`` and names its
people ``host_id`` or ``user_id``, so a member's ``/qwixx forget-me`` and a departed
server's deletion (:mod:`bot.store.privacy`, which read the schema) reach them too:

* ``tournaments`` — one row per tournament: the organiser, the settings (JSON), the seed
  seating draws ties from, the status, how many rounds are seated, the version every
  change compares and sets, the messages that show it and what they show, and
  ``next_due``: when something is owed (a deadline, a round to seat, a message to write).
  At most one open tournament per channel (a partial unique index).
* ``tournament_entrants`` — who signed up, checked in, withdrew (after which round).
* ``tournament_rounds`` — each round as seated (JSON), once: the primary key
  ``(tournament_id, number)`` and the compare-and-set of ``tournaments.rounds`` in the
  same transaction make a second seating of a round, in this process or another, a
  no-op.
* ``tournament_tables`` — each table of a round: its thread, its game (each game one
  table's), and its result once the game ended (written once).
* ``tournament_roles`` — the role a server names for organisers, if any.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from bot.records.errors import StoreError
from bot.tournament import Round, TableResult, TournamentSettings
from bot.tournament.records import (
    EntrantRecord,
    Status,
    TableRecord,
    Tournament,
    TournamentRecord,
    result_data,
    result_of,
    round_data,
    round_of,
    settings_data,
    settings_of,
)

from .changes import check_int
from .engine import Engine, Row, Tx
from .games import Shards, shard_filter
from .records import dump_json, load_json

OPEN_SQL: Final = "status IN ('signup', 'running')"
STATUSES: Final[tuple[Status, ...]] = ("signup", "running", "finished", "cancelled")
TOURNAMENT_TABLES: Final = (
    """
    CREATE TABLE tournaments (
        id          INTEGER PRIMARY KEY,
        guild_id    BIGINT NOT NULL,
        channel_id  BIGINT NOT NULL,
        host_id     BIGINT NOT NULL,
        name        TEXT NOT NULL,
        settings    TEXT NOT NULL,
        seed        BIGINT NOT NULL,
        status      TEXT NOT NULL
                    CHECK (status IN ('signup', 'running', 'finished', 'cancelled')),
        rounds      INTEGER NOT NULL DEFAULT 0 CHECK (rounds >= 0),
        version     INTEGER NOT NULL DEFAULT 1 CHECK (version >= 1),
        message_id  BIGINT,
        standings_id BIGINT,
        podium_id   BIGINT,
        shown       TEXT NOT NULL DEFAULT '{}',
        next_due    DOUBLE PRECISION,
        created_at  DOUBLE PRECISION NOT NULL,
        updated_at  DOUBLE PRECISION NOT NULL,
        finished_at DOUBLE PRECISION
    )
    """,
    f"CREATE UNIQUE INDEX tournaments_open_channel ON tournaments (channel_id) WHERE {OPEN_SQL}",
    "CREATE INDEX tournaments_guild ON tournaments (guild_id, id)",
    # What is owed, an ended tournament's last messages too.
    "CREATE INDEX tournaments_due ON tournaments (next_due) WHERE next_due IS NOT NULL",
    """
    CREATE TABLE tournament_entrants (
        tournament_id   BIGINT NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
        guild_id        BIGINT NOT NULL,
        user_id         BIGINT NOT NULL,
        joined_at       DOUBLE PRECISION NOT NULL,
        checked_in      SMALLINT NOT NULL DEFAULT 0,
        withdrawn_after INTEGER,
        PRIMARY KEY (tournament_id, user_id)
    )
    """,
    "CREATE INDEX tournament_entrants_member ON tournament_entrants (guild_id, user_id)",
    """
    CREATE TABLE tournament_rounds (
        tournament_id BIGINT NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
        guild_id      BIGINT NOT NULL,
        number        INTEGER NOT NULL CHECK (number >= 1),
        seating       TEXT NOT NULL,
        seated_at     DOUBLE PRECISION NOT NULL,
        message_id    BIGINT,
        PRIMARY KEY (tournament_id, number)
    )
    """,
    """
    CREATE TABLE tournament_tables (
        tournament_id BIGINT NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
        guild_id      BIGINT NOT NULL,
        round         INTEGER NOT NULL,
        number        INTEGER NOT NULL,
        players       TEXT NOT NULL,
        computers     INTEGER NOT NULL DEFAULT 0,
        thread_id     BIGINT,
        game_id       INTEGER UNIQUE REFERENCES games (id),
        result        TEXT,
        PRIMARY KEY (tournament_id, round, number)
    )
    """,
    # The tables still playing: what the timer looks at for games that ended.
    "CREATE INDEX tournament_tables_playing ON tournament_tables (game_id) WHERE result IS NULL",
    """
    CREATE TABLE tournament_roles (
        guild_id BIGINT PRIMARY KEY,
        role_id  BIGINT NOT NULL
    )
    """,
)
RECORD_COLUMNS: Final = (
    "id, guild_id, channel_id, host_id, settings, seed, status, rounds, version, created_at, "
    "message_id, standings_id, podium_id, shown, next_due, finished_at"
)
ENDED: Final = "('finished', 'abandoned')"


class TournamentChanged(StoreError):
    """The tournament changed since it was read (compare-and-set failed), or is not in
    a status that allows the change."""

    def __init__(self, tournament_id: int, expected: int) -> None:
        super().__init__(f"tournament {tournament_id} changed since version {expected}")
        self.tournament_id = tournament_id


class TournamentBusy(StoreError):
    """The channel already holds an open tournament."""

    def __init__(self, channel_id: int, name: str) -> None:
        super().__init__(f"channel {channel_id} already holds the open tournament {name!r}")
        self.name = name


def record_of(row: Row) -> TournamentRecord:
    (id_, guild, channel, host, settings, seed, status, rounds, version, created,
     message, standings, podium, shown, due, finished) = row  # fmt: skip
    return TournamentRecord(
        int(id_),
        int(guild),
        int(channel),
        int(host),
        settings_of(load_json(settings)),
        int(seed),
        status,
        int(rounds),
        int(version),
        float(created),
        None if message is None else int(message),
        None if standings is None else int(standings),
        None if podium is None else int(podium),
        load_json(shown),
        None if due is None else float(due),
        None if finished is None else float(finished),
    )


class TournamentRepository:
    """The tournaments of one database (see the module)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    # --- reads -----------------------------------------------------------------------
    async def get(self, tournament_id: int) -> Tournament | None:
        """The tournament with everything stored of it, or None."""
        rows = await self.engine.fetch(
            f"SELECT {RECORD_COLUMNS} FROM tournaments WHERE id = ?", (tournament_id,)
        )
        if not rows:
            return None
        return await self._whole(record_of(rows[0]))

    async def _whole(self, record: TournamentRecord) -> Tournament:
        """``record`` with its rows. The reads are separate statements, so a round seated
        meanwhile may already be in them: only the rounds ``record`` counts are taken (a
        round's rows and the count are committed together), so the whole is as of
        ``record`` and a next round is worked out from the rounds it follows."""
        fetch, key = self.engine.fetch, (record.id,)
        seated = (record.id, record.rounds)
        entrants = await fetch(
            "SELECT user_id, joined_at, checked_in, withdrawn_after FROM tournament_entrants "
            "WHERE tournament_id = ? ORDER BY joined_at, user_id",
            key,
        )
        rounds = await fetch(
            "SELECT number, seating, message_id FROM tournament_rounds "
            "WHERE tournament_id = ? AND number <= ? ORDER BY number",
            seated,
        )
        tables = await fetch(
            "SELECT round, number, players, computers, thread_id, game_id, result "
            "FROM tournament_tables WHERE tournament_id = ? AND round <= ? ORDER BY round, number",
            seated,
        )
        return Tournament(
            record,
            tuple(
                EntrantRecord(int(u), float(at), bool(checked), None if w is None else int(w))
                for u, at, checked, w in entrants
            ),
            tuple(round_of(int(n), load_json(seating)) for n, seating, _ in rounds),
            {int(n): int(m) for n, _, m in rounds if m is not None},
            tuple(
                TableRecord(
                    int(r),
                    int(n),
                    tuple(load_json(players)),
                    int(computers),
                    None if thread is None else int(thread),
                    None if game is None else int(game),
                    None if result is None else result_of(int(r), int(n), load_json(result)),
                )
                for r, n, players, computers, thread, game, result in tables
            ),
        )

    async def in_channel(self, channel_id: int) -> TournamentRecord | None:
        """The open tournament of a channel, if any."""
        rows = await self.engine.fetch(
            f"SELECT {RECORD_COLUMNS} FROM tournaments WHERE channel_id = ? AND {OPEN_SQL}",
            (channel_id,),
        )
        return record_of(rows[0]) if rows else None

    async def of_guild(self, guild_id: int, limit: int = 10) -> list[TournamentRecord]:
        """A server's open tournaments, then its newest ended ones, ``limit`` in all."""
        rows = await self.engine.fetch(
            f"SELECT {RECORD_COLUMNS} FROM tournaments WHERE guild_id = ? "
            f"ORDER BY CASE WHEN {OPEN_SQL} THEN 0 ELSE 1 END, id DESC LIMIT ?",
            (guild_id, limit),
        )
        return [record_of(row) for row in rows]

    async def open_count(self, guild_id: int) -> int:
        rows = await self.engine.fetch(
            f"SELECT COUNT(*) FROM tournaments WHERE guild_id = ? AND {OPEN_SQL}", (guild_id,)
        )
        return int(rows[0][0])

    async def entered(self, guild_id: int, user_id: int) -> list[TournamentRecord]:
        """The open tournaments of a server that ``user_id`` is in (not withdrawn)."""
        rows = await self.engine.fetch(
            f"SELECT {', '.join('t.' + c for c in RECORD_COLUMNS.split(', '))} "
            "FROM tournament_entrants AS e JOIN tournaments AS t ON t.id = e.tournament_id "
            f"WHERE e.guild_id = ? AND e.user_id = ? AND e.withdrawn_after IS NULL "
            f"AND t.{OPEN_SQL} ORDER BY t.id",
            (guild_id, user_id),
        )
        return [record_of(row) for row in rows]

    async def due(self, now: float, shards: Shards | None = None, limit: int = 50) -> list[int]:
        """Tournaments with something owed at ``now`` (an ended one's last messages
        too), and those with a table whose game has ended but whose result is not stored
        yet (with ``shards``: of guilds on these shards only)."""
        where, params = shard_filter(shards)
        owed = await self.engine.fetch(
            f"SELECT id FROM tournaments WHERE next_due <= ?{where} ORDER BY next_due, id LIMIT ?",
            (now, *params, limit),
        )
        ended = await self.engine.fetch(
            "SELECT DISTINCT tournament_id FROM tournament_tables WHERE result IS NULL "
            "AND game_id IS NOT NULL AND EXISTS (SELECT 1 FROM games AS g "
            f"WHERE g.id = tournament_tables.game_id AND g.status IN {ENDED}){where} LIMIT ?",
            (*params, limit),
        )
        found = [int(r[0]) for r in owed]
        return found + sorted({int(r[0]) for r in ended} - set(found))

    async def role(self, guild_id: int) -> int | None:
        """The role a server names for organisers, if any."""
        rows = await self.engine.fetch(
            "SELECT role_id FROM tournament_roles WHERE guild_id = ?", (guild_id,)
        )
        return int(rows[0][0]) if rows else None

    # --- sign-up ---------------------------------------------------------------------
    async def create(
        self,
        guild_id: int,
        channel_id: int,
        host_id: int,
        settings: TournamentSettings,
        seed: int,
        now: float,
        next_due: float | None,
    ) -> TournamentRecord:
        """A tournament open for sign-up (:class:`TournamentBusy` if the channel holds
        one already)."""
        for name, value in (("guild_id", guild_id), ("channel_id", channel_id),
                            ("host_id", host_id), ("seed", seed)):  # fmt: skip
            check_int(name, value)

        async def work(tx: Tx) -> TournamentRecord:
            rows = await tx.fetch(
                "INSERT INTO tournaments (guild_id, channel_id, host_id, name, settings, seed, "
                "status, created_at, updated_at, next_due) "
                "VALUES (?, ?, ?, ?, ?, ?, 'signup', ?, ?, ?) "
                f"ON CONFLICT (channel_id) WHERE {OPEN_SQL} DO NOTHING RETURNING {RECORD_COLUMNS}",
                (guild_id, channel_id, host_id, settings.name, dump_json(settings_data(settings)),
                 seed, now, now, next_due),
            )  # fmt: skip
            if not rows:
                busy = await tx.fetch(
                    f"SELECT name FROM tournaments WHERE channel_id = ? AND {OPEN_SQL}",
                    (channel_id,),
                )
                raise TournamentBusy(channel_id, str(busy[0][0]) if busy else "")
            return record_of(rows[0])

        return await self.engine.transact(work)

    async def _change(
        self,
        tx: Tx,
        record: TournamentRecord,
        now: float,
        statuses: tuple[Status, ...] = ("signup",),
        **columns: Any,
    ) -> None:
        """Compare-and-set ``columns`` (and a new version) on ``record``'s version, if
        its status is one of ``statuses``; :class:`TournamentChanged` otherwise."""
        sets = "".join(f", {name} = ?" for name in columns)
        marks = ", ".join("?" for _ in statuses)
        changed = await tx.execute(
            f"UPDATE tournaments SET version = version + 1, updated_at = ?{sets} "
            f"WHERE id = ? AND version = ? AND status IN ({marks})",
            (now, *columns.values(), record.id, record.version, *statuses),
        )
        if changed != 1:
            raise TournamentChanged(record.id, record.version)

    async def join(self, record: TournamentRecord, user_id: int, now: float) -> None:
        """``user_id`` signs up (compare-and-set on ``record``)."""
        check_int("user_id", user_id)

        async def work(tx: Tx) -> None:
            await self._change(tx, record, now)
            await tx.execute(
                "INSERT INTO tournament_entrants (tournament_id, guild_id, user_id, joined_at) "
                "VALUES (?, ?, ?, ?)",
                (record.id, record.guild_id, user_id, now),
            )

        await self.engine.transact(work)

    async def leave(self, record: TournamentRecord, user_id: int, now: float) -> None:
        """``user_id`` is no longer signed up (compare-and-set on ``record``)."""

        async def work(tx: Tx) -> None:
            await self._change(tx, record, now)
            await tx.execute(
                "DELETE FROM tournament_entrants WHERE tournament_id = ? AND user_id = ?",
                (record.id, user_id),
            )

        await self.engine.transact(work)

    async def check_in(self, record: TournamentRecord, user_id: int, now: float) -> None:
        async def work(tx: Tx) -> None:
            await self._change(tx, record, now)
            await tx.execute(
                "UPDATE tournament_entrants SET checked_in = 1 "
                "WHERE tournament_id = ? AND user_id = ?",
                (record.id, user_id),
            )

        await self.engine.transact(work)

    async def start(self, record: TournamentRecord, dropped: Sequence[int], now: float) -> None:
        """Sign-up closes: ``dropped`` (who did not check in) are no longer entrants (the
        channel's memory keeps them, to tell them); the first round is owed at once."""

        async def work(tx: Tx) -> None:
            shown = dump_json({**record.shown, "dropped": list(dropped)})
            await self._change(tx, record, now, status="running", next_due=now, shown=shown)
            for user_id in dropped:
                await tx.execute(
                    "DELETE FROM tournament_entrants WHERE tournament_id = ? AND user_id = ?",
                    (record.id, user_id),
                )

        await self.engine.transact(work)

    async def end(self, record: TournamentRecord, status: Status, now: float) -> None:
        """The tournament is ``finished`` or ``cancelled``; its last messages are owed."""

        async def work(tx: Tx) -> None:
            await self._change(
                tx,
                record,
                now,
                ("signup", "running"),
                status=status,
                finished_at=now,
                next_due=now,
            )

        await self.engine.transact(work)

    async def set_due(self, record: TournamentRecord, next_due: float | None, now: float) -> bool:
        """When something is owed next, unless the tournament changed since ``record``
        (then it stays owed: False)."""

        async def work(tx: Tx) -> None:
            await self._change(tx, record, now, STATUSES, next_due=next_due)

        try:
            await self.engine.transact(work)
        except TournamentChanged:
            return False
        return True

    async def withdraw(
        self, record: TournamentRecord, user_id: int, after: int, now: float
    ) -> None:
        """``user_id`` withdraws; ``after``: the last round they are seated in."""

        async def work(tx: Tx) -> None:
            await self._change(tx, record, now, ("running",), next_due=now)
            changed = await tx.execute(
                "UPDATE tournament_entrants SET withdrawn_after = ? WHERE tournament_id = ? "
                "AND user_id = ? AND withdrawn_after IS NULL",
                (after, record.id, user_id),
            )
            if changed != 1:
                raise TournamentChanged(record.id, record.version)

        await self.engine.transact(work)

    # --- rounds and tables -----------------------------------------------------------
    async def seat(self, record: TournamentRecord, round_: Round, now: float) -> None:
        """Round ``record.rounds + 1`` as seated, with its tables: once. A second seating,
        here or in another process, finds ``rounds`` moved on (or the round's row there)
        and stores nothing (:class:`TournamentChanged`)."""
        if round_.number != record.rounds + 1:
            raise ValueError(f"round {round_.number} after {record.rounds}")

        async def work(tx: Tx) -> None:
            await self._change(tx, record, now, ("running",), rounds=round_.number, next_due=now)
            inserted = await tx.execute(
                "INSERT INTO tournament_rounds (tournament_id, guild_id, number, seating, "
                "seated_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                (record.id, record.guild_id, round_.number, dump_json(round_data(round_)), now),
            )
            if inserted != 1:
                raise TournamentChanged(record.id, record.version)
            await tx.executemany(
                "INSERT INTO tournament_tables (tournament_id, guild_id, round, number, "
                "players, computers) VALUES (?, ?, ?, ?, ?, ?)",
                [
                    (record.id, record.guild_id, round_.number, t.number,
                     dump_json(list(t.players)), t.computers)
                    for t in round_.tables
                ],
            )  # fmt: skip

        await self.engine.transact(work)

    async def set_thread(self, tournament_id: int, round: int, table: int, thread_id: int) -> int:
        """The table plays in ``thread_id`` unless it has a thread already: the thread it
        plays in."""
        return await self._claim(tournament_id, round, table, "thread_id", thread_id)

    async def set_game(self, tournament_id: int, round: int, table: int, game_id: int) -> int:
        """The table's game is ``game_id`` unless it has one already: the table's game."""
        return await self._claim(tournament_id, round, table, "game_id", game_id)

    async def _claim(
        self, tournament_id: int, round: int, table: int, column: str, value: int
    ) -> int:
        async def work(tx: Tx) -> int:
            key = (tournament_id, round, table)
            await tx.execute(
                f"UPDATE tournament_tables SET {column} = ? WHERE tournament_id = ? "
                f"AND round = ? AND number = ? AND {column} IS NULL",
                (value, *key),
            )
            rows = await tx.fetch(
                f"SELECT {column} FROM tournament_tables WHERE tournament_id = ? AND round = ? "
                "AND number = ?",
                key,
            )
            return int(rows[0][0])

        return await self.engine.transact(work)

    async def set_result(self, tournament_id: int, result: TableResult, now: float) -> bool:
        """The result of a table whose game ended, once (False: it had one); the
        tournament's messages are owed."""

        async def work(tx: Tx) -> bool:
            changed = await tx.execute(
                "UPDATE tournament_tables SET result = ? WHERE tournament_id = ? AND round = ? "
                "AND number = ? AND result IS NULL",
                (dump_json(result_data(result)), tournament_id, result.round, result.table),
            )
            if changed:
                await tx.execute(
                    "UPDATE tournaments SET version = version + 1, updated_at = ?, next_due = ? "
                    "WHERE id = ?",
                    (now, now, tournament_id),
                )
            return changed == 1

        return await self.engine.transact(work)

    # --- what the channel shows (no new version: never in a change's way) -----------------
    async def set_shown(
        self,
        tournament_id: int,
        shown: dict[str, Any],
        **messages: int,
    ) -> None:
        """What the channel shows now, and the ids of ``messages`` (``message_id``,
        ``standings_id``, ``podium_id``) just posted."""
        allowed = {"message_id", "standings_id", "podium_id"}
        if not allowed.issuperset(messages):
            raise ValueError(f"unknown message columns {sorted(set(messages) - allowed)}")
        sets = "".join(f", {name} = ?" for name in messages)
        await self.engine.transact(
            lambda tx: tx.execute(
                f"UPDATE tournaments SET shown = ?{sets} WHERE id = ?",
                (dump_json(shown), *messages.values(), tournament_id),
            )
        )

    async def set_round_message(self, tournament_id: int, round: int, message_id: int) -> None:
        await self.engine.transact(
            lambda tx: tx.execute(
                "UPDATE tournament_rounds SET message_id = ? WHERE tournament_id = ? "
                "AND number = ?",
                (message_id, tournament_id, round),
            )
        )

    async def set_role(self, guild_id: int, role_id: int | None) -> None:
        """The role that may organise tournaments on a server (None: Manage Server only)."""
        check_int("guild_id", guild_id)
        if role_id is None:
            await self.engine.transact(
                lambda tx: tx.execute(
                    "DELETE FROM tournament_roles WHERE guild_id = ?", (guild_id,)
                )
            )
            return
        await self.engine.transact(
            lambda tx: tx.execute(
                "INSERT INTO tournament_roles (guild_id, role_id) VALUES (?, ?) "
                "ON CONFLICT (guild_id) DO UPDATE SET role_id = excluded.role_id",
                (guild_id, role_id),
            )
        )
