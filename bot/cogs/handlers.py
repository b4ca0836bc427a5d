"""The bot's handlers, one group per feature, and how they are put together: the
channel's publisher writes through the Discord writer, the players' sheets and the
handlers share the :class:`~bot.cogs.adapter.Adapter`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import discord

from bot.channel.budget import WriteBudget
from bot.channel.dice import TEXT, Faces
from bot.channel.publisher import Publisher
from bot.cogs.adapter import Adapter
from bot.cogs.ahead import AheadHandlers
from bot.cogs.clicks import Clicks
from bot.cogs.daily import DailyHandlers
from bot.cogs.direct import DiscordDirect
from bot.cogs.hidden import HiddenGames
from bot.cogs.leaving import LeaveHandlers
from bot.cogs.lobby import LobbyHandlers
from bot.cogs.overview import OverviewHandlers
from bot.cogs.practice import PracticeHandlers
from bot.cogs.prefs import PrefsHandlers
from bot.cogs.privacy import PrivacyHandlers
from bot.cogs.review import ReviewHandlers
from bot.cogs.settings import SettingsHandlers
from bot.cogs.sheets import Sheets
from bot.cogs.stats import StatsHandlers
from bot.cogs.tournaments import TournamentHandlers
from bot.cogs.turns import TurnHandlers
from bot.cogs.writer import DiscordWriter
from bot.records.games import GameRecord
from bot.service.games import GameService
from bot.service.privacy import PrivacyService
from bot.service.review import ReviewService
from bot.service.stats import StatsService


@dataclass(frozen=True)
class Handlers:
    """What the commands (:class:`~bot.cogs.qwixx.QwixxCog`) and the components
    (:class:`~bot.cogs.buttons.Clicks`) hand an interaction to."""

    adapter: Adapter
    lobby: LobbyHandlers
    turns: TurnHandlers
    ahead: AheadHandlers
    prefs: PrefsHandlers
    overview: OverviewHandlers
    leaving: LeaveHandlers
    settings: SettingsHandlers
    daily: DailyHandlers
    practice: PracticeHandlers
    stats: StatsHandlers
    review: ReviewHandlers
    privacy: PrivacyHandlers
    tournaments: TournamentHandlers

    @classmethod
    def wire(
        cls,
        client: discord.Client,
        service: GameService,
        stats: StatsService,
        privacy: PrivacyService,
        *,
        settle: float = 30.0,
        budget: WriteBudget | None = None,
        faces: Callable[[], Faces] = lambda: TEXT,
    ) -> Handlers:
        """Every handler of the bot ``client``; ``settle``: the seconds the channel waits
        to show decisions being made (several clicks become one edit); ``faces``: the
        dice's emojis the bot has (:mod:`bot.cogs.emojis`)."""
        budget = budget or WriteBudget()

        async def names(record: GameRecord) -> dict[int, str]:
            return await service.names.of(record.guild_id, record.players)

        writer = DiscordWriter(client, names, budget)
        sheets = Sheets(names)
        direct = DiscordDirect(client, sheets, names)
        publisher = Publisher(service.channel, writer, settle=settle, faces=faces, direct=direct)
        adapter = Adapter(service, publisher, writer, sheets)
        daily = DailyHandlers(client, service.daily, sheets, publisher.language, budget)
        practice = PracticeHandlers(service, sheets, faces)
        return cls(
            adapter=adapter,
            lobby=LobbyHandlers(adapter),
            turns=TurnHandlers(adapter, HiddenGames(daily, practice)),
            ahead=AheadHandlers(adapter),
            prefs=PrefsHandlers(service.members),
            overview=OverviewHandlers(adapter),
            leaving=LeaveHandlers(adapter),
            settings=SettingsHandlers(adapter, daily),
            daily=daily,
            practice=practice,
            stats=StatsHandlers(stats, service.endings.ratings, service, publisher.language),
            review=ReviewHandlers(
                ReviewService(service.keeper, stats), service, publisher.language
            ),
            privacy=PrivacyHandlers(client, privacy),
            tournaments=TournamentHandlers(client, adapter, budget),
        )


def as_clicked(handlers: Handlers) -> Clicks:
    """``handlers`` as the components see them (the type checker holds them to it)."""
    return handlers
