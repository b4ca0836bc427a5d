"""What the store's repositories run on: an :class:`Engine`, one per backend.

An engine owns the connections and knows how a transaction is committed; it knows
nothing of games. A repository writes each transaction once, as an async function of
a :class:`Tx` (a :data:`Work`), in SQLite's spelling, and hands it to its engine:

* :class:`bot.store.sqlite.SqliteEngine`: aiosqlite connections, one writer (each
  transaction one call to its thread; those sent while it is busy committed together),
  a reader and a checkpointer beside it;
* :class:`bot.store.postgres.PostgresEngine`: psycopg's async connections, a few
  writers and a reader, and session advisory locks for :meth:`Engine.game_lock`, whose
  holder's writes go through the connection that holds the lock
  (:meth:`Engine.write_holding`). It translates the SQL (:mod:`bot.store.dialect`).

:func:`bot.store.store.engine_for` picks one for a target (a file path or a ``postgresql://`` URL).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable, Sequence
from contextlib import AbstractAsyncContextManager
from pathlib import Path
from typing import Any, Protocol, TypeVar

Row = Sequence[Any]
T = TypeVar("T")
POSTGRES_SCHEMES = ("postgresql:", "postgres:")


class Tx(Protocol):
    """One transaction's statements (``?`` placeholders, SQLite's spelling)."""

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run one statement; the rows it changed."""

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """Run one statement (a read, or a write with ``RETURNING``); its rows."""

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        """Run one statement once per row of parameters."""


Work = Callable[[Tx], Awaitable[T]]
"""A whole transaction's statements. It awaits nothing but its :class:`Tx`'s calls:
SQLite runs it to its end in one call to its writer connection's thread."""


def first(rows: Sequence[Row]) -> Row | None:
    """The first of ``rows``, if any."""
    return rows[0] if rows else None


def is_postgres_url(target: str | Path) -> bool:
    """Whether ``target`` names a PostgreSQL database rather than a SQLite file."""
    if isinstance(target, Path) and str(target).startswith(POSTGRES_SCHEMES):
        raise ValueError(f"{target}: pass a PostgreSQL URL as a str (a Path drops a slash)")
    return isinstance(target, str) and target.startswith(POSTGRES_SCHEMES)


class Engine(Protocol):
    """Connections and commits of one database."""

    backend: str
    """``"sqlite"`` or ``"postgresql"``."""
    label: str
    """The database as logs and messages name it (a URL without its password)."""

    @property
    def is_open(self) -> bool: ...

    async def open(self) -> None:
        """Open the connections (raises :class:`~bot.records.errors.StoreError`)."""

    async def migrate(self, work: Work[int]) -> int:
        """Run ``work`` (the migrations) in one write transaction that excludes every
        other process migrating the same database; its result (the schema version)."""

    async def close(self) -> None:
        """Close the connections once what was sent is done (idempotent)."""

    async def transact(self, work: Work[T]) -> T:
        """Run ``work`` as one write transaction; what it raises undoes it and reaches
        the caller, who hears back only after the commit."""

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """The rows of one read, outside any write transaction (what fails is
        :class:`~bot.records.errors.ReadFailed`)."""

    def game_lock(self, game_id: int) -> AbstractAsyncContextManager[None]:
        """Excludes every other holder of the same game's lock until the block ends."""

    async def write_holding(self, game_id: int, sql: str, params: Sequence[Any]) -> list[Row]:
        """One statement as a write transaction of its own (its rows: ``RETURNING``),
        committed only while the lock of ``game_id`` is still held if this process
        holds it (else :class:`~bot.records.errors.LockLost`)."""
