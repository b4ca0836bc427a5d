"""A message laid out as a card, as data: its text in blocks, where its images stand
among them, and whose colour it wears. The Discord adapter draws it
(:mod:`bot.cogs.cards`); the text is the message's own, so a card says exactly what the
message says.
"""

from __future__ import annotations

from dataclasses import dataclass

FORM = "card"
"""``Shown.form`` of a live message posted as a card (a message posted before cards
keeps its form until the game's next message)."""
CARD_TEXT = 4000
"""The characters a card's text displays hold together (Discord's limit)."""


@dataclass(frozen=True)
class Card:
    """A message as a card: ``blocks`` are its text's lines, in order, split where the
    card puts a gap (the blank lines between blocks left out); the images stand after
    block ``images_after``; ``accent`` is the seat whose colour the card wears."""

    blocks: tuple[str, ...]
    accent: int | None = None
    images_after: int = 0

    @property
    def text(self) -> str:
        """The card's text as a reader reads it: its blocks' lines, in order."""
        return "\n".join(self.blocks)


def card(text: str, accent: int | None = None, tail: int = 0) -> Card:
    """``text`` as a card: a block for each paragraph (blank lines split them), its last
    ``tail`` lines a block of their own, the images after the block before that tail
    (after the last block when there is none)."""
    lines = text.splitlines()
    cut = len(lines) - tail if 0 < tail < len(lines) else len(lines)
    head = paragraphs(lines[:cut])
    rest = paragraphs(lines[cut:])
    return Card((*head, *rest), accent, max(len(head) - 1, 0))


def paragraphs(lines: list[str]) -> list[str]:
    """``lines`` in blocks split at blank lines (none of them empty)."""
    blocks: list[list[str]] = [[]]
    for line in lines:
        if line.strip():
            blocks[-1].append(line)
        elif blocks[-1]:
            blocks.append([])
    return ["\n".join(block) for block in blocks if block]
