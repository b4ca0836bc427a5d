"""Games survive closing and reopening the store."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.store import ChannelBusy, Store
from bot.store.sqlite import READER_CACHE_KIB

from .helpers import HOST, PLAYER2, FakeClock, make_lobby, make_running


async def test_reopen_keeps_lobby_and_running_games(db_path: Path, clock: FakeClock) -> None:
    async with Store(db_path, clock=clock) as store:
        lobby = await make_lobby(store, channel_id=1)
        lobby = await store.update_lobby(lobby.id, lobby.version, [HOST, PLAYER2])
        await store.set_message(lobby.id, 555)
        lobby = await store.get_game(lobby.id)
        running = await make_running(store, channel_id=2)
        running = await store.record_move(running.id, running.version, HOST, {"a": 1}, {"s": 1})
        moves = await store.moves(running.id)

    async with Store(db_path, clock=clock) as store:
        assert await store.get_game(lobby.id) == lobby
        assert await store.get_game(running.id) == running
        assert await store.game_in_channel(1) == lobby
        assert await store.game_in_channel(2) == running
        assert await store.active_games() == [lobby, running]
        assert await store.moves(running.id) == moves
        assert lobby is not None and lobby.message_id == 555
        with pytest.raises(ChannelBusy):
            await make_lobby(store, channel_id=1)
        # Play continues with the persisted version; seq continues too.
        after = await store.record_move(running.id, running.version, PLAYER2, {"b": 2}, {"s": 2})
        assert after.version == running.version + 1
        assert [m.seq for m in await store.moves(running.id)] == [1, 2]


async def test_the_reader_keeps_a_small_page_cache_and_the_writer_sqlites_own(
    db_path: Path,
) -> None:
    async with Store(db_path) as store:
        engine = store._engine
        reader = await engine.reader.run(
            lambda conn: conn.execute("PRAGMA cache_size").fetchone()[0]
        )
        writer = await engine.writer.run(
            lambda conn: conn.execute("PRAGMA cache_size").fetchone()[0]
        )
    assert reader == -READER_CACHE_KIB == -256
    assert writer == -2000  # SQLite's default: the writer's pages are the hot ones
