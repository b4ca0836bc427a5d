"""A service on a fake clock, on every backend (``database``), for the timing tests."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.service.games import GameService
from bot.store import Store
from tests.fakes import FakeClock


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(1_000_000.0)


@pytest.fixture
async def service(database: str | Path, clock: FakeClock) -> AsyncIterator[GameService]:
    store = await Store.open(database, clock=clock)
    yield GameService(store, seeds=lambda: 4321, clock=clock)
    await store.close()
