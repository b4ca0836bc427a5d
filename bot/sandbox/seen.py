"""A message as the demo's transcript reads it (:class:`bot.sandbox.demo.Transcript`),
for its two drawings: the text transcript and the page (:mod:`bot.sandbox.page`)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Text:
    """A text display, or a legacy message's content, as read (Discord markdown kept)."""

    text: str


@dataclass(frozen=True)
class Rule:
    """A separator between a card's parts."""


@dataclass(frozen=True)
class Picture:
    """An image the bot sent: its name in the message, the file it was saved to, its alt
    text (read) and whether it stands in a card's gallery (a legacy message's file does
    not)."""

    name: str
    file: Path
    alt: str | None
    in_gallery: bool


@dataclass(frozen=True)
class Embed:
    """An embed, its title, description and fields read as lines."""

    colour: int | None
    text: str


@dataclass(frozen=True)
class Container:
    """A container: its accent (None: none) and its parts."""

    accent: int | None
    parts: tuple[Part, ...]


Part = Text | Rule | Picture | Embed | Container


@dataclass(frozen=True)
class Control:
    """A button (its label and style) or a select (its placeholder)."""

    label: str
    select: bool
    style: int
    disabled: bool


@dataclass(frozen=True)
class Seen:
    """A message as a person reads it, for the transcript's two drawings (text, page)."""

    author: str
    place: str | None
    """Where a message outside every guild went: ``direct message to Ana``."""
    number: int | None
    """Its number in the channel (None: a private answer, or a direct message)."""
    edited: bool
    command: tuple[str, str] | None
    """Who used which command it answers: ``("Ana", "qwixx start variant:classic")``."""
    only: str | None
    """Who alone sees it (an ephemeral answer)."""
    parts: tuple[Part, ...]
    rows: tuple[tuple[Control, ...], ...]
