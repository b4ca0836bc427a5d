"""The dice of a roll: white dice first, then the coloured dice still in play.

Qwinto throws (no white dice: orange, yellow, purple) end with their sum, "= 11",
because the sum is what every player writes.
"""

from __future__ import annotations

from bot.i18n.words import inline, row_name

from . import theme
from .canvas import Box, Canvas, Colour
from .parts import measure

DIE_ORDER = ("white1", "white2", "red", "yellow", "green", "blue")
QWINTO_ORDER = ("orange", "yellow", "purple")  # as the rows stand on the sheet

# Pip positions on a 3 x 3 grid (column, line), for faces 1-6.
PIPS: dict[int, tuple[tuple[int, int], ...]] = {
    1: ((1, 1),),
    2: ((0, 0), (2, 2)),
    3: ((0, 0), (1, 1), (2, 2)),
    4: ((0, 0), (2, 0), (0, 2), (2, 2)),
    5: ((0, 0), (2, 0), (1, 1), (0, 2), (2, 2)),
    6: ((0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2)),
}


def colour_of(die: str) -> str:
    """``'white1'`` -> ``'white'``; coloured dice are named by their colour."""
    return "white" if die.startswith("white") else die


def ordered(dice: dict[str, int]) -> list[str]:
    """Qwixx dice white first, then red, yellow, green, blue; Qwinto's orange, yellow,
    purple; anything unknown last."""
    order = QWINTO_ORDER if any(d in dice for d in ("orange", "purple")) else DIE_ORDER
    known = [d for d in order if d in dice]
    return known + sorted(d for d in dice if d not in order)


def die_positions(dice: dict[str, int]) -> dict[str, Box]:
    """Where each die is drawn, in output pixels."""
    boxes: dict[str, Box] = {}
    x = theme.MARGIN
    previous = None
    for die in ordered(dice):
        if previous is not None:
            group_break = colour_of(previous) == "white" != colour_of(die)
            x += theme.DIE_GROUP_GAP if group_break else theme.DIE_GAP
        boxes[die] = (x, theme.MARGIN, x + theme.DIE, theme.MARGIN + theme.DIE)
        x += theme.DIE
        previous = die
    return boxes


def shows_sum(dice: dict[str, int], show_sum: bool | None = None) -> bool:
    """Whether the sum follows the dice: asked for, or by default for throws without
    white dice (Qwinto)."""
    if show_sum is not None:
        return show_sum and bool(dice)
    return bool(dice) and not any(colour_of(d) == "white" for d in dice)


def sum_box(dice: dict[str, int]) -> Box:
    """Where "= 11" goes: right of the last die."""
    boxes = die_positions(dice)
    right = max((b[2] for b in boxes.values()), default=theme.MARGIN)
    text = f"= {sum(dice.values())}"
    width = measure(text, theme.DICE_SUM_SIZE, bold=True)
    return (
        right + theme.DIE_GROUP_GAP,
        theme.MARGIN,
        right + theme.DIE_GROUP_GAP + width,
        theme.MARGIN + theme.DIE,
    )


def dice_size(dice: dict[str, int], show_sum: bool | None = None) -> tuple[int, int]:
    boxes = die_positions(dice)
    right = max((b[2] for b in boxes.values()), default=theme.MARGIN + theme.DIE)
    if shows_sum(dice, show_sum):
        right = sum_box(dice)[2]
    return round(right + theme.MARGIN), theme.MARGIN * 2 + theme.DIE + theme.DIE_LABEL


def render_dice(dice: dict[str, int], show_sum: bool | None = None) -> bytes:
    """The dice in ``dice`` (name -> face) as a PNG, each labelled with its colour.

    ``show_sum`` adds "= total" after the dice; by default only for throws without white
    dice (Qwinto's orange, yellow and purple).
    """
    width, height = dice_size(dice, show_sum)
    canvas = Canvas.new(width, height)
    for die, b in die_positions(dice).items():
        draw_die(canvas, b, colour_of(die), dice[die])
    if shows_sum(dice, show_sum):
        b = sum_box(dice)
        canvas.text(
            (b[0], (b[1] + b[3]) / 2),
            f"= {sum(dice.values())}",
            theme.DICE_SUM_SIZE,
            theme.INK,
            bold=True,
            anchor="lm",
        )
    return canvas.png()


def body_colours(colour: str) -> tuple[Colour, Colour]:
    """Body and pip colours of a die."""
    if colour == "white":
        return theme.WHITE_DIE, theme.INK
    body = theme.ROW_COLOURS.get(colour, theme.FALLBACK_ROW).band
    return body, theme.INK if colour in theme.DARK_PIPS else theme.PAPER


def draw_die(canvas: Canvas, b: Box, colour: str, face: int) -> None:
    size = b[2] - b[0]
    canvas.rect(
        (b[0] + 2, b[1] + 4, b[2] + 2, b[3] + 4), fill=(215, 215, 215), radius=size * 0.18
    )  # shadow
    draw_face(canvas, b, colour, face)
    label_y = b[3] + theme.DIE_LABEL / 2 + 6
    room = size + theme.DIE_GAP  # the die's width and the gap beside it
    canvas.label(
        ((b[0] + b[2]) / 2, label_y), label(colour), theme.DIE_LABEL_SIZE, room, theme.MUTED
    )


def draw_face(
    canvas: Canvas,
    b: Box,
    colour: str,
    face: int,
    edge: float = 2.5,
    pip_size: float = 0.085,
    digit_size: float = theme.DIE_DIGIT_SIZE,
) -> None:
    """A die's body in ``b``, rounded and edged, showing ``face``: pips for 1-6, the
    figure for higher faces (Longo's eight-sided dice)."""
    body, pip = body_colours(colour)
    size = b[2] - b[0]
    canvas.rect(b, fill=body, outline=theme.DIE_EDGE, width=edge, radius=size * 0.18)
    if 1 <= face <= 6:
        r = size * pip_size
        for col, line in PIPS[face]:
            cx = b[0] + size * (0.24 + 0.26 * col)
            cy = b[1] + size * (0.24 + 0.26 * line)
            canvas.ellipse((cx - r, cy - r, cx + r, cy + r), fill=pip)
    else:
        centre = ((b[0] + b[2]) / 2, (b[1] + b[3]) / 2)
        canvas.text(centre, str(face), digit_size, pip, bold=True)


def label(colour: str) -> str:
    """A die's colour under it, in the reader's language (``orange``, ``Orange`` in
    German, ``turuncu``)."""
    return inline(row_name(colour))
