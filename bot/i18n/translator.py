"""Slash commands in each member's language, through discord.py's ``Translator``.

discord.py asks for every command's and option's name and description, and every
choice's name, in each Discord locale when the commands are synced; Discord then
shows each member their own language. A text that is a catalogue text (the stats
commands' descriptions are ``t(...)``) uses that key's translation; the others are
found by their English text and what they name (see :mod:`bot.i18n.sync`).
"""

from __future__ import annotations

from functools import cache

import discord
from discord import Locale, app_commands
from discord.app_commands import TranslationContextLocation as Where

from bot.i18n import ENGLISH, catalogue, set_locale, slash_catalogue, supported

CONTEXTS = {Where.group_name: "slash name", Where.command_name: "slash name",
            Where.parameter_name: "slash name", Where.group_description: "slash description",
            Where.command_description: "slash description",
            Where.parameter_description: "slash description",
            Where.choice_name: "slash choice"}
NO_DESCRIPTION = "…"  # discord.py's description of an option nobody described


@cache
def english_keys() -> dict[str, str]:
    """Catalogue keys by their English text."""
    from bot.messages import EN

    return {text: key for key, text in reversed(EN.items())}


def translate(text: str, context: str, locale: str) -> str | None:
    """``text`` (English) in ``locale``, or ``None`` where there is no translation."""
    key = english_keys().get(text) if context != "slash name" else None
    if key is not None:
        return catalogue(locale).get(key)
    return slash_catalogue(locale).get((context, text))


class Translator(app_commands.Translator):
    async def translate(self, string: app_commands.locale_str, locale: Locale,
                        context: app_commands.TranslationContext) -> str | None:
        code = supported(locale)
        where = CONTEXTS.get(context.location)
        if code is None or code == ENGLISH or where is None:
            return None
        return translate(string.message, where, code)


def command_texts() -> list[tuple[str, str]]:
    """Every English text of the ``/qwixx`` commands that needs a slash entry, as
    (msgctxt, text), in the order the commands declare them."""
    from bot.cogs.qwixx import QwixxCog

    # No table: only the commands the cog declares are read, and they need none.
    group = QwixxCog(None, object()).__cog_app_commands_group__  # type: ignore[arg-type]
    assert group is not None
    found: list[tuple[str, str]] = [("slash name", group.name),
                                    ("slash description", group.description)]
    for command in group.walk_commands():
        found += [("slash name", command.name), ("slash description", command.description)]
        for option in getattr(command, "parameters", []):
            found += [("slash name", option.name), ("slash description", option.description)]
            found += [("slash choice", choice.name) for choice in option.choices]
    texts = english_keys()
    unique = dict.fromkeys((c, s) for c, s in found
                           if s != NO_DESCRIPTION and (c == "slash name" or s not in texts))
    return list(unique)


class LocalisedTree(app_commands.CommandTree):
    """Runs each slash command in the member's language: the command's task then writes
    every private answer in it (public messages switch to the server's language)."""

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        set_locale(interaction.locale)
        return True
