"""Shared fixtures for the store tests."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.store import Store
from tests.fakes import FakeClock

from .postgres_server import PostgresServer


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "qwixx.db"


@pytest.fixture
def clock() -> FakeClock:
    """The store's stamps as the store tests were written for them: in November 2023."""
    return FakeClock(1_700_000_000.0)


@pytest.fixture
def url(postgres: PostgresServer) -> str:
    """The emptied PostgreSQL test database (for what only PostgreSQL has)."""
    return postgres.clean_database()


@pytest.fixture
async def two(url: str) -> AsyncIterator[tuple[Store, Store]]:
    """Two stores on one PostgreSQL database: two processes of the bot."""
    async with Store(url) as first, Store(url) as second:
        yield first, second
