"""The three writes a plan is carried out with, as the Discord adapter makes them, and
the two of a game's direct messages.

:class:`~bot.channel.publisher.Publisher` decides what a channel lacks and in which
order it is written; a :class:`Writer` writes it: it draws the planned images, adds the
planned buttons, keeps each channel within its write budget, and may go through the
token of a recent click instead of a channel write. The publisher needs nothing else of
Discord, so a test can carry plans out on a writer of its own.
"""

from __future__ import annotations

from typing import Protocol

from bot.channel.direct import Closing, Letter, Place
from bot.channel.plan import Delete, Edit, Post
from bot.records.games import GameRecord
from bot.rules import Game


class Refused(Exception):
    """The channel refuses the bot's writes (a permission it lacks): trying again does
    not help until someone changes the channel."""


class Writer(Protocol):
    """Writes a game's messages (:class:`bot.cogs.writer.DiscordWriter`)."""

    async def post(self, record: GameRecord, game: Game | None, step: Post) -> int:
        """Post ``step``; the new message's id."""
        ...

    async def edit(self, record: GameRecord, game: Game | None, step: Edit) -> None:
        """Write ``step`` over its message (buttons None: none any more); a message
        deleted meanwhile is let go."""
        ...

    async def delete(self, record: GameRecord, step: Delete) -> bool:
        """Delete ``step``'s message: True when it is gone (or was already)."""
        ...

    def locale(self, guild_id: int) -> str | None:
        """The language the server's Discord settings prefer, if known."""
        ...


class Unreachable(Exception):
    """Discord refuses the bot's direct messages to a member (their DMs are closed, or
    they share no server with the bot any more)."""


class DirectWriter(Protocol):
    """Writes a game's direct messages (:class:`bot.cogs.direct.DiscordDirect`)."""

    async def send(self, record: GameRecord, game: Game, letter: Letter) -> tuple[int, int]:
        """Send ``letter`` with its person's sheet and choices (the sheet's buttons):
        the direct channel's id and the message's; :class:`Unreachable` if Discord
        refuses it."""
        ...

    async def close(self, record: GameRecord, closing: Closing) -> None:
        """Write ``closing`` over its message, without buttons (its images stay); a
        message gone is let go."""
        ...

    def place(self, record: GameRecord) -> Place | None:
        """The names of the game's server and channel, if known."""
        ...
