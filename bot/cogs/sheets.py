"""The players' private sheets: each shows a player's sheet and their options, and moves
on by itself to their next decision of the turn while the click that opened it can
still edit it (its interaction token lasts 15 minutes)."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass

import discord

from bot.channel import story
from bot.cogs import views
from bot.cogs.answers import Editor, answer, with_text
from bot.cogs.images import board_file, sheet_file
from bot.cogs.writer import TOKEN_LIFETIME
from bot.i18n import using
from bot.i18n.words import t
from bot.records import GameRecord
from bot.render.describe import sheet_text
from bot.service.errors import ServiceError
from bot.service.hidden import in_no_channel
from bot.service.outcome import Outcome, Snapshot

log = logging.getLogger(__name__)
Names = Callable[[GameRecord], Awaitable[dict[int, str]]]


@dataclass
class OpenSheet:
    """A player's ephemeral sheet whose interaction token can still edit it."""

    interaction: discord.Interaction
    edit: Editor
    turn: int
    phase: str
    opened: float


class Sheets:
    """Shows sheets, and keeps the open ones of running games to move them on."""

    def __init__(self, names: Names) -> None:
        self.names = names
        self._open: dict[tuple[int, int], OpenSheet] = {}
        self._answering: dict[int, asyncio.Event] = {}
        """The direct messages whose click is being answered, by id."""

    async def show(
        self,
        interaction: discord.Interaction,
        outcome: Snapshot,
        header: str = "",
        editor: Editor | None = None,
        moved: bool = False,
    ) -> None:
        """The player's sheet with their options, as a new private message (``editor``
        None) or in place, with ``header`` on top. ``moved``: the answer to a move,
        which in a game's direct message shows no options: that message's decision is
        made, and the next one comes in a message of its own."""
        record, game, player = outcome.record, outcome.game, interaction.user.id
        if game is None:
            raise ServiceError("error.not_started")
        if player not in game.players:
            raise ServiceError("error.not_player")
        moves = game.legal_moves(player)
        name = interaction.user.display_name
        text = sheet_text(game, player, name)
        files = [await sheet_file(game, player, name, moves, text=text)]
        if any(m.kind == "pawn" for m in moves):
            files.append(await board_file(game, await self.names(record), moves))
        letter = interaction.guild_id is None and not in_no_channel(record)  # a direct message
        content = header if moved and letter else views.sheet_content(game, player, header)
        async with self.answering(interaction.message if letter else None):
            editor = await answer(
                interaction,
                editor,
                content=with_text(content, text),
                attachments=files,
                view=None if moved and letter else views.sheet_view(record, game, player),
            )
        if record.status == "running" and not letter and not in_no_channel(record):
            self.opened(interaction, editor, outcome)

    @asynccontextmanager
    async def answering(self, message: discord.Message | None) -> AsyncIterator[None]:
        """While a click on the direct message ``message`` is answered: its closing
        (:meth:`answered`) waits, so that it comes after the answer, not under it."""
        if message is None:
            yield
            return
        done = self._answering[message.id] = asyncio.Event()
        try:
            yield
        finally:
            done.set()
            if self._answering.get(message.id) is done:
                del self._answering[message.id]

    async def answered(self, message_id: int) -> None:
        """Wait until no click on the direct message ``message_id`` is being answered."""
        while (answering := self._answering.get(message_id)) is not None:
            await answering.wait()

    def opened(self, interaction: discord.Interaction, edit: Editor, outcome: Snapshot) -> None:
        """Remember a player's open sheet, so it can offer their next decision itself."""
        assert outcome.game is not None
        now = time.monotonic()
        for stale in [k for k, s in self._open.items() if now - s.opened > TOKEN_LIFETIME]:
            del self._open[stale]
        game = outcome.game
        self._open[(outcome.record.id, interaction.user.id)] = OpenSheet(
            interaction, edit, game.turn, game.decision().phase, now
        )

    async def move_on(self, outcome: Outcome) -> set[int]:
        """Move the open sheets of players whose new decision opened; who sees theirs."""
        game, moved = outcome.game, set()
        assert game is not None
        for player in story.deciders(game):
            sheet = self._open.get((outcome.record.id, player))
            if (
                sheet is None
                or sheet.turn != game.turn
                or time.monotonic() - sheet.opened > TOKEN_LIFETIME
            ):
                continue
            if sheet.phase == game.decision().phase:
                moved.add(player)
                continue
            try:
                with using(sheet.interaction.locale):  # the sheet's reader's language
                    await self.show(sheet.interaction, outcome, t("sheet.moved_on"), sheet.edit)
                moved.add(player)
            except discord.HTTPException as error:
                log.info(
                    "sheet of %s in game %s could not move on: %s", player, outcome.record.id, error
                )
                self._open.pop((outcome.record.id, player), None)
        return moved
