"""The games as a channel reads them: :class:`bot.channel.source.Source`, made of the
services that hold them (the keeper, the servers' settings, the endings, the members).

The channel reads and notes nothing else of the service, so this is all it may rely on;
each method hands one question on to the service that answers it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from contextlib import AbstractAsyncContextManager
from typing import Any

from bot.records.games import GameRecord, StoredEvent
from bot.rules import Game
from bot.service.endings import Ending, Endings
from bot.service.keeper import GameKeeper
from bot.service.members import Members
from bot.service.outcome import Outcome, Snapshot
from bot.service.settings import ServerSettings
from bot.shards import ShardPlan


class ChannelSource:
    """What the channel reads of the games, and where it notes what it shows."""

    def __init__(
        self, keeper: GameKeeper, settings: ServerSettings, endings: Endings, members: Members
    ) -> None:
        self.keeper = keeper
        self.settings = settings
        self.endings = endings
        self.members = members

    def clock(self) -> float:
        return self.keeper.clock()

    def channel_lock(self, game_id: int) -> AbstractAsyncContextManager[None]:
        return self.keeper.channel_lock(game_id)

    async def read(self, game_id: int) -> Snapshot:
        return await self.keeper.read(game_id)

    async def events(self, game_id: int, first_turn: int = 0) -> list[StoredEvent]:
        return await self.keeper.events(game_id, first_turn)

    async def ending(
        self,
        record: GameRecord,
        game: Game,
        *,
        final: bool,
        review: bool,
        then: Callable[[int], Awaitable[None]],
    ) -> Ending:
        facts = await self.endings.facts(record, game, final=final, review=review)
        if review and facts.accuracies is None:
            self.endings.review_soon(record, then)
        return facts

    async def reviewed(self) -> None:
        await self.endings.reviewed()

    async def language(self, guild_id: int, preferred: str | None) -> str:
        return await self.settings.language(guild_id, preferred)

    async def show(
        self, record: GameRecord, message_id: int | None, shown: dict[str, Any]
    ) -> GameRecord:
        return await self.keeper.show(record, message_id, shown)

    def show_later(self, record: GameRecord, message_id: int | None, shown: dict[str, Any]) -> None:
        self.keeper.show_later(record, message_id, shown)

    async def mark_behind(self, game_id: int) -> None:
        await self.keeper.mark_behind(game_id)

    async def mark_left_behind(self, started: float, shards: ShardPlan | None) -> int:
        return await self.keeper.mark_left_behind(started, shards)

    async def lagging(self, shards: ShardPlan | None, limit: int) -> list[int]:
        return await self.keeper.lagging(shards, limit=limit)

    async def dms_closed(self, person: int) -> list[Outcome]:
        return await self.members.dms_closed(person)

    async def told_dms_closed(self, person: int) -> list[Outcome] | None:
        return await self.members.told_dms_closed(person)
