"""People and rows as the channel names them."""

from __future__ import annotations

import contextvars
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any

from bot.i18n.words import emoji, row_name, t
from bot.players import computer_name, is_computer

_reader: contextvars.ContextVar[int | None] = contextvars.ContextVar("reader", default=None)


def mention(user: int) -> str:
    """A Discord mention, or a computer seat's name."""
    return f"🤖 {computer_name(user)}" if is_computer(user) else f"<@{user}>"


def mentions(users: Iterable[int]) -> str:
    return ", ".join(mention(u) for u in users)


@contextmanager
def addressing(reader: int) -> Iterator[None]:
    """Within the block, sentences about ``reader`` speak to them (:func:`named`): what a
    direct message tells its reader."""
    token = _reader.set(reader)
    try:
        yield
    finally:
        _reader.reset(token)


def reader() -> int | None:
    """Who the sentences now speak to (None: nobody, as in the channel)."""
    return _reader.get()


def named(key: str, player: int, **values: Any) -> str:
    """Sentence ``key`` about ``player``: its own form for the reader (``key.you``:
    "You crossed"), else naming them ("@Cem crossed")."""
    if player == _reader.get():
        return t(f"{key}.you", **values)
    return t(key, name=mention(player), **values)


def row_text(row: str) -> str:
    """``🟥 Red``: colour and word, so no one needs to tell the colours apart."""
    return f"{emoji(row)} {row_name(row)}"
