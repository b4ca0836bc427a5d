"""Opening and starting a game: ``/qwixx start`` (in the channel or a thread of its own),
the lobby's buttons and its computers' levels, and **Rematch** under a final message.

A lobby is public, so it is written in the server's language; refusals still reach the
member in theirs."""

from __future__ import annotations

import functools

import discord

from bot.channel.cards import FORM
from bot.channel.plan import Shown
from bot.channel.texts import lobby_closed_card, lobby_closed_content
from bot.cogs import views
from bot.cogs.adapter import GameHandlers, where
from bot.cogs.answers import Handler, P, Reply, answers_errors, is_card
from bot.cogs.writer import ping
from bot.i18n import using
from bot.i18n.words import t
from bot.records.games import GameRecord
from bot.records.options import Options
from bot.rules import VARIANTS
from bot.service.errors import ServiceError


def in_server_language(handler: Handler[LobbyHandlers, P]) -> Handler[LobbyHandlers, P]:
    """For handlers that answer in public: written in the server's language; refusals
    still reach the member in theirs (see :func:`answers_errors`)."""

    async def wrapper(
        self: LobbyHandlers, interaction: discord.Interaction, /, *args: P.args, **kwargs: P.kwargs
    ) -> None:
        with using(await self.language(interaction.guild_id or 0)):
            await handler(self, interaction, *args, **kwargs)

    functools.update_wrapper(wrapper, handler)
    return wrapper


class LobbyHandlers(GameHandlers):
    """The handlers of lobbies."""

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
        seconds = await self.service.settings.turn_time(guild_id, turn_time)
        if thread:
            await self.start_in_thread(interaction, variant, board, seconds, play)
            return
        record = await self.service.lobby.open(
            guild_id, channel_id, interaction.user.id, variant, board, seconds, play
        )
        response = await interaction.response.send_message(
            **views.lobby_fields(record, as_card=True),
            allowed_mentions=discord.AllowedMentions.none(),
        )
        await self.adapter.remember(interaction)
        if isinstance(response.resource, discord.InteractionMessage):
            await self.posted(record, response.resource.id)

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
        record = await self.service.lobby.open(
            interaction.guild_id or 0, thread.id, interaction.user.id, variant, board, seconds, play
        )
        message = await thread.send(
            **views.lobby_fields(record, as_card=True),
            allowed_mentions=discord.AllowedMentions.none(),
        )
        await self.posted(record, message.id)
        await self.adapter.remember(interaction)
        with using(interaction.locale):  # only the starter sees this: their language
            opened = t("thread.opened", thread=thread.mention)
        await interaction.edit_original_response(content=opened)

    @answers_errors
    @in_server_language
    async def on_lobby(self, interaction: discord.Interaction, game_id: int, action: str) -> None:
        """Join, Leave, Add computer, Start, Cancel: the lobby's message is answered with
        the lobby as it then is (see :class:`Reply`)."""
        user, here = interaction.user.id, where(interaction)
        as_card = is_card(interaction.message)
        async with Reply(interaction) as reply:
            if action == "start":
                outcome = await self.service.lobby.start(game_id, user, where=here)
                await self.adapter.remember(interaction)
                content = lobby_closed_content(outcome.record, "lobby.started", user)
                await reply.edit(**views.lobby_message(lobby_closed_card(content), None, as_card))
                await self.adapter.changed(outcome)
                return
            lobby = self.service.lobby
            change = {
                "join": lobby.join,
                "leave": lobby.leave,
                "computer": lobby.add_computer,
                "cancel": lobby.cancel,
            }[action]
            record = await change(game_id, user, where=here)
            await self.adapter.remember(interaction)
            if record.status == "lobby":
                await reply.edit(**views.lobby_fields(record, as_card))
            else:
                content = lobby_closed_content(record, "lobby.cancelled", user)
                await reply.edit(**views.lobby_message(lobby_closed_card(content), None, as_card))
                await self.service.keeper.show(record, record.message_id, {})

    @answers_errors
    @in_server_language
    async def on_level(
        self, interaction: discord.Interaction, game_id: int, seat: int, level: str
    ) -> None:
        """The lobby's level select: the host sets a computer seat's level."""
        async with Reply(interaction) as reply:
            record = await self.service.lobby.set_level(
                game_id, interaction.user.id, seat, level, where=where(interaction)
            )
            await reply.edit(**views.lobby_fields(record, is_card(interaction.message)))

    @answers_errors
    @in_server_language
    async def on_rematch(self, interaction: discord.Interaction, game_id: int) -> None:
        """A new lobby here for the same game, its players seated again (see
        :meth:`bot.service.lobby.Lobby.rematch`), mentioning them."""
        old, record = await self.service.lobby.rematch(
            game_id, interaction.user.id, where=where(interaction)
        )
        await self.adapter.remember(interaction)
        message = await interaction.response.send_message(
            **views.rematch_fields(record, old.players),
            allowed_mentions=ping(p for p in old.players if p != interaction.user.id),
        )
        if isinstance(message.resource, discord.InteractionMessage):
            await self.posted(record, message.resource.id)

    async def posted(self, record: GameRecord, message_id: int) -> None:
        """The lobby's message, posted as a card: noted, so that the edits that do not
        answer a click on it (``/qwixx leave``, its closing) keep that form."""
        await self.service.keeper.show(record, message_id, Shown(form=FORM).to_json())
