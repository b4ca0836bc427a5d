"""A server's leaderboard as an image: title, a ruled table, the rule in the footer.

All words come from the caller (the message catalogue), so this module only draws.
Numbers are right-aligned in their columns, the sorted column is tinted, the leader
is gold, the caller's line is framed, and a caller outside the top lines is shown
apart below a gap.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from . import fonts, theme
from .canvas import Box, Canvas, Colour
from .compact import Surface, sprite
from .lines import BoardRow, BoardTable
from .palette import MEDALS, SORTED_TINT, YOU
from .parts import centre, measure
from .theme import blend

WIDTH = 820  # at least; wider when names need it (see :func:`width_for`)
WIDTH_STEP = 20  # ... by steps of this much
TITLE = 30
SUBTITLE = 19
HEADER_TEXT = 18
TEXT = 22
ROW = 42
RANK = 64
NUMBER = 100  # each number column
GAP_ROW = 22  # the dotted gap before a detached line
FOOTER = 16
NAME_PAD = 20  # the name column's room around the name


@dataclass(frozen=True)
class Layout:
    columns: int
    rows: tuple[BoardRow, ...]
    footer_lines: int
    width: int = WIDTH

    @property
    def table_top(self) -> float:
        return theme.MARGIN + TITLE + 12 + SUBTITLE + 14

    def line_top(self, line: int) -> float:
        """Top of table line ``line`` (0 is the header)."""
        gaps = sum(1 for row in self.rows[:line] if row.detached)
        return self.table_top + line * ROW + gaps * GAP_ROW

    def cell(self, line: int, column: int) -> Box:
        """Column 0 is the rank, 1 the name, then the value columns."""
        name = self.width - 2 * theme.MARGIN - RANK - self.columns * NUMBER
        widths = [RANK, name, *[NUMBER] * self.columns]
        x0 = theme.MARGIN + sum(widths[:column])
        y0 = self.line_top(line)
        return (x0, y0, x0 + widths[column], y0 + ROW)

    @property
    def footer_top(self) -> float:
        return self.line_top(len(self.rows)) + ROW + 14

    @property
    def height(self) -> int:
        return math.ceil(self.footer_top + self.footer_lines * (FOOTER + 6) + theme.MARGIN)


def wrap(canvas: Canvas, text: str, size: float, width: float) -> list[str]:
    """``text`` cut into lines no wider than ``width`` (at spaces)."""
    lines: list[str] = []
    for paragraph in text.splitlines() or [""]:
        line = ""
        for word in paragraph.split(" "):
            candidate = f"{line} {word}".strip()
            if line and canvas.text_width(candidate, size) > width:
                lines.append(line)
                line = word
            else:
                line = candidate
        lines.append(line)
    return lines


def render_leaderboard(table: BoardTable) -> bytes:
    """The leaderboard as a small palette PNG, composed at output size (see
    :class:`.compact.Surface`)."""
    width = width_for(table)
    footer = footer_lines(table, width)
    return draw_board(table, Layout(len(table.headers), table.rows, len(footer), width), footer)


def footer_lines(table: BoardTable, width: int) -> list[str]:
    """The footer's words in lines that fit an image ``width`` px wide."""
    if not table.footer:
        return []
    return wrap(Canvas.new(1, 1), table.footer, FOOTER, width - 2 * theme.MARGIN)


NameDrawer = Callable[[Surface, "Layout", int, BoardRow], None]
"""Draws a table line's name as :func:`draw_name` does (its arguments)."""


def draw_board(
    table: BoardTable, layout: Layout, footer: list[str], name: NameDrawer | None = None
) -> bytes:
    """``table`` on ``layout``: title, subtitle, header, each line (:func:`draw_row`, its
    name by :func:`draw_name` unless ``name`` is given), the ``footer`` lines; a small
    palette PNG."""
    surface = Surface(layout.width, layout.height, leaderboard=True)
    room = layout.width - 2 * theme.MARGIN
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
        draw_row(surface, layout, line, row, table.sorted_column, tint, name or draw_name)
    for k, text in enumerate(footer):
        surface.text(
            (theme.MARGIN, layout.footer_top + k * (FOOTER + 6) + FOOTER * 0.55),
            text,
            FOOTER,
            theme.MUTED,
        )
    return surface.png()


def width_for(table: BoardTable) -> int:
    """The image's width: :data:`WIDTH`, or wider so that every name fits whole at
    :data:`TEXT` size, up to what 16 wide letters take at nine tenths of it (longer ones
    shrink, see :meth:`.compact.Surface.fit`)."""
    most = measure("W" * fonts.NAME_WHOLE, TEXT * 0.9, bold=True)
    widest = max(
        (
            measure(fonts.short_name(row.name), TEXT, bold=row.leader or row.you)
            for row in table.rows
        ),
        default=0,
    )
    name = min(most, widest) + NAME_PAD
    needed = 2 * theme.MARGIN + RANK + len(table.headers) * NUMBER + name
    return max(WIDTH, math.ceil(needed / WIDTH_STEP) * WIDTH_STEP)


def sorted_band(layout: Layout, column: int | None) -> Box | None:
    """The tinted band behind the sorted column, from its header to the last line."""
    if column is None or not layout.rows:
        return None
    top = layout.cell(0, column + 2)
    bottom = layout.cell(len(layout.rows), column + 2)
    return (top[0] + 2, top[1] + 4, top[2] - 2, bottom[3] - 2)


def draw_band(surface: Surface, b: Box, fill: Colour, ground: Colour) -> None:
    """A rounded band filling ``b`` (whole pixels) on ``ground``."""
    w, h = round(b[2] - b[0]), round(b[3] - b[1])
    surface.paste(
        sprite(
            ("board-band", fill),
            (w + 1, h + 1),
            ground,
            lambda c: c.rect((0, 0, w, h), fill=fill, radius=8),
            True,
        ),
        b[0],
        b[1],
    )


def ground_of(column: int, sorted_column: int | None, ground: Colour) -> Colour:
    """What is under the text of value column ``column``: the tint in the sorted one."""
    return SORTED_TINT if column == sorted_column and ground == theme.PAPER else ground


def draw_header(surface: Surface, layout: Layout, table: BoardTable) -> None:
    size = HEADER_TEXT
    rank = layout.cell(0, 0)
    surface.label(
        centre(rank), table.rank_header, size, rank[2] - rank[0] - 4, theme.MUTED, anchor="mm"
    )
    name = layout.cell(0, 1)
    surface.label(
        (name[0] + 10, centre(name)[1]),
        table.name_header,
        size,
        name[2] - name[0] - 20,
        theme.MUTED,
    )
    for k, header in enumerate(table.headers):
        b = layout.cell(0, k + 2)
        chosen = k == table.sorted_column
        surface.label(
            (b[2] - 10, centre(b)[1]),
            header,
            size,
            b[2] - b[0] - 12,
            theme.INK if chosen else theme.MUTED,
            bold=chosen,
            anchor="rm",
            ground=ground_of(k, table.sorted_column, theme.PAPER),
        )
    bottom = layout.cell(0, 0)[3]
    surface.rect((theme.MARGIN, bottom - 1, layout.width - theme.MARGIN, bottom + 1), theme.RULE)


def draw_gap(surface: Surface, layout: Layout, line: int) -> None:
    y = layout.line_top(line) - GAP_ROW / 2
    x = centre(layout.cell(line, 0))[0]

    def dots(c: Canvas) -> None:
        for dx in (-10, 0, 10):
            c.ellipse((dx + 12, 2, dx + 16, 6), fill=theme.MUTED)

    surface.paste(sprite(("gap",), (28, 8), theme.PAPER, dots, True), x - 14, y - 4)


def draw_row(
    surface: Surface,
    layout: Layout,
    line: int,
    row: BoardRow,
    sorted_column: int | None,
    tint: Box | None,
    name: NameDrawer,
) -> None:
    """Table line ``line``: the leader's band, the caller's frame, the rank, the name
    (drawn by ``name``), the values and the rule under them."""
    first = layout.cell(line, 0)
    right = layout.width - theme.MARGIN
    band = (first[0], first[1] + 3, right, first[3] - 3)
    ground = theme.WINNER if row.leader else theme.PAPER
    if row.leader:
        draw_band(surface, band, theme.WINNER, theme.PAPER)
    if row.you:
        draw_frame(surface, band, ground, tint)
    draw_rank(surface, centre(first), row.rank, ground, row.medal)
    name(surface, layout, line, row)
    for k, value in enumerate(row.values):
        b = layout.cell(line, k + 2)
        chosen = k == sorted_column
        surface.text(
            (b[2] - 10, centre(b)[1]),
            value,
            TEXT + (1 if chosen else 0),
            theme.INK if chosen or value.strip() else theme.MUTED,
            bold=chosen,
            anchor="rm",
            ground=ground_of(k, sorted_column, ground),
        )
    if not row.detached and line < len(layout.rows) and not layout.rows[line].detached:
        y = round(first[3])
        surface.rect((first[0], y, right, y + 1), blend(theme.RULE, theme.PAPER, 0.5))


def draw_name(surface: Surface, layout: Layout, line: int, row: BoardRow) -> None:
    """The name on one line, shortened and shrunk to fit its cell (see
    :meth:`.compact.Surface.fit`); bold for the leader and the caller."""
    cell = layout.cell(line, 1)
    bold = row.leader or row.you
    name, size = surface.fit(row.name, TEXT, cell[2] - cell[0] - NAME_PAD, bold=bold)
    surface.text(
        (cell[0] + 10, centre(cell)[1]),
        name,
        size,
        YOU if row.you else theme.INK,
        bold=bold,
        ground=theme.WINNER if row.leader else theme.PAPER,
    )


def draw_frame(surface: Surface, b: Box, ground: Colour, tint: Box | None) -> None:
    """The caller's line framed in blue, over the sorted column's tint if it crosses it."""
    w, h = round(b[2] - b[0]), round(b[3] - b[1])
    across = (tint[0] - b[0], tint[2] - b[0]) if tint and ground == theme.PAPER else None

    def draw(c: Canvas) -> None:
        if across:
            c.rect((across[0], -10, across[1], h + 10), fill=SORTED_TINT)
        c.rect((0, 0, w, h), outline=YOU, width=3, radius=8)

    surface.paste(sprite(("frame", w, h, across), (w + 1, h + 1), ground, draw, True), b[0], b[1])


def draw_rank(
    surface: Surface, middle: tuple[float, float], rank: str, ground: Colour, medals: bool = True
) -> None:
    """The rank, on a medal for the first three (if ``medals``)."""
    medal = MEDALS.get(int(rank)) if medals and rank.isdigit() else None
    if medal is None:
        surface.text(middle, rank, TEXT, theme.INK, bold=True, anchor="mm", ground=ground)
        return
    side = math.ceil(ROW * 0.68)
    inset = (side - ROW * 0.68) / 2

    def draw(c: Canvas) -> None:
        c.ellipse((inset, inset, side - inset, side - inset), fill=medal)
        c.text((side / 2, side / 2), rank, TEXT, theme.INK, bold=True)

    surface.paste(
        sprite(("medal", rank, medal), (side, side), ground, draw, True),
        middle[0] - side / 2,
        middle[1] - side / 2,
    )
