"""Playing a turn: **Open my sheet** and ``/qwixx sheet``, a move on the sheet (a costly
one asked about first), **Back**, the public **Pass**, **Hint**, and ``/qwixx mygames``.

A click on the public turn message is answered privately after a deferred update, and
lends its token to the channel (:meth:`bot.cogs.adapter.Adapter.lend`)."""

from __future__ import annotations

import discord

from bot.channel.story import mentions
from bot.cogs import views
from bot.cogs.adapter import Adapter, GameHandlers, where
from bot.cogs.answers import Reply, answer, answers_errors
from bot.cogs.hidden import HiddenGames
from bot.cogs.inbox import inbox_content
from bot.cogs.sheets import ahead_news
from bot.i18n.words import t
from bot.records.plans import Step
from bot.rules import PASS, Move
from bot.service.daily import is_daily
from bot.service.hidden import in_no_channel
from bot.service.outcome import Outcome, Snapshot


class TurnHandlers(GameHandlers):
    """The handlers of a player's turn."""

    def __init__(self, adapter: Adapter, hidden: HiddenGames) -> None:
        super().__init__(adapter)
        self.hidden = hidden
        """A daily attempt's and a practice game's moves are answered there, not in a
        channel."""

    @answers_errors
    async def on_open_sheet(
        self, interaction: discord.Interaction, game_id: int, turn: int
    ) -> None:
        await interaction.response.defer()  # a deferred update: see Adapter.lend
        await self.adapter.remember(interaction)
        user = interaction.user.id
        outcome = await self.service.turns.open_sheet(game_id, user, turn, where=where(interaction))
        if outcome.changed:  # back from away: the channel hears of it
            await self.adapter.changed(outcome)
        await self.adapter.sheets.show(interaction, outcome)
        self.adapter.lend(interaction)

    @answers_errors
    async def on_sheet_command(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        outcome = await self.service.keeper.in_channel(interaction.channel_id or 0)
        if outcome.record.status == "running":
            outcome = await self.returning(outcome, interaction.user.id)
        await self.adapter.sheets.show(
            interaction, outcome, editor=interaction.edit_original_response
        )

    async def returning(self, outcome: Snapshot, player: int) -> Snapshot:
        """A player whose seat a computer plays is back when they open their sheet; the
        channel hears of it."""
        back = await self.service.turns.come_back(outcome.record.id, player)
        if back is None:
            return outcome
        await self.adapter.changed(back)
        return back

    @answers_errors
    async def on_hint(self, interaction: discord.Interaction, game_id: int, turn: int) -> None:
        """**Hint** on a sheet: what ``hard`` would do now and why, for this player only."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        game, hint = await self.service.turns.hint(
            game_id, interaction.user.id, turn, where=where(interaction)
        )
        await interaction.edit_original_response(
            content=views.hint_content(game, interaction.user.id, hint)
        )

    @answers_errors
    async def on_move(
        self,
        interaction: discord.Interaction,
        game_id: int,
        turn: int,
        phase: str,
        move: Move,
        confirmed: bool = False,
        ahead: tuple[Step, ...] = (),
    ) -> None:
        """A move; one that skips many numbers asks first, on the same message, which
        is answered with the sheet after the move (see :class:`Reply`). ``ahead``: what
        the player decides with it (Qwinto's re-throw rule with the throw)."""
        user = interaction.user.id
        async with Reply(interaction) as reply:
            outcome = await self.service.turns.move(
                game_id,
                user,
                turn,
                phase,
                move,
                where=where(interaction),
                confirmed=confirmed,
                costly=views.costly,
                ahead=ahead,
            )
            if outcome.kind == "chosen":  # a second [Yes]: chosen already
                await self.adapter.sheets.show(interaction, outcome, editor=reply.edit)
                return
            if outcome.kind == "asked":
                assert outcome.game is not None
                await reply.edit(
                    content=views.confirm_content(outcome.game, user, move),
                    attachments=[],
                    view=views.confirm_view(outcome.record, outcome.game, move),
                )
                return
            if in_no_channel(outcome.record):
                said = self.after_move_text(outcome, user, move)
                await self.hidden.moved(interaction, outcome, said, reply.edit)
                return
            try:
                said = self.after_move_text(outcome, user, move)
                await self.adapter.sheets.show(
                    interaction, outcome, said, editor=reply.edit, moved=True
                )
            finally:  # the move is stored: the channel must hear of it, whatever happens here
                await self.adapter.changed(outcome)

    @answers_errors
    async def on_back(self, interaction: discord.Interaction, game_id: int, turn: int) -> None:
        """[Back] under a question: the sheet again, nothing changed."""
        async with Reply(interaction) as reply:
            current = await self.adapter.here(interaction, game_id)
            await self.adapter.sheets.show(interaction, current, editor=reply.edit)

    @answers_errors
    async def on_public_pass(
        self, interaction: discord.Interaction, game_id: int, turn: int, phase: str | None = None
    ) -> None:
        await interaction.response.defer()  # a deferred update: see Adapter.lend
        outcome = await self.service.turns.move(
            game_id, interaction.user.id, turn, phase, PASS, where=where(interaction)
        )
        try:
            text = self.after_move_text(outcome, interaction.user.id, PASS)
            await answer(interaction, None, content=text)
            self.adapter.lend(interaction)
        finally:  # the move is stored: the channel must hear of it, whatever happens here
            await self.adapter.changed(outcome)

    @staticmethod
    def after_move_text(outcome: Outcome, player: int, move: Move) -> str:
        """What the player did, and whom the turn still waits for (nobody, once it is over:
        the game may have gone on to the next turn at once)."""
        assert outcome.game is not None
        waiting = sorted(outcome.game.decision().waiting - {player})
        before = outcome.before
        if outcome.game.finished or not waiting or (before and before.turn != outcome.game.turn):
            said = t("sheet.done_all", what=views.you_did(move))
        else:
            said = t("sheet.done", what=views.you_did(move), names=mentions(waiting))
        return "\n".join([said, *ahead_news(outcome, player)])

    @answers_errors
    async def on_my_games(self, interaction: discord.Interaction) -> None:
        """The member's inbox: the games on every server that wait for their decision,
        then their daily challenge begun on this server, if it is not over."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        user, guild = interaction.user.id, interaction.guild_id
        waiting = await self.service.turns.waiting_anywhere(user)
        if guild is not None:
            daily = await self.service.turns.waiting_for(guild, user)
            waiting += [found for found in daily if is_daily(found.record)]
        await interaction.edit_original_response(content=inbox_content(waiting))
