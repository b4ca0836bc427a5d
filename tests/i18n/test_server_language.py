"""The server's language: stored beside its turn time, defaulting to its Discord locale."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from bot.service.errors import ServiceError
from bot.service.games import GameService
from bot.store import Store
from bot.store.migrations import MIGRATIONS
from tests.store.helpers import apply_migrations

GUILD = 42


ON_SQLITE = pytest.mark.parametrize("database", ["sqlite"], indirect=True)
"""The shared ``store`` on SQLite alone (tests/store/test_postgres.py keeps a server's
settings on PostgreSQL)."""


@ON_SQLITE
async def test_the_language_and_the_turn_time_are_set_independently(store: Store) -> None:
    assert await store.settings.language(GUILD) is None
    await store.settings.set_language(GUILD, "pl")
    assert await store.settings.language(GUILD) == "pl"
    assert await store.settings.turn_time(GUILD) is None  # a language alone sets no turn time
    await store.settings.set_turn_time(GUILD, 3600)
    await store.settings.set_language(GUILD, "tr")
    assert (await store.settings.language(GUILD), await store.settings.turn_time(GUILD)) == (
        "tr",
        3600,
    )


@ON_SQLITE
async def test_the_service_falls_back_to_the_servers_locale_then_english(store: Store) -> None:
    service = GameService(store, lambda: 1)
    assert await service.settings.language(GUILD) == "en-US"
    assert await service.settings.language(GUILD, "pt-BR") == "pt-BR"
    assert await service.settings.language(GUILD, "en-GB") == "en-US"
    assert await service.settings.language(GUILD, "ja") == "en-US"  # not spoken here
    assert await service.settings.set_language(GUILD, "de") == "de"
    assert await service.settings.language(GUILD, "pt-BR") == "de"  # the server's choice wins
    with pytest.raises(ServiceError) as refused:
        await service.settings.set_language(GUILD, "klingon")
    assert refused.value.key == "error.unknown_language"
    assert await service.settings.turn_time(GUILD, None) == 86400  # still the default


async def test_the_migration_keeps_the_turn_times_set_before(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    await apply_migrations(path, 1.0, MIGRATIONS[:6])
    with closing(sqlite3.connect(path, isolation_level=None)) as db:  # as an older bot left it
        db.execute("INSERT INTO guild_settings (guild_id, turn_time) VALUES (?, ?)", (GUILD, 7200))
    store = await Store.open(path)
    try:
        assert await store.settings.turn_time(GUILD) == 7200
        assert await store.settings.language(GUILD) is None
        await store.settings.set_language(GUILD, "fr")
        assert await store.settings.turn_time(GUILD) == 7200
    finally:
        await store.close()
