"""PostgreSQL sessions' limits (:data:`bot.store.postgres.LIMITS`): a statement that
runs past ``statement_timeout`` is cancelled (the caller gets the store's error, the
game is left as it was, the connection serves on), a transaction left open past
``idle_in_transaction_session_timeout`` is ended by the server (its row locks stop
blocking the others), a migration is never cut short, and a limit the database or the
URL sets wins over the bot's."""

from __future__ import annotations

import asyncio

import psycopg
import pytest

from bot.store import Store, StoreError
from bot.store import postgres as pg
from bot.store.migrations import MIGRATIONS, Migration, apply_migrations

from .helpers import HOST, PLAYER2, make_lobby, query
from .postgres_server import PostgresServer
from .test_postgres import PATIENCE, Held, eventually

SHOW_LIMITS = (
    "SELECT current_setting('statement_timeout'), "
    "current_setting('idle_in_transaction_session_timeout')"
)


async def limits(store: Store) -> list[tuple[str, str]]:
    """The limits of a store's reader and of a writer, as the server shows them."""
    read = await store.engine.fetch(SHOW_LIMITS)
    written = await store.engine.transact(lambda tx: tx.fetch(SHOW_LIMITS))
    return [tuple(read[0]), tuple(written[0])]  # type: ignore[list-item]


async def test_sessions_get_the_limits_unless_the_database_or_the_url_sets_them(
    postgres: PostgresServer,
) -> None:
    url = postgres.new_database()
    async with Store(url) as store:
        assert await limits(store) == [("30s", "1min")] * 2
    async with Store(f"{url}&options=-c%20statement_timeout%3D7s") as store:
        assert await limits(store) == [("7s", "1min")] * 2
    with psycopg.connect(url, autocommit=True) as admin:
        admin.execute(
            f"ALTER DATABASE {admin.info.dbname} SET idle_in_transaction_session_timeout = '5s'"
        )
    async with Store(url) as store:
        assert await limits(store) == [("30s", "5s")] * 2


async def test_a_statement_past_the_limit_is_cancelled_and_nothing_is_stored(
    url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(pg.LIMITS, "statement_timeout", "200ms")
    async with Store(url) as store, Store(url) as other:
        lobby = await make_lobby(store)
        with pytest.raises(StoreError, match="statement timeout"):
            await store.engine.fetch("SELECT pg_sleep(30)")
        # A change that waits past the limit on the game's row, which another process
        # holds locked, is cancelled and rolled back; the game is as it was.
        held = Held(
            other,
            lambda tx: tx.fetch("SELECT id FROM games WHERE id = ? FOR UPDATE", (lobby.id,)),
        )
        await held.entered()
        with pytest.raises(StoreError, match="statement timeout"):
            await store.games.set_players(lobby.id, lobby.version, [HOST, PLAYER2])
        await held.commit()
        assert await store.games.get(lobby.id) == lobby
        # The connections serve on: the same change now goes through.
        joined = await store.games.set_players(lobby.id, lobby.version, [HOST, PLAYER2])
        assert (joined.players, joined.version) == ([HOST, PLAYER2], lobby.version + 1)


async def test_a_transaction_left_open_is_ended_and_blocks_nobody(
    url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A process stuck inside a transaction that holds a game's row (here: a transaction that
    waits before its ``COMMIT``): the server ends its session, so the other process's
    change goes through; the stuck one hears, when it goes on, that nothing of its
    transaction was stored, and its connection is opened again for what follows."""
    async with Store(url) as other:
        lobby = await make_lobby(other)
    monkeypatch.setitem(pg.LIMITS, "idle_in_transaction_session_timeout", "300ms")
    async with Store(url) as stuck, Store(url) as other:
        held = Held(
            stuck,
            lambda tx: tx.execute("UPDATE games SET message_id = 5 WHERE id = ?", (lobby.id,)),
        )
        await held.entered()
        await eventually(
            lambda: (
                not query(
                    url, "SELECT pid FROM pg_stat_activity WHERE state = 'idle in transaction'"
                )
            ),
            "the server ended the stuck session",
        )
        joined = await asyncio.wait_for(
            other.games.set_players(lobby.id, lobby.version, [HOST, PLAYER2]), PATIENCE
        )
        with pytest.raises(StoreError, match="idle-in-transaction timeout"):
            await held.commit()
        assert await stuck.games.get(lobby.id) == joined  # its message id never stored
        await stuck.games.set_message(lobby.id, 6)
        record = await other.games.get(lobby.id)
        assert record is not None and (record.message_id, record.players) == (6, [HOST, PLAYER2])


async def test_a_migration_takes_as_long_as_it_needs(
    postgres: PostgresServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(pg.LIMITS, "statement_timeout", "200ms")
    slow = Migration(len(MIGRATIONS) + 1, "slow", ("SELECT pg_sleep(0.5)",))
    engine = pg.PostgresEngine(postgres.new_database())
    await engine.open()
    try:
        assert await apply_migrations(engine, 1.0, (*MIGRATIONS, slow)) == slow.version
        with pytest.raises(StoreError, match="statement timeout"):  # others are limited
            await engine.fetch("SELECT pg_sleep(0.5)")
    finally:
        await engine.close()
