"""One fixed palette for the images composed at output size (the table view and the
scoreboard): every colour of the theme, and the blends that anti-aliased edges make
between the colours drawn over each other.

Small images (cells, text) are mapped to it once when cached, so a whole image is
composed in palette mode and saved without quantizing it: the same look, a fraction of
the time.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from functools import cache

from PIL import Image

from . import theme
from .theme import blend

RGB = theme.RGB
STEPS = (0.5,)  # blends between two colours that meet

ACTIVE_FILL: RGB = (255, 247, 214)  # the active player's block
TABLE_FILL: RGB = (244, 244, 244)  # the points line of a sheet's points table
# The leaderboard's own colours (it has a palette of its own, see leaderboard_colours).
SORTED_TINT: RGB = (236, 242, 250)  # behind the column the lines are sorted by
YOU: RGB = (28, 96, 178)  # the caller's line
MEDALS: dict[int, RGB] = {1: theme.GOLD, 2: (170, 170, 178), 3: (196, 128, 70)}


def row_shades(colours: theme.RowColours) -> list[RGB]:
    crossed = blend(colours.cell, colours.band, theme.CROSSED_TINT)
    closed = blend(colours.band, theme.CLOSED_BAND, 0.6)
    return [colours.band, colours.cell, colours.ink, crossed, closed]


@cache
def colours() -> tuple[RGB, ...]:
    """The palette: base colours first, then blends of the pairs that meet, each more
    than ``APART`` from those before it (at most 256)."""
    rows = list(theme.ROW_COLOURS.values())
    grounds = [theme.PAPER, ACTIVE_FILL, theme.WINNER]
    inks = [theme.INK, theme.MUTED, theme.PAPER, theme.GOLD]
    base: list[RGB] = [*grounds, *inks]
    base += [shade for row in rows for shade in row_shades(row)]
    base += [
        theme.SKIPPED_CELL,
        theme.SKIPPED_INK,
        theme.SKIPPED_STROKE,
        theme.COLUMN_DONE,
        theme.CLOVER,
        theme.RULE,
        theme.CARD_EDGE,
        theme.CLOVER_PALE,
        theme.COLUMN_BAND,
        TABLE_FILL,
        *theme.PAWN_COLOURS,
    ]  # the first of two close colours stays
    pairs: list[tuple[RGB, RGB]] = list(itertools.product(inks[:2], grounds))
    pairs += [
        (theme.SKIPPED_INK, theme.SKIPPED_CELL),
        (theme.SKIPPED_STROKE, theme.SKIPPED_CELL),
        (theme.INK, theme.COLUMN_DONE),
        (theme.GOLD, theme.WINNER),
        (theme.CLOVER, theme.CLOVER_PALE),
        (theme.CLOVER, theme.PAPER),
        (theme.CARD_EDGE, theme.PAPER),
        (theme.RULE, theme.PAPER),
        (theme.INK, TABLE_FILL),
        (theme.COLUMN_BAND, theme.PAPER),
    ]
    for row in rows:
        band, cell, ink, crossed, closed = row_shades(row)
        pairs += [(band, ground) for ground in grounds] + [(closed, theme.PAPER)]
        pairs += [
            (cell, band),
            (ink, cell),
            (ink, crossed),
            (theme.INK, crossed),
            (crossed, band),
            (theme.SKIPPED_CELL, band),
            (theme.INK, band),
            (theme.PAPER, band),
            (theme.INK, cell),
            (theme.INK, theme.PAPER),
        ]
    return spread([*base, *(blend(a, b, t) for (a, b), t in itertools.product(pairs, STEPS))])


def spread(candidates: Iterable[RGB], found: Sequence[RGB] = ()) -> tuple[RGB, ...]:
    """``found`` and each candidate more than ``APART`` from those before it."""
    kept = list(found)
    for colour in candidates:
        if all(distance(colour, other) > APART for other in kept):
            kept.append(colour)
    assert len(kept) <= 256, len(kept)
    return tuple(kept)


@cache
def leaderboard_colours() -> tuple[RGB, ...]:
    """The leaderboard's tint and medals, the palette's colours (but those too close to
    them), then the blends of its text over its grounds."""
    medals = list(MEDALS.values())
    grounds = [theme.PAPER, theme.WINNER, SORTED_TINT]
    pairs = [(ink, ground) for ink in (theme.INK, theme.MUTED, YOU, *medals) for ground in grounds]
    pairs += [(theme.INK, medal) for medal in medals]
    return spread(
        [
            SORTED_TINT,
            *medals,
            *colours(),
            *(blend(a, b, t) for (a, b), t in itertools.product(pairs, STEPS)),
        ]
    )


# Pillow maps a pixel to the palette colour nearest to the corner of its 4 x 4 x 4 cell
# of colours (its look-up cache), up to 3 off per channel (5.2 in all): colours more than
# twice that apart each map to themselves, so flat areas keep their exact colour.
APART = 12


def distance(a: RGB, b: RGB) -> float:
    return float(sum((x - y) ** 2 for x, y in zip(a, b, strict=True)) ** 0.5)


@cache
def palette_image(leaderboard: bool = False) -> Image.Image:
    """A palette image of :func:`colours` (of :func:`leaderboard_colours` if asked)."""
    image = Image.new("P", (1, 1))
    flat = [
        channel
        for colour in (leaderboard_colours() if leaderboard else colours())
        for channel in colour
    ]
    image.putpalette(flat + list(BLACK))
    return image


# After the colours, black: the nearest colour to the highlight's dark ring (15, 15, 15)
# (it was the first of the entries a full palette is padded with).
BLACK = (0, 0, 0)


def entries(leaderboard: bool = False) -> int:
    """How many entries the palette image has: no pixel is mapped past them."""
    return len(leaderboard_colours() if leaderboard else colours()) + 1


def to_palette(image: Image.Image, palette: Image.Image | None = None) -> Image.Image:
    """``image`` (RGB) with each pixel the nearest colour of ``palette`` (a palette
    image; this module's fixed palette by default)."""
    return image.quantize(palette=palette or palette_image(), dither=Image.Dither.NONE)


@cache
def index(colour: RGB, leaderboard: bool = False) -> int:
    """The palette index of ``colour``, or of the palette colour nearest to it (in the
    leaderboard's palette if asked)."""
    found = leaderboard_colours() if leaderboard else colours()
    return min(range(len(found)), key=lambda k: distance(found[k], colour))


def new_image(
    width: int, height: int, background: RGB = theme.PAPER, leaderboard: bool = False
) -> Image.Image:
    """A blank palette image of this palette (the leaderboard's if asked)."""
    image = Image.new("P", (width, height), index(background, leaderboard))
    image.putpalette(palette_image(leaderboard).getpalette() or [])
    return image
