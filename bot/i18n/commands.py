"""Commands cited in messages as Discord command mentions.

A catalogue text cites a command as ```/qwixx rules variant:{variant}```. Once the bot
knows the ``/qwixx`` command's id (from the sync at start, or by asking Discord),
:func:`cite` writes such a citation as a mention, ``</qwixx rules:ID>``, which each
reader's Discord shows in their own language and opens on a click; the options after
it are written with their names in the text's language (``variante:longo``). Without
the id (before start-up, or when Discord could not be asked) the citation stays as
written.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Protocol

from bot.i18n import ENGLISH, slash_catalogue

GROUP = "qwixx"
CITATION = re.compile(r"`/qwixx ([\w-]+)((?: [\w-]+:[^ `]*)*)`")
_ids: dict[str, int] = {}


class Command(Protocol):
    """What Discord says of a synced command (discord.py's ``AppCommand``)."""

    @property
    def name(self) -> str: ...

    @property
    def id(self) -> int: ...


def learn(commands: Iterable[Command]) -> None:
    """Remember the id of the ``/qwixx`` command among the synced or fetched ``commands``."""
    for command in commands:
        if command.name == GROUP:
            _ids[GROUP] = int(command.id)


def forget() -> None:
    _ids.clear()


def cite(text: str, locale: str) -> str:
    """``text`` with every ```/qwixx …``` citation written as a command mention."""
    group = _ids.get(GROUP)
    if group is None or "`/qwixx " not in text:
        return text

    def mention(found: re.Match[str]) -> str:
        options = " ".join(option_text(option, locale) for option in found[2].split())
        written = f"</{GROUP} {found[1]}:{group}>"
        return f"{written} `{options}`" if options else written

    return CITATION.sub(mention, text)


def option_text(option: str, locale: str) -> str:
    """``variant:longo`` with the option's name in ``locale``: ``variante:longo``."""
    name, _, value = option.partition(":")
    if locale != ENGLISH:
        name = slash_catalogue(locale).get(("slash name", name)) or name
    return f"{name}:{value}"
