"""A game's direct messages through Discord (:class:`bot.channel.writer.DirectWriter`).

Each letter goes to the bot's direct channel with its person (discord.py opens it once
and keeps it), with their sheet and their choices: the sheet's own page
(:func:`bot.cogs.pages.page`, with the throw's rule and the game's standing choices),
whose clicks reach the same handlers with the same checks (the service's
:class:`~bot.service.where.Where` takes a click in the bot's direct messages from the
game's player). A closing edits the message by its channel and id, as stored with the
game, so it needs nothing of this process's memory.
"""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.channel.direct import Closing, Letter, Place
from bot.channel.writer import Unreachable
from bot.cogs.images import board_file, sheet_file
from bot.cogs.pages import page
from bot.cogs.sheets import Names, Sheets
from bot.records.games import GameRecord
from bot.rules import Game

log = logging.getLogger(__name__)

NOBODY = discord.AllowedMentions.none()
"""A direct message pings nobody: it is a notification of its own."""


class DiscordDirect:
    """Sends, and closes, the games' direct messages."""

    def __init__(self, client: discord.Client, sheets: Sheets, names: Names) -> None:
        self.client = client
        self.sheets = sheets
        self.names = names

    def place(self, record: GameRecord) -> Place | None:
        guild = self.client.get_guild(record.guild_id)
        channel = None if guild is None else guild.get_channel_or_thread(record.channel_id)
        return None if guild is None or channel is None else (guild.name, channel.name)

    async def send(self, record: GameRecord, game: Game, letter: Letter) -> tuple[int, int]:
        person, names = letter.person, await self.names(record)
        shown = page(record, game, person)  # the sheet's own page: its image and buttons
        drawn, moves = shown.drawn or game, shown.marked
        files = [await sheet_file(drawn, person, names.get(person, ""), moves)]
        if any(m.kind == "pawn" for m in moves):  # On Board: where the pawn may go
            files.append(await board_file(drawn, names, moves))
        view = shown.view
        extra: dict[str, Any] = {} if view is None else {"view": view}
        try:
            channel = await self.client.create_dm(discord.Object(person))
            message = await channel.send(
                letter.content, files=files, allowed_mentions=NOBODY, nonce=letter.nonce, **extra
            )
        except discord.Forbidden as refused:  # closed DMs (50007), or no server in common
            raise Unreachable(f"{refused.code}: {refused.text}") from refused
        return channel.id, message.id

    async def close(self, record: GameRecord, closing: Closing) -> None:
        sent = closing.sent
        channel = self.client.get_partial_messageable(
            sent.channel_id, type=discord.ChannelType.private
        )
        await self.sheets.answered(sent.message_id)  # a click's answer first, then this
        try:
            await channel.get_partial_message(sent.message_id).edit(
                content=closing.content, view=None, allowed_mentions=NOBODY
            )
        except (discord.NotFound, discord.Forbidden) as error:  # gone, or DMs closed since
            log.info("direct message %s of game %s kept: %s", sent.message_id, record.id, error)
