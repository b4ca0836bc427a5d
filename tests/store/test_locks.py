"""Per-game locks: one holder at a time per key, nothing kept once nobody holds or waits."""

from __future__ import annotations

import asyncio

import pytest

from bot.store.locks import KeyedLocks


async def test_one_holder_at_a_time_per_key_and_none_kept_after() -> None:
    locks, order = KeyedLocks(), []

    async def hold(key: int, name: str) -> None:
        async with locks.hold(key):
            order.append(f"{name} in")
            await asyncio.sleep(0.01)
            order.append(f"{name} out")

    await asyncio.gather(hold(1, "a"), hold(1, "b"), hold(2, "c"))
    assert order.index("a out") < order.index("b in")
    assert order.index("c in") < order.index("a out")  # another key does not wait
    assert len(locks) == 0


async def test_an_error_in_the_block_releases_the_lock() -> None:
    locks = KeyedLocks()
    with pytest.raises(ValueError):
        async with locks.hold(1):
            raise ValueError("refused")
    assert len(locks) == 0
    async with locks.hold(1):
        assert len(locks) == 1


async def test_a_waiter_cancelled_leaves_nothing_behind() -> None:
    locks = KeyedLocks()
    async with locks.hold(1):
        waiting = asyncio.ensure_future(locks.hold(1).__aenter__())
        await asyncio.sleep(0)
        waiting.cancel()
        with pytest.raises(asyncio.CancelledError):
            await waiting
        assert locks._locks[1][1] == 1
    assert len(locks) == 0
