"""The game's use cases over one store, each a service of its own: the games as this
process keeps them (:mod:`bot.service.state`), the lobby, the turns, the deadlines, the
servers' settings, the players' names and what a final message tells.

This is the only layer that combines the store, the rules and concurrency.
Every refusal is a :class:`ServiceError` whose key names a catalogue message.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from dataclasses import replace
from typing import Any

from bot.players import DEFAULT_LEVEL, Hint
from bot.records import GameRecord, StoredEvent
from bot.rules import Game, Move
from bot.service.deadlines import Deadlines
from bot.service.endings import Endings
from bot.service.errors import ServiceError
from bot.service.limits import Limits
from bot.service.lobby import Lobby, random_seed
from bot.service.names import Names
from bot.service.play import Options
from bot.service.settings import ServerSettings
from bot.service.state import Games, Outcome, opening, playing, shard_ids
from bot.service.timing import DEFAULT_TURN_TIME
from bot.service.tournaments import Tournaments
from bot.service.turns import Turns
from bot.shards import ShardPlan
from bot.store import Store

__all__ = ["GameService", "Outcome", "ServiceError", "opening", "shard_ids"]


class GameService:
    """The services of one store (see the module)."""

    def __init__(
        self,
        store: Store,
        seeds: Callable[[], int] | None = None,
        clock: Callable[[], float] = time.time,
        limits: Limits | None = None,
    ) -> None:
        self.store = store
        self.clock = clock
        self.games = Games(store, clock)
        self.lobby = Lobby(self.games, seeds, limits)
        self.turns = Turns(self.games, self.lobby)
        self.deadlines = Deadlines(self.games)
        self.settings = ServerSettings(store)
        self.names = Names(store)
        self.endings = Endings(store, clock)
        self.tournaments = Tournaments(self.games, self.lobby, self.turns, clock)

    random_seed = staticmethod(random_seed)

    # --- the calls as they were, until their callers have moved ----------------
    @property
    def limits(self) -> Limits:
        return self.lobby.limits

    @property
    def seeds(self) -> Callable[[], int]:
        return self.lobby.seeds

    async def get(self, game_id: int) -> Outcome:
        return await self.games.read(game_id)

    async def read(self, game_id: int) -> Outcome:
        return await self.games.read(game_id)

    async def in_channel(self, channel_id: int) -> Outcome:
        return await self.games.in_channel(channel_id)

    async def set_message(self, game_id: int, message_id: int) -> None:
        await self.games.set_message(game_id, message_id)

    def game_lock(self, game_id: int) -> AbstractAsyncContextManager[None]:
        return self.games.channel_lock(game_id)

    async def events(self, game_id: int, first_turn: int = 0) -> list[StoredEvent]:
        return await self.games.events(game_id, first_turn)

    async def lagging(self, shards: ShardPlan | None = None, limit: int = 50) -> list[int]:
        return await self.games.lagging(shards, limit)

    async def mark_behind(self, game_id: int) -> None:
        await self.games.mark_behind(game_id)

    async def mark_left_behind(self, started: float, shards: ShardPlan | None = None) -> int:
        return await self.games.mark_left_behind(started, shards)

    async def set_shown(
        self, game_id: int, version: int, message_id: int | None, shown: dict[str, Any]
    ) -> None:
        record = (await self.games.read(game_id)).record
        await self.games.show(replace(record, version=version), message_id, shown)

    async def remember_name(self, guild_id: int, user: int, name: str) -> None:
        await self.names.remember(guild_id, user, name)

    async def wins_on_server(self, guild_id: int, player: int) -> int:
        return await self.endings.wins_on_server(guild_id, player)

    async def personal_best(
        self, guild_id: int, player: int, variant: str, game_id: int
    ) -> int | None:
        return await self.store.stats.practice_best(guild_id, player, variant, game_id)

    async def replay(self, game_id: int) -> Game:
        return await self.games.replay(game_id)

    async def open_lobby(
        self,
        guild_id: int,
        channel_id: int,
        host_id: int,
        variant: str,
        board: str | None = None,
        turn_time: int = DEFAULT_TURN_TIME,
        play: Options | None = None,
    ) -> GameRecord:
        return await self.lobby.open(guild_id, channel_id, host_id, variant, board, turn_time, play)

    async def rematch(self, game_id: int, user: int) -> GameRecord:
        return (await self.lobby.rematch(game_id, user))[1]

    async def join(self, game_id: int, user: int) -> GameRecord:
        return await self.lobby.join(game_id, user)

    async def leave(self, game_id: int, user: int) -> GameRecord:
        return await self.lobby.leave(game_id, user)

    async def cancel(self, game_id: int, user: int) -> GameRecord:
        return await self.lobby.cancel(game_id, user)

    async def start(self, game_id: int, user: int) -> Outcome:
        return await self.lobby.start(game_id, user)

    async def add_computer(self, game_id: int, user: int, level: str = DEFAULT_LEVEL) -> GameRecord:
        return await self.lobby.add_computer(game_id, user, level)

    async def set_level(self, game_id: int, user: int, seat: int, level: str) -> GameRecord:
        return await self.lobby.set_level(game_id, user, seat, level)

    async def act(
        self, game_id: int, user: int, turn: int, phase: str | None, move: Move
    ) -> Outcome:
        return await self.turns.move(game_id, user, turn, phase, move)

    async def pass_turn(
        self, game_id: int, user: int, turn: int, phase: str | None = None
    ) -> Outcome:
        return await self.turns.pass_turn(game_id, user, turn, phase)

    @staticmethod
    def check_player(outcome: Outcome, user: int, turn: int) -> Game:
        return playing(outcome, user, turn)

    async def hint(self, game_id: int, user: int, turn: int) -> tuple[Game, Hint]:
        return await self.turns.hint(game_id, user, turn)

    async def come_back(self, game_id: int, user: int) -> Outcome | None:
        return await self.turns.come_back(game_id, user)

    async def leave_game(self, channel_id: int, user: int) -> Outcome:
        return await self.turns.leave_game(channel_id, user)

    async def abandon(self, channel_id: int, user: int, can_manage: bool) -> GameRecord:
        return (await self.turns.abandon(channel_id, user, can_manage)).record

    async def waiting_for(self, guild_id: int, user: int) -> list[Outcome]:
        return await self.turns.waiting_for(guild_id, user)

    async def due(self, shards: ShardPlan | None = None) -> list[int]:
        return await self.deadlines.due(shards)

    async def fire(self, game_id: int) -> Outcome | None:
        return await self.deadlines.fire(game_id)

    async def turn_time(self, guild_id: int, requested: str | None) -> int:
        return await self.settings.turn_time(guild_id, requested)

    async def set_turn_time(self, guild_id: int, requested: str) -> int:
        return await self.settings.set_turn_time(guild_id, requested)

    async def guild_language(self, guild_id: int, preferred: object = None) -> str:
        return await self.settings.language(guild_id, preferred)

    async def set_guild_language(self, guild_id: int, language: str) -> str:
        return await self.settings.set_language(guild_id, language)
