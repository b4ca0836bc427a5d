"""Every restart-proof component the bot registers (those of the table of routes,
:data:`bot.cogs.handlers.ROUTES`), and the catch-all behind them.

discord.py hands a click to each registered item whose template matches its custom_id;
:class:`Unclaimed` matches every id and refuses politely those that no other item takes
(a forged, garbled or outdated ``qx:`` id, or one not of the bot's form at all, such as
a tampered client's ``hello world``), so no click goes unanswered.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.cogs.buttons import BadComponent
from bot.cogs.discord_private import template_of
from bot.cogs.handlers import ROUTES

ITEMS = tuple(ROUTES)


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
