"""The players' private sheets: each shows a player's sheet and their options, and moves
on by itself to their next decision of the turn while the click that opened it can
still edit it (its interaction token lasts 15 minutes)."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Collection, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass, replace
from typing import Any

import discord

from bot.channel import story
from bot.channel.cards import Card
from bot.cogs.answers import CARD_LIMIT, Editor, answer, as_card, fit_text, with_text, writes_card
from bot.cogs.images import board_file, sheet_file
from bot.cogs.pages import Page, page, short_label
from bot.cogs.writer import TOKEN_LIFETIME
from bot.i18n import using
from bot.i18n.words import t
from bot.records.games import GameRecord
from bot.render.describe import sheet_text
from bot.rules import Move
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
        mode: str = "",
        moved: bool = False,
    ) -> None:
        """The player's sheet with their options, as a new private message (``editor``
        None) or in place, with ``header`` on top; ``mode``: which page of it (see
        :func:`~bot.cogs.pages.page`). ``moved``: the answer to a move, which in a game's
        direct message shows no options but those of a choice ahead: that message's
        decision is made, and the next one comes in a message of its own."""
        record, game, player = outcome.record, outcome.game, interaction.user.id
        if game is None:
            raise ServiceError("error.not_started")
        if player not in game.players:
            raise ServiceError("error.not_player")
        shown = page(record, game, player, header, mode)
        letter = interaction.guild_id is None and not in_no_channel(record)  # a direct message
        if moved and letter and not shown.ahead:
            shown = replace(shown, content=header, view=None)
        files, text = [], ""
        if shown.drawn is not None:
            drawn, marked = shown.drawn, list(shown.marked)
            name = interaction.user.display_name
            text = sheet_text(drawn, player, name)
            files.append(await sheet_file(drawn, player, name, marked, text=text))
            if any(m.kind == "pawn" for m in marked):
                files.append(await board_file(drawn, await self.names(record), marked))
        seat = game.players.index(player) if writes_card(interaction, editor) else None
        fields = sheet_answer(shown, text, files, seat)
        async with self.answering(interaction.message if letter else None):
            editor = await answer(interaction, editor, **fields)
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
            sheet = self.still_open(outcome, player)
            if sheet is None or sheet.turn != game.turn:
                continue
            if sheet.phase == game.decision().phase or await self.again(
                sheet, outcome, player, moved_on(outcome, player)
            ):
                moved.add(player)
        return moved

    async def told_ahead(self, outcome: Outcome, seen: Collection[int] = ()) -> None:
        """The open sheets of players whose choices made ahead met their moment (made,
        passed, asked, or never needed) say so, and show what waits for them now."""
        told = {e.player for e in outcome.events if e.kind == "ahead" and e.player is not None}
        for player in sorted(told - set(seen)):
            sheet = self.still_open(outcome, player)
            if sheet is not None:
                await self.again(sheet, outcome, player, moved_on(outcome, player))

    def still_open(self, outcome: Snapshot, player: int) -> OpenSheet | None:
        """``player``'s open sheet of the game, while its token can edit it."""
        sheet = self._open.get((outcome.record.id, player))
        if sheet is None or time.monotonic() - sheet.opened > TOKEN_LIFETIME:
            return None
        return sheet

    async def again(self, sheet: OpenSheet, outcome: Outcome, player: int, header: str) -> bool:
        """Show ``player``'s open sheet anew, ``header`` on top; whether it could be."""
        try:
            with using(sheet.interaction.locale):  # the sheet's reader's language
                await self.show(sheet.interaction, outcome, header, sheet.edit)
            return True
        except discord.HTTPException as error:
            log.info(
                "sheet of %s in game %s could not move on: %s", player, outcome.record.id, error
            )
            self._open.pop((outcome.record.id, player), None)
            return False


def sheet_answer(
    shown: Page, text: str, files: list[discord.File], seat: int | None
) -> dict[str, Any]:
    """A sheet's answer: ``shown``'s sentences, then the sheet in words (``text``), its
    images (``files``) and its choices; as a card in ``seat``'s colour (None: as text,
    the form of a sheet posted before cards). The card has two text displays at most,
    so that the most choices a message holds fit Discord's 40 components with it."""
    if seat is None:
        content = with_text(shown.content, text) if text else shown.content
        return {"content": content, "attachments": files, "view": shown.view}
    blocks = tuple(part for part in fit_text(shown.content, text, CARD_LIMIT) if part)
    laid_out = Card(blocks, seat, len(blocks) - 1)
    return as_card({"attachments": files, "view": shown.view}, laid_out)


def moved_on(outcome: Outcome, player: int) -> str:
    """What a sheet that moved on by itself says first: what became of the choices
    ``player`` made ahead, if any met their moment, else that the action is done."""
    return "\n".join(ahead_news(outcome, player)) or t("sheet.moved_on")


def ahead_news(outcome: Outcome, player: int) -> list[str]:
    """What became of the choices ``player`` made ahead that met their moment in
    ``outcome``, a line each."""
    return [ahead_told(e.data) for e in outcome.events if e.kind == "ahead" and e.player == player]


def ahead_told(data: Mapping[str, Any]) -> str:
    """A choice made ahead whose moment came (an ``ahead`` event's data), in words."""
    move = short_label(Move.from_json(data["move"])) if data.get("move") else ""
    if data.get("applied"):
        return t("ahead.made", move=move)
    return t(f"ahead.then.{data.get('then', 'none')}", move=move)
