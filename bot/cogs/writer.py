"""The channel's writes through Discord (:class:`bot.channel.writer.Writer`).

Public messages are posted with the bot token, each channel within its write budget
(:class:`~bot.channel.budget.WriteBudget`), posts with the nonce their plan gives them.
A click on a turn message that is answered privately after a deferred update lends its
token (:meth:`DiscordWriter.lend`): for 15 minutes it can edit that message, and send a
call to the players as a public follow-up, without a channel write, because Discord
counts interaction webhooks apart from the channel's message writes. So a turn costs
the channel about one post while players are at the table.
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections import defaultdict
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from typing import Any

import discord

from bot.channel.budget import WriteBudget
from bot.channel.plan import Buttons, Delete, Edit, Image, Post
from bot.channel.writer import Refused
from bot.cogs import cards, views
from bot.cogs.images import board_file, dice_files, scoreboard_file
from bot.players import is_computer
from bot.records.games import GameRecord
from bot.rules import Game

log = logging.getLogger(__name__)

TOKEN_LIFETIME = 14 * 60  # an interaction token lasts 15 minutes; keep a margin
UNKNOWN_MESSAGE = 10008
Names = Callable[[GameRecord], Awaitable[dict[int, str]]]
"""The players' display names, for the images that show them."""


def ping(users: Iterable[int]) -> discord.AllowedMentions:
    """Mentions that may ping ``users`` (people only), never everyone or a role."""
    return discord.AllowedMentions(
        everyone=False, roles=False, users=[discord.Object(u) for u in users if not is_computer(u)]
    )


def rewind(fields: dict[str, Any]) -> None:
    """Let the files of an edit be read from the start (again, after a failed attempt)."""
    for file in fields.get("attachments") or []:
        file.reset()


@asynccontextmanager
async def refusals() -> AsyncIterator[None]:
    """A write the channel forbids is :class:`Refused`."""
    try:
        yield
    except discord.Forbidden as error:
        raise Refused(str(error)) from error


class DiscordWriter:
    """Writes the games' messages: posts, edits and deletions as planned, with their
    images drawn and their buttons added."""

    def __init__(self, client: discord.Client, names: Names, budget: WriteBudget) -> None:
        self.client = client
        self.names = names
        self.budget = budget
        self._tokens: defaultdict[int, list[tuple[float, discord.Interaction]]] = defaultdict(list)
        self._follow_ups: dict[int, tuple[float, discord.WebhookMessage]] = {}

    def locale(self, guild_id: int) -> str | None:
        guild = self.client.get_guild(guild_id)
        return None if guild is None else str(guild.preferred_locale)

    def channel(self, record: GameRecord) -> discord.PartialMessageable:
        return self.client.get_partial_messageable(record.channel_id)

    # --- the three writes -----------------------------------------------------
    async def post(self, record: GameRecord, game: Game | None, step: Post) -> int:
        """One planned post; a call goes as a public follow-up of a recent click when
        there is one (no channel write)."""
        if step.call is not None:
            sent: list[int] = []

            async def follow_up(interaction: discord.Interaction) -> None:
                message = await interaction.followup.send(
                    step.content, allowed_mentions=ping(step.pinged), wait=True
                )
                self._follow_ups[message.id] = (time.monotonic(), message)
                sent.append(message.id)

            if await self.by_token(record.message_id or 0, follow_up):
                self.forget_follow_ups()
                return sent[0]
        extra: dict[str, Any] = {}
        if step.buttons is not None:
            extra["view"] = self.view(step.buttons, record, game)
        if step.nonce is not None:
            extra["nonce"] = step.nonce
        files = await self.files(step.images, record, game) or []
        content: str | None = step.content
        if step.card is not None:
            content, extra["view"] = None, cards.layout(step.card, files, extra.get("view"))
        async with refusals(), self.budget.slot(record.channel_id):
            message = await self.channel(record).send(
                content, files=files, allowed_mentions=ping(step.pinged), **extra
            )
        return message.id

    async def edit(self, record: GameRecord, game: Game | None, step: Edit) -> None:
        """A card is written whole, its images with it (its gallery names them)."""
        view = self.view(step.buttons, record, game)
        files = await self.files(step.images, record, game)
        if step.card is None:
            await self.write_over(record, step.message_id, step.content, view, files)
            return
        files = files or []
        layout = cards.layout(step.card, files, view)
        await self.write_over(record, step.message_id, None, layout, files)

    async def delete(self, record: GameRecord, step: Delete) -> bool:
        """A follow-up goes through its token while that lasts (no channel write)."""
        message_id = step.message_id
        sent, follow_up = self._follow_ups.pop(message_id, (0.0, None))
        try:
            if follow_up is not None and time.monotonic() - sent < TOKEN_LIFETIME:
                with contextlib.suppress(discord.HTTPException):
                    await follow_up.delete()
                    return True
            async with self.budget.slot(record.channel_id):
                await self.channel(record).get_partial_message(message_id).delete()
        except discord.NotFound:
            return True
        except discord.HTTPException as error:
            log.info("message %s of game %s could not be deleted: %s", message_id, record.id, error)
            return False
        return True

    async def write_over(
        self,
        record: GameRecord,
        message_id: int,
        content: str | None,
        view: discord.ui.View | discord.ui.LayoutView | None,
        files: list[discord.File] | None = None,
    ) -> None:
        """Edit one of the game's messages (``files`` None: its images stay; ``content``
        None: a card, whose text is its view's); a deleted one is let go."""
        fields: dict[str, Any] = {
            "view": view,
            "allowed_mentions": discord.AllowedMentions.none(),
        }
        if content is not None:
            fields["content"] = content
        if files is not None:
            fields["attachments"] = files
        try:
            if not await self.edit_by_token(message_id, fields):
                message = self.channel(record).get_partial_message(message_id)
                rewind(fields)
                async with refusals(), self.budget.slot(record.channel_id):
                    await message.edit(**fields)
        except discord.NotFound:
            log.warning("message %s of game %s is gone; not edited", message_id, record.id)

    # --- images and buttons -------------------------------------------------
    async def files(
        self, images: Sequence[Image] | None, record: GameRecord, game: Game | None
    ) -> list[discord.File] | None:
        """The planned images, drawn off the event loop (None: leave them as they are)."""
        if images is None:
            return None
        files: list[discord.File] = []
        for image in images:
            assert game is not None, "a lobby has no images"
            if image == "dice":
                files += await dice_files(game)
            elif image == "board":
                files.append(await board_file(game, await self.names(record)))
            else:
                files.append(await scoreboard_file(game, await self.names(record)))
        return files

    @staticmethod
    def view(
        buttons: Buttons | None, record: GameRecord, game: Game | None
    ) -> discord.ui.View | None:
        if buttons is None:
            return None
        if buttons == "turn":
            assert game is not None, "a lobby has no turn"
            return views.turn_view(record, game)
        return views.end_view(record)

    # --- tokens lent by clicks ------------------------------------------------
    def lend(self, message_id: int, interaction: discord.Interaction) -> None:
        """A click on ``message_id`` answered with a deferred update: for 15 minutes its
        token can edit that message without a channel write."""
        now = time.monotonic()
        fresh = [(at, i) for at, i in self._tokens[message_id] if now - at < TOKEN_LIFETIME]
        self._tokens[message_id] = [*fresh[-2:], (now, interaction)]
        for stale in [
            m
            for m, tokens in self._tokens.items()
            if not tokens or now - tokens[-1][0] >= TOKEN_LIFETIME
        ]:
            del self._tokens[stale]

    async def edit_by_token(self, message_id: int, fields: dict[str, Any]) -> bool:
        """Edit through the newest token lent for ``message_id``; False when none works."""

        async def edit(interaction: discord.Interaction) -> None:
            rewind(fields)
            await interaction.edit_original_response(**fields)

        return await self.by_token(message_id, edit)

    async def by_token(
        self, message_id: int, write: Callable[[discord.Interaction], Awaitable[None]]
    ) -> bool:
        """``write`` through the newest working token lent for ``message_id``; False when
        there is none (a deleted message still raises NotFound)."""
        tokens = self._tokens.get(message_id, [])
        while tokens:
            opened, interaction = tokens[-1]
            if time.monotonic() - opened < TOKEN_LIFETIME:
                try:
                    await write(interaction)
                    return True
                except discord.HTTPException as error:
                    if error.code == UNKNOWN_MESSAGE:
                        raise
                    log.info("the token of a click on %s no longer works: %s", message_id, error)
            tokens.pop()
        return False

    def forget_follow_ups(self) -> None:
        """Drop the follow-ups whose token has expired (they are deleted as messages)."""
        now = time.monotonic()
        for stale in [m for m, (at, _) in self._follow_ups.items() if now - at >= TOKEN_LIFETIME]:
            del self._follow_ups[stale]
