"""Where the commands work, and where an answer is shown.

``/qwixx`` is offered everywhere a member may use it: on a server, in the bot's direct
messages and in group chats (its contexts), through the server's install of the app and
through a member's own (its installation types), for its daily challenge, practice and
statistics work anywhere. Discord keeps contexts and installation types to the top-level
command, so the subcommands that need a server with the bot (a channel's games, its
settings, its leaderboard, its tournaments) declare it themselves (:func:`needs_server`,
or their group's ``allowed_contexts``) and :class:`PlacedTree` answers them politely
anywhere else, before they run.
"""

from __future__ import annotations

from typing import Any, TypeVar

import discord
from discord import app_commands

from bot.i18n.translator import LocalisedTree
from bot.i18n.words import t
from bot.records.games import NO_SERVER

T = TypeVar("T")
SERVER = app_commands.AppCommandContext(guild=True)
"""The contexts of a group whose subcommands all need a server."""


def needs_server(command: T) -> T:
    """Declare that a subcommand works only on a server with the bot (decorate before
    ``app_commands.command``): :class:`PlacedTree` refuses it anywhere else."""
    return app_commands.guild_install(app_commands.guild_only(command))


def server_only(command: app_commands.Command[Any, Any, Any] | app_commands.Group) -> bool:
    """Whether ``command`` (or the nearest of its groups to say) declares that it works
    only on a server."""
    found: app_commands.Command[Any, Any, Any] | app_commands.Group | None = command
    while found is not None:
        contexts = found.allowed_contexts
        if contexts is not None:
            return not (contexts.dm_channel or contexts.private_channel)
        found = found.parent
    return False


def with_bot(interaction: discord.Interaction) -> bool:
    """Whether ``interaction`` happens on a server where the bot is (its install there
    authorizes it), not in a direct message, a group chat or a server without the bot."""
    return interaction.guild_id is not None and interaction.is_guild_integration()


def server_of(interaction: discord.Interaction) -> int:
    """The server an interaction counts for: its own if the bot is there, else none."""
    return interaction.guild_id if with_bot(interaction) and interaction.guild_id else NO_SERVER


def private(interaction: discord.Interaction) -> bool:
    """Whether an answer is shown to the member alone: everywhere but the bot's direct
    messages with them, where a plain message stays (only they read it there too)."""
    return not interaction.context.dm_channel


class PlacedTree(LocalisedTree):
    """The command tree: a subcommand that needs a server with the bot, used anywhere
    else, is answered with why and what works there (and nothing else happens)."""

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        await super().interaction_check(interaction)  # the member's language
        command = interaction.command
        if interaction.type is not discord.InteractionType.application_command:
            return True
        if not isinstance(command, app_commands.Command) or not server_only(command):
            return True
        if with_bot(interaction):
            return True
        text = t("error.needs_server", command=f"/{command.qualified_name}")
        await interaction.response.send_message(text, ephemeral=True)
        return False
