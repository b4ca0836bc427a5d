"""LeaveHandlers a game: ``/qwixx leave`` (out of a lobby at once, a seat in a running game
after [Yes]) and ``/qwixx abandon`` (the host or a moderator ends the channel's game,
after [Yes])."""

from __future__ import annotations

import discord

from bot.channel.story import mention
from bot.cogs import views
from bot.cogs.adapter import GameHandlers
from bot.cogs.answers import answers_errors
from bot.i18n import using
from bot.i18n.words import t
from bot.rules import VARIANTS
from bot.service.errors import ServiceError


class LeaveHandlers(GameHandlers):
    """The handlers of leaving and abandoning."""

    @answers_errors
    async def on_leave(self, interaction: discord.Interaction) -> None:
        found = await self.service.keeper.in_channel(interaction.channel_id or 0)
        if found.game is not None and interaction.user.id in found.record.players:
            await self.ask(interaction, "leave")
            return
        await self.leave(interaction)

    @answers_errors
    async def on_abandon(self, interaction: discord.Interaction) -> None:
        """Refused at once to whoever may not; asks the host or a moderator first."""
        found = await self.service.keeper.in_channel(interaction.channel_id or 0)
        if (
            interaction.user.id != found.record.host_id
            and not interaction.permissions.manage_channels
        ):
            raise ServiceError("error.abandon_denied")
        await self.ask(interaction, "abandon")

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
        outcome = await self.service.turns.leave_game(
            interaction.channel_id or 0, interaction.user.id
        )
        record = outcome.record
        if outcome.game is None:  # a lobby
            await self.settle_question(interaction, t("leave.lobby"))
            if record.message_id:
                with using(await self.language(record.guild_id)):
                    fields = views.lobby_fields(record, views.posted_as_card(record))
                    await self.adapter.writer.write_over(
                        record, record.message_id, fields.get("content"), fields["view"]
                    )
            return
        await self.settle_question(interaction, t("leave.game"))
        await self.adapter.changed(outcome)

    async def abandon(self, interaction: discord.Interaction) -> None:
        member = interaction.user
        can_manage = interaction.permissions.manage_channels  # resolved for this channel
        outcome = await self.service.turns.abandon(
            interaction.channel_id or 0, member.id, can_manage
        )
        record = outcome.record
        title = VARIANTS[record.variant].title
        await self.settle_question(
            interaction, t("abandon.done", name=mention(member.id), title=title)
        )
        with using(await self.language(record.guild_id)):
            await self.say(interaction, t("abandon.done", name=mention(member.id), title=title))
        await self.adapter.changed(outcome)

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
