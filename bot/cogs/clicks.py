"""Where a click goes: the groups of handlers as the components see them (each a
protocol, so that a component needs no handler's module), and the bot's handlers
reached from an interaction."""

from __future__ import annotations

from collections.abc import Awaitable
from typing import Protocol, cast

import discord

from bot.rules import Move


class LobbyClicks(Protocol):
    """:class:`bot.cogs.lobby.LobbyHandlers`, as the components see it."""

    def on_lobby(
        self, interaction: discord.Interaction, /, game_id: int, action: str
    ) -> Awaitable[None]: ...
    def on_level(
        self, interaction: discord.Interaction, /, game_id: int, seat: int, level: str
    ) -> Awaitable[None]: ...
    def on_rematch(self, interaction: discord.Interaction, /, game_id: int) -> Awaitable[None]: ...


class TurnClicks(Protocol):
    """:class:`bot.cogs.turns.TurnHandlers`, as the components see it."""

    def on_open_sheet(
        self, interaction: discord.Interaction, /, game_id: int, turn: int
    ) -> Awaitable[None]: ...
    def on_public_pass(
        self, interaction: discord.Interaction, /, game_id: int, turn: int, phase: str | None
    ) -> Awaitable[None]: ...
    def on_hint(
        self, interaction: discord.Interaction, /, game_id: int, turn: int
    ) -> Awaitable[None]: ...
    def on_move(
        self,
        interaction: discord.Interaction,
        /,
        game_id: int,
        turn: int,
        phase: str,
        move: Move,
        confirmed: bool = False,
    ) -> Awaitable[None]: ...
    def on_back(
        self, interaction: discord.Interaction, /, game_id: int, turn: int
    ) -> Awaitable[None]: ...


class OverviewClicks(Protocol):
    """:class:`bot.cogs.overview.OverviewHandlers`, as the components see it."""

    def on_board(
        self, interaction: discord.Interaction, /, game_id: int, turn: int
    ) -> Awaitable[None]: ...
    def on_table(
        self, interaction: discord.Interaction, /, game_id: int, turn: int
    ) -> Awaitable[None]: ...


class LeavingClicks(Protocol):
    """:class:`bot.cogs.leaving.LeaveHandlers`, as the components see it."""

    def on_answer(
        self, interaction: discord.Interaction, /, what: str, yes: bool
    ) -> Awaitable[None]: ...


class ReviewClicks(Protocol):
    """:class:`bot.cogs.review.ReviewHandlers`, as **Review** sees it."""

    def on_review_button(
        self, interaction: discord.Interaction, /, game_id: int
    ) -> Awaitable[None]: ...


class StatsClicks(Protocol):
    """:class:`bot.cogs.stats.StatsHandlers`, as its buttons see it."""

    def on_final(self, interaction: discord.Interaction, /, game_id: int) -> Awaitable[None]: ...
    def on_share(
        self, interaction: discord.Interaction, /, what: str, args: str
    ) -> Awaitable[None]: ...


class DailyClicks(Protocol):
    """:class:`bot.cogs.daily.DailyHandlers`, as **Share** under an attempt sees it."""

    def on_share_card(
        self, interaction: discord.Interaction, /, game_id: int
    ) -> Awaitable[None]: ...


class PrivacyClicks(Protocol):
    """:class:`bot.cogs.privacy.PrivacyHandlers`, as [Yes] and [Back] see it."""

    def on_forget_answer(
        self, interaction: discord.Interaction, /, yes: bool
    ) -> Awaitable[None]: ...


class Clicks(Protocol):
    """The bot's handlers (:class:`bot.cogs.handlers.Handlers`), as the components see
    them."""

    @property
    def lobby(self) -> LobbyClicks: ...
    @property
    def turns(self) -> TurnClicks: ...
    @property
    def overview(self) -> OverviewClicks: ...
    @property
    def leaving(self) -> LeavingClicks: ...
    @property
    def review(self) -> ReviewClicks: ...
    @property
    def stats(self) -> StatsClicks: ...
    @property
    def daily(self) -> DailyClicks: ...
    @property
    def privacy(self) -> PrivacyClicks: ...


class HasClicks(Protocol):
    """The bot (:class:`~bot.app.QwixxBot`), as the components see it."""

    @property
    def handlers(self) -> Clicks: ...


def clicks(interaction: discord.Interaction) -> Clicks:
    """The handlers of the bot that received ``interaction``."""
    return cast(HasClicks, interaction.client).handlers
