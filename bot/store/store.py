"""The :class:`Store`: the repositories of one database, on one engine.

``await open_store(target)`` opens one: ``target`` is a SQLite file path or a
``postgresql://`` URL, and :func:`engine_for` picks the engine that
runs the repositories' transactions (:mod:`bot.store.sqlite` or
:mod:`bot.store.postgres`; connections and commits are theirs, see
:mod:`bot.store.engine`). Each repository is named for what it keeps:

* ``store.games`` — games, their moves and events, how they change, what their
  channels show (:mod:`bot.store.games`);
* ``store.settings`` and ``store.names`` — servers' settings, members' display names;
* ``store.stats``, ``store.reviews``, ``store.ratings`` — what finished games leave;
* ``store.daily`` — the daily challenge; ``store.tournaments`` — tournaments over days;
* ``store.members`` — members' preferences, whatever the server;
* ``store.privacy`` — what is kept of a person or a server, and letting go of it;
* ``store.maintenance`` — the upkeep commands' work (pruning old logs).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from pathlib import Path
from types import TracebackType
from typing import Self

from .daily import DailyRepository
from .engine import Engine, is_postgres_url
from .games import GameRepository
from .maintenance import Maintenance
from .members import MemberRepository
from .migrations import apply_migrations
from .names import NameRepository
from .privacy import PrivacyRepository
from .ratings import RatingRepository
from .reviews import ReviewRepository
from .settings import SettingsRepository
from .stats import StatsRepository
from .tournaments import TournamentRepository

log = logging.getLogger(__name__)

Clock = Callable[[], float]


async def open_store(
    target: str | Path, *, clock: Clock = time.time, busy_timeout: float = 5.0
) -> Store:
    """The store of ``target`` (a SQLite file, created if missing, or a PostgreSQL URL),
    connected and migrated."""
    return await Store.open(target, clock=clock, busy_timeout=busy_timeout)


def engine_for(target: str | Path, *, busy_timeout: float = 5.0) -> Engine:
    """The engine of ``target``: PostgreSQL for a ``postgresql://`` URL (a str), else
    SQLite for a file path (``busy_timeout``: seconds a write waits for another
    process's lock)."""
    if is_postgres_url(target):
        # Imported only here: psycopg and libpq are a tenth of the bot's resident
        # memory, and a bot on SQLite never needs them.
        from .postgres import PostgresEngine

        return PostgresEngine(str(target))
    from .sqlite import SqliteEngine

    return SqliteEngine(target, busy_timeout=busy_timeout)


class Store:
    """The repositories of one database (see the module).

    Create with ``await open_store(target)`` (or ``Store.open``), or ``async with
    Store(target) as store``. ``clock`` returns unix seconds and stamps what is stored
    (default :func:`time.time`); ``busy_timeout``: seconds a SQLite write waits for
    another process's lock.
    """

    schema_version = 0
    """The schema version found or made by :meth:`connect`."""

    def __init__(
        self, path: str | Path, *, clock: Clock = time.time, busy_timeout: float = 5.0
    ) -> None:
        self.path = path
        self.engine: Engine = engine_for(path, busy_timeout=busy_timeout)
        engine = self.engine
        self._clock = clock
        self.games = GameRepository(engine, clock)
        self.settings = SettingsRepository(engine)
        self.names = NameRepository(engine, clock)
        self.stats = StatsRepository(engine)
        self.reviews = ReviewRepository(engine)
        self.ratings = RatingRepository(engine)
        self.daily = DailyRepository(engine)
        self.privacy = PrivacyRepository(engine, self.names, self.settings)
        self.tournaments = TournamentRepository(engine)
        self.members = MemberRepository(engine)
        self.maintenance = Maintenance(engine)

    @property
    def backend(self) -> str:
        """``"sqlite"`` or ``"postgresql"``."""
        return self.engine.backend

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
        engine = self.engine
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
        if self.engine.is_open:
            await self.engine.close()
            log.info("store %s closed", self.engine.label)

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
        same game's lock until the block ends (one sync of a game's channel at a time).

        SQLite: an :class:`asyncio.Lock` per game (one process per database file).
        PostgreSQL: also a session advisory lock, so it excludes other processes too;
        should its connection break, which frees it, the holder's
        :meth:`~bot.store.games.GameRepository.set_shown` is refused. Not re-entrant: a
        task must not take the same game's lock twice.
        """
        return self.engine.game_lock(game_id)
