"""Compact sheets: one player's sheet in a narrow block, for the table view (every
player at a glance) and the final scoreboard.

A block is a name line (active marker, name, total) and an info line ("to play", lucky
numbers or pawn, penalties) over one line per row: the row's letter, its cells and its
points. Cells are sized so that digits stay readable on a phone
(``theme.READABLE_DIGIT`` px tall at ``theme.PHONE_WIDTH`` px wide, see
:func:`CompactLayout.digit_height`).

Blocks are drawn at output size: the shapes that need smooth edges (cells, crosses,
bands) are small images drawn supersampled once per look and pasted from a cache
(:func:`sprite`); text is drawn directly, anti-aliased by the font renderer. That keeps
a 5-player table in a few milliseconds of drawing.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property, partial

from PIL import Image, ImageDraw

from bot.i18n.words import t
from bot.rules import Game, Move
from bot.rules import qwinto as qwinto_rules
from bot.rules.onboard import OnBoardGame
from bot.rules.qwixx import QwixxGame

from . import fonts, icons, palette, theme
from .canvas import Box, Canvas, Colour, ImageCache, palette_png
from .parts import (
    draw_blank_field,
    draw_lock,
    draw_pentagon_field,
    field_centre,
    measure,
    row_colours,
    row_letter,
    signed,
)
from .pool import ImagePool
from .theme import blend

Cell = tuple[str, int]  # (row, number); Qwinto: (row, column)

QWINTO = "qwinto"
QWIXX_ROWS = ("red", "yellow", "green", "blue")

EDGE = 8  # the image's margin around the blocks
PAD = 5  # inside a block
BLOCK_GAP = 10  # between blocks
# The words and the header, at their sizes on blocks a phone shows large enough (see
# CompactLayout.words):
NAME_LINE = 36  # a block's name line
INFO_LINE = 24  # ... and its line under it: "to play", lucky numbers, pawn, penalties
NAME_SIZE = 24
INFO_SIZE = 18  # lucky numbers, pawn, captions
# A row letter's chip: this many times the letter's size wide (a bold capital is at most
# 0.85 of it, "O"), and this much more (the letter's room is 4 px less than the chip).
CHIP = 0.85
CHIP_PAD = 5
LABEL_GAP = 4  # between it and the row's band
GAP = 1  # between cells
ROW_GAP = 4  # between row lines
WORD_ROOM = 96  # the most a header word may take ("penalties", "total"...)
INFO_ROOM = 150  # the lucky numbers, the pawn, "to play"
MARK_BOX = 18  # a penalty / failed-throw box in the header
FRAME = 4  # the active player's frame
INSET = 3  # ... and how much further in its header's words start
CROSS_OVER = 0.6  # a crossed number's X over its digits: this much of a sheet's (theme.CROSS_WIDTH)
ACTIVE_FILL = palette.ACTIVE_FILL


# --- what to highlight --------------------------------------------------------


def latest_from_moves(moves: Iterable[tuple[int, Move]]) -> dict[int, set[Cell]]:
    """The cells that ``(player, move)`` pairs wrote: crosses and lucky numbers (row,
    number) and Qwinto's numbers (row, column); pass, roll and pawn moves write none."""
    cells: dict[int, set[Cell]] = {}
    for player, move in moves:
        if move.kind in ("cross", "lucky", "place") and move.row and move.number is not None:
            cells.setdefault(player, set()).add((move.row, move.number))
    return cells


def latest_between(before: Game, after: Game) -> dict[int, set[Cell]]:
    """The cells each player filled between two states of one game (e.g. the start of
    the last turn and now): crosses, locks excluded, or Qwinto's written fields."""
    cells: dict[int, set[Cell]] = {}
    for player in after.players:
        old, new = filled(before, player), filled(after, player)
        if new - old:
            cells[player] = new - old
    return cells


def filled(game: Game, player: int) -> set[Cell]:
    """Every cell ``player`` has filled: (row, number) crossed, or Qwinto's (row, column)."""
    sheet = game.sheets[player]
    if game.variant == QWINTO:
        return {(r, c) for r, fields in sheet.fields.items() for c in fields}
    return {(r, n) for r, numbers in sheet.crossed.items() for n in numbers}


# --- geometry ----------------------------------------------------------------------


@dataclass(frozen=True)
class CompactLayout:
    """A block's geometry, the same for every player of a game."""

    variant: str
    rows: tuple[str, ...]
    numbers: tuple[tuple[int, ...], ...]  # per row; Qwinto: the grid columns 0-11
    lock: bool  # a lock cell after each row (the Qwixx games)
    widest: str  # the widest text a cell or points box shows
    header_info: bool  # lucky numbers or a pawn in the header

    @classmethod
    def of(cls, game: Game) -> CompactLayout:
        if game.variant == QWINTO:
            columns = tuple(qwinto_rules.COLUMNS)
            return cls(QWINTO, qwinto_rules.ROWS, (columns,) * 3, False, "18", False)
        assert isinstance(game, QwixxGame)  # every other variant is of the Qwixx family
        sheet = game.sheets[game.players[0]]
        rows = tuple(r for r in QWIXX_ROWS if r in sheet.crossed)
        numbers = tuple(tuple(game.rules.numbers(r)) for r in rows)
        most = max(len(n) for n in numbers) + 1
        widest = str(max(max(n) for n in numbers))
        points = str(most * (most + 1) // 2)
        info = game.has_lucky_numbers or game.has_board
        return cls(game.variant, rows, numbers, True, max(widest, points, key=len), info)

    @cached_property
    def slots(self) -> int:
        return max(len(n) for n in self.numbers)

    @cached_property
    def points_inline(self) -> bool:
        """Row points at the end of each row; long rows (Longo) put them in a line below,
        to keep the cells readable."""
        return self.slots <= theme.NARROW_FROM

    @cached_property
    def cell(self) -> tuple[int, int, float]:
        """Cell width and height and digit size: the narrowest cells whose digits, as
        wide as the widest number allows, stay readable at a phone's width."""
        for width in range(30, 120):
            size = (width - 3) / measure("88", 1, bold=True, condensed=True)
            size = math.floor(size * 2) / 2
            drawn = digit_height(size) - 1  # anti-aliased edges: a pixel less shows
            if drawn * theme.PHONE_WIDTH >= theme.READABLE_DIGIT * self.width_for(width, size):
                return width, math.ceil(digit_height(size) * 1.55), size
        raise ValueError("no readable cell size")

    def width_for(self, cell: int, size: float) -> int:
        points = measure(self.widest, size, bold=True, condensed=True) + 16
        lock = self.lock_width(cell) + GAP if self.lock else 0
        return math.ceil(
            2 * EDGE
            + 2 * PAD
            + chip_width(letter_size(size))
            + LABEL_GAP
            + self.slots * (cell + GAP)
            + lock
            + (points if self.points_inline else 0)
        )

    @staticmethod
    def lock_width(cell: int) -> int:
        return round(cell * 0.45)

    @cached_property
    def width(self) -> int:
        """The image width (blocks plus the image's margins)."""
        return self.width_for(self.cell[0], self.cell[2])

    @cached_property
    def digit_size(self) -> float:
        return self.cell[2]

    @cached_property
    def letter(self) -> float:
        """The row letters' size: as readable on a phone as the digits (Longo's wide
        blocks drew letters of a fixed size 7 px tall there)."""
        return letter_size(self.digit_size)

    @cached_property
    def label(self) -> int:
        """The width of a row letter's chip."""
        return chip_width(self.letter)

    @cached_property
    def least_words(self) -> float:
        """The smallest words that read on a phone at this width (``theme.READABLE_WORDS``
        px there)."""
        return theme.READABLE_WORDS * self.width / theme.PHONE_WIDTH

    @cached_property
    def words(self) -> float:
        """How many times their base size a block's words are drawn, with its header's
        lines and boxes (and the table's and the scoreboard's titles): 1, or more on
        blocks so wide (Longo's) that the smaller words (``INFO_SIZE``) would be under
        :attr:`least_words`."""
        return max(1.0, self.least_words / INFO_SIZE)

    def word(self, size: float) -> float:
        """A base size (of words, or of a line or box beside them) as drawn."""
        return size * self.words

    @cached_property
    def header(self) -> int:
        """A block's two lines over its rows."""
        return round(self.word(NAME_LINE + INFO_LINE)) + 2

    @cached_property
    def row_height(self) -> int:
        return self.cell[1] + ROW_GAP

    @cached_property
    def block_height(self) -> int:
        lines = len(self.rows) + (0 if self.points_inline else 1)
        return self.header + lines * self.row_height + PAD

    def cell_x(self, j: int) -> int:
        """Left of cell (or grid column) ``j``, from the block's left edge."""
        return PAD + self.label + LABEL_GAP + j * (self.cell[0] + GAP)

    def lock_x(self, row: int) -> int:
        return self.cell_x(len(self.numbers[row]))

    @property
    def points_box(self) -> tuple[int, int]:
        """Left and right of the points box, from the block's left edge."""
        right = self.width - 2 * EDGE - PAD
        return right - math.ceil(measure(self.widest, self.digit_size, True, True) + 10), right

    def row_top(self, i: int) -> int:
        return self.header + i * self.row_height


def digit_height(size: float) -> float:
    """How tall (px) the digits of bold text of ``size`` are: 3/4 of the size in DejaVu."""
    return size * 0.75


def letter_size(digits: float) -> float:
    """The row letters' size beside digits of size ``digits``: a capital is as tall as
    a digit, but its anti-aliased edge shows less at its top and bottom."""
    return digits + 1


def chip_width(letter: float) -> int:
    """The width of a row's chip whose letter is ``letter`` large."""
    return math.ceil(letter * CHIP + CHIP_PAD)


# --- sprites: small images drawn once -------------------------------------------------

# Cells, chips, bands and words of the compact blocks, 1-3 KB each: 4 MB holds 1,500 or so.
SPRITES: ImageCache[Image.Image] = ImageCache(maxsize=4096, max_bytes=4 * 2**20)


def sprite(
    key: Hashable,
    size: tuple[int, int],
    background: Colour,
    draw: Callable[[Canvas], None],
    leaderboard: bool = False,
) -> Image.Image:
    """An output-size palette image of what ``draw`` draws on ``background``, drawn
    supersampled and mapped to the palette (the leaderboard's if asked) once per ``key``."""

    def build() -> Image.Image:
        canvas = Canvas.new(size[0], size[1], background)
        draw(canvas)
        return palette.to_palette(
            canvas.image.reduce(theme.SUPERSAMPLE), palette.palette_image(leaderboard)
        )

    return SPRITES.get((key, size, background, leaderboard), build)


SURFACES = ImagePool(keep=4)  # images to compose on, by size (see :mod:`.pool`)


def label_size(text: str, size: float, room: float, bold: bool = False) -> float:
    """The size :meth:`Surface.label` draws ``text`` at: the largest, from ``size`` down
    by whole pixels to 8, that fits ``room`` wide."""
    while size > 8 and measure(text, size, bold) > room:
        size -= 1
    return size


class Surface:
    """An output-size palette image composed from sprites, text and plain rectangles, in
    the fixed palette (the leaderboard's if asked)."""

    def __init__(self, width: int, height: int, leaderboard: bool = False) -> None:
        self.leaderboard = leaderboard
        self.key = (width, height, leaderboard)
        self.image = SURFACES.take(
            self.key, lambda: palette.new_image(width, height, leaderboard=leaderboard)
        )
        self.image.paste(palette.index(theme.PAPER, leaderboard), (0, 0, width, height))
        self.draw = ImageDraw.Draw(self.image)

    def png(self, level: int | None = None) -> bytes:
        """The image as a palette PNG (see :func:`palette_png`); the surface is done with,
        and its image kept to compose the next one on."""
        try:
            return palette_png(self.image, level, palette.entries(self.leaderboard))
        finally:
            SURFACES.give(self.key, self.image)

    def paste(self, tile: Image.Image, x: float, y: float) -> None:
        """``tile`` (a palette image of this palette) with its top-left corner at (x, y).

        Image.paste takes about 1 µs a tile more than pasting on Pillow's core image
        (Image.im, not public): 0.3-0.5 ms of a 5-player table's or scoreboard's 300-500."""
        self.image.paste(tile, (round(x), round(y)))

    def rect(self, b: Box, fill: Colour) -> None:
        self.draw.rectangle(
            (round(b[0]), round(b[1]), round(b[2]) - 1, round(b[3]) - 1),
            fill=palette.index(fill, self.leaderboard),
        )

    def text(
        self,
        p: tuple[float, float],
        text: str,
        size: float,
        fill: Colour,
        bold: bool = False,
        anchor: str = "lm",
        condensed: bool = False,
        ground: Colour = theme.PAPER,
    ) -> None:
        """``text`` on a patch of ``ground`` (the colour under it); ``anchor`` is "lm",
        "mm" or "rm" (left, centre or right, middle)."""
        width = math.ceil(measure(text, size, bold, condensed)) + 2
        height = math.ceil(size * 1.3)
        tile = sprite(
            ("text", text, size, fill, bold, condensed),
            (width, height),
            ground,
            lambda c: c.text(
                (width / 2, height / 2), text, size, fill, bold=bold, condensed=condensed
            ),
            self.leaderboard,
        )
        x = {"l": p[0] - 1, "m": p[0] - width / 2, "r": p[0] - width + 1}[anchor[0]]
        self.paste(tile, x, p[1] - height / 2)

    def width_of(self, text: str, size: float, bold: bool = False) -> float:
        return measure(text, size, bold)

    def label(
        self,
        p: tuple[float, float],
        text: str,
        size: float,
        room: float,
        fill: Colour,
        bold: bool = False,
        anchor: str = "lm",
        ground: Colour = theme.PAPER,
    ) -> float:
        """Words from the catalogue shrunk to fit ``room`` wide; returns the width drawn
        (see :meth:`bot.render.canvas.Canvas.label`)."""
        size = label_size(text, size, room, bold)
        self.text(p, text, size, fill, bold=bold, anchor=anchor, ground=ground)
        return self.width_of(text, size, bold)

    def fit(self, text: str, size: float, room: float, bold: bool = False) -> tuple[str, float]:
        """A player's name as shown (:func:`bot.render.fonts.short_name`: never cut up to
        16 characters) and the size, up to ``size``, at which it fits ``room``."""
        text = fonts.short_name(text)
        while size > 6 and self.width_of(text, size, bold) > room:
            size -= 0.5
        return text, size


def draw_block(
    surface: Surface,
    layout: CompactLayout,
    game: Game,
    player: int,
    name: str,
    x: float,
    y: float,
    active: bool = False,
    latest: Iterable[Cell] = (),
) -> None:
    """``player``'s compact sheet with its top-left corner at (x, y)."""
    width = layout.width - 2 * EDGE
    ground = ACTIVE_FILL if active else theme.PAPER
    if active:
        surface.rect((x, y, x + width, y + layout.block_height), theme.INK)
        surface.rect(
            (x + FRAME, y + FRAME, x + width - FRAME, y + layout.block_height - FRAME), ground
        )
    score = game.scores()[player]
    draw_header(surface, layout, game, player, name, score.total, x, y, active, ground)
    marked = set(latest)
    draw_row = draw_qwinto_row if layout.variant == QWINTO else draw_qwixx_row
    for i, row in enumerate(layout.rows):
        top = y + layout.row_top(i)
        draw_chip(surface, layout, row, x + PAD, top, layout.cell[1], ground)
        draw_row(surface, layout, game, player, i, row, x, top, marked, ground)
        if layout.points_inline:
            draw_points(surface, layout, score.rows[row], x, top, ground)
    if not layout.points_inline:
        draw_points_line(
            surface, layout, score.rows, x, y + layout.row_top(len(layout.rows)), ground
        )


def draw_chip(
    surface: Surface,
    layout: CompactLayout,
    row: str,
    x: float,
    top: float,
    height: int,
    ground: Colour,
) -> None:
    """The row's letter on a chip of its colour (a longer name shrunk to fit): rows
    stay apart without colour."""
    colours = row_colours(row)
    ink = theme.INK if row in theme.LIGHT_BANDS else theme.PAPER
    letter, size, width = row_letter(row), layout.letter, layout.label

    def draw(c: Canvas) -> None:
        c.rect((0, 0, width, height), fill=colours.band, radius=6)
        c.label((width / 2 + 0.5, height / 2), letter, size, width - 4, ink, bold=True)

    surface.paste(sprite(("chip", row, letter, size), (width, height), ground, draw), x, top)


def draw_points_line(
    surface: Surface,
    layout: CompactLayout,
    points: Mapping[str, int],
    x: float,
    top: float,
    ground: Colour,
) -> None:
    """Each row's points in a line under the rows (long rows): chip, then points."""
    height = layout.cell[1]
    mid = top + height / 2
    left = x + PAD
    w = layout.word
    left += surface.label(
        (left, mid), t("image.points"), w(INFO_SIZE), w(WORD_ROOM), theme.MUTED, ground=ground
    ) + w(12)
    for row in layout.rows:
        draw_chip(surface, layout, row, left, top, height, ground)
        left += layout.label + 6
        value = signed(points[row])
        surface.text(
            (left, mid),
            value,
            layout.digit_size,
            theme.INK,
            bold=True,
            condensed=True,
            ground=ground,
        )
        left += measure(value, layout.digit_size, True, True) + w(18)


def draw_header(
    surface: Surface,
    layout: CompactLayout,
    game: Game,
    player: int,
    name: str,
    total: int,
    x: float,
    y: float,
    active: bool,
    ground: Colour,
) -> None:
    """Two lines. The name's: the name (with a ▶ for the active player) and, right, the
    total; nothing else shares it, so names are whole (see :func:`draw_name`). The
    info line: "to play", lucky numbers or pawn left, the penalty boxes right."""
    w = layout.word
    mid = y + w(NAME_LINE) / 2 + 3
    inset = x + PAD + (INSET if active else 0)  # words clear of the active player's frame
    left = inset
    if active:
        surface.text((left, mid), "▶", w(NAME_SIZE), theme.INK, bold=True, ground=ground)
        left += surface.width_of("▶ ", w(NAME_SIZE), True)
    right = x + layout.width - 2 * EDGE - PAD
    value = signed(total)
    surface.text(
        (right, mid), value, w(NAME_SIZE + 2), theme.INK, bold=True, anchor="rm", ground=ground
    )
    right -= surface.width_of(value, w(NAME_SIZE + 2), True) + w(6)
    right -= surface.label(
        (right, mid),
        t("image.total"),
        w(INFO_SIZE),
        w(WORD_ROOM),
        theme.MUTED,
        anchor="rm",
        ground=ground,
    ) + w(14)
    draw_name(surface, (left, mid), name, w(NAME_SIZE), right - left, theme.INK, ground=ground)
    info = y + w(NAME_LINE + INFO_LINE / 2)
    right = draw_marks(
        surface, layout, game, player, x + layout.width - 2 * EDGE - PAD, info, ground
    )
    left = inset
    extra = [*([(t("image.to_play"), True)] if active else []), (header_info(game, player), False)]
    extra = [(text, bold) for text, bold in extra if text]
    for k, (text, bold) in enumerate(extra):
        room = (right - left) / (len(extra) - k) - w(16)
        left += surface.label(
            (left, info),
            text,
            w(INFO_SIZE),
            min(w(INFO_ROOM), room),
            theme.INK,
            bold=bold,
            ground=ground,
        ) + w(16)


def draw_name(
    surface: Surface,
    p: tuple[float, float],
    name: str,
    size: float,
    room: float,
    fill: Colour,
    bold: bool = True,
    ground: Colour = theme.PAPER,
) -> None:
    """A player's name, left-aligned at ``p``: whole up to 16 characters, shrunk to fit
    ``room`` (see :func:`bot.render.fonts.short_name`)."""
    text, fitted = surface.fit(name, size, room, bold)
    surface.text(p, text, fitted, fill, bold=bold, ground=ground)


def header_info(game: Game, player: int) -> str:
    """Longo's lucky numbers or On Board's pawn field and bonus."""
    if game.has_lucky_numbers:
        a, b = game.lucky_numbers(player)
        return t("image.header_lucky", a=a, b=b)
    if game.has_board:
        assert isinstance(game, OnBoardGame)  # the one variant with a board
        return t(
            "image.header_pawn", position=game.pawn_positions()[player], bonus=game.bonus(player)
        )
    return ""


def draw_marks(
    surface: Surface,
    layout: CompactLayout,
    game: Game,
    player: int,
    right: float,
    mid: float,
    ground: Colour,
) -> float:
    """Penalty (or failed-throw) boxes, as many crossed as taken, ending at ``right``,
    after their caption; returns where the caption begins."""
    sheet = game.sheets[player]
    if layout.variant == QWINTO:
        count, limit, caption = sheet.failed, qwinto_rules.FAILED_LIMIT, t("image.failed")
    else:
        assert isinstance(game, QwixxGame)  # every other variant is of the Qwixx family
        count, limit = sheet.penalties, game.rules.penalty_limit
        caption = t("image.penalties")
    w = layout.word
    side = round(w(MARK_BOX))
    for k in reversed(range(limit)):
        right -= side
        crossed = k < count
        surface.paste(
            sprite(
                ("mark", crossed),
                (side, side),
                ground,
                partial(draw_mark, crossed=crossed, side=side),
            ),
            right,
            mid - side / 2,
        )
        right -= w(4)
    width = surface.label(
        (right - 2, mid),
        caption,
        w(INFO_SIZE),
        w(WORD_ROOM),
        theme.MUTED,
        anchor="rm",
        ground=ground,
    )
    return right - width - w(16)


def draw_mark(canvas: Canvas, crossed: bool, side: int) -> None:
    """A penalty (or failed-throw) box ``side`` px wide, crossed if taken."""
    b = (0.5, 0.5, side - 0.5, side - 0.5)
    scale = side / MARK_BOX
    canvas.rect(b, fill=theme.PAPER, outline=theme.INK, width=1.5 * scale, radius=3 * scale)
    if crossed:
        icons.cross(canvas, b, width=2.2 * scale, halo=None, reach=0.12)


def draw_band(
    surface: Surface,
    layout: CompactLayout,
    x: float,
    top: float,
    start: float,
    end: float,
    band: Colour,
    ground: Colour,
) -> None:
    """A row's band from ``start`` to ``end`` (block coordinates)."""
    w, h = round(end - start), layout.cell[1]
    surface.paste(
        sprite(("band", band), (w, h), ground, lambda c: c.rect((0, 0, w, h), fill=band, radius=6)),
        x + start,
        top,
    )


def draw_points(
    surface: Surface, layout: CompactLayout, points: int, x: float, top: float, ground: Colour
) -> None:
    """The row's points in a framed box at the end of its line."""
    left, right = layout.points_box
    size = (right - left, layout.cell[1])
    text = signed(points)
    digits = layout.digit_size

    def draw(c: Canvas) -> None:
        c.rect(
            (0.5, 0.5, size[0] - 0.5, size[1] - 0.5),
            fill=theme.PAPER,
            outline=theme.INK,
            width=1.5,
            radius=6,
        )
        c.text((size[0] / 2, size[1] / 2), text, digits, theme.INK, bold=True, condensed=True)

    surface.paste(sprite(("points", text, digits), size, ground, draw), x + left, top)


def draw_qwixx_row(
    surface: Surface,
    layout: CompactLayout,
    game: Game,
    player: int,
    i: int,
    row: str,
    x: float,
    top: float,
    marked: set[Cell],
    ground: Colour,
) -> None:
    """A row's band, cells (open, crossed, struck, ringed when latest) and lock."""
    sheet = game.sheets[player]
    closed = row in game.closed_rows()
    numbers = layout.numbers[i]
    crossed = set(sheet.crossed[row])
    last = max((numbers.index(n) for n in crossed), default=-1)
    cw, ch = layout.cell[0], layout.cell[1]
    lock_w = layout.lock_width(cw)
    colours = row_colours(row)
    band = blend(colours.band, theme.CLOSED_BAND, 0.6) if closed else colours.band
    draw_band(
        surface, layout, x, top, layout.cell_x(0) - 3, layout.lock_x(i) + lock_w + 2, band, ground
    )
    for j, number in enumerate(numbers):
        state = "crossed" if number in crossed else ("skipped" if closed or j < last else "open")
        look = (row, number, state, (row, number) in marked, layout.digit_size)
        surface.paste(
            sprite(("cell", *look), (cw, ch), band, partial(draw_cell, look=look, w=cw, h=ch)),
            x + layout.cell_x(j),
            top,
        )
    lock = ("lock", row, row in sheet.locks, closed)
    surface.paste(
        sprite(
            lock,
            (lock_w, ch),
            band,
            lambda c: draw_lock(
                c, (0, 0, lock_w, ch), row_colours(row), closed, lock[2], compact=True
            ),
        ),
        x + layout.lock_x(i),
        top,
    )


def draw_cell(canvas: Canvas, look: tuple[str, int, str, bool, float], w: int, h: int) -> None:
    """A number cell: open, crossed (tinted, an X over the digits) or skipped (grey),
    ringed when it is one of the latest crosses."""
    row, number, state, latest, size = look
    colours = row_colours(row)
    b: Box = (0, 0, w, h)
    fill = {
        "open": colours.cell,
        "skipped": theme.SKIPPED_CELL,
        "crossed": blend(colours.cell, colours.band, theme.CROSSED_TINT),
    }[state]
    canvas.rect(b, fill=fill, radius=5)
    ink = theme.SKIPPED_INK if state == "skipped" else colours.ink
    text = str(number)
    fitted = canvas.fit_text(text, size, w - 3, bold=True, condensed=True)
    canvas.text((w / 2, h / 2), text, fitted, ink, bold=True, condensed=True)
    if state == "crossed":
        cross_over(canvas, b, size)
    if state == "skipped":
        canvas.line(((w * 0.18, h * 0.82), (w * 0.82, h * 0.18)), theme.SKIPPED_STROKE, 2.5)
    if latest:
        canvas.rect((1.5, 1.5, w - 1.5, h - 1.5), outline=theme.HIGHLIGHT_OUTER, width=3, radius=5)


def cross_over(canvas: Canvas, b: Box, digits: float) -> None:
    """A crossed number's X over its digits, corner to corner of its cell, as a pen
    crosses a printed number: lighter than the digits' strokes, so that a two-digit
    number reads whole through it (drawn under them, its middle showed between the
    digits: ``11`` read ``1✕1``)."""
    width = CROSS_OVER * theme.CROSS_WIDTH * digits / theme.NUMBER_SIZE
    icons.cross(canvas, b, width=width, halo=None, reach=theme.CROSS_REACH)


def draw_qwinto_row(
    surface: Surface,
    layout: CompactLayout,
    game: Game,
    player: int,
    i: int,
    row: str,
    x: float,
    top: float,
    marked: set[Cell],
    ground: Colour,
) -> None:
    """A Qwinto row across its own grid columns: written numbers, the blank field."""
    geometry = qwinto_rules.GEOMETRY[row]
    written = game.sheets[player].fields[row]
    cw, ch = layout.cell[0], layout.cell[1]
    band = row_colours(row).band
    draw_band(
        surface,
        layout,
        x,
        top,
        layout.cell_x(geometry.first) - 3,
        layout.cell_x(geometry.last) + cw + 3,
        band,
        ground,
    )
    for column in geometry.span:
        look = (
            row,
            written.get(column),
            column == geometry.blank,
            column in geometry.pentagons,
            (row, column) in marked,
            layout.digit_size,
        )
        surface.paste(
            sprite(("field", *look), (cw, ch), band, partial(draw_field, look=look, w=cw, h=ch)),
            x + layout.cell_x(column),
            top,
        )


def draw_field(
    canvas: Canvas, look: tuple[str, int | None, bool, bool, bool, float], w: int, h: int
) -> None:
    """A Qwinto field as on the sheet: the blank one with the row's letter, the bonus
    fields pentagons; white once written, with the number; ringed when just written."""
    row, number, blank, pentagon, latest, size = look
    colours = row_colours(row)
    b: Box = (0, 0, w, h)
    if blank:
        draw_blank_field(canvas, b, row, letter_size(size), 5)
        return
    fill = theme.PAPER if number is not None else colours.cell
    if pentagon:
        draw_pentagon_field(canvas, b, fill)
    else:
        canvas.rect(b, fill=fill, radius=5)
    if number is not None:
        text = str(number)
        fitted = canvas.fit_text(text, size, w - 3, bold=True, condensed=True)
        canvas.text(field_centre(b, pentagon), text, fitted, theme.INK, bold=True, condensed=True)
    if latest:
        canvas.rect((1.5, 1.5, w - 1.5, h - 1.5), outline=theme.HIGHLIGHT_OUTER, width=3, radius=5)


def blocks_height(layout: CompactLayout, count: int) -> int:
    return count * layout.block_height + (count - 1) * BLOCK_GAP


def draw_blocks(
    surface: Surface,
    layout: CompactLayout,
    game: Game,
    order: Iterable[int],
    names: Mapping[int, str],
    top: float,
    active: int | None = None,
    latest: Mapping[int, Iterable[Cell]] | None = None,
) -> None:
    """Every player in ``order``, one block under the other from ``top``."""
    y = top
    for player in order:
        draw_block(
            surface,
            layout,
            game,
            player,
            names.get(player) or f"Player {player}",
            EDGE,
            y,
            player == active,
            (latest or {}).get(player, ()),
        )
        y += layout.block_height + BLOCK_GAP
