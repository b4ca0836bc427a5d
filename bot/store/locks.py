"""Per-game locks within one process (:meth:`bot.store.Store.game_lock`)."""

from __future__ import annotations

import asyncio
from types import TracebackType


class KeyedLocks:
    """One :class:`asyncio.Lock` per key, kept only while someone holds or awaits it."""

    def __init__(self) -> None:
        self._locks: dict[int, tuple[asyncio.Lock, int]] = {}

    def hold(self, key: int) -> Held:
        """``async with locks.hold(key):`` the key's lock, for the block."""
        return Held(self, key)

    def __len__(self) -> int:
        return len(self._locks)


class Held:
    """One hold of a key's lock (an async context manager written out: every click
    takes one, and a generator-based one costs several times more)."""

    __slots__ = ("_key", "_locks")

    def __init__(self, locks: KeyedLocks, key: int) -> None:
        self._locks, self._key = locks, key

    async def __aenter__(self) -> None:
        locks, key = self._locks._locks, self._key
        lock, users = locks.get(key) or (asyncio.Lock(), 0)
        locks[key] = (lock, users + 1)
        try:
            await lock.acquire()
        except BaseException:  # cancelled while waiting: no longer a user
            self._leave()
            raise

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self._locks._locks[self._key][0].release()
        self._leave()

    def _leave(self) -> None:
        locks, key = self._locks._locks, self._key
        lock, users = locks[key]
        if users == 1:
            del locks[key]
        else:
            locks[key] = (lock, users - 1)
