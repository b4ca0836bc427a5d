"""Fixtures for every test folder: the database backends the store runs on, the fake
clock, and a store and a service on them.

``database`` is parametrized: each test that takes it (or ``store`` or ``service``,
built on it) runs on SQLite and on PostgreSQL. The PostgreSQL server is started
once per session, by the tests themselves; if it cannot start, those tests fail.

The tests that need Discord's OpenAPI description are marked ``openapi`` and skipped
where it is not found, as ``tests/openapi_gate.py`` (whose hooks run from here) tells;
``tests/lanes.py`` marks the long tests ``slow`` (``pytest -m "not slow"``: the fast lane).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path

import pytest

from bot.i18n import commands as cited
from bot.service.games import GameService
from bot.store import Store
from tests import openapi_gate
from tests.fakes import FakeClock
from tests.lanes import mark_lanes
from tests.openapi_gate import (  # noqa: F401 -- pytest's hooks, found here by name
    pytest_configure,
    pytest_terminal_summary,
)
from tests.store.postgres_server import PostgresServer, ServerError

BACKENDS = ("sqlite", "postgresql")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The lanes' marks (:mod:`tests.lanes`), then the OpenAPI gate's skips."""
    mark_lanes(items)
    openapi_gate.pytest_collection_modifyitems(items)


@pytest.fixture(autouse=True)
def no_command_ids() -> Iterator[None]:
    """Texts cite commands as mentions once a bot has learnt their ids, which the process
    remembers (one bot per process); each test starts without them."""
    yield
    cited.forget()


@pytest.fixture(scope="session")
def postgres() -> Iterator[PostgresServer]:
    """One PostgreSQL server for the session (a temporary data folder, removed after)."""
    try:
        running = PostgresServer.running()
        server = running.__enter__()
    except ServerError as error:
        pytest.fail(str(error), pytrace=False)
    try:
        yield server
    finally:
        running.__exit__(None, None, None)


@pytest.fixture(params=BACKENDS)
def database(request: pytest.FixtureRequest, tmp_path: Path) -> str | Path:
    """What ``Store.open`` takes: a new SQLite file, or the emptied PostgreSQL database."""
    if request.param == "sqlite":
        return tmp_path / "qwixx.db"
    server: PostgresServer = request.getfixturevalue("postgres")
    return server.clean_database()


@pytest.fixture
def clock() -> FakeClock:
    """The tests' time: Unix second 1,000,000 until a test moves it."""
    return FakeClock(1_000_000.0)


@pytest.fixture
async def store(database: str | Path, clock: FakeClock) -> AsyncIterator[Store]:
    """An open store on each backend (``database``), on ``clock``."""
    async with Store(database, clock=clock) as opened:
        yield opened


@pytest.fixture
def seeds() -> Callable[[], int]:
    """Each new game's seed: 4321 every time (a module that wants others overrides this)."""
    return lambda: 4321


@pytest.fixture
def service(store: Store, clock: FakeClock, seeds: Callable[[], int]) -> GameService:
    """The service on ``store`` and ``clock``, its games seeded by ``seeds``."""
    return GameService(store, seeds=seeds, clock=clock)
