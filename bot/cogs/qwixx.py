"""The ``/qwixx`` slash commands: thin translators to the table's handlers."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.table import Table
from bot.messages import t
from bot.rules import VARIANTS

VARIANT_CHOICES = [app_commands.Choice(name=cls.title, value=key) for key, cls in VARIANTS.items()]


class QwixxCog(commands.GroupCog, group_name="qwixx", group_description="Play Qwixx games"):
    def __init__(self, table: Table) -> None:
        self.table = table
        super().__init__()

    @app_commands.command(description="Open a lobby for a new game in this channel")
    @app_commands.describe(variant="Which game to play")
    @app_commands.choices(variant=VARIANT_CHOICES)
    async def start(self, interaction: discord.Interaction,
                    variant: app_commands.Choice[str] | None = None) -> None:
        await self.table.on_start(interaction, variant.value if variant else "classic")

    @app_commands.command(description="Show your sheet and your options (only you see it)")
    async def sheet(self, interaction: discord.Interaction) -> None:
        await self.table.on_sheet_command(interaction)

    @app_commands.command(description="Whose decision it is, the dice and the scores so far")
    async def status(self, interaction: discord.Interaction) -> None:
        await self.table.on_status(interaction)

    @app_commands.command(description="A short summary of the rules")
    @app_commands.describe(variant="Which game (default: Qwixx)")
    @app_commands.choices(variant=VARIANT_CHOICES)
    async def rules(self, interaction: discord.Interaction,
                    variant: app_commands.Choice[str] | None = None) -> None:
        key = variant.value if variant else "classic"
        await interaction.response.send_message(t(f"rules.{key}"), ephemeral=True)

    @app_commands.command(description="End this channel's game (host or Manage Channels)")
    async def abandon(self, interaction: discord.Interaction) -> None:
        await self.table.on_abandon(interaction)
