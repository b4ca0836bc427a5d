"""The little the store's SQL functions need from a database connection.

Every transaction of the store is one synchronous function of a :class:`Connection`
(a :data:`Work`), run on the thread of the backend's writer connection: SQLite's
``sqlite3.Connection`` is one as it is; PostgreSQL's is wrapped by
:class:`bot.store.postgres.PgConnection`, which translates the SQL (see
:mod:`bot.store.dialect`). So each query is written once, for both backends.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, Protocol, TypeVar

Row = Sequence[Any]
T = TypeVar("T")


class Cursor(Protocol):
    @property
    def rowcount(self) -> int: ...

    def fetchone(self) -> Any: ...

    def fetchall(self) -> list[Any]: ...


class Connection(Protocol):
    """What a transaction's statements run on (``?`` placeholders, SQLite's spelling)."""

    def execute(self, sql: str, params: Sequence[Any] = ..., /) -> Cursor: ...

    def executemany(self, sql: str, rows: Iterable[Sequence[Any]], /) -> Any: ...


Work = Callable[[Connection], T]
"""A whole transaction's statements, run on the writer's thread."""
