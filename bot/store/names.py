"""Members' display names per server, for images (Discord's mentions cover text): the
latest wins.

Kept in memory once read or written, so a click whose player's name is unchanged
writes nothing, and a sheet's names are read once: a name is changed only through the
process that sees its member click (the server's shard), and forgetting a person or a
server lets go of theirs (:mod:`bot.store.privacy`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

from .changes import check_int
from .engine import Engine

KEPT: Final = 10_000
"""Names kept; when full, the memory starts again empty."""


class NameRepository:
    """The display names of one store (``store.names``)."""

    def __init__(self, engine: Engine, clock: Callable[[], float]) -> None:
        self._engine = engine
        self._clock = clock
        self._kept: dict[tuple[int, int], str] = {}

    async def remember(self, guild_id: int, user_id: int, name: str) -> None:
        """Keep ``user_id``'s latest display name in ``guild_id``; written only when it
        differs from the one kept (the row's ``updated_at`` then says when it changed)."""
        check_int("guild_id", guild_id)
        check_int("user_id", user_id)
        key = (guild_id, user_id)
        if self._kept.get(key) == name:
            return
        await self._engine.transact(
            lambda tx: tx.execute(
                "INSERT INTO player_names (guild_id, user_id, name, updated_at) "
                "VALUES (?, ?, ?, ?) ON CONFLICT (guild_id, user_id) "
                "DO UPDATE SET name = excluded.name, updated_at = excluded.updated_at "
                "WHERE player_names.name <> excluded.name",
                (guild_id, user_id, name, self._clock()),
            )
        )
        self._keep(key, name)

    def _keep(self, key: tuple[int, int], name: str) -> None:
        if len(self._kept) >= KEPT and key not in self._kept:
            self._kept.clear()
        self._kept[key] = name

    async def of(self, guild_id: int, user_ids: Sequence[int]) -> dict[int, str]:
        """The remembered display names of ``user_ids`` in ``guild_id`` (unknown ones
        left out); only those not kept are read."""
        kept = self._kept
        found = {user: kept[guild_id, user] for user in user_ids if (guild_id, user) in kept}
        unknown = [user for user in dict.fromkeys(user_ids) if user not in found]
        if not unknown:
            return found
        marks = ", ".join("?" for _ in unknown)
        sql = f"SELECT user_id, name FROM player_names WHERE guild_id = ? AND user_id IN ({marks})"
        for user, name in await self._engine.fetch(sql, (guild_id, *unknown)):
            found[int(user)] = str(name)
            self._keep((guild_id, int(user)), str(name))
        return found

    def forget(self, *, user_id: int | None = None, guild_id: int | None = None) -> None:
        """Let go of the names kept of ``user_id`` or of ``guild_id``."""
        for key in [k for k in self._kept if k[1] == user_id or k[0] == guild_id]:
            del self._kept[key]
