"""Every restart-proof component the bot registers, and the catch-all behind them.

discord.py hands a click to each registered item whose template matches its custom_id;
:class:`Unclaimed` matches every id and refuses politely those that no other item takes
(a forged, garbled or outdated ``qx:`` id, or one not of the bot's form at all, such as
a tampered client's ``hello world``), so no click goes unanswered.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.cogs.buttons import GAME_ITEMS, STATS_ITEMS, BadComponent
from bot.cogs.choice_items import CHOICE_ITEMS
from bot.cogs.discord_private import template_of
from bot.cogs.privacy import PRIVACY_ITEMS
from bot.cogs.tournaments import TOURNAMENT_ITEMS

ITEMS = (*GAME_ITEMS, *CHOICE_ITEMS, *STATS_ITEMS, *PRIVACY_ITEMS, *TOURNAMENT_ITEMS)


class Unclaimed(BadComponent, template=r".*"):
    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Unclaimed:
        return cls(item, answer=not claimed(match.string))


def claimed(custom_id: str) -> bool:
    """Whether an item other than the catch-all takes ``custom_id``."""
    return any(template_of(item).fullmatch(custom_id) for item in ITEMS)


DYNAMIC_ITEMS = (*ITEMS, Unclaimed)
"""What the bot registers (``setup_hook``)."""
