"""The names images and texts give the players: members' display names as last seen,
computers' names, and a neutral label for someone never seen."""

from __future__ import annotations

from bot.i18n.words import t
from bot.players import computer_name, is_computer
from bot.store import Store


class Names:
    """The players' names on each server."""

    def __init__(self, store: Store) -> None:
        self.store = store

    async def remember(self, guild_id: int, user: int, name: str) -> None:
        """``user``'s display name on ``guild_id`` as just seen (written only if it changed)."""
        await self.store.names.remember(guild_id, user, name)

    async def of(self, guild_id: int, users: list[int]) -> dict[int, str]:
        """Each of ``users``' name; a player never seen gets a neutral label."""
        known = await self.store.names.of(guild_id, [u for u in users if not is_computer(u)])
        return {
            u: computer_name(u) if is_computer(u) else known.get(u, t("describe.player", number=i))
            for i, u in enumerate(users, 1)
        }
