"""Members' data: what the bot keeps about a member, forgetting a member, and deleting
a server's data some time after the bot was removed from it.

``/qwixx forget-me`` replaces the member, in every server's games, by one fresh
anonymous id (see :mod:`bot.store.privacy`). A member who still plays in a lobby or a
running game is refused and told which: replacing a seat someone still plays would
leave the others waiting for a player nobody can be, so they leave first (``/qwixx
leave`` makes their seat away; the game goes on without them and their seat is then
replaced like any other). Finished games stay whole: their replays, the others'
results, totals and ratings are unchanged.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Final

from bot.records.errors import StillPlaying
from bot.records.members import Forgotten, ServerData
from bot.service.errors import ServiceError
from bot.store import Store
from bot.store.privacy import is_anonymous

log = logging.getLogger(__name__)

DAY: Final = 86400
DEFAULT_FORGET_AFTER: Final = 30 * DAY
"""Seconds after the bot left a server before its data goes (``QWIXX_FORGET_SERVER_AFTER``)."""
LISTED: Final = 5
"""Games named in a refusal, at most."""

__all__ = ["DEFAULT_FORGET_AFTER", "Forgotten", "PrivacyService", "ServerData", "is_anonymous"]


class PrivacyService:
    def __init__(
        self,
        store: Store,
        clock: Callable[[], float] = time.time,
        forget_after: float = DEFAULT_FORGET_AFTER,
    ) -> None:
        self.store = store
        self.clock = clock
        self.forget_after = forget_after

    async def report(self, user_id: int) -> list[ServerData]:
        """Everything kept about ``user_id``, per server."""
        return await self.store.privacy.personal_data(user_id)

    async def forget(self, user_id: int) -> Forgotten:
        """``/qwixx forget-me``: refused (``error.forget_playing``, naming the channels)
        while they still play a lobby or a running game."""
        try:
            done = await self.store.privacy.forget(user_id)
        except StillPlaying as playing:
            channels = [f"<#{channel}>" for _, channel, _ in playing.games[:LISTED]]
            more = len(playing.games) - len(channels)
            raise ServiceError(
                "error.forget_playing",
                games=", ".join(channels),
                count=len(playing.games),
                more=f" (+{more})" if more > 0 else "",
            ) from None
        log.info(
            "a member was forgotten: %d games now carry anonymous id %d, %d names removed",
            done.games,
            done.anonymous_id,
            done.names,
        )
        return done

    async def guild_left(self, guild_id: int) -> None:
        """The bot was removed from ``guild_id``: its data goes after the grace period."""
        await self.store.privacy.mark_departed(guild_id, self.clock())
        log.info(
            "removed from server %d: its data is deleted in %d s unless the bot is back",
            guild_id,
            self.forget_after,
        )

    async def guild_back(self, guild_id: int) -> bool:
        """The bot joined ``guild_id``: a departure mark is cleared (its data stays)."""
        back = await self.store.privacy.unmark(guild_id)
        if back:
            log.info("back in server %d: its data is kept", guild_id)
        return back

    async def forget_departed(self) -> list[int]:
        """Delete the data of every server left longer than the grace period ago; the
        servers deleted."""
        before = self.clock() - self.forget_after
        deleted = []
        for guild_id in await self.store.privacy.departed(before):
            rows = await self.store.privacy.delete_departed(guild_id, before)
            if rows is not None:
                deleted.append(guild_id)
                log.info(
                    "data of server %d deleted (%d rows), %d s after the bot left it",
                    guild_id,
                    sum(rows.values()),
                    self.forget_after,
                )
        return deleted
