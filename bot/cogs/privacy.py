"""``/qwixx privacy`` and ``/qwixx forget-me``: what the bot keeps about a member, and
forgetting them (after [Yes]); both answer only the member, in their language."""

from __future__ import annotations

import re
from typing import Any, Final, Self

import discord

from bot.cogs.answers import PrivateAnswers, answers_errors
from bot.cogs.buttons import Parsed, answer_button
from bot.durations import format_duration
from bot.i18n.words import plural, t
from bot.records.games import NO_SERVER
from bot.records.members import ServerData
from bot.rules import VARIANTS
from bot.service.errors import ServiceError
from bot.service.privacy import PrivacyService

LONGEST: Final = 1900
"""Characters of the report's per-server part at most (Discord allows 2000 in all)."""


class ForgetButton(Parsed[discord.ui.Button[Any]], template=r"qx:forget:(?P<step>yes|back)"):
    """[Yes] and [Back] under the question of ``/qwixx forget-me``."""

    def __init__(self, step: str) -> None:
        super().__init__(answer_button("qx:forget", step))
        self.step = step

    @classmethod
    def parse(cls, match: re.Match[str], item: discord.ui.Item[Any]) -> Self:
        return cls(match["step"])


def forget_view() -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(ForgetButton("yes"))
    view.add_item(ForgetButton("back"))
    return view


def server_lines(server: ServerData, name: str) -> list[str]:
    """What one server keeps about the member, a line per kind of data."""
    lines = [f"**{name}**"]
    if server.name is not None:
        lines.append(t("privacy.name", name=discord.utils.escape_markdown(server.name)))
    if server.games:
        lines.append(t("privacy.games", games=server.games))
    if server.results:
        lines.append(
            t(
                "privacy.results",
                results=server.results,
                counted=server.counted,
                first=f"<t:{int(server.first or 0)}:d>",
                last=f"<t:{int(server.last or 0)}:d>",
                variants=plural("unit.variant_in", server.variants),
            )
        )
    if server.ratings:
        ratings = ", ".join(
            t("privacy.rating", variant=VARIANTS[v].title if v in VARIANTS else v, games=games)
            for v, games in server.ratings
        )
        lines.append(t("privacy.ratings", ratings=ratings))
    if server.accuracies:
        lines.append(t("privacy.accuracies", games=server.accuracies))
    if server.daily:
        key = "privacy.daily_elsewhere" if server.guild_id == NO_SERVER else "privacy.daily"
        lines.append(t(key, daily=server.daily))
    if server.tournaments:
        lines.append(t("privacy.tournaments", count=server.tournaments))
    if server.organised:
        lines.append(t("privacy.organised", count=server.organised))
    if server.guild_id == NO_SERVER:  # no server's removal ever deletes it
        lines.append(t("privacy.no_server_kept"))
    return lines


def server_name(guild_id: int, names: dict[int, str]) -> str:
    """A server as the answer names it: by its name, as gone, or (a daily attempt or a
    practice game where the bot is not) as no server."""
    if guild_id == NO_SERVER:
        return t("privacy.no_server")
    return names.get(guild_id) or t("privacy.server_gone", id=guild_id)


def report_text(servers: list[ServerData], names: dict[int, str], grace: int) -> str:
    """The whole answer of ``/qwixx privacy``."""
    if not servers:
        return "\n".join([t("privacy.nothing"), "", t("privacy.forget")])
    parts: list[str] = [t("privacy.title")]
    shown = 0
    for server in servers:
        block = "\n".join(server_lines(server, server_name(server.guild_id, names)))
        if sum(len(p) for p in parts) + len(block) > LONGEST - 700:
            break
        parts.append(block)
        shown += 1
    if shown < len(servers):
        parts.append(t("privacy.more", count=len(servers) - shown))
    parts += [t("privacy.kept", grace=format_duration_long(grace)), t("privacy.forget")]
    return "\n\n".join(parts)


def format_duration_long(seconds: int) -> str:
    """A grace period in words: ``30 days`` (``12h``, ``1h30m`` when not whole days)."""
    if seconds % 86400 == 0:
        return plural("unit.days_after", seconds // 86400)
    return format_duration(seconds)


class PrivacyHandlers(PrivateAnswers):
    """The handlers of the two commands and of the question's buttons."""

    def __init__(self, bot: discord.Client, service: PrivacyService) -> None:
        super().__init__()
        self.bot = bot
        self.service = service

    def server_name(self, guild_id: int) -> str | None:
        guild = self.bot.get_guild(guild_id)
        return None if guild is None else discord.utils.escape_markdown(guild.name)

    @answers_errors
    async def on_privacy(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        servers = await self.service.report(interaction.user.id)
        names = {
            s.guild_id: name for s in servers if (name := self.server_name(s.guild_id)) is not None
        }
        await interaction.followup.send(
            report_text(servers, names, int(self.service.forget_after)), ephemeral=True
        )

    @answers_errors
    async def on_forget(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(
            t("confirm.forget"), view=forget_view(), ephemeral=True
        )

    @answers_errors
    async def on_forget_answer(self, interaction: discord.Interaction, yes: bool) -> None:
        """[Yes] forgets the member (the question becomes the answer); [Back] keeps all."""
        if not yes:
            await interaction.response.edit_message(content=t("confirm.kept"), view=None)
            return
        await interaction.response.defer()
        try:
            done = await self.service.forget(interaction.user.id)
        except ServiceError as refused:
            await interaction.edit_original_response(content=refused.text(), view=None)
            return
        await interaction.edit_original_response(
            content=t("forget.done", games=done.games), view=None
        )
