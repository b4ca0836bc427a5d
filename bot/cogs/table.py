"""What happens when someone clicks or runs a command: answer at once, call the
service, then tell the player (ephemeral) and the channel (public messages).
"""

from __future__ import annotations

import functools
import logging
from dataclasses import astuple, dataclass
from typing import Any

import discord

from bot.channel import story
from bot.channel.budget import WriteBudget
from bot.channel.publisher import Editor, Publisher, ping, png_file
from bot.channel.story import mention, mentions
from bot.channel.texts import lobby_closed_content, message_link
from bot.cogs import views
from bot.cogs.answers import Handler, P, PrivateAnswers, answers_errors
from bot.cogs.daily import DailyTable
from bot.cogs.language import language_setting
from bot.i18n import using
from bot.i18n.words import calendar_day, t
from bot.render import render_sheet, render_table
from bot.render.describe import board_alt, sheet_alt, sheet_text, table_alt, table_text
from bot.rules import VARIANTS, Move
from bot.service.daily import DailyService, is_daily
from bot.service.games import GameService, Outcome, ServiceError
from bot.service.play import Options
from bot.service.timing import format_duration

log = logging.getLogger(__name__)
MESSAGE_LIMIT = 2000  # Discord's limit for a message's content


def in_server_language(handler: Handler[Table, P]) -> Handler[Table, P]:
    """For handlers that answer in public (lobbies): written in the server's language;
    refusals still reach the member in theirs (see :func:`answers_errors`)."""

    async def wrapper(
        self: Table, interaction: discord.Interaction, /, *args: P.args, **kwargs: P.kwargs
    ) -> None:
        with using(await self.publisher.language(interaction.guild_id or 0)):
            await handler(self, interaction, *args, **kwargs)

    functools.update_wrapper(wrapper, handler)
    return wrapper


@dataclass(frozen=True)
class Settings:
    """``/qwixx settings``' options as given (None: not given)."""

    turn_time: str | None = None
    language: str | None = None
    daily_channel: int | None = None
    daily_hour: int | None = None
    timezone: str | None = None

    @property
    def any(self) -> bool:
        return any(value is not None for value in astuple(self))


class Table(PrivateAnswers):
    """The game table in Discord: interaction handlers and the public messages."""

    def __init__(
        self,
        client: discord.Client,
        service: GameService,
        settle: float = 30.0,
        budget: WriteBudget | None = None,
    ) -> None:
        self.client = client
        self.service = service
        self.publisher = Publisher(
            client,
            service,
            turn_view=views.turn_view,
            end_view=views.end_view,
            refresh_sheet=self.show_sheet,
            settle=settle,
            budget=budget,
        )
        self.daily = DailyTable(
            client, DailyService(service), self.show_sheet, self.language, self.publisher.budget
        )
        """``/qwixx daily``: its games' clicks come here like any other's, and go there."""

    async def language(self, guild_id: int) -> str:
        """The server's language, for what the channel shows."""
        return await self.publisher.language(guild_id)

    def lend(self, interaction: discord.Interaction) -> None:
        """A click on the public turn message, acknowledged with a deferred update and
        answered privately: the publisher may edit that message with its token for 15
        minutes instead of writing to the channel. Lent once answered, so the answer
        is the first thing the token does."""
        if interaction.message is not None:
            self.publisher.lend(interaction.message.id, interaction)

    async def game_here(self, interaction: discord.Interaction, game_id: int) -> Outcome:
        """The game a button names, if it is played where the button was clicked: an id
        copied into another server or channel is refused."""
        outcome = await self.service.get(game_id)
        record = outcome.record
        if is_daily(record):  # in no channel: its player's, wherever they opened it
            if interaction.user.id not in record.players:
                raise ServiceError("error.daily_not_yours")
            if record.status == "running":
                self.daily.service.check_open(record)
            return outcome
        if (record.guild_id, record.channel_id) != (interaction.guild_id, interaction.channel_id):
            raise ServiceError("error.other_channel")
        return outcome

    async def remember(self, interaction: discord.Interaction) -> None:
        if interaction.guild_id is not None:
            await self.service.remember_name(
                interaction.guild_id, interaction.user.id, interaction.user.display_name
            )

    # --- commands --------------------------------------------------------
    @answers_errors
    @in_server_language
    async def on_start(
        self,
        interaction: discord.Interaction,
        variant: str,
        board: str | None = None,
        turn_time: str | None = None,
        thread: bool = False,
        play: Options | None = None,
    ) -> None:
        """Open the lobby before answering: a refusal must stay private, and a
        single insert is far inside Discord's 3 seconds."""
        guild_id, channel_id = interaction.guild_id, interaction.channel_id
        if guild_id is None or channel_id is None:
            raise ServiceError("error.guild_only")
        allowed = interaction.app_permissions
        if not (allowed.send_messages and allowed.attach_files and allowed.view_channel):
            raise ServiceError("error.cannot_post")
        seconds = await self.service.turn_time(guild_id, turn_time)
        if thread:
            await self.start_in_thread(interaction, variant, board, seconds, play)
            return
        record = await self.service.open_lobby(
            guild_id, channel_id, interaction.user.id, variant, board, seconds, play
        )
        response = await interaction.response.send_message(
            views.lobby_content(record),
            view=views.lobby_view(record),
            allowed_mentions=discord.AllowedMentions.none(),
        )
        await self.remember(interaction)
        if isinstance(response.resource, discord.InteractionMessage):
            await self.service.set_message(record.id, response.resource.id)

    async def start_in_thread(
        self,
        interaction: discord.Interaction,
        variant: str,
        board: str | None,
        seconds: int,
        play: Options | None = None,
    ) -> None:
        """A long game gets its own public thread, so it does not flood the channel."""
        channel = interaction.channel
        allowed = interaction.app_permissions
        if not isinstance(channel, discord.TextChannel):
            raise ServiceError("error.thread_here")
        if not (allowed.create_public_threads and allowed.send_messages_in_threads):
            raise ServiceError("error.thread_permission")
        await interaction.response.defer(ephemeral=True, thinking=True)
        title = VARIANTS[variant].title
        thread = await channel.create_thread(
            name=t("thread.name", title=title, host=interaction.user.display_name)[:100],
            type=discord.ChannelType.public_thread,
            auto_archive_duration=10080,
        )
        record = await self.service.open_lobby(
            interaction.guild_id or 0, thread.id, interaction.user.id, variant, board, seconds, play
        )
        message = await thread.send(
            views.lobby_content(record),
            view=views.lobby_view(record),
            allowed_mentions=discord.AllowedMentions.none(),
        )
        await self.service.set_message(record.id, message.id)
        await self.remember(interaction)
        with using(interaction.locale):  # only the starter sees this: their language
            opened = t("thread.opened", thread=thread.mention)
        await interaction.edit_original_response(content=opened)

    @answers_errors
    async def on_leave(self, interaction: discord.Interaction) -> None:
        """Out of a lobby at once; a seat in a running game only after [Yes]."""
        found = await self.service.in_channel(interaction.channel_id or 0)
        if found.game is not None and interaction.user.id in found.record.players:
            await self.ask(interaction, "leave")
            return
        await self.leave(interaction)

    async def ask(self, interaction: discord.Interaction, what: str) -> None:
        await interaction.response.send_message(
            t(f"confirm.{what}"), view=views.ask_view(what), ephemeral=True
        )

    @answers_errors
    async def on_answer(self, interaction: discord.Interaction, what: str, yes: bool) -> None:
        """[Yes] or [Back] under the question of ``/qwixx leave`` or ``abandon``."""
        if not yes:
            await interaction.response.edit_message(content=t("confirm.kept"), view=None)
            return
        await {"leave": self.leave, "abandon": self.abandon}[what](interaction)

    async def leave(self, interaction: discord.Interaction) -> None:
        """Applies ``/qwixx leave`` (or its [Yes]). The leaver hears it privately; the
        channel hears it once, in the turn's story."""
        outcome = await self.service.leave_game(interaction.channel_id or 0, interaction.user.id)
        record = outcome.record
        if outcome.game is None:  # a lobby
            await self.settle_question(interaction, t("leave.lobby"))
            if record.message_id:
                with using(await self.publisher.language(record.guild_id)):
                    await self.publisher.edit(
                        record,
                        record.message_id,
                        views.lobby_content(record),
                        views.lobby_view(record),
                    )
            return
        await self.settle_question(interaction, t("leave.game"))
        await self.publisher.publish(outcome)

    async def settle_question(self, interaction: discord.Interaction, text: str) -> None:
        """The answer, in place of the question when a [Yes] was clicked (so it no longer
        asks what is done), else as a private reply."""
        if interaction.type == discord.InteractionType.component:
            await interaction.response.edit_message(content=text, view=None)
        else:
            await self.tell(interaction, text)

    @staticmethod
    async def say(interaction: discord.Interaction, text: str) -> None:
        """``text`` in the channel, as the answer to a command or a [Yes]."""
        quiet = discord.AllowedMentions.none()
        if interaction.response.is_done():
            await interaction.followup.send(text, allowed_mentions=quiet)
        else:
            await interaction.response.send_message(text, allowed_mentions=quiet)

    @answers_errors
    async def on_my_games(self, interaction: discord.Interaction) -> None:
        if interaction.guild_id is None:
            raise ServiceError("error.guild_only")
        await interaction.response.defer(ephemeral=True, thinking=True)
        waiting = await self.service.waiting_for(interaction.guild_id, interaction.user.id)
        lines = [
            t(
                "daily.mygames",
                title=o.game.title,
                day=calendar_day(o.record.options["daily"]),
                turn=o.game.turn,
                variant=o.record.variant,
            )
            if is_daily(o.record)
            else t(
                "mygames.line",
                title=o.game.title,
                channel=f"<#{o.record.channel_id}>",
                turn=o.game.turn,
                deadline=int(o.record.deadline or 0),
                link=message_link(o.record),
            )
            for o in waiting
            if o.game is not None
        ]
        text = "\n".join([t("mygames.title"), *lines]) if lines else t("mygames.none")
        await interaction.edit_original_response(content=text)

    @answers_errors
    async def on_settings(self, interaction: discord.Interaction, given: Settings) -> None:
        """Every setting as it stands, or (Manage Server) those given, changed: one
        answer. Each given value is checked before any is saved."""
        guild_id = interaction.guild_id
        if guild_id is None:
            raise ServiceError("error.guild_only")
        if given.any and not interaction.permissions.manage_guild:
            raise ServiceError("error.settings_denied")
        self.daily.service.check_settings(given.daily_hour, given.timezone)
        lines = []
        if given.turn_time is not None:
            seconds = await self.service.set_turn_time(guild_id, given.turn_time)
            lines.append(t("settings.saved", turn_time=format_duration(seconds)))
        elif not given.any:
            current = await self.service.turn_time(guild_id, None)
            lines.append(t("settings.current", turn_time=format_duration(current)))
        if given.language is not None or not given.any:
            lines.append(
                await language_setting(self.service, interaction, guild_id, given.language)
            )
        daily = (given.daily_channel, given.daily_hour, given.timezone)
        if daily != (None, None, None) or not given.any:
            lines.append(await self.daily.settings_text(guild_id, *daily))
        await self.tell(interaction, "\n".join(lines))

    @answers_errors
    async def on_sheet_command(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        outcome = await self.service.in_channel(interaction.channel_id or 0)
        if outcome.record.status == "running":
            outcome = await self.returning(outcome, interaction.user.id)
        await self.show_sheet(interaction, outcome, editor=interaction.edit_original_response)

    @answers_errors
    async def on_status(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        outcome = await self.service.in_channel(interaction.channel_id or 0)
        record, game = outcome.record, outcome.game
        if game is None:
            content = views.lobby_content(record)
            await interaction.edit_original_response(content=content)
            return
        told = await self.service.events(record.id, game.turn)
        content = story.live_turn(game, told, record.deadline)
        files = await self.publisher.dice_files(game)
        await interaction.edit_original_response(content=content, attachments=files)

    @answers_errors
    async def on_table_command(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        found = await self.service.in_channel(interaction.channel_id or 0)
        await self.show_table(interaction, found, interaction.edit_original_response)

    @answers_errors
    async def on_table(self, interaction: discord.Interaction, game_id: int, turn: int) -> None:
        """Everyone's sheet, for anyone who asks (spectators too), as the game is now."""
        await interaction.response.defer()  # a deferred update: see lend()
        await self.show_table(interaction, await self.game_here(interaction, game_id), None)
        self.lend(interaction)

    async def show_table(
        self, interaction: discord.Interaction, outcome: Outcome, editor: Editor | None
    ) -> None:
        record, game = outcome.record, outcome.game
        if game is None:
            raise ServiceError("error.not_started")
        names = await self.publisher.names(record)
        latest = views.latest_cells(await self.service.events(record.id, game.turn))
        image = await png_file(
            render_table, game, names, latest, name="table.png", description=table_alt(game, names)
        )
        content = t(
            "table.content", title=game.title, turn=game.turn, summary=table_text(game, names)
        )
        await answer(interaction, editor, content=content[:MESSAGE_LIMIT], attachments=[image])

    @answers_errors
    async def on_abandon(self, interaction: discord.Interaction) -> None:
        """Refused at once to whoever may not; asks the host or a moderator first."""
        found = await self.service.in_channel(interaction.channel_id or 0)
        if (
            interaction.user.id != found.record.host_id
            and not interaction.permissions.manage_channels
        ):
            raise ServiceError("error.abandon_denied")
        await self.ask(interaction, "abandon")

    async def abandon(self, interaction: discord.Interaction) -> None:
        member = interaction.user
        can_manage = interaction.permissions.manage_channels  # resolved for this channel
        record = await self.service.abandon(interaction.channel_id or 0, member.id, can_manage)
        title = VARIANTS[record.variant].title
        await self.settle_question(
            interaction, t("abandon.done", name=mention(member.id), title=title)
        )
        with using(await self.publisher.language(record.guild_id)):
            await self.say(interaction, t("abandon.done", name=mention(member.id), title=title))
        await self.publisher.publish(Outcome(record, None))

    # --- the final message -------------------------------------------------
    @answers_errors
    @in_server_language
    async def on_rematch(self, interaction: discord.Interaction, game_id: int) -> None:
        """A new lobby here for the same game, its players seated again (see
        :meth:`GameService.rematch`), mentioning them."""
        old = (await self.game_here(interaction, game_id)).record
        record = await self.service.rematch(game_id, interaction.user.id)
        await self.remember(interaction)
        message = await interaction.response.send_message(
            views.rematch_content(record, old.players),
            view=views.lobby_view(record),
            allowed_mentions=ping(p for p in old.players if p != interaction.user.id),
        )
        if isinstance(message.resource, discord.InteractionMessage):
            await self.service.set_message(record.id, message.resource.id)

    # --- lobby buttons ---------------------------------------------------
    @answers_errors
    @in_server_language
    async def on_lobby(self, interaction: discord.Interaction, game_id: int, action: str) -> None:
        await interaction.response.defer()
        await self.game_here(interaction, game_id)
        await self.remember(interaction)
        user = interaction.user.id
        if action == "start":
            await self.start_game(interaction, game_id, user)
            return
        change = {
            "join": self.service.join,
            "leave": self.service.leave,
            "computer": self.service.add_computer,
            "cancel": self.service.cancel,
        }[action]
        record = await change(game_id, user)
        if record.status == "lobby":
            await interaction.edit_original_response(
                content=views.lobby_content(record), view=views.lobby_view(record)
            )
        else:
            content = lobby_closed_content(record, "lobby.cancelled", user)
            await interaction.edit_original_response(content=content, view=None)
            await self.service.set_shown(record.id, record.version, record.message_id, {})

    @answers_errors
    @in_server_language
    async def on_level(
        self, interaction: discord.Interaction, game_id: int, seat: int, level: str
    ) -> None:
        """The lobby's level select: the host sets a computer seat's level."""
        await interaction.response.defer()
        await self.game_here(interaction, game_id)
        record = await self.service.set_level(game_id, interaction.user.id, seat, level)
        await interaction.edit_original_response(
            content=views.lobby_content(record), view=views.lobby_view(record)
        )

    async def start_game(self, interaction: discord.Interaction, game_id: int, user: int) -> None:
        outcome = await self.service.start(game_id, user)
        record = outcome.record
        content = lobby_closed_content(record, "lobby.started", user)
        await interaction.edit_original_response(content=content, view=None)
        await self.publisher.publish(outcome)

    # --- playing ---------------------------------------------------------
    @answers_errors
    async def on_open_sheet(
        self, interaction: discord.Interaction, game_id: int, turn: int
    ) -> None:
        await interaction.response.defer()  # a deferred update: see lend()
        await self.remember(interaction)
        outcome = await self.game_here(interaction, game_id)
        self.service.check_player(outcome, interaction.user.id, turn)
        await self.show_sheet(interaction, await self.returning(outcome, interaction.user.id))
        self.lend(interaction)

    async def returning(self, outcome: Outcome, player: int) -> Outcome:
        """A player whose seat a computer plays is back when they open their sheet; the
        channel hears of it."""
        back = await self.service.come_back(outcome.record.id, player)
        if back is None:
            return outcome
        await self.publisher.publish(back)
        return back

    @answers_errors
    async def on_hint(self, interaction: discord.Interaction, game_id: int, turn: int) -> None:
        """**Hint** on a sheet: what ``hard`` would do now and why, for this player only."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.game_here(interaction, game_id)
        game, hint = await self.service.hint(game_id, interaction.user.id, turn)
        await interaction.edit_original_response(
            content=views.hint_content(game, interaction.user.id, hint)
        )

    async def show_sheet(
        self,
        interaction: discord.Interaction,
        outcome: Outcome,
        header: str = "",
        editor: Editor | None = None,
    ) -> None:
        """The player's sheet with their options, as a new private message (``editor``
        None) or in place; it moves on by itself to their next decision of the turn
        while the interaction lasts."""
        record, game, player = outcome.record, outcome.game, interaction.user.id
        if game is None:
            raise ServiceError("error.not_started")
        if player not in game.players:
            raise ServiceError("error.not_player")
        moves = game.legal_moves(player)
        name = interaction.user.display_name
        files = [
            await png_file(
                render_sheet,
                game,
                player,
                name,
                moves,
                name="sheet.png",
                description=sheet_alt(game, player, name),
            )
        ]
        if any(m.kind == "pawn" for m in moves):
            board = await self.publisher.board_file(record, game, moves)
            board.description = board_alt(game, await self.publisher.names(record))
            files.append(board)
        editor = await answer(
            interaction,
            editor,
            content=with_text(
                views.sheet_content(game, player, header), sheet_text(game, player, name)
            ),
            attachments=files,
            view=views.sheet_view(record, game, player),
        )
        if record.status == "running" and not is_daily(record):
            self.publisher.sheet_opened(record.id, player, interaction, editor, game)

    @answers_errors
    async def on_board(self, interaction: discord.Interaction, game_id: int, turn: int) -> None:
        """On Board: the track with every pawn, for anyone who asks (spectators too)."""
        await interaction.response.defer()  # a deferred update: see lend()
        outcome = await self.game_here(interaction, game_id)
        record, game = outcome.record, outcome.game
        if game is None or not game.has_board:
            raise ServiceError("error.not_started")
        board = await self.publisher.board_file(record, game)
        board.description = board_alt(game, await self.publisher.names(record))
        await answer(
            interaction, None, content=t("board.content", turn=game.turn), attachments=[board]
        )
        self.lend(interaction)

    @answers_errors
    async def on_move(
        self,
        interaction: discord.Interaction,
        game_id: int,
        turn: int,
        phase: str,
        move: Move,
        confirmed: bool = False,
    ) -> None:
        """A move; one that skips many numbers asks first, on the same message."""
        await interaction.response.defer()
        current = await self.game_here(interaction, game_id)
        if (
            confirmed
            and current.game is not None
            and current.game.chosen_move(interaction.user.id) == move
        ):
            await self.show_sheet(
                interaction,
                current,  # a second [Yes]: chosen already
                editor=interaction.edit_original_response,
            )
            return
        if not confirmed and await self.asked(interaction, current, turn, phase, move):
            return
        outcome = await self.service.act(game_id, interaction.user.id, turn, phase, move)
        if is_daily(outcome.record):
            said = self.after_move_text(outcome, interaction.user.id, move)
            await self.daily.moved(interaction, outcome, said)
            return
        try:
            header = self.after_move_text(outcome, interaction.user.id, move)
            await self.show_sheet(
                interaction, outcome, header, editor=interaction.edit_original_response
            )
        finally:  # the move is stored: the channel must hear of it, whatever happens here
            await self.publisher.publish(outcome)

    async def asked(
        self, interaction: discord.Interaction, outcome: Outcome, turn: int, phase: str, move: Move
    ) -> bool:
        """Whether ``move`` is a costly legal move, now put as a question (nothing applied)."""
        game, player = outcome.game, interaction.user.id
        if (
            game is None
            or outcome.record.status != "running"
            or game.turn != turn
            or game.decision().phase != phase
            or move not in game.legal_moves(player)
            or not views.costly(game, player, move)
        ):
            return False
        await interaction.edit_original_response(
            content=views.confirm_content(game, player, move),
            attachments=[],
            view=views.confirm_view(outcome.record, game, move),
        )
        return True

    @answers_errors
    async def on_back(self, interaction: discord.Interaction, game_id: int, turn: int) -> None:
        """[Back] under a question: the sheet again, nothing changed."""
        await interaction.response.defer()
        await self.show_sheet(
            interaction,
            await self.game_here(interaction, game_id),
            editor=interaction.edit_original_response,
        )

    @answers_errors
    async def on_public_pass(
        self, interaction: discord.Interaction, game_id: int, turn: int, phase: str | None = None
    ) -> None:
        await interaction.response.defer()  # a deferred update: see lend()
        await self.game_here(interaction, game_id)
        outcome = await self.service.pass_turn(game_id, interaction.user.id, turn, phase)
        try:
            text = self.after_move_text(outcome, interaction.user.id, Move("pass"))
            await answer(interaction, None, content=text)
            self.lend(interaction)
        finally:  # the move is stored: the channel must hear of it, whatever happens here
            await self.publisher.publish(outcome)

    @staticmethod
    def after_move_text(outcome: Outcome, player: int, move: Move) -> str:
        assert outcome.game is not None
        waiting = sorted(outcome.game.decision().waiting - {player})
        if outcome.game.finished or not waiting:
            return t("sheet.done_all", what=views.you_did(move))
        return t("sheet.done", what=views.you_did(move), names=mentions(waiting))


async def answer(interaction: discord.Interaction, editor: Editor | None, **fields: Any) -> Editor:
    """Show a private answer: in place through ``editor``, or (None) as a new ephemeral
    follow-up; what edits that answer later."""
    if editor is not None:
        await editor(**fields)
        return editor
    files = fields.pop("attachments", [])
    sent = await interaction.followup.send(
        ephemeral=True, wait=True, files=files, **{k: v for k, v in fields.items() if v is not None}
    )
    return sent.edit


def with_text(content: str, text: str) -> str:
    """``content`` followed by a sheet's text version, cut to fit one message."""
    room = MESSAGE_LIMIT - len(content) - 1
    if room < 20:
        return content[:MESSAGE_LIMIT]
    return f"{content}\n{text if len(text) <= room else text[: room - 1] + '…'}"
