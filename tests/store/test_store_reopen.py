"""Games survive closing and reopening the store."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.store import ChannelBusy, Store
from bot.store.sqlite import READER_CACHE_KIB
from tests.fakes import FakeClock

from .helpers import HOST, PLAYER2, make_lobby, make_running, play


async def test_reopen_keeps_lobby_and_running_games(db_path: Path, clock: FakeClock) -> None:
    async with Store(db_path, clock=clock) as store:
        lobby = await make_lobby(store, channel_id=1)
        lobby = await store.games.set_players(lobby.id, lobby.version, [HOST, PLAYER2])
        await store.games.set_message(lobby.id, 555)
        lobby = await store.games.get(lobby.id)
        running = await make_running(store, channel_id=2)
        running = await play(store, running, HOST, {"a": 1}, {"s": 1})
        moves = await store.games.moves(running.id)

    async with Store(db_path, clock=clock) as store:
        assert await store.games.get(lobby.id) == lobby
        assert await store.games.get(running.id) == running
        assert await store.games.in_channel(1) == lobby
        assert await store.games.in_channel(2) == running
        assert await store.games.active() == [lobby, running]
        assert await store.games.moves(running.id) == moves
        assert lobby is not None and lobby.message_id == 555
        with pytest.raises(ChannelBusy):
            await make_lobby(store, channel_id=1)
        # Play continues with the persisted version; seq continues too.
        after = await play(store, running, PLAYER2, {"b": 2}, {"s": 2})
        assert after.version == running.version + 1
        assert [m.seq for m in await store.games.moves(running.id)] == [1, 2]


async def test_the_reader_keeps_a_small_page_cache_and_the_writer_sqlites_own(
    db_path: Path,
) -> None:
    async with Store(db_path) as store:
        engine = store.engine
        reader = (await engine.fetch("PRAGMA cache_size"))[0][0]
        writer = (await engine.transact(lambda tx: tx.fetch("PRAGMA cache_size")))[0][0]
    assert reader == -READER_CACHE_KIB == -256
    assert writer == -2000  # SQLite's default: the writer's pages are the hot ones
