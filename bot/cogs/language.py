"""``/qwixx settings language``: the language of a server's public messages and images.

Private answers follow each member's Discord language; what the channel shows (turn
messages, lobbies, images, reminders) is in the server's language: the one chosen
here, else the server's Discord preferred locale when we speak it, else English.
"""

from __future__ import annotations

import discord
from discord import app_commands

from bot.i18n import LOCALES, NAMES, language_name
from bot.i18n.words import t
from bot.service.games import GameService

LANGUAGE_CHOICES = [app_commands.Choice(name=NAMES[code], value=code) for code in LOCALES]


async def language_setting(
    service: GameService, interaction: discord.Interaction, guild_id: int, language: str | None
) -> str:
    """The server's language in words, once changed to ``language`` if given (the
    caller checked Manage Server)."""
    if language is None:
        current = await service.guild_language(guild_id, interaction.guild_locale)
        return t("settings.language_current", language=language_name(current))
    chosen = await service.set_guild_language(guild_id, language)
    return t("settings.language_saved", language=language_name(chosen))
