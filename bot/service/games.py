"""The game's use cases over one store, each a service of its own: the games as this
process keeps them (:mod:`bot.service.keeper`, the one writer of a game), the lobby, the
turns, the deadlines, the members' preferences, the games' pace, the daily challenge,
practice against the computers, the servers' settings, the players' names, what a final
message tells and the tournaments.

This is the only layer that combines the store, the rules and concurrency. Every refusal
is a :class:`~bot.service.errors.ServiceError` whose key names a catalogue message.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from bot.service.channel_source import ChannelSource
from bot.service.daily import DailyService
from bot.service.deadlines import Deadlines
from bot.service.endings import Endings
from bot.service.keeper import GameKeeper
from bot.service.limits import Limits
from bot.service.lobby import Lobby
from bot.service.members import Members
from bot.service.names import Names
from bot.service.pace import Pace
from bot.service.practice import PracticeService
from bot.service.settings import ServerSettings
from bot.service.tournaments import Tournaments
from bot.service.turns import Turns
from bot.store import Store


class GameService:
    """The services of one store (see the module); ``seeds`` draws each new game's seed
    (None: at random), ``limits`` caps the games a member and a server have at once."""

    def __init__(
        self,
        store: Store,
        seeds: Callable[[], int] | None = None,
        clock: Callable[[], float] = time.time,
        limits: Limits | None = None,
    ) -> None:
        self.store = store
        self.clock = clock
        self.keeper = GameKeeper(store, clock)
        self.members = Members(store, self.keeper, clock)
        self.lobby = Lobby(self.keeper, seeds, limits, self.members.of)
        self.turns = Turns(self.keeper, self.lobby)
        self.deadlines = Deadlines(self.keeper)
        self.daily = DailyService(self.keeper, store)
        self.practice = PracticeService(self.keeper, self.lobby)
        self.settings = ServerSettings(store)
        self.pace = Pace(self.keeper, self.settings)
        self.names = Names(store)
        self.endings = Endings(store, self.keeper.channel_lock, clock)
        self.channel = ChannelSource(self.keeper, self.settings, self.endings, self.members)
        """What the channels read of the games (:class:`bot.channel.source.Source`)."""
        self.tournaments = Tournaments(store, self.keeper, self.lobby, self.turns, clock)
