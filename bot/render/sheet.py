"""A player's Qwixx sheet, drawn like the printed card.

Everything is computed from the game's data: the rows and their numbers come from
``game.rules.numbers(row)``, the points table from the row length and lock span, the
penalty boxes from ``rules.penalty_limit``. Longo's longer rows need no change here.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum

from bot.rules import Move
from bot.rules.qwixx import ROWS, QwixxGame, triangle

from . import icons, theme
from .canvas import Box, Canvas, Colour

CROSS_KIND = "cross"


class Cell(Enum):
    """What a number cell shows."""

    OPEN = "open"
    CROSSED = "crossed"
    SKIPPED = "skipped"  # left behind for good: struck through and greyed


# --- what the sheet says ---------------------------------------------------


def row_states(game: QwixxGame, player: int, row: str) -> list[Cell]:
    """The state of each number of ``row`` on ``player``'s sheet, left to right."""
    numbers = game.rules.numbers(row)
    crossed = set(game.sheets[player].crossed[row])
    last = max((numbers.index(n) for n in crossed), default=-1)
    dead = row in game.closed
    return [
        Cell.CROSSED if n in crossed else Cell.SKIPPED if dead or i < last else Cell.OPEN
        for i, n in enumerate(numbers)
    ]


def highlighted(moves: Iterable[Move]) -> set[tuple[str, int]]:
    """The (row, number) cells that ``moves`` would cross."""
    return {(m.row, m.number) for m in moves
            if m.kind == CROSS_KIND and m.row is not None and m.number is not None}


def max_crosses(game: QwixxGame, row: str) -> int:
    """Most crosses a row can hold: its numbers but the spare lock numbers, plus the lock."""
    return len(game.rules.numbers(row)) - len(game.lock_numbers(row)) + 2


# --- geometry --------------------------------------------------------------


@dataclass(frozen=True)
class SheetLayout:
    """Where everything sits on a sheet, in output pixels, computed from the game's data."""

    rows: tuple[str, ...]
    lengths: tuple[int, ...]
    table_columns: int
    penalty_limit: int

    @classmethod
    def of(cls, game: QwixxGame) -> SheetLayout:
        rows = tuple(r for r in ROWS if r in game.sheets[game.players[0]].crossed)
        return cls(rows, tuple(len(game.rules.numbers(r)) for r in rows),
                   max(max_crosses(game, r) for r in rows), game.rules.penalty_limit)

    # rows of cells
    @property
    def slots(self) -> int:
        return max(self.lengths) + 1  # numbers plus the lock

    @property
    def band_height(self) -> int:
        return theme.CELL + 2 * theme.BAND_PAD

    @property
    def width(self) -> int:
        cells = self.slots * theme.CELL + (self.slots - 1) * theme.GAP
        return 2 * theme.MARGIN + 2 * theme.BAND_PAD + theme.ARROW + cells

    def band_box(self, i: int) -> Box:
        y0 = theme.MARGIN + theme.HEADER + i * (self.band_height + theme.ROW_GAP)
        return (theme.MARGIN, y0, self.width - theme.MARGIN, y0 + self.band_height)

    def cell_box(self, i: int, j: int) -> Box:
        """The ``j``-th cell of row ``i``; ``j == lengths[i]`` is the lock."""
        bx0, by0, _, _ = self.band_box(i)
        x0 = bx0 + theme.BAND_PAD + theme.ARROW + j * (theme.CELL + theme.GAP)
        y0 = by0 + theme.BAND_PAD
        return (x0, y0, x0 + theme.CELL, y0 + theme.CELL)

    def arrow_box(self, i: int) -> Box:
        bx0, by0, _, by1 = self.band_box(i)
        return (bx0 + 3, by0 + theme.BAND_PAD, bx0 + theme.BAND_PAD + theme.ARROW - 2,
                by1 - theme.BAND_PAD)

    # points table and penalties
    @property
    def table_top(self) -> float:
        return self.band_box(len(self.rows) - 1)[3] + theme.SECTION_GAP

    @property
    def penalty_width(self) -> float:
        return self.penalty_limit * theme.PENALTY_BOX + (self.penalty_limit - 1) * 8

    @property
    def table_cell_width(self) -> float:
        room = self.width - 2 * theme.MARGIN - theme.TABLE_LABEL - self.penalty_width - 24
        return min(theme.TABLE_CELL[0], room / self.table_columns)

    def table_box(self, line: int, column: int) -> Box:
        """Column ``column`` (0 = label) of table line ``line`` (0 crosses, 1 points)."""
        w, h = self.table_cell_width, theme.TABLE_CELL[1]
        x0 = theme.MARGIN if column == 0 else theme.MARGIN + theme.TABLE_LABEL + (column - 1) * w
        x1 = theme.MARGIN + theme.TABLE_LABEL if column == 0 else x0 + w
        y0 = self.table_top + line * h
        return (x0, y0, x1, y0 + h)

    def penalty_box(self, k: int) -> Box:
        x0 = self.width - theme.MARGIN - self.penalty_width + k * (theme.PENALTY_BOX + 8)
        y1 = self.table_top + 2 * theme.TABLE_CELL[1]
        return (x0, y1 - theme.PENALTY_BOX, x0 + theme.PENALTY_BOX, y1)

    # the sum line
    @property
    def total_top(self) -> float:
        return self.table_top + 2 * theme.TABLE_CELL[1] + theme.SECTION_GAP

    def total_boxes(self) -> list[Box]:
        """One box per row, one for penalties, one (wider) for the total."""
        w, h = theme.TOTAL_BOX
        boxes: list[Box] = []
        x = theme.MARGIN
        for k in range(len(self.rows) + 2):
            width = w * 1.4 if k == len(self.rows) + 1 else w
            boxes.append((x, self.total_top, x + width, self.total_top + h))
            x += width + theme.OPERATOR
        return boxes

    @property
    def height(self) -> int:
        return round(self.total_top + theme.TOTAL_BOX[1] + theme.MARGIN)


def sheet_size(game: QwixxGame) -> tuple[int, int]:
    """Width and height of a rendered sheet in pixels."""
    layout = SheetLayout.of(game)
    return layout.width, layout.height


def cell_box(game: QwixxGame, row: str, index: int) -> tuple[int, int, int, int]:
    """Pixel box of number ``index`` of ``row`` (``len(numbers)`` is the lock)."""
    layout = SheetLayout.of(game)
    x0, y0, x1, y1 = layout.cell_box(layout.rows.index(row), index)
    return round(x0), round(y0), round(x1), round(y1)


def lock_box(game: QwixxGame, row: str) -> tuple[int, int, int, int]:
    """Pixel box of the lock symbol at the end of ``row``."""
    return cell_box(game, row, len(game.rules.numbers(row)))


def penalty_box(game: QwixxGame, k: int) -> tuple[int, int, int, int]:
    """Pixel box of penalty box ``k`` (0-based)."""
    x0, y0, x1, y1 = SheetLayout.of(game).penalty_box(k)
    return round(x0), round(y0), round(x1), round(y1)


# --- drawing ---------------------------------------------------------------


def render_sheet(game: QwixxGame, player: int, name: str,
                 highlight: Iterable[Move] = ()) -> bytes:
    """``player``'s sheet as a PNG, with the cells ``highlight`` would cross outlined."""
    layout = SheetLayout.of(game)
    canvas = Canvas.new(layout.width, layout.height)
    draw_sheet(canvas, game, player, name, highlight, layout)
    return canvas.png()


def draw_sheet(canvas: Canvas, game: QwixxGame, player: int, name: str,
               highlight: Iterable[Move] = (), layout: SheetLayout | None = None) -> None:
    """Draw the sheet onto ``canvas`` with its top-left corner at the canvas origin."""
    layout = layout or SheetLayout.of(game)
    canvas.rect((1, 1, layout.width - 1, layout.height - 1), fill=theme.PAPER,
                outline=theme.CARD_EDGE, width=2, radius=14)
    draw_header(canvas, layout, name, game.title)
    marked = highlighted(highlight)
    for i, row in enumerate(layout.rows):
        draw_row(canvas, layout, game, player, i, row, marked)
    draw_points_table(canvas, layout)
    draw_penalties(canvas, layout, game.sheets[player].penalties)
    draw_totals(canvas, layout, game, player)


def draw_header(canvas: Canvas, layout: SheetLayout, name: str, title: str) -> None:
    baseline = theme.MARGIN + theme.HEADER - 14
    right = layout.width - theme.MARGIN
    canvas.text((right, baseline), title, theme.TITLE_SIZE, theme.MUTED, anchor="rs")
    room = right - theme.MARGIN - canvas.text_width(title, theme.TITLE_SIZE) - 20
    name, size = canvas.fit_name(name, theme.NAME_SIZE, room, bold=True)
    canvas.text((theme.MARGIN + 4, baseline), name, size, theme.INK, bold=True, anchor="ls")


def signed(value: int) -> str:
    """``value`` with a typographic minus sign."""
    return f"−{-value}" if value < 0 else str(value)


def row_colours(row: str) -> theme.RowColours:
    return theme.ROW_COLOURS.get(row, theme.FALLBACK_ROW)


def blend(a: Colour, b: Colour, t: float) -> Colour:
    """``a`` moved a fraction ``t`` towards ``b``."""
    return (round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t),
            round(a[2] + (b[2] - a[2]) * t))


def draw_row(canvas: Canvas, layout: SheetLayout, game: QwixxGame, player: int, i: int,
             row: str, marked: set[tuple[str, int]]) -> None:
    colours = row_colours(row)
    closed = row in game.closed
    band = blend(colours.band, theme.CLOSED_BAND, 0.6) if closed else colours.band
    canvas.rect(layout.band_box(i), fill=band, radius=theme.CELL_RADIUS + theme.BAND_PAD)
    icons.arrow(canvas, layout.arrow_box(i), theme.PAPER)
    numbers = game.rules.numbers(row)
    for j, (number, state) in enumerate(zip(numbers, row_states(game, player, row),
                                            strict=True)):
        draw_cell(canvas, layout.cell_box(i, j), number, state, colours)
    for j, number in enumerate(numbers):
        if (row, number) in marked:
            icons.outline(canvas, layout.cell_box(i, j), theme.CELL_RADIUS)
    lock = layout.cell_box(i, len(numbers))
    draw_lock(canvas, lock, colours, closed, row in game.sheets[player].locks)
    if closed:
        draw_locked_tab(canvas, lock[2], layout.band_box(i)[1])


def draw_cell(canvas: Canvas, b: Box, number: int, state: Cell,
              colours: theme.RowColours) -> None:
    skipped = state is Cell.SKIPPED
    canvas.rect(b, fill=theme.SKIPPED_CELL if skipped else colours.cell,
                radius=theme.CELL_RADIUS)
    centre = ((b[0] + b[2]) / 2, (b[1] + b[3]) / 2)
    text = str(number)
    size = canvas.fit_text(text, theme.NUMBER_SIZE, (b[2] - b[0]) - 6, bold=True)
    ink = theme.SKIPPED_INK if skipped else colours.ink
    canvas.text(centre, text, size, ink, bold=True)
    if state is Cell.CROSSED:
        icons.cross(canvas, b)
    elif skipped:
        icons.strike(canvas, b)


def draw_lock(canvas: Canvas, b: Box, colours: theme.RowColours, closed: bool,
              crossed: bool) -> None:
    """The lock symbol: open on a pale disc, or closed on a dark disc once the row is locked."""
    disc = icons.inset(b, 2)
    if closed:
        canvas.ellipse(disc, fill=theme.INK, outline=theme.PAPER, width=3)
        icons.padlock(canvas, icons.inset(b, 15), theme.PAPER, closed=True, keyhole=theme.INK)
    else:
        canvas.ellipse(disc, fill=colours.cell)
        icons.padlock(canvas, icons.inset(b, 15), colours.ink, closed=False,
                      keyhole=colours.cell)
    if crossed:
        icons.cross(canvas, b, colour=theme.INK if not closed else theme.PAPER,
                    halo=theme.PAPER if not closed else theme.INK)


def draw_locked_tab(canvas: Canvas, right: float, y: float) -> None:
    """A dark "LOCKED" tab on the top edge of a row closed for everyone."""
    text = "LOCKED"
    width = canvas.text_width(text, theme.TAB_SIZE, bold=True) + 2 * theme.TAB_SIZE
    h = theme.TAB_SIZE * 1.5
    canvas.rect((right - width, y - h / 2, right, y + h / 2), fill=theme.INK,
                outline=theme.PAPER, width=2, radius=h / 2)
    canvas.text((right - width / 2, y), text, theme.TAB_SIZE, theme.PAPER, bold=True)


def draw_points_table(canvas: Canvas, layout: SheetLayout) -> None:
    """Crosses 1..n and the points each count scores, as printed under the rows."""
    labels = ("crosses", "points")
    for line, label in enumerate(labels):
        lb = layout.table_box(line, 0)
        canvas.text((lb[0] + 4, (lb[1] + lb[3]) / 2), label, theme.TABLE_SIZE - 2,
                    theme.MUTED, anchor="lm")
        for c in range(1, layout.table_columns + 1):
            b = layout.table_box(line, c)
            value = c if line == 0 else triangle(c)
            canvas.rect(b, fill=theme.PAPER if line == 0 else (244, 244, 244),
                        outline=theme.RULE, width=1)
            canvas.text(((b[0] + b[2]) / 2, (b[1] + b[3]) / 2), str(value),
                        theme.TABLE_SIZE, theme.INK, bold=line == 1)


def draw_penalties(canvas: Canvas, layout: SheetLayout, penalties: int) -> None:
    first = layout.penalty_box(0)
    canvas.text((first[0], layout.table_top), "penalties  −5 each", theme.CAPTION_SIZE,
                theme.MUTED, anchor="lt")
    for k in range(layout.penalty_limit):
        b = layout.penalty_box(k)
        canvas.rect(b, fill=theme.PAPER, outline=theme.INK, width=2, radius=6)
        if k < penalties:
            icons.cross(canvas, b, width=5, halo=None)


def draw_totals(canvas: Canvas, layout: SheetLayout, game: QwixxGame, player: int) -> None:
    """The sum line: row points + ... − penalty points = total."""
    score = game.scores()[player]
    boxes = layout.total_boxes()
    values = [score.rows[r] for r in layout.rows]
    values += [-score.penalty_points, score.total]
    operators = ["+"] * (len(layout.rows) - 1) + ["−", "="]
    for k, (b, value) in enumerate(zip(boxes, values, strict=True)):
        is_total = k == len(boxes) - 1
        if k < len(layout.rows):
            colours = row_colours(layout.rows[k])
            canvas.rect(b, fill=colours.cell, outline=colours.band, width=4, radius=8)
        else:
            canvas.rect(b, fill=theme.PAPER, outline=theme.INK, width=4 if is_total else 2,
                        radius=8)
        centre = ((b[0] + b[2]) / 2, (b[1] + b[3]) / 2)
        canvas.text(centre, signed(value), theme.TOTAL_SIZE, theme.INK, bold=True)
        if k < len(operators):
            canvas.text((b[2] + theme.OPERATOR / 2, centre[1]), operators[k], theme.TOTAL_SIZE,
                        theme.MUTED, bold=True)
