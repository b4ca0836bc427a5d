"""A player's Qwinto sheet, drawn like the printed card.

Three staggered rows over a 12-column grid, straight from the rules' geometry
(``bot.rules.qwinto.GEOMETRY``): each row is a band across its own columns, its blank
field with the row's letter, its bonus fields drawn as pentagons (the small sheets of
the table and the scoreboard draw them alike). The triple columns show as grey
bands linking the rows (gold once all three fields are filled: their pentagon scores).
The written numbers stand in the fields; the fields open to the current sum are outlined
with the sum shown faintly in them. The failed-throw boxes sit right of the purple row,
the current throw left of the orange row, and the sum line below.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import partial

from bot.i18n.words import t
from bot.rules import Game, Move
from bot.rules.qwinto import (
    COLUMNS,
    FAILED_LIMIT,
    GEOMETRY,
    PLACE,
    ROWS,
    TRIPLE_COLUMNS,
    QwintoGame,
    column_fields,
)

from . import icons, theme
from .canvas import Box, Canvas
from .parts import (
    SumEntry,
    draw_blank_field,
    draw_card,
    draw_name,
    draw_pentagon_field,
    draw_sum_box,
    draw_sum_value,
    draw_tick,
    draw_tick_boxes,
    draw_title,
    field_centre,
    rounded,
    row_colours,
    sum_boxes,
)
from .theme import blend

VARIANT = "qwinto"


# --- what the sheet says ---------------------------------------------------


def legal_fields(moves: Iterable[Move]) -> set[tuple[str, int]]:
    """The (row, column) number fields that ``moves`` would write; never a blank field."""
    return {
        (m.row, m.number)
        for m in moves
        if m.kind == PLACE and m.row in GEOMETRY and m.number in GEOMETRY[m.row].columns
    }


def complete_columns(game: QwintoGame, player: int) -> list[int]:
    """The triple columns whose three fields ``player`` has filled."""
    fields = game.sheets[player].fields
    return [c for c in TRIPLE_COLUMNS if all(c in fields[r] for r in column_fields(c))]


# --- geometry --------------------------------------------------------------


@dataclass(frozen=True)
class QwintoLayout:
    """Where everything sits on a Qwinto sheet, in output pixels."""

    rows: tuple[str, ...] = ROWS
    columns: int = len(COLUMNS)
    failed_limit: int = FAILED_LIMIT

    @property
    def pitch(self) -> int:
        return theme.QWINTO_CELL + theme.QWINTO_GAP

    @property
    def width(self) -> int:
        cells = self.columns * theme.QWINTO_CELL + (self.columns - 1) * theme.QWINTO_GAP
        return 2 * theme.MARGIN + 2 * theme.BAND_PAD + cells

    @property
    def band_height(self) -> int:
        return theme.QWINTO_CELL + 2 * theme.BAND_PAD

    def column_x(self, column: int) -> float:
        return theme.MARGIN + theme.BAND_PAD + column * self.pitch

    def row_top(self, i: int) -> float:
        return theme.MARGIN + theme.HEADER + i * (self.band_height + theme.QWINTO_ROW_GAP)

    def band_box(self, row: str) -> Box:
        """The coloured band of ``row``, across its own columns only (the stagger)."""
        geometry = GEOMETRY[row]
        y0 = self.row_top(self.rows.index(row))
        return (
            self.column_x(geometry.first) - theme.BAND_PAD,
            y0,
            self.column_x(geometry.last) + theme.QWINTO_CELL + theme.BAND_PAD,
            y0 + self.band_height,
        )

    def field_box(self, row: str, column: int) -> Box:
        """The field of ``row`` in grid column ``column`` (blank fields included)."""
        x0 = self.column_x(column)
        y0 = self.row_top(self.rows.index(row)) + theme.BAND_PAD
        return (x0, y0, x0 + theme.QWINTO_CELL, y0 + theme.QWINTO_CELL)

    def column_band(self, column: int) -> Box:
        """The band behind a triple column, reaching a little above and below the rows."""
        x0 = self.column_x(column)
        top = self.row_top(0) - 6
        bottom = self.row_top(len(self.rows) - 1) + self.band_height + 6
        return (x0 - 3, top, x0 + theme.QWINTO_CELL + 3, bottom)

    # the corners the stagger leaves free
    def corner(self, top: bool) -> Box:
        """Left of the top row, or right of the bottom row, inside the margins."""
        if top:
            y0 = self.row_top(0)
            x1 = self.band_box(self.rows[0])[0] - 12
            return (theme.MARGIN, y0, x1, y0 + self.band_height)
        y0 = self.row_top(len(self.rows) - 1)
        x0 = self.band_box(self.rows[-1])[2] + 8
        return (x0, y0, self.width - theme.MARGIN, y0 + self.band_height)

    def failed_box(self, k: int) -> Box:
        """Failed-throw box ``k`` (0-based): two by two, right of their caption."""
        _, y0, x1, y1 = self.corner(top=False)
        size = theme.QWINTO_FAILED_BOX
        gap = (y1 - y0 - 2 * size) / 3
        left = x1 - 2 * size - gap + (k % 2) * (size + gap)
        top = y0 + gap + (k // 2) * (size + gap)
        return (left, top, left + size, top + size)

    @property
    def failed_caption(self) -> tuple[float, float]:
        """Where the caption's lines start (left, top of the first line)."""
        x0, y0, _, y1 = self.corner(top=False)
        return (x0, (y0 + y1) / 2 - 1.5 * theme.QWINTO_CAPTION_LINE)

    @property
    def throw_box(self) -> Box:
        x0, y0, x1, y1 = self.corner(top=True)
        return (x0, y0 + theme.BAND_PAD, x1, y1 - theme.BAND_PAD)

    # the sum line: orange + yellow + purple + bonus − failed = total
    @property
    def total_top(self) -> float:
        return self.row_top(len(self.rows) - 1) + self.band_height + theme.SECTION_GAP + 8

    def total_boxes(self) -> list[Box]:
        return sum_boxes(self.total_top, len(self.rows) + 3)

    @property
    def height(self) -> int:
        return round(self.total_top + theme.TOTAL_BOX[1] + theme.MARGIN)


LAYOUT = QwintoLayout()


def sheet_size(game: Game | None = None) -> tuple[int, int]:
    """Width and height of a rendered Qwinto sheet in pixels."""
    return LAYOUT.width, LAYOUT.height


def field_box(game: Game | None, row: str, column: int) -> tuple[int, int, int, int]:
    """Pixel box of ``row``'s field in grid column ``column`` (0-11; blank fields too)."""
    if column not in GEOMETRY[row].span:
        raise ValueError(f"{row} has no field in column {column}")
    return rounded(LAYOUT.field_box(row, column))


def failed_box(game: Game | None, k: int) -> tuple[int, int, int, int]:
    """Pixel box of failed-throw box ``k`` (0-based)."""
    return rounded(LAYOUT.failed_box(k))


def column_band_box(game: Game | None, column: int) -> tuple[int, int, int, int]:
    """Pixel box of the band behind triple column ``column``."""
    return rounded(LAYOUT.column_band(column))


def throw_box(game: Game | None = None) -> tuple[int, int, int, int]:
    """Pixel box of the current throw (its dice and sum), left of the orange row."""
    return rounded(LAYOUT.throw_box)


# --- drawing ---------------------------------------------------------------


def render_sheet(game: Game, player: int, name: str, highlight: Iterable[Move] = ()) -> bytes:
    """``player``'s Qwinto sheet as a PNG, the fields ``highlight`` would fill outlined."""
    canvas = Canvas.new(LAYOUT.width, LAYOUT.height)
    draw_sheet(canvas, game, player, name, highlight)
    return canvas.card_png()


def draw_sheet(
    canvas: Canvas, game: Game, player: int, name: str, highlight: Iterable[Move] = ()
) -> None:
    """Draw the sheet onto ``canvas`` with its top-left corner at the canvas origin: the
    printed card (drawn once, see :meth:`Canvas.static`), then what the player wrote on
    it, each piece a sprite (:meth:`Canvas.sprite`)."""
    assert isinstance(game, QwintoGame)
    layout = LAYOUT
    canvas.static(
        ("qwinto-sheet", game.title),
        layout.width,
        layout.height,
        lambda card: draw_printed(card, layout, game.title),
    )
    canvas.sprite(("name", name), lambda c: draw_name(c, layout.width, name, game.title))
    for column in complete_columns(game, player):  # the column's band turns gold
        canvas.sprite(
            ("done", column),
            partial(draw_done_column, layout=layout, title=game.title, column=column),
        )
    legal = legal_fields(highlight)
    faint = (game.dice_total() or 0) if legal else 0
    for row in layout.rows:
        draw_row(canvas, layout, game, player, row, legal, faint)
    for k in range(game.sheets[player].failed):
        tick = layout.failed_box(k)
        canvas.sprite(("failed", k), partial(draw_tick, b=tick))
    dice = game.dice_on_table()
    if dice and not game.finished:
        canvas.sprite(
            ("throw", tuple(sorted(dice.items()))), lambda c: draw_throw(c, layout.throw_box, dice)
        )
    boxes = layout.total_boxes()
    for k, (b, entry) in enumerate(
        zip(boxes, sum_entries(layout, sum_values(game, player)), strict=True)
    ):
        canvas.sprite(("sum", k, entry.value), partial(draw_sum_value, b=b, entry=entry))


def draw_done_column(canvas: Canvas, layout: QwintoLayout, title: str, column: int) -> None:
    """A complete column's band, turned gold under the fields printed over it."""
    canvas.redraw(
        ("qwinto-done", title, column),
        layout.column_band(column),
        lambda card: draw_printed(card, layout, title, {column}),
    )


def draw_printed(
    canvas: Canvas, layout: QwintoLayout, title: str, done: set[int] | None = None
) -> None:
    """The printed card: the column bands (gold for the columns ``done``), the rows' bands
    and empty fields, the failed-throw boxes and the empty sum line."""
    draw_card(canvas, layout.width, layout.height)
    draw_title(canvas, layout.width, title)
    for column in TRIPLE_COLUMNS:
        band = theme.COLUMN_DONE if column in (done or ()) else theme.COLUMN_BAND
        canvas.rect(layout.column_band(column), fill=band, radius=theme.CELL_RADIUS)
    for row in layout.rows:
        draw_printed_row(canvas, layout, row)
    draw_failed(canvas, layout, 0)
    boxes = layout.total_boxes()
    for k, (b, entry) in enumerate(zip(boxes, sum_entries(layout, [0] * len(boxes)), strict=True)):
        draw_sum_box(canvas, b, entry, k == len(boxes) - 1)


def draw_printed_row(canvas: Canvas, layout: QwintoLayout, row: str) -> None:
    """A row's band with its empty fields: squares, pentagons and the blank field."""
    colours = row_colours(row)
    geometry = GEOMETRY[row]
    canvas.rect(layout.band_box(row), fill=colours.band, radius=theme.CELL_RADIUS + theme.BAND_PAD)
    for column in geometry.span:
        draw_field(canvas, layout, row, column)


def draw_field(canvas: Canvas, layout: QwintoLayout, row: str, column: int) -> None:
    """A printed field: a square, a pentagon or the blank field."""
    geometry = GEOMETRY[row]
    colours = row_colours(row)
    b = layout.field_box(row, column)
    if column == geometry.blank:
        draw_blank_field(canvas, b, row, theme.QWINTO_LETTER, theme.CELL_RADIUS)
    elif column in geometry.pentagons:
        draw_pentagon_field(canvas, icons.inset(b, -2), colours.cell)
    else:
        canvas.rect(b, fill=colours.cell, radius=theme.CELL_RADIUS)


def draw_row(
    canvas: Canvas,
    layout: QwintoLayout,
    game: QwintoGame,
    player: int,
    row: str,
    legal: set[tuple[str, int]],
    faint: int,
) -> None:
    """What is written in a row: its numbers, the sum shown faintly in the fields open to
    it (pentagons outlined as pentagons), then the other open fields' rings."""
    colours = row_colours(row)
    geometry = GEOMETRY[row]
    written = game.sheets[player].fields[row]
    complete = len(written) == len(geometry.columns)
    reach = False  # an open pentagon's ring reaches over the next field...
    for column in geometry.span:
        if reach:  # ... which is printed over it again, as the whole sheet is drawn
            canvas.sprite(
                ("field", row, column), partial(draw_field, layout=layout, row=row, column=column)
            )
        reach = False
        if column == geometry.blank:
            continue
        b = layout.field_box(row, column)
        pentagon = column in geometry.pentagons
        open_here = (row, column) in legal
        middle = field_centre(b, pentagon)
        if column in written:
            scoring = complete and column == geometry.columns[-1]
            canvas.sprite(
                ("number", row, column, written[column], scoring),
                partial(draw_number, b=b, middle=middle, number=written[column], scoring=scoring),
            )
        elif open_here:
            canvas.sprite(
                ("open", row, column, faint),
                partial(
                    draw_open, b=b, middle=middle, pentagon=pentagon, colours=colours, faint=faint
                ),
            )
            reach = pentagon
    for column in geometry.columns:  # rings last: neighbours must not cover them
        if (row, column) in legal and column not in geometry.pentagons:
            ring = layout.field_box(row, column)
            canvas.sprite(
                ("ring", row, column), partial(icons.outline, b=ring, radius=theme.CELL_RADIUS)
            )


def draw_open(
    canvas: Canvas,
    b: Box,
    middle: tuple[float, float],
    pentagon: bool,
    colours: theme.RowColours,
    faint: int,
) -> None:
    """A field open to the current sum: the sum faintly in it, a pentagon outlined."""
    if pentagon:
        icons.pentagon_outline(canvas, icons.inset(b, -2), colours.cell)
    if faint:
        canvas.text(
            middle,
            str(faint),
            theme.QWINTO_NUMBER_SIZE,
            blend(colours.ink, colours.cell, 0.55),
            bold=True,
        )


def draw_number(
    canvas: Canvas, b: Box, middle: tuple[float, float], number: int, scoring: bool
) -> None:
    """A written number; the one that scores a complete row is ringed."""
    room = (b[2] - b[0]) - 6
    if scoring:
        r = (b[2] - b[0]) * 0.44
        canvas.ellipse(
            (middle[0] - r, middle[1] - r, middle[0] + r, middle[1] + r), outline=theme.INK, width=3
        )
        room = 2 * r - 14
    text = str(number)
    size = canvas.fit_text(text, theme.QWINTO_NUMBER_SIZE, room, bold=True)
    canvas.text(middle, text, size, theme.INK, bold=True)


def draw_throw(canvas: Canvas, b: Box, dice: dict[str, int]) -> None:
    """The current throw: a chip per rolled die in its colour, and the sum."""
    canvas.rect(b, fill=(246, 246, 246), outline=theme.RULE, width=2, radius=10)
    x0, y0, x1, y1 = b
    canvas.label(
        ((x0 + x1) / 2, y0 + 6),
        t("image.throw"),
        theme.CAPTION_SIZE - 2,
        x1 - x0 - 8,
        theme.MUTED,
        anchor="mt",
    )
    chip = 15
    colours = [c for c in ROWS if c in dice]
    cy = (y0 + y1) / 2 + 9
    left = x0 + 10
    for k, colour in enumerate(colours):
        top = cy - len(colours) * (chip + 3) / 2 + k * (chip + 3)
        canvas.rect(
            (left, top, left + chip, top + chip),
            fill=row_colours(colour).band,
            outline=theme.DIE_EDGE,
            width=1.5,
            radius=4,
        )
    total = sum(dice.values())
    canvas.text(((left + chip + x1) / 2, cy), f"= {total}", theme.TOTAL_SIZE, theme.INK, bold=True)


def draw_failed(canvas: Canvas, layout: QwintoLayout, failed: int) -> None:
    boxes = [layout.failed_box(k) for k in range(layout.failed_limit)]
    draw_tick_boxes(canvas, boxes, failed)
    x, y = layout.failed_caption
    room = boxes[0][0] - x - 4
    lines = t("image.failed_caption").split("\n")
    size = min(canvas.fit_text(line, theme.QWINTO_CAPTION, room) for line in lines)
    for k, line in enumerate(lines):
        canvas.label(
            (x, y + k * theme.QWINTO_CAPTION_LINE), line, size, room, theme.MUTED, anchor="lt"
        )


BONUS_MARK = 24


def draw_bonus_mark(canvas: Canvas, b: Box) -> None:
    """A gold pentagon at the bonus box's left: the bonus is the pentagons' numbers."""
    s = BONUS_MARK
    x0, cy = b[0] + 7, (b[1] + b[3]) / 2
    shape = (x0, cy - s / 2 - 1, x0 + s, cy + s / 2 - 1)
    canvas.polygon(icons.pentagon(shape), fill=theme.COLUMN_DONE, outline=theme.INK, width=2)


def sum_values(game: QwintoGame, player: int) -> list[int]:
    score = game.scores()[player]
    return [*(score.rows[r] for r in ROWS), score.bonus, -score.penalty_points, score.total]


def sum_entries(layout: QwintoLayout, values: list[int]) -> list[SumEntry]:
    """orange + yellow + purple + bonus − failed throws = total, with ``values`` in that
    order."""
    rows = len(layout.rows)
    entries = [SumEntry(v, row_colours(r)) for r, v in zip(layout.rows, values, strict=False)]
    return [
        *entries,
        SumEntry(values[rows], operator="−", decorate=draw_bonus_mark, shift=BONUS_MARK / 2 + 2),
        SumEntry(values[rows + 1], operator="="),
        SumEntry(values[rows + 2]),
    ]
