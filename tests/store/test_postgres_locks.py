"""A game lock whose connection breaks (PostgreSQL): the server frees every lock that
connection held, so another process may take those games at once; what the first
process then stores under the locks it believes it holds is refused, for each game,
and nothing it stores overwrites what the other stored. Play goes on: the games'
locks are taken again and exclude as before."""

from __future__ import annotations

import asyncio
from contextlib import AsyncExitStack

import pytest

from bot.records.errors import LockLost
from bot.records.games import GameRecord
from bot.store import Store

from .helpers import CHANNEL, make_running, query
from .test_postgres import PATIENCE, eventually, held_advisory, in_turn, waiting_sessions


def lock_holder(url: str, game_id: int) -> int:
    """The server process whose session holds ``game_id``'s advisory lock."""
    rows = query(
        url,
        "SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted "
        "AND objsubid = 1 AND objid = ?",
        (game_id,),
    )
    assert len(rows) == 1, rows
    return int(rows[0][0])


def terminate(url: str, pid: int) -> None:
    assert query(url, "SELECT pg_terminate_backend(?)", (pid,)) == [(True,)]


async def shown(store: Store, game: GameRecord) -> tuple[int, dict[str, object]]:
    record = await store.games.get(game.id)
    assert record is not None
    return record.shown_version, record.shown


async def test_a_broken_lock_connection_refuses_every_holder_and_play_goes_on(
    url: str, two: tuple[Store, Store]
) -> None:
    first, second = two
    games = [await make_running(first, CHANNEL + n) for n in range(3)]
    one, two_ = games[:2]
    async with AsyncExitStack() as held:  # the first process holds three games' locks
        for game in games:
            await held.enter_async_context(first.game_lock(game.id))
        pid = lock_holder(url, one.id)
        assert {lock_holder(url, g.id) for g in games} == {pid}  # on one connection
        terminate(url, pid)
        await eventually(lambda: held_advisory(url) == [], "the server freed the locks")

        # Another process takes a game the first believes it holds, and stores.
        async with second.game_lock(one.id):
            await second.games.set_shown(one, None, {"by": "second"})
        # Every write of the first under those locks is refused; nothing is stored.
        for game in games:
            with pytest.raises(LockLost):
                await first.games.set_shown(game, None, {"by": "first"})
        assert await shown(first, one) == (one.version, {"by": "second"})
        assert await shown(first, two_) == (two_.shown_version, two_.shown)
    assert held_advisory(url) == []  # leaving the blocks gave back nothing (all gone)

    # Play goes on: the first takes the games again, stores under them, and they
    # exclude the other process as before.
    log: list[str] = []
    release = asyncio.Event()

    async def show() -> None:
        await first.games.set_shown(two_, None, {"by": "first"})
        await release.wait()

    holder = asyncio.ensure_future(in_turn(log, "first", lambda: first.game_lock(two_.id), show))
    await eventually(lambda: held_advisory(url) == [two_.id], "the first holds it again")
    waiter = asyncio.ensure_future(in_turn(log, "second", lambda: second.game_lock(two_.id)))
    await eventually(lambda: waiting_sessions(url, "advisory") == 1, "the second waits")
    assert await shown(second, two_) == (two_.version, {"by": "first"})
    release.set()
    await asyncio.wait_for(asyncio.gather(holder, waiter), PATIENCE)
    assert log == ["first in", "first out", "second in", "second out"]
    assert held_advisory(url) == []


async def test_a_lock_taken_after_the_break_is_held_on_the_new_connection(
    url: str, two: tuple[Store, Store]
) -> None:
    """A lock taken while an earlier holder's connection is broken lives on the new
    connection: its holder stores, the earlier one is refused."""
    first, second = two
    old, new = await make_running(first, CHANNEL), await make_running(first, CHANNEL + 1)
    async with first.game_lock(old.id):
        terminate(url, lock_holder(url, old.id))
        async with first.game_lock(new.id):  # on a connection opened again
            assert held_advisory(url) == [new.id]
            await first.games.set_shown(new, None, {"by": "first"})
            with pytest.raises(LockLost):
                await first.games.set_shown(old, None, {"by": "first"})
    assert await shown(second, new) == (new.version, {"by": "first"})
    assert await shown(second, old) == (old.shown_version, old.shown)
    assert held_advisory(url) == []


async def test_without_the_lock_a_write_is_not_fenced(url: str, two: tuple[Store, Store]) -> None:
    """``set_shown`` outside any lock (a lobby's closing message) is a plain write."""
    first, _ = two
    game = await make_running(first, CHANNEL)
    await first.games.set_shown(game, None, {"by": "nobody"})
    assert await shown(first, game) == (game.version, {"by": "nobody"})
