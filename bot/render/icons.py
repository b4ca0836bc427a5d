"""Shapes that carry meaning without colour: crosses, strokes, padlocks, outlines."""

from __future__ import annotations

from . import theme
from .canvas import Box, Canvas, Colour


def inset(b: Box, by: float) -> Box:
    return (b[0] + by, b[1] + by, b[2] - by, b[3] - by)


def cross(
    canvas: Canvas,
    b: Box,
    colour: Colour = theme.INK,
    width: float = theme.CROSS_WIDTH,
    halo: Colour | None = theme.PAPER,
    reach: float = 0.16,
) -> None:
    """A bold X across ``b`` (``reach`` of its width from the corners), with a light halo
    so it reads on any background."""
    x0, y0, x1, y1 = inset(b, (b[2] - b[0]) * reach)
    strokes = (((x0, y0), (x1, y1)), ((x0, y1), (x1, y0)))
    if halo:
        for stroke in strokes:
            canvas.line(stroke, halo, width + 4)
    for stroke in strokes:
        canvas.line(stroke, colour, width)


def strike(
    canvas: Canvas, b: Box, colour: Colour = theme.SKIPPED_STROKE, width: float = theme.STROKE_WIDTH
) -> None:
    """A single stroke through ``b``: the way a skipped number is struck off."""
    x0, y0, x1, y1 = inset(b, (b[2] - b[0]) * 0.14)
    canvas.line(((x0, y1), (x1, y0)), colour, width)


def outline(canvas: Canvas, b: Box, radius: float) -> None:
    """A thick dark ring with a white inner ring around ``b``: visible on every colour."""
    w = theme.HIGHLIGHT_WIDTH
    canvas.rect(inset(b, -w), outline=theme.HIGHLIGHT_OUTER, width=w, radius=radius + w)
    canvas.rect(b, outline=theme.HIGHLIGHT_INNER, width=w * 0.6, radius=radius)


def padlock(
    canvas: Canvas, b: Box, colour: Colour, closed: bool, keyhole: Colour | None = None
) -> None:
    """A padlock filling ``b``; open locks have their shackle lifted out on one side."""
    x0, y0, x1, y1 = b
    w, h = x1 - x0, y1 - y0
    cx = (x0 + x1) / 2
    t = w * 0.11  # shackle thickness
    body = (x0 + 0.12 * w, y0 + 0.46 * h, x1 - 0.12 * w, y1)
    lift = 0 if closed else 0.16 * h
    half = 0.22 * w
    top = y0 + 0.04 * h - lift + t / 2
    arc_box = (cx - half, top, cx + half, top + 2 * half)
    canvas.arc(arc_box, 180, 360, colour, t)
    legs_top = top + half
    canvas.line(((cx + half, legs_top), (cx + half, body[1] + 1)), colour, t, round_ends=False)
    left_end = body[1] + 1 if closed else legs_top + 0.06 * h
    canvas.line(((cx - half, legs_top), (cx - half, left_end)), colour, t, round_ends=False)
    canvas.rect(body, fill=colour, radius=0.1 * w)
    if keyhole:
        r = 0.08 * w
        ky = body[1] + (body[3] - body[1]) * 0.42
        canvas.ellipse((cx - r, ky - r, cx + r, ky + r), fill=keyhole)
        canvas.polygon(
            (
                (cx - r * 0.6, ky),
                (cx + r * 0.6, ky),
                (cx + r, ky + 2.6 * r),
                (cx - r, ky + 2.6 * r),
            ),
            fill=keyhole,
        )


def arrow(canvas: Canvas, b: Box, colour: Colour) -> None:
    """A right-pointing triangle centred in ``b``: the direction numbers are crossed."""
    x0, y0, x1, y1 = b
    cy = (y0 + y1) / 2
    h = (x1 - x0) * 0.55
    canvas.polygon(
        (
            (x0 + 0.2 * (x1 - x0), cy - h),
            (x1 - 0.1 * (x1 - x0), cy),
            (x0 + 0.2 * (x1 - x0), cy + h),
        ),
        fill=colour,
    )


def clover(
    canvas: Canvas, b: Box, colour: Colour = theme.CLOVER, halo: Colour | None = None
) -> None:
    """A four-leaf clover filling ``b``: Longo's lucky numbers."""
    x0, y0, x1, y1 = b
    size = min(x1 - x0, y1 - y0)
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    r = size * 0.2
    d = size * 0.2
    leaves = [(cx - d, cy - d), (cx + d, cy - d), (cx - d, cy + d), (cx + d, cy + d)]
    stem = ((cx, cy), (cx + size * 0.16, cy + size * 0.3), (cx + size * 0.34, cy + size * 0.44))
    if halo:
        h = size * 0.07
        for lx, ly in leaves:
            canvas.ellipse((lx - r - h, ly - r - h, lx + r + h, ly + r + h), fill=halo)
        canvas.line(stem, halo, size * 0.1 + 2 * h)
    canvas.line(stem, colour, size * 0.1)
    for lx, ly in leaves:
        canvas.ellipse((lx - r, ly - r, lx + r, ly + r), fill=colour)
    # the veins that make four round blobs read as four leaves
    vein = halo or theme.PAPER
    canvas.line(((cx - d * 1.7, cy), (cx + d * 1.7, cy)), vein, size * 0.05)
    canvas.line(((cx, cy - d * 1.7), (cx, cy + d * 1.7)), vein, size * 0.05)


def pentagon(b: Box) -> list[tuple[float, float]]:
    """A pentagon with its point up, filling ``b``: Qwinto's bonus fields."""
    x0, y0, x1, y1 = b
    w, h = x1 - x0, y1 - y0
    unit = ((0.5, 0.0), (1.0, 0.382), (0.809, 1.0), (0.191, 1.0), (0.0, 0.382))
    return [(x0 + u * w, y0 + v * h) for u, v in unit]


def pentagon_outline(canvas: Canvas, b: Box, fill: Colour) -> None:
    """:func:`outline` for a pentagon field filling ``b``: draws the field too."""
    w = theme.HIGHLIGHT_WIDTH
    canvas.polygon(pentagon(inset(b, -w * 1.3)), fill=theme.HIGHLIGHT_OUTER)
    canvas.polygon(pentagon(b), fill=theme.HIGHLIGHT_INNER)
    canvas.polygon(pentagon(inset(b, w * 0.75)), fill=fill)


def pawn(canvas: Canvas, b: Box, fill: Colour, edge: Colour) -> None:
    """A game pawn (round head on a bell-shaped body) filling ``b``, outlined in ``edge``."""
    w = b[2] - b[0]
    pawn_shape(canvas, b, edge)
    pawn_shape(canvas, inset(b, w * 0.09), fill)


def pawn_shape(canvas: Canvas, b: Box, colour: Colour) -> None:
    x0, y0, x1, y1 = b
    w, h = x1 - x0, y1 - y0
    cx = (x0 + x1) / 2
    r = w * 0.24
    head_y = y0 + r
    canvas.polygon(
        (
            (cx - w * 0.17, head_y + r * 0.6),
            (cx + w * 0.17, head_y + r * 0.6),
            (cx + w * 0.42, y1 - h * 0.14),
            (cx - w * 0.42, y1 - h * 0.14),
        ),
        fill=colour,
    )
    canvas.ellipse((cx - r, y0, cx + r, y0 + 2 * r), fill=colour)
    canvas.rect((x0, y1 - h * 0.2, x1, y1), fill=colour, radius=h * 0.08)


def chequer(canvas: Canvas, b: Box, size: float, dark: Colour, light: Colour) -> None:
    """A chequered rectangle (a finish line) filling ``b``."""
    canvas.rect(b, fill=light)
    y, line = b[1], 0
    while y < b[3]:
        x = b[0] + (size if line % 2 else 0)
        while x < b[2]:
            canvas.rect((x, y, min(x + size, b[2]), min(y + size, b[3])), fill=dark)
            x += 2 * size
        y += size
        line += 1


def flag(canvas: Canvas, b: Box, size: float) -> None:
    """A chequered finish flag on a pole, filling ``b``."""
    x0, y0, x1, y1 = b
    pole = (x1 - x0) * 0.08
    canvas.line(((x0 + pole, y0), (x0 + pole, y1)), theme.INK, pole, round_ends=False)
    cloth = (x0 + pole * 1.5, y0, x1, y0 + (y1 - y0) * 0.6)
    chequer(canvas, cloth, size, theme.FINISH_DARK, theme.FINISH_LIGHT)
    canvas.rect(cloth, outline=theme.INK, width=1.5)
