"""Numbered schema migrations and the runner that applies them.

Each :class:`Migration` is a list of plain SQL statements (no ``executescript``,
so the whole upgrade runs in one transaction). Applied versions are recorded in
the ``schema_version`` table. Append new migrations; never edit applied ones.

One list serves both backends: the statements are written in SQLite's spelling and
:func:`bot.store.dialect.to_postgres` translates them for PostgreSQL (identity ids,
``BIGINT`` game ids, ``date_trunc``).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from bot.progress import stage
from bot.records.errors import StoreError

from .daily import DAILY_OWED, DAILY_TABLES
from .engine import Tx, Work
from .members import MEMBER_TABLES
from .privacy import PRIVACY_TABLES
from .ratings import RATINGS_TABLES
from .reviews import REVIEW_TABLES
from .stats import FILL_PERIOD_TOTALS
from .tournaments import TOURNAMENT_TABLES

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Migration:
    """One schema step: ``version`` is 1-based and contiguous."""

    version: int
    name: str
    statements: tuple[str, ...]


VERSION_TABLE = """
CREATE TABLE IF NOT EXISTS schema_version (
    version    INTEGER PRIMARY KEY,
    name       TEXT NOT NULL,
    applied_at DOUBLE PRECISION NOT NULL
)
"""

# Discord snowflakes use BIGINT (64-bit in SQLite and PostgreSQL alike).
# Timestamps are unix seconds.
INITIAL = Migration(
    version=1,
    name="initial",
    statements=(
        """
        CREATE TABLE games (
            id          INTEGER PRIMARY KEY,
            guild_id    BIGINT NOT NULL,
            channel_id  BIGINT NOT NULL,
            message_id  BIGINT,
            host_id     BIGINT NOT NULL,
            variant     TEXT NOT NULL,
            options     TEXT NOT NULL,
            seed        BIGINT NOT NULL,
            players     TEXT NOT NULL,
            state       TEXT,
            status      TEXT NOT NULL
                        CHECK (status IN ('lobby', 'running', 'finished', 'abandoned')),
            version     INTEGER NOT NULL DEFAULT 1 CHECK (version >= 1),
            created_at  DOUBLE PRECISION NOT NULL,
            updated_at  DOUBLE PRECISION NOT NULL,
            finished_at DOUBLE PRECISION
        )
        """,
        # At most one lobby/running game per channel; also serves game_in_channel().
        """
        CREATE UNIQUE INDEX games_active_channel
            ON games (channel_id) WHERE status IN ('lobby', 'running')
        """,
        "CREATE INDEX games_channel ON games (channel_id, id)",
        """
        CREATE TABLE moves (
            game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
            seq        INTEGER NOT NULL CHECK (seq >= 1),
            player_id  BIGINT NOT NULL,
            move       TEXT NOT NULL,
            created_at DOUBLE PRECISION NOT NULL,
            PRIMARY KEY (game_id, seq)
        )
        """,
    ),
)

# Display names for images (Discord mentions cover text); per guild, latest wins.
PLAYER_NAMES = Migration(
    version=2,
    name="player_names",
    statements=(
        """
        CREATE TABLE player_names (
            guild_id   BIGINT NOT NULL,
            user_id    BIGINT NOT NULL,
            name       TEXT NOT NULL,
            updated_at DOUBLE PRECISION NOT NULL,
            PRIMARY KEY (guild_id, user_id)
        )
        """,
    ),
)

# Results of finished games for leaderboards, stats and history (see bot/store/stats.py).
# Booleans are SMALLINT 0/1; only counted games (counted = 1) feed the statistics.
STATS = Migration(
    version=3,
    name="stats",
    statements=(
        """
        CREATE TABLE matches (
            game_id     INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
            guild_id    BIGINT NOT NULL,
            channel_id  BIGINT NOT NULL,
            variant     TEXT NOT NULL,
            started_at  DOUBLE PRECISION NOT NULL,
            finished_at DOUBLE PRECISION NOT NULL,
            turns       INTEGER NOT NULL CHECK (turns >= 0),
            players     INTEGER NOT NULL CHECK (players >= 0),
            counted     SMALLINT NOT NULL CHECK (counted IN (0, 1))
        )
        """,
        # /qwixx history: the guild's newest games.
        "CREATE INDEX matches_guild_time ON matches (guild_id, finished_at, game_id)",
        """
        CREATE TABLE results (
            game_id     INTEGER NOT NULL REFERENCES matches (game_id) ON DELETE CASCADE,
            player_id   BIGINT NOT NULL,
            guild_id    BIGINT NOT NULL,
            variant     TEXT NOT NULL,
            seat        INTEGER NOT NULL CHECK (seat >= 0),
            score       INTEGER NOT NULL,
            rank        INTEGER NOT NULL CHECK (rank >= 1),
            won         SMALLINT NOT NULL CHECK (won IN (0, 1)),
            counted     SMALLINT NOT NULL CHECK (counted IN (0, 1)),
            finished_at DOUBLE PRECISION NOT NULL,
            PRIMARY KEY (game_id, player_id)
        )
        """,
        # /qwixx stats and /qwixx history user: one player's games, newest last.
        "CREATE INDEX results_player ON results (guild_id, player_id, finished_at, game_id)",
        # Leaderboards of a period (this month, this week): a covering range scan.
        """
        CREATE INDEX results_period
            ON results (guild_id, finished_at, variant, player_id, score, won)
            WHERE counted = 1
        """,
        # All-time leaderboards and stats: counted results summed per player and variant,
        # maintained in the transaction that finishes a game.
        """
        CREATE TABLE player_totals (
            guild_id  BIGINT NOT NULL,
            player_id BIGINT NOT NULL,
            variant   TEXT NOT NULL,
            games     INTEGER NOT NULL CHECK (games >= 1),
            wins      INTEGER NOT NULL CHECK (wins >= 0),
            score_sum BIGINT NOT NULL,
            best      INTEGER NOT NULL,
            PRIMARY KEY (guild_id, player_id, variant)
        )
        """,
    ),
)

# Decisions have deadlines (data, not sleeping tasks): one scheduler query finds
# what is due. Moves say who decided; servers may set a default turn time.
DEADLINES = Migration(
    version=4,
    name="deadlines",
    statements=(
        "ALTER TABLE games ADD COLUMN turn_time INTEGER NOT NULL DEFAULT 86400",
        "ALTER TABLE games ADD COLUMN stage_started DOUBLE PRECISION",
        "ALTER TABLE games ADD COLUMN deadline DOUBLE PRECISION",
        "ALTER TABLE games ADD COLUMN reminders INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE games ADD COLUMN next_due DOUBLE PRECISION",
        "ALTER TABLE games ADD COLUMN presence TEXT NOT NULL DEFAULT '{}'",
        "CREATE INDEX games_due ON games (next_due) WHERE status = 'running'",
        "ALTER TABLE moves ADD COLUMN source TEXT NOT NULL DEFAULT 'player'",
        """
        CREATE TABLE guild_settings (
            guild_id  BIGINT PRIMARY KEY,
            turn_time INTEGER NOT NULL
        )
        """,
    ),
)

# The channel is a projection of the store: what happened is kept as events (in the
# transaction of the moves that caused them), and each game remembers which version
# its channel shows, so a lagging channel is found and caught up after any failure.
# Lobbies get a deadline too (they close when nobody starts them).
CHANNEL = Migration(
    version=5,
    name="channel",
    statements=(
        """
        CREATE TABLE game_events (
            game_id BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
            seq     INTEGER NOT NULL,
            turn    INTEGER NOT NULL,
            kind    TEXT NOT NULL,
            player  BIGINT,
            data    TEXT NOT NULL,
            PRIMARY KEY (game_id, seq)
        )
        """,
        "CREATE INDEX game_events_turn ON game_events (game_id, turn, seq)",
        "ALTER TABLE games ADD COLUMN shown_version INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE games ADD COLUMN shown TEXT NOT NULL DEFAULT '{}'",
        "UPDATE games SET shown_version = version",
        "CREATE INDEX games_lagging ON games (id) WHERE shown_version < version",
        "DROP INDEX games_due",
        "CREATE INDEX games_due ON games (next_due) WHERE status IN ('lobby', 'running')",
    ),
)

# Leaderboards of this month and this week: counted results summed per calendar month
# and per week (UTC, from Monday), kept in the transaction that finishes a game (see
# bot/store/stats.py), filled here from the results so far.
PERIOD_TOTALS = Migration(
    version=6,
    name="period_totals",
    statements=(
        """
        CREATE TABLE period_totals (
            guild_id  BIGINT NOT NULL,
            period    TEXT NOT NULL CHECK (period IN ('month', 'week')),
            start     DOUBLE PRECISION NOT NULL,
            player_id BIGINT NOT NULL,
            variant   TEXT NOT NULL,
            games     INTEGER NOT NULL CHECK (games >= 1),
            wins      INTEGER NOT NULL CHECK (wins >= 0),
            score_sum BIGINT NOT NULL,
            best      INTEGER NOT NULL,
            PRIMARY KEY (guild_id, period, start, variant, player_id)
        )
        """,
        *FILL_PERIOD_TOTALS,
    ),
)

# The language of a server's public messages and images. A server may set
# it without a turn time, so the table is rebuilt with both columns nullable
# (SQLite cannot drop NOT NULL in place).
GUILD_LANGUAGE = Migration(
    version=7,
    name="guild_language",
    statements=(
        """
        CREATE TABLE guild_settings_new (
            guild_id  BIGINT PRIMARY KEY,
            turn_time INTEGER,
            language  TEXT
        )
        """,
        "INSERT INTO guild_settings_new (guild_id, turn_time) "
        "SELECT guild_id, turn_time FROM guild_settings",
        "DROP TABLE guild_settings",
        "ALTER TABLE guild_settings_new RENAME TO guild_settings",
    ),
)

# Games outside the leaderboard: solo practice and games with hints are
# marked on their match, practice on its results too (for the personal bests); a
# seat a computer played while its player was away is marked on its result, which
# then counts for nobody.
PRACTICE = Migration(
    version=8,
    name="practice_hints_stand_in",
    statements=(
        "ALTER TABLE matches ADD COLUMN practice SMALLINT NOT NULL DEFAULT 0",
        "ALTER TABLE matches ADD COLUMN hints SMALLINT NOT NULL DEFAULT 0",
        "ALTER TABLE results ADD COLUMN practice SMALLINT NOT NULL DEFAULT 0",
        "ALTER TABLE results ADD COLUMN stand_in SMALLINT NOT NULL DEFAULT 0",
        "CREATE INDEX results_practice ON results (guild_id, player_id, variant, score) "
        "WHERE practice = 1",
    ),
)


def _rebuilt_without_rowid(table: str, columns: str, names: str) -> tuple[str, ...]:
    """``table`` again as a ``WITHOUT ROWID`` table of ``columns`` (keeping ``names``'
    rows): its rows then live in the primary key's own B-tree."""
    return (
        f"CREATE TABLE {table}_keyed ({columns}) WITHOUT ROWID",
        f"INSERT INTO {table}_keyed ({names}) SELECT {names} FROM {table}",
        f"DROP TABLE {table}",
        f"ALTER TABLE {table}_keyed RENAME TO {table}",
    )


# A click appends a move and a few events. As rowid tables with a (game_id, seq)
# primary key, each row went into two B-trees (the table and the key's index), each
# a page written at commit; keyed by (game_id, seq) alone they take one. PostgreSQL
# has no rowid: there the tables are simply copied (see bot.store.dialect).
KEYED_LOGS = Migration(
    version=9,
    name="moves_events_without_rowid",
    statements=(
        *_rebuilt_without_rowid(
            "moves",
            """
            game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
            seq        INTEGER NOT NULL CHECK (seq >= 1),
            player_id  BIGINT NOT NULL,
            move       TEXT NOT NULL,
            created_at DOUBLE PRECISION NOT NULL,
            source     TEXT NOT NULL DEFAULT 'player',
            PRIMARY KEY (game_id, seq)
        """,
            "game_id, seq, player_id, move, created_at, source",
        ),
        *_rebuilt_without_rowid(
            "game_events",
            """
            game_id BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
            seq     INTEGER NOT NULL,
            turn    INTEGER NOT NULL,
            kind    TEXT NOT NULL,
            player  BIGINT,
            data    TEXT NOT NULL,
            PRIMARY KEY (game_id, seq)
        """,
            "game_id, seq, turn, kind, player, data",
        ),
        "CREATE INDEX game_events_turn ON game_events (game_id, turn, seq)",
    ),
)

# Skill ratings per server, variant and person (see bot/store/ratings.py); the service
# rates the games counted so far at start-up, in the order they finished.
RATINGS = Migration(version=10, name="ratings", statements=RATINGS_TABLES)

# Members' data (see bot/store/privacy.py): the count of anonymous ids handed to the
# people who asked to be forgotten, and the servers that removed the bot, with when.
PRIVACY = Migration(version=11, name="privacy", statements=PRIVACY_TABLES)

# Each person's accuracy in a finished game, from its review (see bot/store/stats.py);
# games finished before are reviewed in the background after start-up.
REVIEWS = Migration(version=12, name="reviews", statements=REVIEW_TABLES)

# The daily challenge (see bot/store/daily.py): attempts, pars, each server's ranking
# message and settings, and the secret the days' dice come from.
DAILY = Migration(version=13, name="daily", statements=DAILY_TABLES)

# How many finishes each server's daily ranking has not shown yet (bot/store/daily.py),
# so that a ranking owed when the bot stopped is written after the restart.
OWED_RANKINGS = Migration(version=14, name="daily_owed", statements=DAILY_OWED)

# Since when each game's channel could not be updated (a failed write, or a change
# stored while Discord was away): the catch-up after an outage goes oldest first by it,
# after a restart too, and the channel's story tells what was played meanwhile.
BEHIND_SINCE = Migration(
    version=15,
    name="behind_since",
    statements=("ALTER TABLE games ADD COLUMN behind_since DOUBLE PRECISION",),
)

# Tournaments over days (see bot/store/tournaments.py): their entrants, seated rounds and
# tables, each table an ordinary game.
TOURNAMENTS = Migration(version=16, name="tournaments", statements=TOURNAMENT_TABLES)

# Members across servers (see bot/store/members.py): their preferences (standing choices,
# direct messages, quiet hours, away), and the games each person sits in on any server.
MEMBERS = Migration(version=17, name="members", statements=MEMBER_TABLES)

MIGRATIONS: tuple[Migration, ...] = (
    INITIAL,
    PLAYER_NAMES,
    STATS,
    DEADLINES,
    CHANNEL,
    PERIOD_TOTALS,
    GUILD_LANGUAGE,
    PRACTICE,
    KEYED_LOGS,
    RATINGS,
    PRIVACY,
    REVIEWS,
    DAILY,
    OWED_RANKINGS,
    BEHIND_SINCE,
    TOURNAMENTS,
    MEMBERS,
)
LATEST_VERSION: int = MIGRATIONS[-1].version


def _check_sequence(migrations: Sequence[Migration]) -> None:
    """Reject gaps, duplicates or disorder in the migration list."""
    versions = [m.version for m in migrations]
    if versions != list(range(1, len(migrations) + 1)):
        raise StoreError(f"migration versions must be 1..n in order, got {versions}")


async def current_version(tx: Tx) -> int:
    """Highest applied migration version (0 for an empty database)."""
    rows = await tx.fetch("SELECT MAX(version) FROM schema_version")
    return 0 if not rows or rows[0][0] is None else int(rows[0][0])


async def run_migrations(tx: Tx, now: float, migrations: Sequence[Migration] | None = None) -> int:
    """Apply the pending ``migrations`` (default: all) inside the caller's write
    transaction, which must already exclude other migrators (SQLite's write lock,
    PostgreSQL's :data:`~bot.store.postgres.MIGRATION_LOCK`); return the schema version.

    The one runner of both backends: on PostgreSQL, too, DDL is transactional, so a
    failed upgrade leaves the schema as it was.
    """
    migrations = MIGRATIONS if migrations is None else migrations
    _check_sequence(migrations)
    await tx.execute(VERSION_TABLE)
    version = await current_version(tx)
    if version > len(migrations):
        raise StoreError(
            f"database schema version {version} is newer than this code ({len(migrations)})"
        )
    pending = migrations[version:]
    # A new database's schema is made in a moment; an upgrade may rewrite whole tables.
    steps = sum(len(m.statements) for m in pending) if version else 0
    with stage("migrating the database", steps, "steps", eta=False) as advance:
        for migration in pending:
            for statement in migration.statements:
                await tx.execute(statement)
                advance(1)
            await tx.execute(
                "INSERT INTO schema_version (version, name, applied_at) VALUES (?, ?, ?)",
                (migration.version, migration.name, now),
            )
            log.info("applied migration %04d_%s", migration.version, migration.name)
            version = migration.version
    return version


class Migrating(Protocol):
    """An engine (:class:`bot.store.engine.Engine`) as the migrations use it."""

    async def migrate(self, work: Work[int]) -> int: ...


async def apply_migrations(
    engine: Migrating, now: float, migrations: Sequence[Migration] | None = None
) -> int:
    """Apply pending migrations in one write transaction; return the schema version.

    Safe to call repeatedly and from several processes: the engine's migration
    transaction excludes other migrators (SQLite's ``BEGIN IMMEDIATE``, PostgreSQL's
    :data:`~bot.store.postgres.MIGRATION_LOCK`), so the version is read under it.
    """
    return await engine.migrate(lambda tx: run_migrations(tx, now, migrations))
