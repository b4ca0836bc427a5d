"""A tournament's standings as an image: the leaderboard's ruled table, narrow enough for
a phone.

The lines are the leaderboard's (:mod:`.leaderboard`: the medals, the leader's gold
band, the viewer's frame, the gap before a detached line, the sorted column's tint),
drawn at its sizes on an image of :data:`WIDTH` px, so that digits 16 px tall are still
11 px when Discord shows the image 350 px wide (the phone measure of
:data:`.theme.READABLE_DIGIT`): the number columns are as wide as their widest entry and
the name takes the rest, never less than :data:`NAME_ROOM` (a wider image only then).
A name is drawn whole, any script and emoji, where the other images shorten it
(:func:`.fonts.short_name`, past 16 characters): one too wide for its cell wraps onto up
to :data:`NAME_LINES` lines of a taller table line, and shrinks only if it must
(:func:`name_block`); a note follows it, muted and smaller. What the lines are, and why
at most 20 of them: :mod:`.standings_lines`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from . import fonts, theme
from .canvas import Box
from .compact import Surface, label_size
from .leaderboard import (
    GAP_ROW,
    HEADER_TEXT,
    NAME_PAD,
    ROW,
    TEXT,
    WIDTH_STEP,
    Layout,
    draw_board,
    footer_lines,
)
from .lines import BoardRow, BoardTable
from .palette import YOU
from .parts import centre, measure
from .standings_lines import StandingsRow

WIDTH = 500  # at least: digits 16 px tall (TEXT) are 11.2 px at 350 px wide
NAME_ROOM = 170  # at least, for a name and its note
PLACE = 48  # the place column: "256" (42 px), or a medal
NUMBER_PAD = 14  # a number column's room beside its widest entry
NOTE = HEADER_TEXT  # a note's size
NOTE_GAP = 8  # between a name and its note
NAME_LEADING = round(TEXT * 1.15)  # from one line of a name to the next
NAME_LINES = 4  # at most, a table line growing by NAME_LEADING for each past the first
SMALLEST = TEXT * 0.75  # a name shrinks no further (11.5 px at 350 px wide); then it is cut


@dataclass(frozen=True)
class StandingsLayout(Layout):
    """The leaderboard's layout with number columns as wide as ``numbers``."""

    numbers: tuple[float, ...] = ()
    names: tuple[int, ...] = ()
    """How many lines each table line's name takes (1 where not given)."""

    def row_height(self, line: int) -> float:
        lines = self.names[line - 1] if 0 < line <= len(self.names) else 1
        return ROW + (lines - 1) * NAME_LEADING

    def line_top(self, line: int) -> float:
        gaps = sum(1 for row in self.rows[:line] if row.detached)
        above = sum(self.row_height(k) for k in range(line))
        return self.table_top + above + gaps * GAP_ROW

    def cell(self, line: int, column: int) -> Box:
        """Column 0 is the place, 1 the name, then the number columns."""
        name = self.width - 2 * theme.MARGIN - PLACE - sum(self.numbers)
        widths = [PLACE, name, *self.numbers]
        x0 = theme.MARGIN + sum(widths[:column])
        y0 = self.line_top(line)
        return (x0, y0, x0 + widths[column], y0 + self.row_height(line))

    @property
    def footer_top(self) -> float:
        last = len(self.rows)
        return self.line_top(last) + self.row_height(last) + 14


def layout_for(table: BoardTable, footer: int | None = None) -> StandingsLayout:
    """The table's layout: its width, its number columns, each name's lines, and
    ``footer`` lines below (by default as many as the table's footer takes)."""
    numbers = number_widths(table)
    width = width_for(numbers)
    if footer is None:
        footer = len(footer_lines(table, width))
    plain = StandingsLayout(len(table.headers), table.rows, footer, width, numbers)
    name = plain.cell(1, 1)
    return replace(
        plain, names=tuple(len(name_block(row, name[2] - name[0])[1]) for row in table.rows)
    )


def name_block(row: BoardRow, width: float) -> tuple[float, list[str], float]:
    """How a line's name cell ``width`` px wide is filled: the note's size (0: none), the
    name's lines and their size. A name is whole on one line at :data:`TEXT` size when it
    fits, else wrapped at its spaces and hyphens (between letters in a word too long for
    a line) onto up to :data:`NAME_LINES`, shrunk only when that many are not enough, and
    cut with an ellipsis only at :data:`SMALLEST` (a name of Discord's longest, 32
    characters, fits beside a tournament's numbers)."""
    note = row.note if isinstance(row, StandingsRow) else ""
    room = width - NAME_PAD
    note_size = 0.0
    if note:
        note_size = label_size(note, NOTE, room / 2)  # as draw_name's label draws it
        room -= measure(note, note_size) + NOTE_GAP
    bold = row.leader or row.you
    size: float = TEXT
    while True:
        lines = wrapped(fonts.clusters(row.name.strip()), size, room, bold)
        if len(lines) <= NAME_LINES or size <= SMALLEST:
            break
        size -= 0.5
    if len(lines) > NAME_LINES:
        last = (*fonts.clusters(lines[NAME_LINES - 1]), "…")
        while len(last) > 1 and measure("".join(last), size, bold) > room:
            last = (*last[:-2], "…")
        lines = [*lines[: NAME_LINES - 1], "".join(last)]
    return note_size, lines, size


def wrapped(parts: tuple[str, ...], size: float, room: float, bold: bool) -> list[str]:
    """The characters ``parts`` in lines no wider than ``room`` at ``size``: broken at
    spaces and after hyphens, and between characters where a word alone is wider."""
    lines: list[str] = []
    line: list[str] = []
    for part in parts:
        if part == " " and not line:
            continue
        if line and measure("".join((*line, part)).rstrip(), size, bold) > room:
            cut = max((i for i, p in enumerate(line[:-1]) if p in " -"), default=None)
            if part != " " and cut is not None:  # the word goes on to the next line
                lines.append("".join(line[: cut + (line[cut] == "-")]).rstrip())
                line = line[cut + 1 :]
            else:
                lines.append("".join(line).rstrip())
                line = []
            if part == " ":
                continue
        line.append(part)
    if line:
        lines.append("".join(line).rstrip())
    return lines or [""]


def render_standings(table: BoardTable) -> bytes:
    """The standings as a small palette PNG (see :class:`.compact.Surface`)."""
    layout = layout_for(table)
    return draw_board(table, layout, footer_lines(table, layout.width), draw_name)


def number_widths(table: BoardTable) -> tuple[float, ...]:
    """Each number column's width: its header's or its widest entry's, and room."""
    return tuple(
        max(
            measure(header, HEADER_TEXT, bold=k == table.sorted_column),
            *(
                measure(
                    row.values[k], TEXT + (k == table.sorted_column), bold=k == table.sorted_column
                )
                for row in table.rows
            ),
        )
        + NUMBER_PAD
        for k, header in enumerate(table.headers)
    )


def width_for(numbers: tuple[float, ...]) -> int:
    """:data:`WIDTH`, or wider (by steps) if the numbers leave a name less than
    :data:`NAME_ROOM`."""
    needed = 2 * theme.MARGIN + PLACE + sum(numbers) + NAME_ROOM
    return max(WIDTH, math.ceil(needed / WIDTH_STEP) * WIDTH_STEP)


def draw_name(surface: Surface, layout: Layout, line: int, row: BoardRow) -> None:
    """The name (whole, see :func:`name_block`, on the lines a :class:`StandingsLayout`
    makes room for) and its note at the right of the name's cell (muted, smaller, at most
    half the cell), on the line's ground: the leaderboard's line draws it in place of
    its own name (:func:`.leaderboard.draw_name`)."""
    cell = layout.cell(line, 1)
    note_size, lines, size = name_block(row, cell[2] - cell[0])
    middle = centre(cell)[1]
    ground = theme.WINNER if row.leader else theme.PAPER
    if note_size and isinstance(row, StandingsRow):  # at the size name_block made room for
        room = (cell[2] - cell[0] - NAME_PAD) / 2
        surface.label(
            (cell[2] - 10, middle), row.note, NOTE, room, theme.MUTED, anchor="rm", ground=ground
        )
    bold = row.leader or row.you
    for k, text in enumerate(lines):
        y = middle + (k - (len(lines) - 1) / 2) * NAME_LEADING
        colour = YOU if row.you else theme.INK
        surface.text((cell[0] + 10, y), text, size, colour, bold=bold, ground=ground)
