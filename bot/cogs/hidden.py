"""The games played in no channel (:mod:`bot.service.hidden`): a daily attempt and a
practice game. A move on their sheet is answered by their own handlers, in place,
instead of being told to a channel."""

from __future__ import annotations

import discord

from bot.cogs.answers import Editor
from bot.cogs.daily import DailyHandlers
from bot.cogs.practice import PracticeHandlers
from bot.service.daily import is_daily
from bot.service.outcome import Outcome


class HiddenGames:
    """Where the turn's handlers hand the move of a game in no channel."""

    def __init__(self, daily: DailyHandlers, practice: PracticeHandlers) -> None:
        self.daily = daily
        self.practice = practice

    async def moved(
        self, interaction: discord.Interaction, outcome: Outcome, said: str, edit: Editor
    ) -> None:
        """The move's answer, through ``edit`` (the clicked sheet)."""
        handlers = self.daily if is_daily(outcome.record) else self.practice
        await handlers.moved(interaction, outcome, said, edit)
