"""Pieces every sheet shares: the card, the name line, the sum line, boxes to cross.

Layouts are computed in output pixels at full size; the pieces draw onto any canvas,
so the same code draws a sheet for one player and the small sheets on the scoreboard.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bot.i18n.english import EN
from bot.i18n.words import t
from bot.render.describe import row_word

from . import icons, theme
from .canvas import Box, Canvas, Colour
from .theme import blend


def measure(text: str, size: float, bold: bool = False, condensed: bool = False) -> float:
    """Width of ``text`` in output pixels on a full-size sheet."""
    s = theme.SUPERSAMPLE
    return theme.text_length(text, max(1, round(size * s)), bold, condensed) / s


def signed(value: int) -> str:
    """``value`` with a typographic minus sign."""
    return f"−{-value}" if value < 0 else str(value)


def row_colours(row: str) -> theme.RowColours:
    return theme.ROW_COLOURS.get(row, theme.FALLBACK_ROW)


def row_letter(row: str) -> str:
    """The letter (or two) that names ``row`` on the images, from the catalogue: the
    first letters of the colours' names may clash (German Gelb and Grün)."""
    key = f"letter.{row}"
    return t(key) if key in EN else row_word(row)[:1].upper()


def centre(b: Box) -> tuple[float, float]:
    return ((b[0] + b[2]) / 2, (b[1] + b[3]) / 2)


def rounded(b: Box) -> tuple[int, int, int, int]:
    """A box in whole pixels, for callers that crop images."""
    return round(b[0]), round(b[1]), round(b[2]), round(b[3])


# --- the card and its name line ---------------------------------------------


def draw_card(canvas: Canvas, width: float, height: float) -> None:
    canvas.rect(
        (1, 1, width - 1, height - 1), fill=theme.PAPER, outline=theme.CARD_EDGE, width=2, radius=14
    )


HEADER_BASELINE = theme.MARGIN + theme.HEADER - 14


def title_left(width: float, title: str) -> float:
    """Where the game's title, right-aligned in the name line, begins."""
    return width - theme.MARGIN - measure(title, theme.TITLE_SIZE)


def draw_header(
    canvas: Canvas, width: float, name: str, title: str, right: float | None = None
) -> None:
    """The player's name left and the game's title right; the name ends before ``right``."""
    draw_title(canvas, width, title)
    draw_name(canvas, width, name, title, right)


def draw_title(canvas: Canvas, width: float, title: str) -> None:
    """The game's title, right-aligned in the name line."""
    edge = width - theme.MARGIN
    canvas.text((edge, HEADER_BASELINE), title, theme.TITLE_SIZE, theme.MUTED, anchor="rs")


def draw_name(
    canvas: Canvas, width: float, name: str, title: str, right: float | None = None
) -> None:
    """The player's name, left in the name line, ending before ``right`` (the title)."""
    if right is None:
        right = title_left(width, title)
    room = right - theme.MARGIN - 20
    name, size = canvas.fit_name(name, theme.NAME_SIZE, room, bold=True)
    canvas.text((theme.MARGIN + 4, HEADER_BASELINE), name, size, theme.INK, bold=True, anchor="ls")


# --- boxes to cross: penalties, failed throws -------------------------------


def draw_tick_boxes(
    canvas: Canvas,
    boxes: Sequence[Box],
    crossed: int,
    caption: str | None = None,
    caption_at: tuple[float, float] | None = None,
    caption_size: float = theme.CAPTION_SIZE,
    room: float = 0,
) -> None:
    """Empty boxes, the first ``crossed`` of them with an X, under an optional caption
    (at most ``room`` wide if given)."""
    if caption and caption_at:
        if room:
            canvas.label(caption_at, caption, caption_size, room, theme.MUTED, anchor="lt")
        else:
            canvas.text(caption_at, caption, caption_size, theme.MUTED, anchor="lt")
    for k, b in enumerate(boxes):
        canvas.rect(b, fill=theme.PAPER, outline=theme.INK, width=2, radius=6)
        if k < crossed:
            draw_tick(canvas, b)


def draw_cell_cross(canvas: Canvas, b: Box, digits: float) -> None:
    """The X of a crossed number cell ``b`` whose digits are ``digits`` large: corner to
    corner, as heavy for its digits on a sheet as on the small sheets of the table and
    the scoreboard. The number goes over it, whole."""
    icons.cross(
        canvas,
        b,
        width=theme.CROSS_WIDTH * digits / theme.NUMBER_SIZE,
        halo=None,
        reach=theme.CROSS_REACH,
    )


def cross_halo(digits: float) -> float:
    """How wide a crossed number's digits of size ``digits`` are ringed in the cell's
    colour: apart from the X under them, which still runs on between them."""
    return theme.CROSS_HALO * digits / theme.NUMBER_SIZE


def draw_tick(canvas: Canvas, b: Box) -> None:
    """The X in a crossed tick box (drawn on the empty box)."""
    icons.cross(canvas, b, width=max(3.0, (b[2] - b[0]) / 8), halo=None)


# --- the sum line: a + b + c − penalties = total ----------------------------


@dataclass(frozen=True)
class SumEntry:
    """One box of the sum line and the operator printed after it (none after the last)."""

    value: int
    colours: theme.RowColours | None = None  # a row's points: the row's colours
    operator: str = "+"
    decorate: Callable[[Canvas, Box], None] | None = None  # e.g. the bonus pentagon
    shift: float = 0  # move the number right, clear of the decoration


def sum_boxes(top: float, count: int) -> list[Box]:
    """``count`` boxes from the left margin, the last (the total) wider."""
    w, h = theme.TOTAL_BOX
    boxes: list[Box] = []
    x: float = theme.MARGIN
    for k in range(count):
        width = w * 1.4 if k == count - 1 else w
        boxes.append((x, top, x + width, top + h))
        x += width + theme.OPERATOR
    return boxes


def draw_sum_line(canvas: Canvas, boxes: Sequence[Box], entries: Sequence[SumEntry]) -> None:
    """The sum line; the last entry is the total, drawn with a heavy frame."""
    for k, (b, entry) in enumerate(zip(boxes, entries, strict=True)):
        draw_sum_box(canvas, b, entry, k == len(entries) - 1)
        draw_sum_value(canvas, b, entry)


def draw_sum_box(canvas: Canvas, b: Box, entry: SumEntry, is_total: bool) -> None:
    """The empty box of ``entry`` and the operator after it, as printed on the card."""
    if entry.colours:
        canvas.rect(b, fill=entry.colours.cell, outline=entry.colours.band, width=4, radius=8)
    else:
        canvas.rect(b, fill=theme.PAPER, outline=theme.INK, width=4 if is_total else 2, radius=8)
    if not is_total:
        canvas.text(
            (b[2] + theme.OPERATOR / 2, centre(b)[1]),
            entry.operator,
            theme.TOTAL_SIZE,
            theme.MUTED,
            bold=True,
        )


def draw_sum_value(canvas: Canvas, b: Box, entry: SumEntry) -> None:
    """What is written in ``entry``'s box: its decoration and its value."""
    middle = centre(b)
    if entry.decorate:
        entry.decorate(canvas, b)
    text = signed(entry.value)
    size = canvas.fit_text(text, theme.TOTAL_SIZE, b[2] - b[0] - 2 * entry.shift - 8, bold=True)
    canvas.text((middle[0] + entry.shift, middle[1]), text, size, theme.INK, bold=True)


# --- Qwinto's fields, alike on the sheet and the small sheets ---------------------


def draw_blank_field(canvas: Canvas, b: Box, row: str, letter: float, radius: float) -> None:
    """The field that never holds a number: the band shows through, and the row's letter,
    ``letter`` large, stands in it (rows stay apart without colour)."""
    colours = row_colours(row)
    canvas.rect(b, fill=blend(colours.band, theme.PAPER, 0.2), radius=radius)
    ink = theme.INK if row in theme.LIGHT_BANDS else theme.PAPER
    canvas.label(centre(b), row_letter(row), letter, b[2] - b[0] - 4, ink, bold=True)


def draw_pentagon_field(canvas: Canvas, b: Box, fill: Colour) -> None:
    """A bonus field: a pentagon, point up, filling ``b``."""
    canvas.polygon(icons.pentagon(b), fill=fill)


def field_centre(b: Box, pentagon: bool) -> tuple[float, float]:
    """Where a field's number sits: a pentagon's centre of mass lies below its box's."""
    x, y = centre(b)
    return (x, y + (b[3] - b[1]) * 0.07) if pentagon else (x, y)


# --- Qwixx On Board: the pawns ------------------------------------------------


@dataclass(frozen=True)
class PawnStyle:
    fill: Colour
    edge: Colour
    ink: Colour  # the seat number on the pawn


def pawn_style(seat: int) -> PawnStyle:
    """How the pawn of the ``seat``-th player (0-based) looks."""
    fill = theme.PAWN_COLOURS[seat % len(theme.PAWN_COLOURS)]
    light = sum(fill) > 450
    return PawnStyle(
        fill,
        theme.PAWN_EDGE_LIGHT if light else theme.PAWN_EDGE_DARK,
        theme.INK if light else theme.PAPER,
    )


def draw_pawn(canvas: Canvas, b: Box, seat: int) -> None:
    """The ``seat``-th player's pawn filling ``b``, with the seat number (1-based) on it."""
    style = pawn_style(seat)
    icons.pawn(canvas, b, style.fill, style.edge)
    w, h = b[2] - b[0], b[3] - b[1]
    canvas.text(((b[0] + b[2]) / 2, b[1] + h * 0.62), str(seat + 1), w * 0.4, style.ink, bold=True)


def square(b: Box) -> Box:
    """The largest square centred in ``b``."""
    w, h = b[2] - b[0], b[3] - b[1]
    side = min(w, h)
    x0, y0 = b[0] + (w - side) / 2, b[1] + (h - side) / 2
    return (x0, y0, x0 + side, y0 + side)


def draw_lock(
    canvas: Canvas,
    b: Box,
    colours: theme.RowColours,
    closed: bool,
    crossed: bool,
    compact: bool = False,
) -> None:
    """The lock symbol: open on a pale disc, or closed on a dark disc once the row is
    locked. ``compact`` (the table's small sheets): no ring, a thinner cross, no halo."""
    b = square(b)
    disc = icons.inset(b, 2)
    pad = (b[2] - b[0]) / 4
    if closed:
        if compact:
            canvas.ellipse(disc, fill=theme.INK)
        else:
            canvas.ellipse(disc, fill=theme.INK, outline=theme.PAPER, width=3)
        icons.padlock(canvas, icons.inset(b, pad), theme.PAPER, closed=True, keyhole=theme.INK)
    else:
        canvas.ellipse(disc, fill=colours.cell)
        icons.padlock(canvas, icons.inset(b, pad), colours.ink, closed=False, keyhole=colours.cell)
    if not crossed:
        return
    colour = theme.PAPER if closed else theme.INK
    if compact:
        icons.cross(canvas, b, colour=colour, width=3.5, halo=None, reach=0.1)
    else:
        icons.cross(canvas, b, colour=colour, halo=theme.INK if closed else theme.PAPER)
