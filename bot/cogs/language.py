"""``/qwixx settings language``: the language of a server's public messages and images.

Private answers follow each member's Discord language; what the channel shows (turn
messages, lobbies, images, reminders) is in the server's language: the one chosen
here, else the server's Discord preferred locale when we speak it, else English.
"""

from __future__ import annotations

import discord
from discord import app_commands

from bot.cogs.table import Table, answers_errors
from bot.i18n import LOCALES, NAMES, language_name
from bot.messages import t
from bot.service.games import ServiceError

LANGUAGE_CHOICES = [app_commands.Choice(name=NAMES[code], value=code) for code in LOCALES]


@answers_errors
async def on_language(table: Table, interaction: discord.Interaction,
                      language: str | None) -> None:
    """Show the server's language, or (Manage Server) change it."""
    guild_id = interaction.guild_id
    if guild_id is None:
        raise ServiceError("error.guild_only")
    if language is None:
        current = await table.service.guild_language(guild_id, interaction.guild_locale)
        await table.tell(interaction, t("settings.language_current",
                                        language=language_name(current)))
        return
    if not interaction.permissions.manage_guild:
        raise ServiceError("error.settings_denied")
    chosen = await table.service.set_guild_language(guild_id, language)
    await table.tell(interaction, t("settings.language_saved", language=language_name(chosen)))
