"""Asking less on the sheet: a decision taken ahead (a costly cross asked about first),
deciding later after all, the sheet's other pages, the member's fallback and re-throw
rule (their defaults), and the game's standing choices.

Each click updates the sheet it is on (see :class:`~bot.cogs.answers.Reply`); a change
that made a move is told to the channel, whatever happens to the answer."""

from __future__ import annotations

import discord

from bot.cogs import views
from bot.cogs.adapter import GameHandlers, where
from bot.cogs.answers import Reply, answers_errors
from bot.cogs.choice_items import AheadButton, SheetButton
from bot.cogs.pages import foreseen
from bot.i18n.words import t
from bot.records.plans import Step
from bot.records.seats import Seats
from bot.rules import Game, Move
from bot.service.outcome import Snapshot


class AheadHandlers(GameHandlers):
    """The handlers of the sheet's decisions ahead and choices."""

    @answers_errors
    async def on_ahead(
        self,
        interaction: discord.Interaction,
        game_id: int,
        turn: int,
        steps: tuple[Step, ...],
        confirmed: bool,
    ) -> None:
        """A choice ahead: planned (made now, if its moment came meanwhile); a cross
        that skips many numbers asks first, on the same message."""
        user = interaction.user.id
        async with Reply(interaction) as reply:
            current = await self.adapter.here(interaction, game_id)
            asked = None if confirmed else costly_step(current, user, turn, steps)
            if asked is not None:
                game, move = asked
                await reply.edit(
                    content=views.confirm_content(game, user, move),
                    attachments=[],
                    view=confirm_view(game_id, turn, steps),
                )
                return
            outcome = await self.service.turns.plan(
                game_id, user, turn, steps, where=where(interaction)
            )
            try:
                await self.adapter.sheets.show(interaction, outcome, editor=reply.edit)
            finally:  # a step made now is a move: the channel must hear of it
                if outcome.changed:
                    await self.adapter.changed(outcome)

    @answers_errors
    async def on_see(
        self, interaction: discord.Interaction, game_id: int, turn: int, what: str
    ) -> None:
        """Another page of the sheet: ``first`` (this turn's first decision again),
        ``colour`` (the coloured die ahead), ``choices`` (the game's standing
        choices), ``sheet`` (what waits)."""
        async with Reply(interaction) as reply:
            current = await self.adapter.here(interaction, game_id)
            mode = "" if what == "sheet" else what
            await self.adapter.sheets.show(interaction, current, editor=reply.edit, mode=mode)

    @answers_errors
    async def on_later(self, interaction: discord.Interaction, game_id: int, turn: int) -> None:
        """Decide later after all: the plan is over (the game asks when its moment comes)."""
        async with Reply(interaction) as reply:
            outcome = await self.service.turns.unplan(
                game_id, interaction.user.id, where=where(interaction)
            )
            await self.adapter.sheets.show(interaction, outcome, editor=reply.edit)

    @answers_errors
    async def on_default(
        self, interaction: discord.Interaction, game_id: int, turn: int, name: str, value: str
    ) -> None:
        """A default of the member's, changed from the sheet (their fallback, their
        re-throw rule): in force in every game of theirs, the sheet shown again. A next
        throw chosen ahead takes the new re-throw rule too."""
        user = interaction.user.id
        async with Reply(interaction) as reply:
            current = await self.adapter.here(interaction, game_id)
            await self.service.members.change(user, **{name: value})
            if name == "rethrow":
                await self.replanned(interaction, current, value)
            current = await self.adapter.here(interaction, game_id)
            await self.adapter.sheets.show(interaction, current, editor=reply.edit)

    async def replanned(
        self, interaction: discord.Interaction, current: Snapshot, rule: str
    ) -> None:
        """A next throw chosen ahead, planned again with the re-throw ``rule``."""
        plan = Seats.of(current.record).plans.get(interaction.user.id)
        roll = None if plan is None else plan.step(plan.turn, "roll")
        if plan is None or roll is None:
            return
        then = () if rule == "ask" else (Step("reroll", rule=rule),)
        await self.service.turns.plan(
            current.record.id,
            interaction.user.id,
            plan.turn,
            (roll, *then),
            where=where(interaction),
        )

    @answers_errors
    async def on_choose(
        self, interaction: discord.Interaction, game_id: int, turn: int, name: str, value: str
    ) -> None:
        """A standing choice for this game only, in force at once: it may answer what
        waits for the member now (then the channel hears of it)."""
        async with Reply(interaction) as reply:
            outcome = await self.service.turns.choose_for_game(
                game_id, interaction.user.id, where=where(interaction), **{name: value}
            )
            try:
                await self.adapter.sheets.show(
                    interaction, outcome, t("choices.saved"), editor=reply.edit, mode="choices"
                )
            finally:  # the choice may have decided for the member at once
                if outcome.changed:
                    await self.adapter.changed(outcome)


def costly_step(
    current: Snapshot, user: int, turn: int, steps: tuple[Step, ...]
) -> tuple[Game, Move] | None:
    """The game and move to ask about first, when the last of ``steps`` is a cross that
    skips many numbers in the game in which it will be made (as foreseen, or now)."""
    game = current.game
    move = steps[-1].move if steps else None
    if game is None or move is None or game.turn != turn:
        return None
    decision = game.decision()
    if decision.phase == steps[-1].phase and user in decision.waiting:
        deciding: Game | None = game
    else:
        first = game.chosen_move(user)
        made = [s.move for s in steps[:-1] if s.move is not None]
        deciding = None if first is None else foreseen(game, user, [first, *made])
    if deciding is None or move not in deciding.legal_moves(user):
        return None
    return (deciding, move) if views.costly(deciding, user, move) else None


def confirm_view(game_id: int, turn: int, steps: tuple[Step, ...]) -> discord.ui.View:
    """[Yes] plans the steps, [Back] returns to the sheet."""
    view = discord.ui.View(timeout=None)
    yes = t("button.yes")
    view.add_item(
        AheadButton(game_id, turn, steps, yes, discord.ButtonStyle.danger, confirmed=True)
    )
    view.add_item(SheetButton(game_id, turn, "see-sheet", t("button.back")))
    return view
