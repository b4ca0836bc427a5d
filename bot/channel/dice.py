"""How a line writes a die: as the bot's emoji of that die's face where it has one
(``<:qx_red6_1a2b:123…>``, which Discord shows as the die), else as the colour's square
and the figure (``🟥6``).

Which emojis the bot has is handed in (:class:`~bot.channel.plan.Channel`'s ``faces``,
filled by the Discord adapter once they are uploaded): what the channel shows stays a
function of what it is given. The words of a game (:mod:`bot.channel.story`) are
written inside :func:`showing`, as they are inside :func:`bot.i18n.using` a language.
"""

from __future__ import annotations

import contextvars
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from types import MappingProxyType

from bot.i18n.words import emoji

Faces = Mapping[str, str]
"""A die's face (``red6``, ``white3``: :func:`face_key`) -> the emoji that shows it, as
Discord's markup; empty: every die in the text form."""
TEXT: Faces = MappingProxyType({})

_faces: contextvars.ContextVar[Faces] = contextvars.ContextVar("dice faces", default=TEXT)


def colour_of(die: str) -> str:
    """``white1`` -> ``white``: the two white dice look alike."""
    return die.rstrip("0123456789")


def face_key(die: str, face: int) -> str:
    """``("white2", 5)`` -> ``white5``: the key of a face in :data:`Faces`."""
    return f"{colour_of(die)}{face}"


def die_text(die: str, face: int, faces: Faces = TEXT) -> str:
    """One die for a line: its emoji in ``faces``, else ``🟥6``."""
    return faces.get(face_key(die, face)) or f"{emoji(die)}{face}"


def dice_text(dice: Mapping[str, int]) -> str:
    """``🟥6 ⚪2``: the dice in the order given, each as :func:`die_text` writes it with
    the faces being shown (:func:`showing`)."""
    faces = _faces.get()
    return " ".join(die_text(die, face, faces) for die, face in dice.items())


@contextmanager
def showing(faces: Faces) -> Iterator[None]:
    """Write the dice with ``faces`` (the bot's emojis) within the block."""
    token = _faces.set(faces)
    try:
        yield
    finally:
        _faces.reset(token)
