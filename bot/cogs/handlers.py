"""The bot's handlers, one group per feature, and how they are put together: the
channel's publisher writes through the Discord writer, the players' sheets and the
handlers share the :class:`~bot.cogs.adapter.Adapter`; and :data:`ROUTES`, the one table
that names the handler of each kind of click (a new component is one entry: it is
registered and routed by it)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

import discord

from bot.channel.budget import WriteBudget
from bot.channel.dice import TEXT, Faces
from bot.channel.publisher import Publisher
from bot.cogs.adapter import Adapter
from bot.cogs.ahead import AheadHandlers
from bot.cogs.buttons import (
    AskButton,
    CardButton,
    FieldSelect,
    FinalButton,
    LevelSelect,
    LobbyButton,
    MoveButton,
    Parsed,
    RematchButton,
    ReviewButton,
    ShareButton,
    TurnButton,
)
from bot.cogs.choice_items import (
    AheadButton,
    FallbackButton,
    GameChoiceSelect,
    PrefsButton,
    PrefsSelect,
    RethrowSelect,
    SheetButton,
    ThrowButton,
)
from bot.cogs.daily import DailyHandlers
from bot.cogs.direct import DiscordDirect
from bot.cogs.hidden import HiddenGames
from bot.cogs.leaving import LeaveHandlers
from bot.cogs.lobby import LobbyHandlers
from bot.cogs.overview import OverviewHandlers
from bot.cogs.practice import PracticeHandlers
from bot.cogs.prefs import PrefsHandlers
from bot.cogs.privacy import ForgetButton, PrivacyHandlers
from bot.cogs.review import ReviewHandlers
from bot.cogs.settings import SettingsHandlers
from bot.cogs.sheets import Sheets
from bot.cogs.stats import StatsHandlers
from bot.cogs.tournaments import SignUpButton, TournamentHandlers
from bot.cogs.turns import TurnHandlers
from bot.cogs.writer import DiscordWriter
from bot.records.games import GameRecord
from bot.records.plans import Step
from bot.service.games import GameService
from bot.service.privacy import PrivacyService
from bot.service.review import ReviewService
from bot.service.stats import StatsService


@dataclass(frozen=True)
class Handlers:
    """What the commands (:class:`~bot.cogs.qwixx.QwixxCog`) and the components
    (:data:`ROUTES`) hand an interaction to."""

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
            review=ReviewHandlers(ReviewService(service.keeper, stats), service),
            privacy=PrivacyHandlers(client, privacy),
            tournaments=TournamentHandlers(client, adapter, budget),
        )

    def route(self, interaction: discord.Interaction, item: Parsed[Any], /) -> Awaitable[None]:
        """The handling of a click on ``item`` (:data:`ROUTES`)."""
        return ROUTES[type(item)].handle(self, interaction, item)


ItemT = TypeVar("ItemT", bound=Parsed[Any])


@dataclass(frozen=True)
class ClickRoute(Generic[ItemT]):
    """A kind of component, and what a click on it calls: its handler, with what the
    click carries (the item, as its custom_id and value read)."""

    item: type[ItemT]
    handle: Callable[[Handlers, discord.Interaction, ItemT], Awaitable[None]]


def turn_button(h: Handlers, i: discord.Interaction, b: TurnButton) -> Awaitable[None]:
    """The public turn message's buttons (and **Hint** on a sheet)."""
    if b.action == "sheet":
        return h.turns.on_open_sheet(i, b.game, b.turn)
    if b.action == "pass":
        return h.turns.on_public_pass(i, b.game, b.turn, b.phase)
    if b.action == "hint":
        return h.turns.on_hint(i, b.game, b.turn)
    if b.action == "board":
        return h.overview.on_board(i, b.game, b.turn)
    return h.overview.on_table(i, b.game, b.turn)


def move_button(h: Handlers, i: discord.Interaction, b: MoveButton) -> Awaitable[None]:
    """An option on the sheet, [Yes] under its question, or [Back]."""
    if b.step == "back":
        return h.turns.on_back(i, b.game, b.turn)
    return h.turns.on_move(i, b.game, b.turn, b.phase, b.move, b.step == "yes")


def sheet_button(h: Handlers, i: discord.Interaction, b: SheetButton) -> Awaitable[None]:
    """Decide later after all, or another page of the sheet."""
    if b.action == "later":
        return h.ahead.on_later(i, b.game, b.turn)
    return h.ahead.on_see(i, b.game, b.turn, b.action.removeprefix("see-"))


def prefs_button(h: Handlers, i: discord.Interaction, b: PrefsButton) -> Awaitable[None]:
    """``dm-on`` and the like: a preference and its value (``here``: back from away)."""
    name, _, value = b.action.partition("-")
    return h.prefs.on_pref(i, name, value)


ROUTES: dict[type[Parsed[Any]], ClickRoute[Any]] = {
    route.item: route
    for route in (
        ClickRoute(LobbyButton, lambda h, i, b: h.lobby.on_lobby(i, b.game, b.action)),
        ClickRoute(LevelSelect, lambda h, i, s: h.lobby.on_level(i, s.game, s.seat, s.level)),
        ClickRoute(RematchButton, lambda h, i, b: h.lobby.on_rematch(i, b.game)),
        ClickRoute(TurnButton, turn_button),
        ClickRoute(MoveButton, move_button),
        ClickRoute(
            FieldSelect, lambda h, i, s: h.turns.on_move(i, s.game, s.turn, s.phase, s.move)
        ),
        ClickRoute(
            ThrowButton,
            lambda h, i, b: h.turns.on_move(
                i, b.game, b.turn, "roll", b.move, False, (Step("reroll", rule=b.rule),)
            ),
        ),
        ClickRoute(
            AheadButton,
            lambda h, i, b: h.ahead.on_ahead(i, b.game, b.turn, b.steps, b.confirmed),
        ),
        ClickRoute(SheetButton, sheet_button),
        ClickRoute(
            FallbackButton,
            lambda h, i, b: h.ahead.on_default(i, b.game, b.turn, "fallback", b.value),
        ),
        ClickRoute(
            RethrowSelect,
            lambda h, i, s: h.ahead.on_default(i, s.game, s.turn, "rethrow", s.value),
        ),
        ClickRoute(
            GameChoiceSelect,
            lambda h, i, s: h.ahead.on_choose(i, s.game, s.turn, s.name, s.value),
        ),
        ClickRoute(PrefsSelect, lambda h, i, s: h.prefs.on_pref(i, s.name, s.value)),
        ClickRoute(PrefsButton, prefs_button),
        ClickRoute(AskButton, lambda h, i, b: h.leaving.on_answer(i, b.what, b.step == "yes")),
        ClickRoute(ReviewButton, lambda h, i, b: h.review.on_review_button(i, b.game)),
        ClickRoute(CardButton, lambda h, i, b: h.daily.on_share_card(i, b.game)),
        ClickRoute(FinalButton, lambda h, i, b: h.stats.on_final(i, b.game)),
        ClickRoute(ShareButton, lambda h, i, b: h.stats.on_share(i, b.what, b.args)),
        ClickRoute(ForgetButton, lambda h, i, b: h.privacy.on_forget_answer(i, b.step == "yes")),
        ClickRoute(
            SignUpButton, lambda h, i, b: h.tournaments.on_signup(i, b.tournament, b.action)
        ),
    )
}
"""Every kind of component the bot registers, and the handler a click on it goes to."""
