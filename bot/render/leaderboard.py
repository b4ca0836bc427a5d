"""A server's leaderboard as an image: title, a ruled table, the rule in the footer.

All words come from the caller (the message catalogue), so this module only draws.
Numbers are right-aligned in their columns, the sorted column is tinted, the leader
is gold, the caller's line is framed, and a caller outside the top lines is shown
apart below a gap.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from . import palette, theme
from .canvas import Box, Canvas, palette_png
from .parts import blend, centre

WIDTH = 820
TITLE = 30
SUBTITLE = 19
HEADER_TEXT = 18
TEXT = 22
ROW = 42
RANK = 64
NUMBER = 100  # each number column
GAP_ROW = 22  # the dotted gap before a detached line
FOOTER = 16
SORTED_TINT = (236, 242, 250)
YOU = (28, 96, 178)
MEDALS = {1: theme.GOLD, 2: (170, 170, 178), 3: (196, 128, 70)}


@dataclass(frozen=True)
class BoardRow:
    """One table line: ``rank`` as shown (``"–"`` for an unranked player)."""

    rank: str
    name: str
    values: tuple[str, ...]
    you: bool = False
    detached: bool = False  # drawn apart, after a gap (the caller outside the top)
    leader: bool = False  # rank 1


@dataclass(frozen=True)
class BoardTable:
    """What the image shows; ``headers`` has one entry per value column."""

    title: str
    subtitle: str
    rank_header: str
    name_header: str
    headers: tuple[str, ...]
    rows: tuple[BoardRow, ...]
    footer: str
    sorted_column: int | None = None  # index into ``headers``


@dataclass(frozen=True)
class Layout:
    columns: int
    rows: tuple[BoardRow, ...]
    footer_lines: int

    @property
    def table_top(self) -> float:
        return theme.MARGIN + TITLE + 12 + SUBTITLE + 14

    def line_top(self, line: int) -> float:
        """Top of table line ``line`` (0 is the header)."""
        gaps = sum(1 for row in self.rows[:line] if row.detached)
        return self.table_top + line * ROW + gaps * GAP_ROW

    def cell(self, line: int, column: int) -> Box:
        """Column 0 is the rank, 1 the name, then the value columns."""
        name = WIDTH - 2 * theme.MARGIN - RANK - self.columns * NUMBER
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
    """The leaderboard as a small palette PNG."""
    probe = Canvas.new(1, 1)
    footer = wrap(probe, table.footer, FOOTER, WIDTH - 2 * theme.MARGIN) if table.footer else []
    layout = Layout(len(table.headers), table.rows, len(footer))
    canvas = Canvas.new(WIDTH, layout.height)
    room = WIDTH - 2 * theme.MARGIN
    canvas.label((theme.MARGIN, theme.MARGIN + TITLE / 2), table.title, TITLE, room, theme.INK,
                 bold=True, anchor="lm")
    canvas.label((theme.MARGIN, theme.MARGIN + TITLE + 12 + SUBTITLE / 2), table.subtitle,
                 SUBTITLE, room, theme.MUTED, anchor="lm")
    draw_sorted_band(canvas, layout, table.sorted_column)
    draw_header(canvas, layout, table)
    for line, row in enumerate(table.rows, start=1):
        if row.detached:
            draw_gap(canvas, layout, line)
        draw_row(canvas, layout, line, row, table.sorted_column)
    for k, text in enumerate(footer):
        canvas.text((theme.MARGIN, layout.footer_top + k * (FOOTER + 6)), text, FOOTER,
                    theme.MUTED, anchor="lt")
    image = canvas.image.reduce(theme.SUPERSAMPLE)
    return palette_png(palette.to_palette(image, palette.palette_image(leaderboard=True)),
                       colours=palette.ENTRIES)


def draw_sorted_band(canvas: Canvas, layout: Layout, column: int | None) -> None:
    if column is None or not layout.rows:
        return
    top = layout.cell(0, column + 2)
    bottom = layout.cell(len(layout.rows), column + 2)
    canvas.rect((top[0] + 2, top[1] + 4, top[2] - 2, bottom[3] - 2), fill=SORTED_TINT, radius=8)


def draw_header(canvas: Canvas, layout: Layout, table: BoardTable) -> None:
    size = HEADER_TEXT
    rank = layout.cell(0, 0)
    canvas.label(centre(rank), table.rank_header, size, rank[2] - rank[0] - 4, theme.MUTED)
    name = layout.cell(0, 1)
    canvas.label((name[0] + 10, centre(name)[1]), table.name_header, size,
                 name[2] - name[0] - 20, theme.MUTED, anchor="lm")
    for k, header in enumerate(table.headers):
        b = layout.cell(0, k + 2)
        chosen = k == table.sorted_column
        canvas.label((b[2] - 10, centre(b)[1]), header, size, b[2] - b[0] - 12,
                     theme.INK if chosen else theme.MUTED, bold=chosen, anchor="rm")
    left, bottom = theme.MARGIN, layout.cell(0, 0)[3]
    canvas.line(((left, bottom), (WIDTH - theme.MARGIN, bottom)), theme.RULE, 2,
                round_ends=False)


def draw_gap(canvas: Canvas, layout: Layout, line: int) -> None:
    y = layout.line_top(line) - GAP_ROW / 2
    x = centre(layout.cell(line, 0))[0]
    for dx in (-10, 0, 10):
        canvas.ellipse((x + dx - 2, y - 2, x + dx + 2, y + 2), fill=theme.MUTED)


def draw_row(canvas: Canvas, layout: Layout, line: int, row: BoardRow,
             sorted_column: int | None) -> None:
    first = layout.cell(line, 0)
    right = WIDTH - theme.MARGIN
    band = (first[0], first[1] + 3, right, first[3] - 3)
    if row.leader:
        canvas.rect(band, fill=theme.WINNER, radius=8)
    if row.you:
        canvas.rect(band, outline=YOU, width=3, radius=8)
    medal = MEDALS.get(int(row.rank)) if row.rank.isdigit() else None
    middle = centre(first)
    if medal is not None:
        r = ROW * 0.34
        canvas.ellipse((middle[0] - r, middle[1] - r, middle[0] + r, middle[1] + r), fill=medal)
    canvas.text(middle, row.rank, TEXT, theme.INK, bold=True)
    name_cell = layout.cell(line, 1)
    name, size = canvas.fit_name(row.name, TEXT, name_cell[2] - name_cell[0] - 20,
                                 bold=row.leader or row.you)
    canvas.text((name_cell[0] + 10, centre(name_cell)[1]), name, size,
                YOU if row.you else theme.INK, bold=row.leader or row.you, anchor="lm")
    for k, value in enumerate(row.values):
        b = layout.cell(line, k + 2)
        chosen = k == sorted_column
        canvas.text((b[2] - 10, centre(b)[1]), value, TEXT + (1 if chosen else 0),
                    theme.INK if chosen or value.strip() else theme.MUTED, bold=chosen,
                    anchor="rm")
    if not row.detached and line < len(layout.rows) and not layout.rows[line].detached:
        y = first[3]
        canvas.line(((first[0], y), (right, y)), blend(theme.RULE, theme.PAPER, 0.5), 1,
                    round_ends=False)
