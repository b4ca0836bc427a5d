"""What the store's queries run on: an :class:`Engine`, one per backend.

An engine owns the connections and the threads that use them, and knows how a
transaction is committed; it knows nothing of games. The repository
(:class:`bot.store.store.Store`) writes each transaction once, as a synchronous
function of a :class:`~bot.store.sql.Connection` (a :data:`~bot.store.sql.Work`), and
hands it to its engine:

* :class:`bot.store.sqlite.SqliteEngine`: one writer connection on a thread of its own
  (group commit), a reader and a checkpointer beside it;
* :class:`bot.store.postgres.PostgresEngine`: a few writer connections, a reader, and
  session advisory locks for :meth:`Engine.game_lock`, whose holder's writes go through
  the connection that holds the lock (:meth:`Engine.write_holding`).

:func:`bot.store.store.engine_for` picks one for a target (a file path or a
``postgresql://`` URL).
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractAsyncContextManager
from pathlib import Path
from typing import Any, Protocol

from .sql import Row, T, Work

POSTGRES_SCHEMES = ("postgresql:", "postgres:")


def is_postgres_url(target: str | Path) -> bool:
    """Whether ``target`` names a PostgreSQL database rather than a SQLite file."""
    if isinstance(target, Path) and str(target).startswith(POSTGRES_SCHEMES):
        raise ValueError(f"{target}: pass a PostgreSQL URL as a str (a Path drops a slash)")
    return isinstance(target, str) and target.startswith(POSTGRES_SCHEMES)


class Engine(Protocol):
    """Connections, threads and commits of one database."""

    backend: str
    """``"sqlite"`` or ``"postgresql"``."""
    label: str
    """The database as logs and messages name it (a URL without its password)."""

    @property
    def is_open(self) -> bool: ...

    async def open(self) -> None:
        """Open the connections (raises :class:`~bot.store.errors.StoreError`)."""

    async def migrate(self, work: Work[int]) -> int:
        """Run ``work`` (the migrations) in one write transaction that excludes every
        other process migrating the same database; its result (the schema version)."""

    async def close(self) -> None:
        """Close the connections once what was sent is done (idempotent)."""

    async def transact(self, work: Work[T]) -> T:
        """Run ``work`` as one write transaction; what it raises undoes it and reaches
        the caller, who hears back only after the commit."""

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """The rows of one read, outside any write transaction."""

    def game_lock(self, game_id: int) -> AbstractAsyncContextManager[None]:
        """Excludes every other holder of the same game's lock until the block ends."""

    async def write_holding(self, game_id: int, sql: str, params: Sequence[Any]) -> None:
        """One statement as a write transaction of its own, committed only while the lock
        of ``game_id`` is still held if this process holds it (else
        :class:`~bot.store.errors.LockLost`)."""
