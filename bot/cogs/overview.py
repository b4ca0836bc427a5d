"""The game at a glance, for anyone who asks (spectators too): ``/qwixx status``, the
**Table** (everyone's sheet, as ``/qwixx table`` too) and On Board's **Board**."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import discord

from bot.channel import story
from bot.channel.cards import card
from bot.channel.dice import showing
from bot.cogs import views
from bot.cogs.adapter import GameHandlers
from bot.cogs.answers import (
    CARD_LIMIT,
    MESSAGE_LIMIT,
    Editor,
    answer,
    answers_errors,
    as_card,
    writes_card,
)
from bot.cogs.images import board_file, dice_files, table_file
from bot.i18n.words import t
from bot.render.describe import table_text
from bot.rules import Game
from bot.service.errors import ServiceError
from bot.service.outcome import Snapshot


class OverviewHandlers(GameHandlers):
    """The handlers that show a game as it stands."""

    @answers_errors
    async def on_status(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        outcome = await self.service.keeper.in_channel(interaction.channel_id or 0)
        record, game = outcome.record, outcome.game
        if game is None:
            content = views.lobby_content(record)
            await interaction.edit_original_response(content=content)
            return
        told = await self.service.keeper.events(record.id, game.turn)
        with showing(self.adapter.publisher.faces()):
            content = story.live_turn(game, told, record.deadline, opened=record.stage_started)
        files = await dice_files(game)
        await interaction.edit_original_response(content=content, attachments=files)

    @answers_errors
    async def on_table_command(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        found = await self.service.keeper.in_channel(interaction.channel_id or 0)
        await self.show_table(interaction, found, interaction.edit_original_response)

    @answers_errors
    async def on_table(self, interaction: discord.Interaction, game_id: int, turn: int) -> None:
        """Everyone's sheet, as the game is now."""
        await interaction.response.defer()  # a deferred update: see Adapter.lend
        await self.show_table(interaction, await self.adapter.here(interaction, game_id), None)
        self.adapter.lend(interaction)

    async def show_table(
        self, interaction: discord.Interaction, outcome: Snapshot, editor: Editor | None
    ) -> None:
        record, game = outcome.record, outcome.game
        if game is None:
            raise ServiceError("error.not_started")
        names = await self.service.names.of(record.guild_id, record.players)
        # Qwinto's numbers are written at a turn's very end: the last turn's are ringed.
        qwinto = game.variant == "qwinto"
        since = game.turn - 1 if qwinto else game.turn
        latest = views.latest_cells(await self.service.keeper.events(record.id, since))
        image = await table_file(game, names, latest)
        fields = table_answer(game, names, image, writes_card(interaction, editor))
        await answer(interaction, editor, **fields)

    @answers_errors
    async def on_board(self, interaction: discord.Interaction, game_id: int, turn: int) -> None:
        """On Board: the track with every pawn."""
        await interaction.response.defer()  # a deferred update: see Adapter.lend
        outcome = await self.adapter.here(interaction, game_id)
        record, game = outcome.record, outcome.game
        if game is None or not game.has_board:
            raise ServiceError("error.not_started")
        board = await board_file(game, await self.service.names.of(record.guild_id, record.players))
        await answer(
            interaction, None, content=t("board.content", turn=game.turn), attachments=[board]
        )
        self.adapter.lend(interaction)


def table_answer(
    game: Game, names: Mapping[int, str], image: discord.File, carded: bool
) -> dict[str, Any]:
    """The table view's answer: its title, everyone's sheets (``image``) and the summary
    in words; as a card (its image under its title), else as text."""
    summary = table_text(game, names)
    content = t(
        "table.content_qwinto" if game.variant == "qwinto" else "table.content",
        title=game.title,
        turn=game.turn,
        summary=summary,
    )
    if not carded:
        return {"content": content[:MESSAGE_LIMIT], "attachments": [image]}
    laid_out = card(content[:CARD_LIMIT], tail=len(summary.splitlines()))
    return as_card({"attachments": [image]}, laid_out)
