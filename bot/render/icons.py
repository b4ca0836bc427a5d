"""Shapes that carry meaning without colour: crosses, strokes, padlocks, outlines."""

from __future__ import annotations

from . import theme
from .canvas import Box, Canvas, Colour


def inset(b: Box, by: float) -> Box:
    return (b[0] + by, b[1] + by, b[2] - by, b[3] - by)


def cross(canvas: Canvas, b: Box, colour: Colour = theme.INK,
          width: float = theme.CROSS_WIDTH, halo: Colour | None = theme.PAPER) -> None:
    """A bold X across ``b``, with a light halo so it reads on any background."""
    x0, y0, x1, y1 = inset(b, (b[2] - b[0]) * 0.16)
    strokes = (((x0, y0), (x1, y1)), ((x0, y1), (x1, y0)))
    if halo:
        for stroke in strokes:
            canvas.line(stroke, halo, width + 4)
    for stroke in strokes:
        canvas.line(stroke, colour, width)


def strike(canvas: Canvas, b: Box, colour: Colour = theme.SKIPPED_STROKE,
           width: float = theme.STROKE_WIDTH) -> None:
    """A single stroke through ``b``: the way a skipped number is struck off."""
    x0, y0, x1, y1 = inset(b, (b[2] - b[0]) * 0.14)
    canvas.line(((x0, y1), (x1, y0)), colour, width)


def outline(canvas: Canvas, b: Box, radius: float) -> None:
    """A thick dark ring with a white inner ring around ``b``: visible on every colour."""
    w = theme.HIGHLIGHT_WIDTH
    canvas.rect(inset(b, -w), outline=theme.HIGHLIGHT_OUTER, width=w, radius=radius + w)
    canvas.rect(b, outline=theme.HIGHLIGHT_INNER, width=w * 0.6, radius=radius)


def padlock(canvas: Canvas, b: Box, colour: Colour, closed: bool,
            keyhole: Colour | None = None) -> None:
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
        canvas.polygon(((cx - r * 0.6, ky), (cx + r * 0.6, ky), (cx + r, ky + 2.6 * r),
                        (cx - r, ky + 2.6 * r)), fill=keyhole)


def arrow(canvas: Canvas, b: Box, colour: Colour) -> None:
    """A right-pointing triangle centred in ``b``: the direction numbers are crossed."""
    x0, y0, x1, y1 = b
    cy = (y0 + y1) / 2
    h = (x1 - x0) * 0.55
    canvas.polygon(((x0 + 0.2 * (x1 - x0), cy - h), (x1 - 0.1 * (x1 - x0), cy),
                    (x0 + 0.2 * (x1 - x0), cy + h)), fill=colour)
