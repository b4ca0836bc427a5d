"""Shared fixtures for the store tests."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.store import Store

from .helpers import FakeClock


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
