"""A tournament's standings as an image: the leaderboard's ruled table, narrow enough for
a phone.

The lines are the leaderboard's (:mod:`.leaderboard`: the medals, the leader's gold
band, the viewer's frame, the gap before a detached line, the sorted column's tint),
drawn at its sizes on an image of :data:`WIDTH` px, so that digits 16 px tall are still
11 px when Discord shows the image 350 px wide (the phone measure of
:data:`.theme.READABLE_DIGIT`): the number columns are as wide as their widest entry and
the name takes the rest, never less than :data:`NAME_ROOM` (a wider image only then).
A name is drawn whole (:func:`.fonts.short_name`), any script and emoji, shrunk if it
must; a note follows it, muted and smaller. What the lines are, and why at most 20 of
them: :mod:`.standings_lines`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from . import theme
from .canvas import Box, Canvas
from .compact import Surface
from .leaderboard import (
    FOOTER,
    HEADER_TEXT,
    NAME_PAD,
    ROW,
    SUBTITLE,
    TEXT,
    TITLE,
    WIDTH_STEP,
    Layout,
    draw_band,
    draw_gap,
    draw_header,
    draw_row,
    sorted_band,
    wrap,
)
from .lines import BoardRow, BoardTable
from .palette import SORTED_TINT, YOU
from .parts import centre, measure
from .standings_lines import StandingsRow

WIDTH = 500  # at least: digits 16 px tall (TEXT) are 11.2 px at 350 px wide
NAME_ROOM = 170  # at least, for a name and its note
PLACE = 48  # the place column: "256" (42 px), or a medal
NUMBER_PAD = 14  # a number column's room beside its widest entry
NOTE = HEADER_TEXT  # a note's size
NOTE_GAP = 8  # between a name and its note


@dataclass(frozen=True)
class StandingsLayout(Layout):
    """The leaderboard's layout with number columns as wide as ``numbers``."""

    numbers: tuple[float, ...] = ()

    def cell(self, line: int, column: int) -> Box:
        """Column 0 is the place, 1 the name, then the number columns."""
        name = self.width - 2 * theme.MARGIN - PLACE - sum(self.numbers)
        widths = [PLACE, name, *self.numbers]
        x0 = theme.MARGIN + sum(widths[:column])
        y0 = self.line_top(line)
        return (x0, y0, x0 + widths[column], y0 + ROW)


def render_standings(table: BoardTable) -> bytes:
    """The standings as a small palette PNG (see :class:`.compact.Surface`)."""
    numbers = number_widths(table)
    width = width_for(numbers)
    footer = (
        wrap(Canvas.new(1, 1), table.footer, FOOTER, width - 2 * theme.MARGIN)
        if table.footer
        else []
    )
    layout = StandingsLayout(len(table.headers), table.rows, len(footer), width, numbers)
    surface = Surface(width, layout.height, leaderboard=True)
    room = width - 2 * theme.MARGIN
    surface.label(
        (theme.MARGIN, theme.MARGIN + TITLE / 2), table.title, TITLE, room, theme.INK, bold=True
    )
    surface.label(
        (theme.MARGIN, theme.MARGIN + TITLE + 12 + SUBTITLE / 2),
        table.subtitle,
        SUBTITLE,
        room,
        theme.MUTED,
    )
    tint = sorted_band(layout, table.sorted_column)
    if tint:
        draw_band(surface, tint, SORTED_TINT, theme.PAPER)
    draw_header(surface, layout, table)
    for line, row in enumerate(table.rows, start=1):
        if row.detached:
            draw_gap(surface, layout, line)
        # the leaderboard's line but its name, then the name with its note
        draw_row(surface, layout, line, replace(row, name=""), table.sorted_column, tint)
        draw_name(surface, layout, line, row)
    for k, text in enumerate(footer):
        surface.text(
            (theme.MARGIN, layout.footer_top + k * (FOOTER + 6) + FOOTER * 0.55),
            text,
            FOOTER,
            theme.MUTED,
        )
    return surface.png()


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


def draw_name(surface: Surface, layout: StandingsLayout, line: int, row: BoardRow) -> None:
    """The name (whole, shrunk to fit if it must) and its note at the right of the name's
    cell (muted, smaller, at most half the cell), on the line's ground."""
    cell = layout.cell(line, 1)
    note = row.note if isinstance(row, StandingsRow) else ""
    middle = centre(cell)[1]
    ground = theme.WINNER if row.leader else theme.PAPER
    room = cell[2] - cell[0] - NAME_PAD
    if note:
        room -= (
            surface.label(
                (cell[2] - 10, middle),
                note,
                NOTE,
                room / 2,
                theme.MUTED,
                anchor="rm",
                ground=ground,
            )
            + NOTE_GAP
        )
    bold = row.leader or row.you
    name, size = surface.fit(row.name, TEXT, room, bold=bold)
    surface.text(
        (cell[0] + 10, middle), name, size, YOU if row.you else theme.INK, bold=bold, ground=ground
    )
