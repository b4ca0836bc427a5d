"""What happens when someone clicks or runs a command: answer at once, call the
service, then tell the player (ephemeral) and the channel (public messages).
"""

from __future__ import annotations

import asyncio
import functools
import io
import logging
from collections import defaultdict
from collections.abc import Awaitable, Callable
from typing import Any, Concatenate, ParamSpec

import discord

from bot.cogs import views
from bot.messages import t
from bot.render import render_board, render_dice, render_scoreboard, render_sheet
from bot.rules import Game, Move
from bot.service.games import GameService, Outcome, ServiceError
from bot.store import GameRecord

log = logging.getLogger(__name__)
P = ParamSpec("P")
Handler = Callable[Concatenate["Table", discord.Interaction, P], Awaitable[None]]


def answers_errors(handler: Handler[P]) -> Handler[P]:
    """Turn refusals and surprises into a polite ephemeral answer."""

    @functools.wraps(handler)
    async def wrapper(self: Table, interaction: discord.Interaction, *args: P.args,
                      **kwargs: P.kwargs) -> None:
        try:
            await handler(self, interaction, *args, **kwargs)
        except ServiceError as error:
            await self.tell(interaction, error.text())
        except Exception:
            log.exception("handling interaction %s failed", interaction.id)
            await self.tell(interaction, t("error.internal"))
    return wrapper


async def png_file(render: Callable[..., bytes], *args: Any, name: str) -> discord.File:
    """Render off the event loop: Pillow work must not stall the gateway."""
    data = await asyncio.to_thread(render, *args)
    return discord.File(io.BytesIO(data), filename=name)


class Table:
    """The game table in Discord: interaction handlers and the public messages."""

    def __init__(self, client: discord.Client, service: GameService) -> None:
        self.client = client
        self.service = service
        self._publishing: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)

    async def tell(self, interaction: discord.Interaction, text: str) -> None:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)

    async def names(self, record: GameRecord) -> dict[int, str]:
        return await self.service.names(record.guild_id, record.players)

    async def remember(self, interaction: discord.Interaction) -> None:
        if interaction.guild_id is not None:
            await self.service.remember_name(interaction.guild_id, interaction.user.id,
                                             interaction.user.display_name)

    def channel(self, record: GameRecord) -> discord.PartialMessageable:
        return self.client.get_partial_messageable(record.channel_id)

    # --- commands --------------------------------------------------------
    @answers_errors
    async def on_start(self, interaction: discord.Interaction, variant: str,
                       board: str | None = None) -> None:
        """Open the lobby before answering: a refusal must stay private, and a
        single insert is far inside Discord's 3 seconds."""
        if interaction.guild_id is None or interaction.channel_id is None:
            raise ServiceError("error.guild_only")
        record = await self.service.open_lobby(interaction.guild_id, interaction.channel_id,
                                               interaction.user.id, variant, board)
        response = await interaction.response.send_message(
            views.lobby_content(record), view=views.lobby_view(record),
            allowed_mentions=discord.AllowedMentions.none())
        await self.remember(interaction)
        if isinstance(response.resource, discord.InteractionMessage):
            await self.service.set_message(record.id, response.resource.id)

    @answers_errors
    async def on_sheet_command(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        outcome = await self.service.in_channel(interaction.channel_id or 0)
        await self.show_sheet(interaction, outcome)

    @answers_errors
    async def on_status(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        outcome = await self.service.in_channel(interaction.channel_id or 0)
        record, game = outcome.record, outcome.game
        if game is None:
            content = views.lobby_content(record)
            await interaction.edit_original_response(content=content)
            return
        scores = ", ".join(f"{views.mention(p)} {s.total}" for p, s in game.scores().items())
        content = "\n".join([views.turn_content(game), t("status.scores", scores=scores)])
        files = await self.table_images(record, game)
        await interaction.edit_original_response(content=content, attachments=files)

    @answers_errors
    async def on_abandon(self, interaction: discord.Interaction) -> None:
        member = interaction.user
        can_manage = interaction.permissions.manage_channels  # resolved for this channel
        record = await self.service.abandon(interaction.channel_id or 0, member.id, can_manage)
        title = views.VARIANTS[record.variant].title
        await interaction.response.send_message(
            t("abandon.done", name=views.mention(member.id), title=title),
            allowed_mentions=discord.AllowedMentions.none())
        await self.retire(record, t("event.game_over.abandoned"))

    # --- lobby buttons ---------------------------------------------------
    @answers_errors
    async def on_lobby(self, interaction: discord.Interaction, game_id: int, action: str) -> None:
        await interaction.response.defer()
        await self.remember(interaction)
        user = interaction.user.id
        if action == "start":
            await self.start_game(interaction, game_id, user)
            return
        change = {"join": self.service.join, "leave": self.service.leave,
                  "cancel": self.service.cancel}[action]
        record = await change(game_id, user)
        if record.status == "lobby":
            await interaction.edit_original_response(content=views.lobby_content(record),
                                                     view=views.lobby_view(record))
        else:
            content = views.lobby_closed_content(record, "lobby.cancelled", user)
            await interaction.edit_original_response(content=content, view=None)

    async def start_game(self, interaction: discord.Interaction, game_id: int,
                         user: int) -> None:
        outcome = await self.service.start(game_id, user)
        record = outcome.record
        content = views.lobby_closed_content(record, "lobby.started", user)
        await interaction.edit_original_response(content=content, view=None)
        await self.post_turn(outcome)

    # --- playing ---------------------------------------------------------
    @answers_errors
    async def on_open_sheet(self, interaction: discord.Interaction, game_id: int,
                            turn: int) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.remember(interaction)
        outcome = await self.service.get(game_id)
        self.service.check_player(outcome, interaction.user.id, turn)
        await self.show_sheet(interaction, outcome)

    async def show_sheet(self, interaction: discord.Interaction, outcome: Outcome,
                         header: str = "") -> None:
        record, game, player = outcome.record, outcome.game, interaction.user.id
        if game is None:
            raise ServiceError("error.not_started")
        if player not in game.players:
            raise ServiceError("error.not_player")
        moves = game.legal_moves(player)
        files = [await png_file(render_sheet, game, player, interaction.user.display_name, moves,
                                name="sheet.png")]
        if any(m.kind == "pawn" for m in moves):
            files += await self.table_images(record, game, moves)
        await interaction.edit_original_response(
            content=views.sheet_content(game, player, header), attachments=files,
            view=views.sheet_view(record, game, player))

    @answers_errors
    async def on_move(self, interaction: discord.Interaction, game_id: int, turn: int,
                      phase: str, move: Move) -> None:
        await interaction.response.defer()
        outcome = await self.service.act(game_id, interaction.user.id, turn, phase, move)
        header = self.after_move_text(outcome, interaction.user.id, move)
        await self.show_sheet(interaction, outcome, header)
        await self.publish(outcome)

    @answers_errors
    async def on_public_pass(self, interaction: discord.Interaction, game_id: int,
                             turn: int) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        outcome = await self.service.pass_turn(game_id, interaction.user.id, turn)
        text = self.after_move_text(outcome, interaction.user.id, Move("pass"))
        await interaction.edit_original_response(content=text)
        await self.publish(outcome)

    @staticmethod
    def after_move_text(outcome: Outcome, player: int, move: Move) -> str:
        assert outcome.game is not None
        waiting = sorted(outcome.game.decision().waiting - {player})
        if outcome.game.finished or not waiting:
            return t("sheet.done_all", what=views.you_did(move))
        return t("sheet.done", what=views.you_did(move), names=views.mentions(waiting))

    # --- public messages -------------------------------------------------
    async def publish(self, outcome: Outcome) -> None:
        """Bring the channel up to date after a move.

        What happened is told once: the events that closed a turn on that turn's
        message, those that opened action 2 in the message calling the active player.
        """
        game, before = outcome.game, outcome.before
        assert game is not None and before is not None
        async with self._publishing[outcome.record.id]:
            segments = views.turn_segments(outcome.events)
            summary = views.describe(segments[0][1])
            automatic = views.played_out(segments, game.finished)
            phase = game.decision().phase
            if game.finished or game.turn != before.turn:
                await self.edit_turn(outcome.record, views.turn_over_content(before.turn, summary))
            if game.finished:
                await self.finish(outcome, automatic)
            elif game.turn != before.turn:
                await self.post_turn(outcome, automatic)
            elif phase != before.phase and phase in views.EVERYONE_PHASES:
                await self.edit_turn(outcome.record, views.turn_so_far(game, summary))
                await self.post_turn(outcome)
            else:
                await self.refresh_turn(outcome.record.id)
                if phase != before.phase and phase in views.CALLED_PHASES:
                    await self.announce_phase(outcome, summary)

    async def post_turn(self, outcome: Outcome, preface: list[str] | None = None) -> None:
        record, game = outcome.record, outcome.game
        assert game is not None
        files = await self.table_images(record, game)
        message = await self.channel(record).send(
            views.turn_content(game, preface or []), files=files,
            view=views.turn_view(record, game),
            allowed_mentions=views.ping(game.decision().waiting))
        await self.service.set_message(record.id, message.id)

    async def table_images(self, record: GameRecord, game: Game,
                           highlight: list[Move] | None = None) -> list[discord.File]:
        """What lies on the table: the dice, and the board with its pawns (On Board)."""
        files = []
        dice: dict[str, int] = getattr(game, "dice", {})
        if dice:
            files.append(await png_file(render_dice, dice, name="dice.png"))
        if hasattr(game, "board"):
            files.append(await png_file(render_board, game, await self.names(record),
                                        highlight or [], name="board.png"))
        return files

    async def refresh_turn(self, game_id: int) -> None:
        """Show the latest decisions on the turn message (re-read: clicks race)."""
        outcome = await self.service.get(game_id)
        if outcome.game is not None and not outcome.game.finished:
            await self.edit_turn(outcome.record, views.turn_content(outcome.game),
                                 views.turn_view(outcome.record, outcome.game))

    async def announce_phase(self, outcome: Outcome, summary: list[str]) -> None:
        game = outcome.game
        assert game is not None
        text = "\n".join([*summary, *views.phase_lines(game, game.decision().phase,
                                                         views.mention(game.active))])
        await self.channel(outcome.record).send(text, allowed_mentions=views.ping([game.active]))

    async def edit_turn(self, record: GameRecord, content: str,
                        view: discord.ui.View | None = None) -> None:
        if record.message_id is None:
            return
        message = self.channel(record).get_partial_message(record.message_id)
        try:
            await message.edit(content=content, view=view,
                               allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException as error:
            log.warning("could not edit message %s of game %s: %s", record.message_id,
                        record.id, error)

    async def finish(self, outcome: Outcome, preface: list[str]) -> None:
        record, game = outcome.record, outcome.game
        assert game is not None
        board = await png_file(render_scoreboard, game, await self.names(record),
                               name="scoreboard.png")
        message = await self.channel(record).send(
            views.end_content(game, preface), file=board,
            allowed_mentions=discord.AllowedMentions.none())
        await self.service.set_message(record.id, message.id)

    async def retire(self, record: GameRecord, content: str) -> None:
        """Take the buttons off a game's public message when it ends early."""
        await self.edit_turn(record, content)

