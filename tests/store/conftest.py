"""Shared fixtures for the store tests."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.store import Store

from .helpers import FakeClock
from .postgres_server import PostgresServer


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "qwixx.db"


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
async def store(database: str | Path, clock: FakeClock) -> AsyncIterator[Store]:
    """An open store on each backend (see ``database`` in tests/conftest.py)."""
    async with Store(database, clock=clock) as opened:
        yield opened


@pytest.fixture
def url(postgres: PostgresServer) -> str:
    """The emptied PostgreSQL test database (for what only PostgreSQL has)."""
    return postgres.clean_database()


@pytest.fixture
async def two(url: str) -> AsyncIterator[tuple[Store, Store]]:
    """Two stores on one PostgreSQL database: two processes of the bot."""
    async with Store(url) as first, Store(url) as second:
        yield first, second
