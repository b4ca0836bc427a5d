"""Slash commands in each member's language, through discord.py's ``Translator``.

discord.py asks for every command's and option's name and description, and every
choice's name, in each Discord locale when the commands are synced; Discord then
shows each member their own language. A text that is a catalogue text (the stats
commands' descriptions are ``t(...)``) uses that key's translation; the others are
found by their English text and what they name (see :mod:`bot.catalogues`).
"""

from __future__ import annotations

from functools import cache
from typing import Any

import discord
from discord import Locale, app_commands
from discord.app_commands import TranslationContextLocation as Where

from bot.i18n import ENGLISH, catalogue, set_locale, slash_catalogue, supported
from bot.i18n.english import EN

CONTEXTS = {
    Where.group_name: "slash name",
    Where.command_name: "slash name",
    Where.parameter_name: "slash name",
    Where.group_description: "slash description",
    Where.command_description: "slash description",
    Where.parameter_description: "slash description",
    Where.choice_name: "slash choice",
}
NO_DESCRIPTION = "…"  # discord.py's description of an option nobody described


@cache
def english_keys() -> dict[str, str]:
    """Catalogue keys by their English text."""
    return {text: key for key, text in reversed(EN.items())}


def translate(text: str, context: str, locale: str) -> str | None:
    """``text`` (English) in ``locale``, or ``None`` where there is no translation."""
    key = english_keys().get(text) if context != "slash name" else None
    if key is not None:
        return catalogue(locale).get(key)
    return slash_catalogue(locale).get((context, text))


class Translator(app_commands.Translator):
    async def translate(
        self,
        string: app_commands.locale_str,
        locale: Locale,
        context: app_commands.TranslationContext[Any, Any],
    ) -> str | None:
        code = supported(locale)
        where = CONTEXTS.get(context.location)
        if code is None or code == ENGLISH or where is None:
            return None
        return translate(string.message, where, code)


class LocalisedTree(app_commands.CommandTree):
    """Runs each slash command in the member's language: the command's task then writes
    every private answer in it (public messages switch to the server's language)."""

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        set_locale(interaction.locale)
        return True
