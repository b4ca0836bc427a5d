"""A sheet told without its numbers: per row how many crosses (or fields written) of
how many, and whether the player locked it; the penalties (Qwinto: failed throws) of
how many. What a daily challenge's share shows, as text and as a card: how far a
member got, never which numbers, for the day's dice are everyone's (no Pillow here)."""

from __future__ import annotations

from dataclasses import dataclass

from bot.rules import Game
from bot.rules.qwinto import FAILED_LIMIT, ROW_LENGTH, QwintoGame
from bot.rules.qwixx import QwixxGame


@dataclass(frozen=True)
class RowTally:
    """One row: its colour, its crosses, its number cells, and its lock crossed."""

    row: str
    crosses: int
    cells: int
    locked: bool = False


@dataclass(frozen=True)
class SheetTally:
    """A sheet's rows (top to bottom) and its penalties of ``limit``."""

    rows: tuple[RowTally, ...]
    penalties: int
    limit: int
    qwinto: bool = False
    """Qwinto writes numbers in fields and counts failed throws, not penalties."""


def tally(game: Game, player: int) -> SheetTally:
    """``player``'s sheet in ``game``, counted."""
    if isinstance(game, QwintoGame):
        q = game.sheets[player]
        rows = tuple(RowTally(row, len(fields), ROW_LENGTH) for row, fields in q.fields.items())
        return SheetTally(rows, q.failed, FAILED_LIMIT, qwinto=True)
    assert isinstance(game, QwixxGame)
    sheet, rules = game.sheets[player], game.rules
    rows = tuple(
        RowTally(row, len(numbers), rules.row_length, row in sheet.locks)
        for row, numbers in sheet.crossed.items()
    )
    return SheetTally(rows, sheet.penalties, rules.penalty_limit)
