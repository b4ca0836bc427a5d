"""The share card of a daily challenge: a member's sheet as crosses without numbers.

Each row is a band of its colour holding as many boxes as the row has numbers; the first
boxes carry the row's crosses (how far the member got, not which numbers: the day's
dice are everyone's), and the lock at its end is closed when the member locked it.
Under the rows, the penalties (Qwinto: the failed throws) as boxes to cross. The only
words are the title and the penalties' caption; no digit is drawn anywhere.
"""

from __future__ import annotations

from bot.i18n.words import t

from . import icons, parts, theme
from .canvas import Box, Canvas
from .tally import RowTally, SheetTally

WIDTH = 760
MARGIN = 24
TITLE = 64  # the title's line
TITLE_SIZE = 34
ROW = 72  # a row's band
ROW_GAP = 12
PAD = 10  # inside a band
LETTER = 50  # the row's letter, on a disc at the band's start
BOX_GAP = 6
LOCK = 54
PENALTY_ROW = 58
PENALTY_BOX = 40
CAPTION_SIZE = 26
EMPTY_TINT = 0.55  # an empty box, this far from its cell colour towards the band's


def height(count: int) -> int:
    """The card's height for ``count`` rows."""
    return round(row_top(count)) + PENALTY_ROW + MARGIN


def render_card(marks: SheetTally, title: str) -> bytes:
    """The card of ``marks`` under ``title`` (words of the catalogue), as a PNG."""
    canvas = Canvas.new(WIDTH, height(len(marks.rows)))
    parts.draw_card(canvas, WIDTH, height(len(marks.rows)))
    canvas.label(
        (MARGIN + 4, MARGIN + TITLE / 2),
        title,
        TITLE_SIZE,
        WIDTH - 2 * MARGIN - 8,
        theme.INK,
        bold=True,
        anchor="lm",
    )
    for index, row in enumerate(marks.rows):
        draw_row(canvas, row, row_top(index), lock=not marks.qwinto)
    draw_penalties(canvas, marks, row_top(len(marks.rows)))
    return canvas.png()


def row_top(index: int) -> float:
    """Where the band of the ``index``-th row (from 0) begins."""
    return MARGIN + TITLE + index * (ROW + ROW_GAP)


def boxes(cells: int, top: float, lock: bool) -> list[Box]:
    """The ``cells`` boxes of the row whose band begins at ``top``, left to right."""
    middle = top + ROW / 2
    start = MARGIN + PAD + LETTER + PAD
    end = WIDTH - MARGIN - PAD - (LOCK + PAD if lock else 0)
    side = min(ROW - 2 * PAD, (end - start - (cells - 1) * BOX_GAP) / cells)
    return [
        (x, middle - side / 2, x + side, middle + side / 2)
        for x in (start + k * (side + BOX_GAP) for k in range(cells))
    ]


def draw_row(canvas: Canvas, row: RowTally, top: float, lock: bool) -> None:
    """One row's band: its letter, its boxes (the first ``row.crosses`` crossed), its lock."""
    colours = parts.row_colours(row.row)
    left, right = MARGIN, WIDTH - MARGIN
    canvas.rect((left, top, right, top + ROW), fill=colours.band, radius=14)
    middle = top + ROW / 2
    disc = (left + PAD, middle - LETTER / 2, left + PAD + LETTER, middle + LETTER / 2)
    canvas.ellipse(disc, fill=theme.PAPER)
    canvas.label(parts.centre(disc), parts.row_letter(row.row), 28, LETTER - 10, colours.ink, True)
    empty = theme.blend(colours.cell, colours.band, EMPTY_TINT)
    for k, box in enumerate(boxes(row.cells, top, lock)):
        crossed = k < row.crosses
        canvas.rect(box, fill=colours.cell if crossed else empty, radius=theme.CELL_RADIUS / 1.5)
        if crossed:
            icons.cross(canvas, box, width=max(4.0, (box[2] - box[0]) / 9), halo=None, reach=0.18)
    if lock:
        spot = (right - PAD - LOCK, middle - LOCK / 2, right - PAD, middle + LOCK / 2)
        parts.draw_lock(canvas, spot, colours, closed=row.locked, crossed=row.locked)


def draw_penalties(canvas: Canvas, marks: SheetTally, top: float) -> None:
    """The penalties' caption and boxes, the first ``marks.penalties`` crossed."""
    middle = top + PENALTY_ROW / 2
    boxes = [
        (
            WIDTH - MARGIN - PAD - (marks.limit - k) * (PENALTY_BOX + BOX_GAP) + BOX_GAP,
            middle - PENALTY_BOX / 2,
            WIDTH - MARGIN - PAD - (marks.limit - k - 1) * (PENALTY_BOX + BOX_GAP),
            middle + PENALTY_BOX / 2,
        )
        for k in range(marks.limit)
    ]
    caption = t("image.failed" if marks.qwinto else "image.penalties")
    room = boxes[0][0] - MARGIN - 24
    canvas.label((MARGIN + 4, middle), caption, CAPTION_SIZE, room, theme.MUTED, anchor="lm")
    parts.draw_tick_boxes(canvas, boxes, marks.penalties)
