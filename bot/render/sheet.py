"""A player's sheet, drawn like the printed card: Qwixx and Qwixx Longo here, Qwinto in
:mod:`.qwinto_sheet` (``render_sheet`` dispatches on ``game.variant``).

Everything is computed from the game's data: the rows and their numbers come from
``game.rules.numbers(row)``, the points table from the row length and lock span, the
penalty boxes from ``rules.penalty_limit``. Rows longer than ``theme.NARROW_FROM`` numbers
(Longo's 15) get narrower cells and condensed digits. Games with ``lucky`` numbers (Longo)
show them in a clover badge, and the cells a lucky number may cross carry a clover.
Games with a board (Qwixx On Board) add a bonus box with the player's pawn to the sum
line, and outline the cells their pawn moves would cross.

The printed card (bands, numbers, locks, points table, empty boxes) depends on the layout
only: it is drawn once and pasted from a cache (:meth:`Canvas.static`), and each piece the
player wrote over it (a crossed cell, an outline, the name, a sum) comes from a cache of
its output pixels (:meth:`Canvas.sprite`), giving the same pixels as drawing it all.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from enum import Enum
from functools import cached_property, partial

from bot.i18n.words import t
from bot.rules import Game, Move
from bot.rules.onboard import OnBoardGame
from bot.rules.qwixx import ROWS, QwixxGame, triangle

from . import icons, qwinto_sheet, theme
from .canvas import Box, Canvas
from .palette import TABLE_FILL
from .parts import (
    SumEntry,
    centre,
    cross_halo,
    draw_card,
    draw_cell_cross,
    draw_lock,
    draw_name,
    draw_pawn,
    draw_sum_box,
    draw_sum_value,
    draw_tick,
    draw_tick_boxes,
    draw_title,
    measure,
    rounded,
    row_colours,
    row_letter,
    signed,
    square,
    sum_boxes,
    title_left,
)
from .theme import blend

CROSS_KIND = "cross"
LUCKY_KIND = "lucky"
PAWN_KIND = "pawn"

__all__ = [
    "Cell",
    "SheetLayout",
    "blend",
    "cell_box",
    "draw_sheet",
    "highlighted",
    "lock_box",
    "lucky_box",
    "lucky_cells",
    "lucky_numbers",
    "penalty_box",
    "render_sheet",
    "row_colours",
    "row_states",
    "sheet_size",
    "signed",
]


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
    dead = row in game.closed_rows()
    return [
        Cell.CROSSED if n in crossed else Cell.SKIPPED if dead or i < last else Cell.OPEN
        for i, n in enumerate(numbers)
    ]


def highlighted(moves: Iterable[Move]) -> set[tuple[str, int]]:
    """The (row, number) cells that ``moves`` would cross."""
    return {
        (m.row, m.number)
        for m in moves
        if m.kind == CROSS_KIND and m.row is not None and m.number is not None
    }


def lucky_cells(moves: Iterable[Move]) -> set[tuple[str, int]]:
    """The (row, number) cells that lucky-number ``moves`` (Longo) would cross."""
    return {
        (m.row, m.number)
        for m in moves
        if m.kind == LUCKY_KIND and m.row is not None and m.number is not None
    }


def pawn_cells(game: QwixxGame, player: int, moves: Iterable[Move]) -> set[tuple[str, int]]:
    """The (row, number) cells that pawn ``moves`` (On Board's action 3) would cross."""
    cells: set[tuple[str, int]] = set()
    if not game.has_board:  # no board: no pawn moves (Longo offers many moves to look at)
        return cells
    assert isinstance(game, OnBoardGame)
    for move in moves:
        if move.kind == PAWN_KIND and move.number is not None:
            target = game.pawn_target(player, move.number)
            if target is not None and target[2]:
                cells.add((target[1].colour, target[1].number))
    return cells


def lucky_numbers(game: QwixxGame, player: int) -> tuple[int, int] | None:
    """``player``'s two lucky numbers, for variants that deal them (Longo)."""
    if not game.has_lucky_numbers:
        return None
    a, b = game.lucky_numbers(player)
    return (a, b)


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
    title: str = "Qwixx"
    lucky: bool = False  # the game deals lucky numbers: a badge in the name line
    labels: tuple[str, ...] = ()  # every number printed in a cell, to size the digits
    board: bool = False  # the game has a board: a bonus box in the sum line

    @classmethod
    def of(cls, game: QwixxGame) -> SheetLayout:
        rows = tuple(r for r in ROWS if r in game.sheets[game.players[0]].crossed)
        labels = sorted({str(n) for r in rows for n in game.rules.numbers(r)})
        return cls(
            rows,
            tuple(len(game.rules.numbers(r)) for r in rows),
            max(max_crosses(game, r) for r in rows),
            game.rules.penalty_limit,
            game.title,
            lucky_numbers(game, game.players[0]) is not None,
            tuple(labels),
            game.has_board,
        )

    # rows of cells
    @cached_property
    def slots(self) -> int:
        return max(self.lengths) + 1  # numbers plus the lock

    @cached_property
    def narrow(self) -> bool:
        """Long rows (Longo): narrower cells, condensed digits."""
        return max(self.lengths) > theme.NARROW_FROM

    @cached_property
    def cell_size(self) -> tuple[int, int]:
        return theme.NARROW_CELL if self.narrow else (theme.CELL, theme.CELL)

    @cached_property
    def gap(self) -> int:
        return theme.NARROW_GAP if self.narrow else theme.GAP

    @cached_property
    def number_size(self) -> float:
        """One size for every number on the sheet: the largest at which all fit their cells."""
        if not self.narrow:
            return theme.NUMBER_SIZE
        room = self.cell_size[0] - theme.NARROW_PAD
        widest = max(self.labels or ("16",), key=lambda t: measure(t, 100, condensed=True))
        size: float = theme.NUMBER_SIZE + 4
        while size > 12 and measure(widest, size, condensed=True) > room:
            size -= 0.5
        return size

    @cached_property
    def band_height(self) -> int:
        return self.cell_size[1] + 2 * theme.BAND_PAD

    @cached_property
    def width(self) -> int:
        cells = self.slots * self.cell_size[0] + (self.slots - 1) * self.gap
        return 2 * theme.MARGIN + 2 * theme.BAND_PAD + theme.ARROW + cells

    def band_box(self, i: int) -> Box:
        y0 = theme.MARGIN + theme.HEADER + i * (self.band_height + theme.ROW_GAP)
        return (theme.MARGIN, y0, self.width - theme.MARGIN, y0 + self.band_height)

    def cell_box(self, i: int, j: int) -> Box:
        """The ``j``-th cell of row ``i``; ``j == lengths[i]`` is the lock."""
        bx0, by0, _, _ = self.band_box(i)
        w, h = self.cell_size
        x0 = bx0 + theme.BAND_PAD + theme.ARROW + j * (w + self.gap)
        y0 = by0 + theme.BAND_PAD
        return (x0, y0, x0 + w, y0 + h)

    def arrow_box(self, i: int) -> Box:
        bx0, by0, _, by1 = self.band_box(i)
        return (
            bx0 + 3,
            by0 + theme.BAND_PAD,
            bx0 + theme.BAND_PAD + theme.ARROW - 2,
            by1 - theme.BAND_PAD,
        )

    # the name line
    @cached_property
    def lucky_box(self) -> Box | None:
        """The clover badge with the player's lucky numbers, left of the title."""
        if not self.lucky:
            return None
        w, h = theme.LUCKY_BADGE
        x1 = title_left(self.width, self.title) - 16
        y1 = theme.MARGIN + theme.HEADER - 8
        return (x1 - w, y1 - h, x1, y1)

    @cached_property
    def name_right(self) -> float:
        """Where the player's name must end."""
        badge = self.lucky_box
        return badge[0] if badge else title_left(self.width, self.title)

    # points table and penalties
    @cached_property
    def table_top(self) -> float:
        return self.band_box(len(self.rows) - 1)[3] + theme.SECTION_GAP

    @cached_property
    def penalty_width(self) -> float:
        return self.penalty_limit * theme.PENALTY_BOX + (self.penalty_limit - 1) * 8

    @cached_property
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
    @cached_property
    def total_top(self) -> float:
        return self.table_top + 2 * theme.TABLE_CELL[1] + theme.SECTION_GAP

    def total_boxes(self) -> list[Box]:
        """One box per row, the board bonus (On Board), penalties, and the (wider) total."""
        return sum_boxes(self.total_top, len(self.rows) + 2 + self.board)

    @cached_property
    def height(self) -> int:
        return round(self.total_top + theme.TOTAL_BOX[1] + theme.MARGIN)


def is_qwinto(game: Game) -> bool:
    return game.variant == qwinto_sheet.VARIANT


def sheet_size(game: Game) -> tuple[int, int]:
    """Width and height of a rendered sheet in pixels, for every variant."""
    if is_qwinto(game):
        return qwinto_sheet.sheet_size(game)
    assert isinstance(game, QwixxGame)  # every other variant is of the Qwixx family
    layout = SheetLayout.of(game)
    return layout.width, layout.height


def cell_box(game: QwixxGame, row: str, index: int) -> tuple[int, int, int, int]:
    """Pixel box of number ``index`` of ``row`` (``len(numbers)`` is the lock)."""
    layout = SheetLayout.of(game)
    return rounded(layout.cell_box(layout.rows.index(row), index))


def number_box(game: QwixxGame, row: str, number: int) -> tuple[int, int, int, int]:
    """Pixel box of the cell printed ``number`` in ``row``."""
    return cell_box(game, row, game.rules.numbers(row).index(number))


def lock_box(game: QwixxGame, row: str) -> tuple[int, int, int, int]:
    """Pixel box of the lock symbol at the end of ``row``."""
    return cell_box(game, row, len(game.rules.numbers(row)))


def penalty_box(game: QwixxGame, k: int) -> tuple[int, int, int, int]:
    """Pixel box of penalty box ``k`` (0-based)."""
    return rounded(SheetLayout.of(game).penalty_box(k))


def lucky_box(game: QwixxGame) -> tuple[int, int, int, int] | None:
    """Pixel box of the lucky-number badge in the name line (None without lucky numbers)."""
    badge = SheetLayout.of(game).lucky_box
    return rounded(badge) if badge else None


# --- drawing ---------------------------------------------------------------


def render_sheet(game: Game, player: int, name: str, highlight: Iterable[Move] = ()) -> bytes:
    """``player``'s sheet as a PNG, with the fields ``highlight`` would fill outlined.

    Qwixx and Longo sheets outline the cells of "cross" moves and mark those of "lucky"
    moves with a clover; Qwinto sheets outline the fields of "place" moves.
    """
    if is_qwinto(game):
        return qwinto_sheet.render_sheet(game, player, name, highlight)
    assert isinstance(game, QwixxGame)
    layout = SheetLayout.of(game)
    canvas = Canvas.new(layout.width, layout.height)
    draw_qwixx_sheet(canvas, game, player, name, highlight, layout)
    return canvas.card_png()


def draw_sheet(
    canvas: Canvas, game: Game, player: int, name: str, highlight: Iterable[Move] = ()
) -> None:
    """Draw any variant's sheet onto ``canvas`` with its top-left corner at the origin."""
    if is_qwinto(game):
        qwinto_sheet.draw_sheet(canvas, game, player, name, highlight)
    else:
        assert isinstance(game, QwixxGame)
        draw_qwixx_sheet(canvas, game, player, name, highlight)


def draw_qwixx_sheet(
    canvas: Canvas,
    game: QwixxGame,
    player: int,
    name: str,
    highlight: Iterable[Move] = (),
    layout: SheetLayout | None = None,
) -> None:
    """The printed card (drawn once per layout, see :meth:`Canvas.static`), then what the
    player wrote on it."""
    layout = layout or SheetLayout.of(game)
    numbers = tuple(tuple(game.rules.numbers(row)) for row in layout.rows)
    canvas.static(
        ("qwixx-sheet", layout, numbers),
        layout.width,
        layout.height,
        lambda card: draw_printed(card, layout, numbers),
    )
    draw_written(canvas, layout, game, player, name, list(highlight))


def draw_printed(canvas: Canvas, layout: SheetLayout, numbers: tuple[tuple[int, ...], ...]) -> None:
    """Everything printed on the card: it depends on the layout and the numbers only."""
    draw_card(canvas, layout.width, layout.height)
    draw_title(canvas, layout.width, layout.title)
    for i, row in enumerate(layout.rows):
        draw_band(canvas, layout, i, row, numbers[i])
        draw_lock(canvas, layout.cell_box(i, len(numbers[i])), row_colours(row), False, False)
    draw_points_table(canvas, layout)
    draw_tick_boxes(
        canvas,
        penalty_boxes(layout),
        0,
        t("image.penalty_caption"),
        penalty_caption(layout),
        room=layout.penalty_width,
    )
    boxes = layout.total_boxes()
    printed = sum_entries(layout, [0] * len(boxes))
    for k, (b, entry) in enumerate(zip(boxes, printed, strict=True)):
        draw_sum_box(canvas, b, entry, k == len(boxes) - 1)


def draw_written(
    canvas: Canvas, layout: SheetLayout, game: QwixxGame, player: int, name: str, moves: list[Move]
) -> None:
    """What ``player`` wrote on the printed card, and the outlines of ``moves``.

    Drawn in the order a whole sheet is drawn, each piece over the printed piece it
    changes, so that card and writing give the same pixels as drawing all at once.
    """
    canvas.sprite(
        ("name", name), lambda c: draw_name(c, layout.width, name, game.title, layout.name_right)
    )
    lucky, badge = lucky_numbers(game, player), layout.lucky_box
    if badge and lucky:
        canvas.sprite(("lucky", lucky), lambda c: draw_lucky_badge(c, badge, lucky))
    marked, clovers = highlighted(moves) | pawn_cells(game, player, moves), lucky_cells(moves)
    sheet = game.sheets[player]
    closed = game.closed_rows()
    for i, row in enumerate(layout.rows):
        if row in closed or row in sheet.locks:  # the band changes: draw it anew
            look = (
                "row",
                i,
                tuple(row_states(game, player, row)),
                row in closed,
                row in sheet.locks,
                frozenset(n for r, n in marked | clovers if r == row),
                frozenset(n for r, n in clovers if r == row),
            )
            canvas.sprite(
                look,
                partial(
                    draw_row,
                    layout=layout,
                    game=game,
                    player=player,
                    i=i,
                    row=row,
                    marked=marked,
                    clovers=clovers,
                ),
            )
        else:
            draw_row_marks(canvas, layout, game, player, i, row, marked, clovers)
    for k, b in enumerate(penalty_boxes(layout)[: sheet.penalties]):
        canvas.sprite(("tick", k), partial(draw_tick, b=b))
    seat = game.players.index(player)
    for k, (b, entry) in enumerate(
        zip(layout.total_boxes(), written_sums(layout, game, player), strict=True)
    ):
        canvas.sprite(
            ("sum", k, entry.value, entry.decorate and seat),
            partial(draw_sum_value, b=b, entry=entry),
        )


def draw_lucky_badge(canvas: Canvas, b: Box, lucky: tuple[int, int]) -> None:
    """A pale green pill: clover, "lucky", and the two numbers in bold."""
    h = b[3] - b[1]
    canvas.rect(b, fill=theme.CLOVER_PALE, outline=theme.CLOVER, width=2.5, radius=h / 2)
    icon = h * 0.78
    cy = (b[1] + b[3]) / 2
    x = b[0] + h * 0.18
    icons.clover(canvas, (x, cy - icon / 2, x + icon, cy + icon / 2))
    x += icon + 6
    numbers = f"{lucky[0]} · {lucky[1]}"
    right = b[2] - h * 0.35
    # the numbers may give up a third of their size to a longer word than "lucky" (two
    # numbers of two digits and Polish's "szczęśliwe" need that much)
    room = right - x - 6 - canvas.text_width(numbers, theme.LUCKY_SIZE * 0.65, bold=True)
    x += canvas.label(
        (x, cy), t("image.lucky"), theme.LUCKY_CAPTION, room, theme.CLOVER, anchor="lm"
    )
    size = canvas.fit_text(numbers, theme.LUCKY_SIZE, right - x - 6, bold=True)
    canvas.text((right, cy), numbers, size, theme.INK, bold=True, anchor="rm")


def draw_row(
    canvas: Canvas,
    layout: SheetLayout,
    game: QwixxGame,
    player: int,
    i: int,
    row: str,
    marked: set[tuple[str, int]],
    clovers: set[tuple[str, int]] | None = None,
) -> None:
    """A whole row: its band with every cell as the player left it, the outlines of the
    cells open to them, and its lock."""
    colours = row_colours(row)
    closed = row in game.closed_rows()
    numbers = game.rules.numbers(row)
    draw_band(canvas, layout, i, row, numbers, closed, row_states(game, player, row))
    draw_highlights(canvas, layout, i, row, numbers, marked, clovers or set())
    lock = layout.cell_box(i, len(numbers))
    draw_lock(canvas, lock, colours, closed, row in game.sheets[player].locks)
    if closed:
        band = layout.band_box(i)
        draw_locked_tab(canvas, lock[2], band[1], (band[2] - band[0]) / 3)


def draw_band(
    canvas: Canvas,
    layout: SheetLayout,
    i: int,
    row: str,
    numbers: Sequence[int],
    closed: bool = False,
    states: Sequence[Cell] | None = None,
) -> None:
    """The band of row ``i`` with its arrow and number cells (all open without ``states``)."""
    colours = row_colours(row)
    band = blend(colours.band, theme.CLOSED_BAND, 0.6) if closed else colours.band
    canvas.rect(layout.band_box(i), fill=band, radius=theme.CELL_RADIUS + theme.BAND_PAD)
    draw_row_label(canvas, layout.arrow_box(i), row, closed)
    for j, number in enumerate(numbers):
        draw_cell(
            canvas,
            layout.cell_box(i, j),
            number,
            states[j] if states else Cell.OPEN,
            colours,
            layout.number_size,
            layout.narrow,
        )


def draw_row_label(canvas: Canvas, b: Box, row: str, closed: bool = False) -> None:
    """The row's letter over a small arrow (the direction of crossing): rows stay apart
    without their colours."""
    ink = theme.INK if row in theme.LIGHT_BANDS and not closed else theme.PAPER
    x0, y0, x1, y1 = b
    cx = (x0 + x1) / 2
    canvas.text(
        (cx, y0 + theme.ROW_LETTER * 0.62), row_letter(row), theme.ROW_LETTER, ink, bold=True
    )
    h = (y1 - y0) * 0.34
    icons.arrow(canvas, (x0 + 2, y1 - h - 4, x1 - 2, y1 - 4), ink)


def draw_row_marks(
    canvas: Canvas,
    layout: SheetLayout,
    game: QwixxGame,
    player: int,
    i: int,
    row: str,
    marked: set[tuple[str, int]],
    clovers: set[tuple[str, int]],
) -> None:
    """An open row's crosses, struck cells and outlines, over its printed band."""
    colours = row_colours(row)
    numbers = game.rules.numbers(row)
    for j, (number, state) in enumerate(zip(numbers, row_states(game, player, row), strict=True)):
        b = layout.cell_box(i, j)
        if state is Cell.SKIPPED:
            canvas.sprite(
                ("cell", i, j, state),
                partial(
                    draw_cell,
                    b=b,
                    number=number,
                    state=Cell.SKIPPED,
                    colours=colours,
                    size=layout.number_size,
                    condensed=layout.narrow,
                ),
            )
        elif state is Cell.CROSSED:  # the printed cell already shows the number
            canvas.sprite(
                ("cell", i, j, state),
                partial(
                    draw_cross_over,
                    b=b,
                    number=number,
                    colours=colours,
                    size=layout.number_size,
                    condensed=layout.narrow,
                ),
            )
    draw_highlights(canvas, layout, i, row, numbers, marked, clovers)
    if (row, numbers[-1]) in marked | clovers:  # its outline reaches over the lock
        lock = layout.cell_box(i, len(numbers))
        canvas.sprite(("lock", i), lambda c: draw_lock(c, lock, colours, False, False))


def draw_highlights(
    canvas: Canvas,
    layout: SheetLayout,
    i: int,
    row: str,
    numbers: Sequence[int],
    marked: set[tuple[str, int]],
    clovers: set[tuple[str, int]],
) -> None:
    """Outlines around the cells of row ``i`` a move would cross, clovers on lucky ones."""
    boxes = [layout.cell_box(i, j) for j in range(len(numbers))]
    for j, number in enumerate(numbers):
        if (row, number) in marked or (row, number) in clovers:
            canvas.sprite(
                ("outline", i, j), partial(icons.outline, b=boxes[j], radius=theme.CELL_RADIUS)
            )
    for j, number in enumerate(numbers):
        if (row, number) in clovers:
            canvas.sprite(("clover", i, j), partial(draw_clover_mark, b=boxes[j]))


def draw_clover_mark(canvas: Canvas, b: Box) -> None:
    """A small clover on the top-right corner of a cell a lucky number may cross."""
    s = theme.CLOVER_MARK
    x1, y0 = b[2] + theme.HIGHLIGHT_WIDTH * 0.9, b[1] - theme.HIGHLIGHT_WIDTH * 0.9
    disc = (x1 - s * 0.8, y0 - s * 0.2, x1 + s * 0.2, y0 + s * 0.8)
    canvas.ellipse(icons.inset(disc, -2), fill=theme.HIGHLIGHT_OUTER)
    canvas.ellipse(disc, fill=theme.PAPER)
    icons.clover(canvas, icons.inset(disc, s * 0.1))


def draw_cell(
    canvas: Canvas,
    b: Box,
    number: int,
    state: Cell,
    colours: theme.RowColours,
    size: float = theme.NUMBER_SIZE,
    condensed: bool = False,
) -> None:
    skipped = state is Cell.SKIPPED
    canvas.rect(b, fill=theme.SKIPPED_CELL if skipped else colours.cell, radius=theme.CELL_RADIUS)
    ink = theme.SKIPPED_INK if skipped else colours.ink
    draw_number(canvas, b, number, ink, size, condensed)
    if state is Cell.CROSSED:
        draw_cross_over(canvas, b, number, colours, size, condensed)
    elif skipped:
        icons.strike(canvas, square(b))


def draw_number(
    canvas: Canvas,
    b: Box,
    number: int,
    ink: theme.RGB,
    size: float,
    condensed: bool,
    halo: theme.RGB | None = None,
) -> None:
    """``number`` centred in cell ``b``, as large as ``size`` if it fits; ringed in
    ``halo`` if given (see :func:`.parts.cross_halo`)."""
    text = str(number)
    room = (b[2] - b[0]) - (theme.NARROW_PAD if condensed else 6)
    size = canvas.fit_text(text, size, room, bold=True, condensed=condensed)
    canvas.text(
        centre(b),
        text,
        size,
        ink,
        bold=True,
        condensed=condensed,
        halo=halo,
        halo_width=cross_halo(size),
    )


def draw_cross_over(
    canvas: Canvas, b: Box, number: int, colours: theme.RowColours, size: float, condensed: bool
) -> None:
    """A crossed cell: tinted, an X from corner to corner, and the number written again
    over it, whole and readable."""
    canvas.rect(b, fill=crossed_fill(colours), radius=theme.CELL_RADIUS)
    draw_cell_cross(canvas, square(b), size)
    draw_number(canvas, b, number, colours.ink, size, condensed, halo=crossed_fill(colours))


def crossed_fill(colours: theme.RowColours) -> theme.RGB:
    """A crossed cell is a shade darker than an open one."""
    return blend(colours.cell, colours.band, theme.CROSSED_TINT)


def draw_locked_tab(canvas: Canvas, right: float, y: float, room: float) -> None:
    """A dark "LOCKED" tab on the top edge of a row closed for everyone, at most ``room``
    wide."""
    text = t("image.locked")
    size = canvas.fit_text(text, theme.TAB_SIZE, room - 2 * theme.TAB_SIZE, bold=True)
    width = canvas.text_width(text, size, bold=True) + 2 * theme.TAB_SIZE
    h = theme.TAB_HEIGHT
    canvas.rect(
        (right - width, y - h / 2, right, y + h / 2),
        fill=theme.INK,
        outline=theme.PAPER,
        width=2,
        radius=h / 2,
    )
    canvas.label(
        (right - width / 2, y), text, size, width - 2 * theme.TAB_SIZE, theme.PAPER, bold=True
    )


def draw_points_table(canvas: Canvas, layout: SheetLayout) -> None:
    """Crosses 1..n and the points each count scores, as printed under the rows."""
    labels = (t("image.crosses"), t("image.points"))
    for line, label in enumerate(labels):
        lb = layout.table_box(line, 0)
        canvas.label(
            (lb[0] + 4, (lb[1] + lb[3]) / 2),
            label,
            theme.TABLE_SIZE - 2,
            lb[2] - lb[0] - 8,
            theme.MUTED,
            anchor="lm",
        )
        for c in range(1, layout.table_columns + 1):
            b = layout.table_box(line, c)
            value = str(c if line == 0 else triangle(c))
            canvas.rect(
                b, fill=theme.PAPER if line == 0 else TABLE_FILL, outline=theme.RULE, width=1
            )
            size = canvas.fit_text(value, theme.TABLE_SIZE, b[2] - b[0] - 4, bold=line == 1)
            canvas.text(
                ((b[0] + b[2]) / 2, (b[1] + b[3]) / 2), value, size, theme.INK, bold=line == 1
            )


def penalty_boxes(layout: SheetLayout) -> list[Box]:
    return [layout.penalty_box(k) for k in range(layout.penalty_limit)]


def penalty_caption(layout: SheetLayout) -> tuple[float, float]:
    return (layout.penalty_box(0)[0], layout.table_top)


def sum_entries(
    layout: SheetLayout,
    values: Sequence[int],
    decorate: Callable[[Canvas, Box], None] | None = None,
) -> list[SumEntry]:
    """The sum line: row points + ... (+ board bonus) − penalty points = total.

    ``values`` in that order (see :func:`sum_values`); ``decorate`` the bonus box.
    """
    rows = len(layout.rows)
    entries = [SumEntry(v, row_colours(r)) for r, v in zip(layout.rows, values, strict=False)]
    if layout.board:
        entries.append(SumEntry(values[rows], decorate=decorate, shift=theme.SHEET_PAWN * 0.3))
    entries[-1] = replace(entries[-1], operator="−")
    return [*entries, SumEntry(values[-2], operator="="), SumEntry(values[-1])]


def sum_values(layout: SheetLayout, game: QwixxGame, player: int) -> list[int]:
    score = game.scores()[player]
    bonus = [score.bonus] if layout.board else []
    return [*(score.rows[r] for r in layout.rows), *bonus, -score.penalty_points, score.total]


def written_sums(layout: SheetLayout, game: QwixxGame, player: int) -> list[SumEntry]:
    """``player``'s sum line, with their pawn in the bonus box (On Board)."""
    seat = game.players.index(player)
    return sum_entries(
        layout, sum_values(layout, game, player), lambda c, b: draw_bonus_pawn(c, b, seat)
    )


def draw_bonus_pawn(canvas: Canvas, b: Box, seat: int) -> None:
    """The player's pawn at the left of the bonus box: the bonus under it on the board."""
    h = theme.SHEET_PAWN
    w = h * theme.PAWN[0] / theme.PAWN[1]
    cy = (b[1] + b[3]) / 2
    draw_pawn(canvas, (b[0] + 6, cy - h / 2, b[0] + 6 + w, cy + h / 2), seat)
