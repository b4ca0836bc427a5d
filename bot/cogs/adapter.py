"""The Discord adapter's parts that every handler of a game uses: the game service, the
channel's publisher, the writer that lends it the tokens of clicks, and the players'
open sheets."""

from __future__ import annotations

import discord

from bot.channel.publisher import Publisher
from bot.channel.writer import Refused
from bot.cogs.answers import PrivateAnswers
from bot.cogs.sheets import Sheets
from bot.cogs.writer import DiscordWriter
from bot.i18n.words import t
from bot.service.errors import ServiceError
from bot.service.games import GameService
from bot.service.outcome import Outcome, Snapshot
from bot.service.where import Where


def where(interaction: discord.Interaction) -> Where:
    """Where ``interaction`` came from: a game's buttons work only where it is played,
    and in its direct messages (the bot's with its player)."""
    direct = interaction.guild_id is None and interaction.context.dm_channel
    return Where(interaction.guild_id, interaction.channel_id, direct)


class Adapter:
    """What the handlers of games share (one per bot)."""

    def __init__(
        self,
        service: GameService,
        publisher: Publisher,
        writer: DiscordWriter,
        sheets: Sheets,
    ) -> None:
        self.service = service
        self.publisher = publisher
        self.writer = writer
        self.sheets = sheets

    async def here(self, interaction: discord.Interaction, game_id: int) -> Snapshot:
        """The game a button names, as stored now, if it is played where the button was
        clicked (see :class:`~bot.service.where.Where`)."""
        return await self.service.keeper.read(game_id, where(interaction), interaction.user.id)

    async def remember(self, interaction: discord.Interaction) -> None:
        """The member's name, for the images that show them."""
        if interaction.guild_id is not None:
            await self.service.names.remember(
                interaction.guild_id, interaction.user.id, interaction.user.display_name
            )

    def lend(self, interaction: discord.Interaction) -> None:
        """A click on the public turn message, acknowledged with a deferred update and
        answered privately: the channel may edit that message with its token for 15
        minutes instead of writing to the channel. Lent once answered, so the answer
        is the first thing the token does."""
        if interaction.message is not None:
            self.writer.lend(interaction.message.id, interaction)

    async def changed(self, outcome: Outcome) -> None:
        """A change is stored: the open sheets of players whose decision it opened move
        on, then the channel hears of it (at once, or with the next clicks), then the
        open sheets of players whose choices made ahead met their moment say so."""
        seen = await self.sheets.move_on(outcome) if self.publisher.opened(outcome) else set()
        try:
            await self.publisher.publish(outcome, seen)
        except Refused as error:  # the change is stored; the channel lacks a permission
            raise ServiceError("error.cannot_post_now") from error
        await self.sheets.told_ahead(outcome, seen)


class GameHandlers(PrivateAnswers):
    """A group of a game's handlers."""

    def __init__(self, adapter: Adapter) -> None:
        super().__init__(adapter.publisher.language)
        self.adapter = adapter
        self.service = adapter.service

    async def afterwards(self, interaction: discord.Interaction) -> None:
        """A member whose direct messages Discord refuses is told so, once, privately."""
        if await self.adapter.publisher.told_unreached(interaction.user.id):
            await self.tell(interaction, t("dm.closed"))
