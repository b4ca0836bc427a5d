"""``/qwixx settings``: a server's turn times (slow and live), language and daily
challenge; ``/qwixx pace``: a game played live or slow.

Private answers follow each member's Discord language; what the channel shows (turn
messages, lobbies, images, reminders) is in the server's language: the one chosen
here, else the server's Discord preferred locale when we speak it, else English.
"""

from __future__ import annotations

from dataclasses import astuple, dataclass

import discord
from discord import app_commands

from bot.cogs.adapter import Adapter, GameHandlers
from bot.cogs.answers import answers_errors
from bot.cogs.daily import DailyHandlers
from bot.durations import format_duration
from bot.i18n import LOCALES, NAMES, language_name
from bot.i18n.words import t
from bot.rules import Event
from bot.service.errors import ServiceError

LANGUAGE_CHOICES = [app_commands.Choice(name=NAMES[code], value=code) for code in LOCALES]


@dataclass(frozen=True)
class SettingsOptions:
    """``/qwixx settings``' options as given (None: not given)."""

    turn_time: str | None = None
    language: str | None = None
    daily_channel: int | None = None
    daily_hour: int | None = None
    timezone: str | None = None
    live_time: str | None = None

    @property
    def any(self) -> bool:
        return any(value is not None for value in astuple(self))


class SettingsHandlers(GameHandlers):
    """The handlers of ``/qwixx settings`` and ``/qwixx pace``."""

    def __init__(self, adapter: Adapter, daily: DailyHandlers) -> None:
        super().__init__(adapter)
        self.daily = daily

    @answers_errors
    async def on_settings(self, interaction: discord.Interaction, given: SettingsOptions) -> None:
        """Every setting as it stands, or (Manage Server) those given, changed: one
        answer. Each given value is checked before any is saved."""
        guild_id = interaction.guild_id
        if guild_id is None:
            raise ServiceError("error.guild_only")
        if given.any and not interaction.permissions.manage_guild:
            raise ServiceError("error.settings_denied")
        self.daily.service.check_settings(given.daily_hour, given.timezone)
        lines = []
        if given.turn_time is not None:
            seconds = await self.service.settings.set_turn_time(guild_id, given.turn_time)
            lines.append(t("settings.saved", turn_time=format_duration(seconds)))
        elif not given.any:
            current = await self.service.settings.turn_time(guild_id, None)
            lines.append(t("settings.current", turn_time=format_duration(current)))
        if given.live_time is not None:
            seconds = await self.service.settings.set_live_time(guild_id, given.live_time)
            lines.append(t("settings.live_saved", turn_time=format_duration(seconds)))
        elif not given.any:
            current = await self.service.settings.live_time(guild_id)
            lines.append(t("settings.live_current", turn_time=format_duration(current)))
        if given.language is not None or not given.any:
            lines.append(await self.language_line(interaction, guild_id, given.language))
        daily = (given.daily_channel, given.daily_hour, given.timezone)
        if daily != (None, None, None) or not given.any:
            lines.append(await self.daily.settings_text(guild_id, *daily))
        await self.tell(interaction, "\n".join(lines))

    async def language_line(
        self, interaction: discord.Interaction, guild_id: int, language: str | None
    ) -> str:
        """The server's language in words, once changed to ``language`` if given (the
        caller checked Manage Server)."""
        if language is None:
            current = await self.service.settings.language(guild_id, interaction.guild_locale)
            return t("settings.language_current", language=language_name(current))
        chosen = await self.service.settings.set_language(guild_id, language)
        return t("settings.language_saved", language=language_name(chosen))

    @answers_errors
    async def on_pace(self, interaction: discord.Interaction, speed: str) -> None:
        """``/qwixx pace``: this channel's game played live or slow (see
        :mod:`bot.service.pace`); the channel tells the asking and the switch."""
        found = await self.service.keeper.in_channel(interaction.channel_id or 0)
        outcome = await self.service.pace.ask(found.record.id, interaction.user.id, speed)
        told = outcome.events[0] if outcome.events else None
        if told is not None and told.kind == "pace_asked":
            await self.tell(interaction, t("pace.asked_you", turn_time=duration(told)))
        else:
            await self.tell(interaction, t(f"pace.now_{speed}", turn_time=duration(told)))
        await self.adapter.changed(outcome)


def duration(event: Event | None) -> str:
    """The turn time an event of the pace tells, in words."""
    return format_duration(int(event.data["turn_time"])) if event is not None else ""
