"""People and rows as the channel names them."""

from __future__ import annotations

from collections.abc import Iterable

from bot.i18n.words import emoji, row_name
from bot.players import computer_name, is_computer


def mention(user: int) -> str:
    """A Discord mention, or a computer seat's name."""
    return f"🤖 {computer_name(user)}" if is_computer(user) else f"<@{user}>"


def mentions(users: Iterable[int]) -> str:
    return ", ".join(mention(u) for u in users)


def row_text(row: str) -> str:
    """``🟥 Red``: colour and word, so no one needs to tell the colours apart."""
    return f"{emoji(row)} {row_name(row)}"
