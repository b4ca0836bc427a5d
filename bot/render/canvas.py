"""A small drawing surface in output pixels, drawn supersampled and saved as palette PNG.

A sheet is a printed card (:meth:`Canvas.static`) with what the player wrote over it,
each piece pasted from a cache of its output pixels (:meth:`Canvas.sprite`): most
renders then never draw, and spend most of their time deflating the PNG (:mod:`.png`).
No supersampled card is kept whole (7.8 MB each): its pixels are kept deflated in
tiles (:class:`Tiles`, some 140 KB a card), and a piece not cached yet is drawn over
those of its own box alone.
"""

from __future__ import annotations

import math
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Generic, NamedTuple, TypeVar

import deflate
from PIL import Image, ImageDraw

from bot.i18n import current

from . import fonts, palette, png, theme

Box = tuple[float, float, float, float]
Point = tuple[float, float]
Colour = tuple[int, int, int]
T = TypeVar("T")


class Canvas:
    """Draws in output-pixel coordinates onto a supersampled image.

    ``view`` returns a canvas on the same image with a shifted and scaled origin, so a
    sheet can be drawn full size for one player or small on the scoreboard.
    """

    def __init__(
        self,
        image: Image.Image | None,
        origin: Point = (0, 0),
        scale: float = 1.0,
        marks: Marks | None = None,
    ) -> None:
        self.origin = origin
        self.scale = scale
        self.marks = marks or Marks()
        if image is not None:
            self.marks.open(image)

    @classmethod
    def new(cls, width: int, height: int, background: Colour = theme.PAPER) -> Canvas:
        """A canvas whose image is made when first drawn on: a sheet that only pastes its
        card and sprites never needs it (see :meth:`static`, :meth:`sprite`)."""
        canvas = cls(None, scale=theme.SUPERSAMPLE)
        size = (width * theme.SUPERSAMPLE, height * theme.SUPERSAMPLE)
        canvas.marks.size = size
        canvas.marks.make = lambda: Image.new("RGB", size, background)
        return canvas

    @property
    def image(self) -> Image.Image:
        return self.marks.image or self.marks.open()

    @property
    def draw(self) -> ImageDraw.ImageDraw:
        if self.marks.draw is None:
            self.marks.open()
        assert self.marks.draw is not None
        return self.marks.draw

    def view(self, x: float, y: float, scale: float = 1.0) -> Canvas:
        """A canvas whose (0, 0) is this canvas's (x, y), drawing ``scale`` times as large."""
        return Canvas(None, self.point((x, y)), self.scale * scale, self.marks)

    def _mark(self, b: Box, spread: float = 0) -> bool:
        """Note that image pixels in ``b`` (grown by ``spread``) may change: sprites kept
        aside there are drawn first (see :meth:`sprite`). False if only marks are taken
        (see :class:`Marks`): then nothing is to be drawn."""
        grown = (b[0] - spread, b[1] - spread, b[2] + spread, b[3] + spread)
        self.marks.dirty.append(grown)
        if self.marks.measuring:
            return False
        if self.marks.pending:
            self.marks.draw_pending(grown)
        return True

    def sprite(self, key: Hashable, draw: Callable[[Canvas], None]) -> None:
        """Draw what ``draw`` draws, over the cached card (see :meth:`static`) where
        nothing else has been drawn yet: from a cache of the output pixels it gives there.

        ``draw`` must draw the same for the same ``key`` on the same card, origin and scale
        (a crossed cell, the player's name...). Its output pixels are pasted when the image
        is saved. A sprite over sprites kept aside (an outline over its crossed neighbours)
        joins them into one, cached by their keys and drawn when the image is saved (a row
        of outlines joins one by one); anything else drawn over a sprite first draws it on
        the image. So the image is the same as drawing everything in turn, which a test
        checks.
        """
        if self.marks.card is None:
            draw(self)
            return
        part = Part(self.origin, self.scale, draw)
        full = (self.marks.card.key, self.origin, self.scale, key)
        found = CARD_SPRITES.get(full, lambda: self._draw_sprite([part]))
        if found is None:
            return
        if self.marks.touches(found[0]):
            draw(self)
            return
        under = self.marks.under(found[0])
        if under:
            self._join(under, full, part, found[0])
        else:
            self.marks.pending.append(Pending(full, found[0], found[1], [part]))

    def _join(self, under: list[Pending], key: Hashable, part: Part, box: IntBox) -> None:
        """Keep the sprites ``under`` and ``part`` (drawn in ``box``) over them aside as one
        sprite, or draw them if their joint box reaches over something drawn. The joint
        box is the box around theirs (the box drawing them all would give); its pixels are
        drawn when needed (see :meth:`card_png`)."""
        pending = self.marks.pending
        for sprite in under:
            pending.remove(sprite)
        parts = [*(p for sprite in under for p in sprite.parts), part]
        joint = (*(sprite.key for sprite in under), key)
        boxes = [box, *(sprite.box for sprite in under)]
        joint_box = (
            min(b[0] for b in boxes),
            min(b[1] for b in boxes),
            max(b[2] for b in boxes),
            max(b[3] for b in boxes),
        )
        if self.marks.touches(joint_box):
            self.marks.draw_parts(parts)
        else:
            pending.append(Pending(joint, joint_box, None, parts))

    def pixels_of(self, sprite: Pending) -> Sprite:
        """The box and output pixels of a sprite kept aside (drawn once per key)."""
        if sprite.patch is not None:
            return sprite.box, sprite.patch
        found = CARD_SPRITES.get(sprite.key, lambda: self._draw_sprite(sprite.parts))
        assert found is not None and found[0] == sprite.box, (found, sprite.box)
        return found

    def _draw_sprite(self, parts: list[Part]) -> Sprite | None:
        """The image box that ``parts`` draw in on the card, on whole output pixels, and
        its output pixels in the palette (None if they draw nothing). The box is found
        by drawing them nowhere (their marks alone); then they are drawn over the card's
        pixels in that box (:class:`Tiles`), on an image of the card's size left unset
        elsewhere (``scratch``, one a render), where the whole card has them: the same
        pixels as on the whole card. Only the pages of the boxes are ever written."""
        card = self.marks.card
        assert card is not None
        sizing = Marks(card.size, measuring=True)
        for part in parts:
            part.draw(Canvas(None, part.origin, part.scale, sizing))
        boxes = sizing.dirty
        if not boxes:
            return None
        s = theme.SUPERSAMPLE
        box = (
            max(0, int(min(b[0] for b in boxes)) // s * s),
            max(0, int(min(b[1] for b in boxes)) // s * s),
            min(card.size[0], (int(max(b[2] for b in boxes)) // s + 1) * s),
            min(card.size[1], (int(max(b[3] for b in boxes)) // s + 1) * s),
        )
        if box[2] <= box[0] or box[3] <= box[1]:
            return None
        if self.marks.scratch is None:  # one a render: its pages are written once
            self.marks.scratch = Image.new("RGB", card.size, None)  # left unset
        image = self.marks.scratch
        card.tiles().paste(image, box)
        marks = Marks()
        marks.open(image)
        for part in parts:
            part.draw(Canvas(None, part.origin, part.scale, marks))
        return box, palette.to_palette(image.crop(box).reduce(s))

    def static(
        self, key: Hashable, width: float, height: float, draw: Callable[[Canvas], None]
    ) -> None:
        """Draw what ``draw`` draws in a ``width`` x ``height`` area at this canvas's origin,
        by pasting an image of it drawn once per ``key`` and scale.

        ``draw`` must draw the same for the same ``key`` (the printed parts of a sheet: its
        card, bands, numbers...), and only inside the area, which must be plain paper until
        then: the paste gives the pixels that drawing here would give. That holds for
        origins on even pixels (Python rounds halves to even); elsewhere ``draw`` draws here.
        """
        x, y = self.origin
        if x % 2 or y % 2:
            draw(self)
            return
        size = (math.ceil(width * self.scale), math.ceil(height * self.scale))
        full = interned((key, self.scale, size, current()))  # words are in the language
        scale = self.scale
        if (x, y) == (0, 0) and size == self.marks.size and self.marks.image is None:
            card = PrintedCard(full, size, scale, draw)
            self.marks.make = card.image  # the card under it all, drawn if drawn on
            self.marks.card = card
            return
        if not self._mark((x, y, x + size[0], y + size[1])):
            return
        image = STATIC_IMAGES.get(full, lambda: draw_static(size, scale, draw))
        self.image.paste(image, (int(x), int(y)))

    def redraw(self, key: Hashable, b: Box, draw: Callable[[Canvas], None]) -> None:
        """Replace what is inside ``b`` by what ``draw`` draws there from scratch (on
        paper, at this canvas's origin): a printed part in another look, such as a
        Qwinto column's band turned gold under the fields drawn over it. The part is drawn
        once per ``key``, origin and scale."""
        x0, y0, x1, y1 = self.box(b)
        box = (
            max(0, math.floor(x0)),
            max(0, math.floor(y0)),
            min(self.marks.size[0], math.ceil(x1) + 1),
            min(self.marks.size[1], math.ceil(y1) + 1),
        )

        def part() -> Image.Image:
            scratch = Canvas(
                Image.new("RGB", self.marks.size, theme.PAPER), self.origin, self.scale
            )
            draw(scratch)
            return scratch.image.crop(box)

        if not self._mark(box):
            return
        image = REDRAWN.get((key, self.origin, self.scale, box, current()), part)
        self.image.paste(image, box[:2])

    # --- coordinates -----------------------------------------------------
    def point(self, p: Point) -> Point:
        """``p`` in image pixels, rounded to a millionth of a pixel: float noise (an edge at
        242.99999999999997) must not move a line by a pixel when the origin moves."""
        return (
            round(self.origin[0] + p[0] * self.scale, 6),
            round(self.origin[1] + p[1] * self.scale, 6),
        )

    def box(self, b: Box) -> Box:
        x0, y0 = self.point((b[0], b[1]))
        x1, y1 = self.point((b[2], b[3]))
        return (x0, y0, x1, y1)

    def px(self, length: float) -> int:
        return max(1, round(length * self.scale))

    # --- primitives ------------------------------------------------------
    def rect(
        self,
        b: Box,
        fill: Colour | None = None,
        outline: Colour | None = None,
        width: float = 1,
        radius: float = 0,
    ) -> None:
        w = self.px(width) if outline else 0
        box = self.box(b)
        if not self._mark(box, 1):
            return
        self.draw.rounded_rectangle(
            box, radius=self.px(radius) if radius else 0, fill=fill, outline=outline, width=w
        )

    def ellipse(
        self, b: Box, fill: Colour | None = None, outline: Colour | None = None, width: float = 1
    ) -> None:
        box = self.box(b)
        if not self._mark(box, 1):
            return
        self.draw.ellipse(box, fill=fill, outline=outline, width=self.px(width) if outline else 0)

    def arc(self, b: Box, start: float, end: float, fill: Colour, width: float) -> None:
        box = self.box(b)
        if not self._mark(box, self.px(width)):
            return
        self.draw.arc(box, start, end, fill=fill, width=self.px(width))

    def line(
        self, points: Sequence[Point], fill: Colour, width: float, round_ends: bool = True
    ) -> None:
        pts = [self.point(p) for p in points]
        w = self.px(width)
        xs, ys = [p[0] for p in pts], [p[1] for p in pts]
        if not self._mark((min(xs), min(ys), max(xs), max(ys)), w):
            return
        self.draw.line(pts, fill=fill, width=w, joint="curve")
        if round_ends:
            r = w / 2
            for x, y in (pts[0], pts[-1]):
                self.draw.ellipse((x - r, y - r, x + r, y + r), fill=fill)

    def polygon(
        self,
        points: Sequence[Point],
        fill: Colour | None = None,
        outline: Colour | None = None,
        width: float = 1,
    ) -> None:
        pts = [self.point(p) for p in points]
        xs, ys = [p[0] for p in pts], [p[1] for p in pts]
        if not self._mark((min(xs), min(ys), max(xs), max(ys)), self.px(width) + 1):
            return
        self.draw.polygon(pts, fill=fill, outline=outline, width=self.px(width) if outline else 0)

    def text(
        self,
        p: Point,
        text: str,
        size: float,
        fill: Colour,
        bold: bool = False,
        anchor: str = "mm",
        condensed: bool = False,
        halo: Colour | None = None,
        halo_width: float = 0,
    ) -> None:
        """Draw ``text`` with its ``anchor`` (Pillow anchors, centred by default) at ``p``,
        ringed ``halo_width`` wide in ``halo`` if given (a digit over a cross)."""
        at = self.point(p)
        if halo and halo_width:  # the ring, then the text over it
            self.ring(at, text, size, halo, bold, anchor, condensed, halo_width)
        path = theme.font_path(bold, condensed)
        if not fonts.plain(text, path):  # a name in another script, or with emoji
            px = self.px(size)
            drawn = fonts.render(text, px, path, theme.font(px, bold, condensed), bold, anchor)
            x, y = round(at[0]) + drawn.offset[0], round(at[1]) + drawn.offset[1]
            if not self._mark((x, y, x + drawn.mask.width, y + drawn.mask.height)):
                return
            self.draw.bitmap((x, y), drawn.mask, fill=fill)
            if drawn.colour is not None:
                self.image.paste(drawn.colour, (x, y), drawn.colour)
            return
        if at[0] < 0 or at[1] < 0:  # off the image's left or top: not worth a mask
            face = theme.font(self.px(size), bold, condensed)
            if self._mark(shifted(face.getbbox(text, anchor=anchor), at), 2):
                self.draw.text(at, text, fill=fill, font=face, anchor=anchor)
            return
        # What ImageDraw.text does for one line, with the glyphs' mask cached.
        mask, offset = text_mask(
            text, self.px(size), bold, condensed, anchor, (math.modf(at[0])[0], math.modf(at[1])[0])
        )
        x, y = int(at[0]) + offset[0], int(at[1]) + offset[1]
        if self._mark((x, y, x + mask.width, y + mask.height)):
            self.draw.bitmap((x, y), mask, fill=fill)

    def ring(
        self,
        at: Point,
        text: str,
        size: float,
        fill: Colour,
        bold: bool,
        anchor: str,
        condensed: bool,
        width: float,
    ) -> None:
        """The ring ``width`` wide around ``text`` at image point ``at`` (see :meth:`text`),
        from a cached mask of the glyphs and their ring."""
        stroke = self.px(width)
        if at[0] < 0 or at[1] < 0:  # off the image's left or top: not worth a mask
            face = theme.font(self.px(size), bold, condensed)
            if self._mark(shifted(face.getbbox(text, anchor=anchor, stroke_width=stroke), at), 2):
                self.draw.text(
                    at,
                    text,
                    fill=fill,
                    font=face,
                    anchor=anchor,
                    stroke_width=stroke,
                    stroke_fill=fill,
                )
            return
        start = (math.modf(at[0])[0], math.modf(at[1])[0])
        mask, offset = text_mask(text, self.px(size), bold, condensed, anchor, start, stroke)
        x, y = int(at[0]) + offset[0], int(at[1]) + offset[1]
        if self._mark((x, y, x + mask.width, y + mask.height)):
            self.draw.bitmap((x, y), mask, fill=fill)

    def text_width(
        self, text: str, size: float, bold: bool = False, condensed: bool = False
    ) -> float:
        """Width of ``text`` in this canvas's units."""
        return theme.text_length(text, self.px(size), bold, condensed) / self.scale

    def fit_text(
        self, text: str, size: float, width: float, bold: bool = False, condensed: bool = False
    ) -> float:
        """The largest size up to ``size`` at which ``text`` fits ``width``."""
        while size > 8 and self.text_width(text, size, bold, condensed) > width:
            size -= 1
        return size

    def label(
        self,
        p: Point,
        text: str,
        size: float,
        room: float,
        fill: Colour,
        bold: bool = False,
        anchor: str = "mm",
    ) -> float:
        """Draw words from the catalogue shrunk to fit ``room`` (the width of their box);
        returns the width drawn. A test checks every language's words against their room."""
        size = self.fit_text(text, size, room, bold)
        self.text(p, text, size, fill, bold, anchor)
        return self.text_width(text, size, bold)

    def fit_name(
        self, text: str, size: float, width: float, bold: bool = False
    ) -> tuple[str, float]:
        """A player's name as shown (:func:`bot.render.fonts.short_name`: never cut up to
        16 characters) and the size, up to ``size``, at which it fits ``width``."""
        text = fonts.short_name(text)
        while size > 6 and self.text_width(text, size, bold) > width:
            size -= 0.5
        return text, size

    # --- output ----------------------------------------------------------
    def png(self) -> bytes:
        """The image scaled to output size, as a small palette PNG.

        Each output pixel is the mean of its ``SUPERSAMPLE`` x ``SUPERSAMPLE`` block (a box
        filter): at 2x it looks the same as Lanczos and takes a tenth of the time.
        """
        return to_png(self.image.reduce(theme.SUPERSAMPLE))

    def card_png(self) -> bytes:
        """:meth:`png` in the fixed palette of :mod:`.palette`, faster over a cached card
        (see :meth:`static`): the card comes scaled and mapped from a cache, and only the
        parts drawn since are scaled and mapped. The box filter and the mapping work
        pixel by pixel, so that gives the pixels of scaling and mapping the whole."""
        s = theme.SUPERSAMPLE
        if self.marks.card is None:
            return palette_png(palette.to_palette(self.image.reduce(s)), colours=palette.entries())
        card = self.marks.card
        out = CARD_PALETTE_IMAGES.get(card.key, card.output).copy()
        for x0, y0, x1, y1 in merged(self.marks.dirty, card.size, s):
            part = self.image.crop((x0, y0, x1, y1)).reduce(s)
            out.paste(palette.to_palette(part), (x0 // s, y0 // s))
        for sprite in self.marks.pending:  # after the boxes, which may span them
            box, patch = self.pixels_of(sprite)
            out.paste(patch, (box[0] // s, box[1] // s))
        return palette_png(out, colours=palette.entries())


def draw_static(size: tuple[int, int], scale: float, draw: Callable[[Canvas], None]) -> Image.Image:
    """What ``draw`` draws on paper of ``size`` (image pixels), at ``scale``."""
    canvas = Canvas(Image.new("RGB", size, theme.PAPER), scale=scale)
    draw(canvas)
    return canvas.image


@dataclass(frozen=True)
class PrintedCard:
    """The printed card under a whole image (see :meth:`Canvas.static`): its cache key,
    its size in image pixels, the scale it is drawn at and how. None is kept whole: it
    is drawn for its output pixels and tiles (both cached, see :meth:`output`), or under
    an image drawn on directly."""

    key: Hashable
    size: tuple[int, int]
    scale: float
    paint: Callable[[Canvas], None]

    def image(self) -> Image.Image:
        """The whole card, drawn anew (the caller's to draw on)."""
        return draw_static(self.size, self.scale, self.paint)

    def tiles(self) -> Tiles:
        """The card's pixels, deflated in tiles (drawn whole again if no longer kept)."""
        return CARD_TILES.get(self.key, lambda: Tiles(self.image()))

    def output(self) -> Image.Image:
        """The card at output size in the fixed palette (see :meth:`Canvas.card_png`);
        its tiles kept too, while the whole card is at hand."""
        image = self.image()
        CARD_TILES.get(self.key, lambda: Tiles(image))
        return palette.to_palette(image.reduce(theme.SUPERSAMPLE))


TILE = 128
"""The side of a card's tiles, in image pixels (see :class:`Tiles`): a sprite's box
(a cell, a sum: 100-150 pixels a side) takes a few; smaller tiles cost more calls, larger
ones more pixels inflated and pasted."""


class Tiles:
    """A card's supersampled pixels kept small: each square of :data:`TILE` pixels
    deflated (libdeflate, level 1: fast both ways), equal ones kept once. A sheet's card
    is some 140 KB so, instead of 7.8 MB; a sprite's box takes a few tiles to inflate."""

    def __init__(self, image: Image.Image) -> None:
        self.size = image.size
        found: dict[bytes, bytes] = {}
        self.tiles: dict[tuple[int, int], bytes] = {}
        for y in range(0, self.size[1], TILE):
            for x in range(0, self.size[0], TILE):
                packed = bytes(deflate.deflate_compress(image.crop(self._box(x, y)).tobytes(), 1))
                self.tiles[x, y] = found.setdefault(packed, packed)
        self.bytes = sum(map(len, found))

    def _box(self, x: int, y: int) -> IntBox:
        return (x, y, min(x + TILE, self.size[0]), min(y + TILE, self.size[1]))

    def paste(self, image: Image.Image, box: IntBox) -> None:
        """The card's pixels in ``box`` onto ``image``, where the card has them (only
        there: each page written is a page the process then holds)."""
        for y in range(box[1] // TILE * TILE, box[3], TILE):
            for x in range(box[0] // TILE * TILE, box[2], TILE):
                x0, y0, x1, y1 = self._box(x, y)
                size = (x1 - x0, y1 - y0)
                pixels = deflate.deflate_decompress(self.tiles[x, y], 3 * size[0] * size[1])
                tile = Image.frombytes("RGB", size, pixels)
                part = (max(x0, box[0]), max(y0, box[1]), min(x1, box[2]), min(y1, box[3]))
                if part != (x0, y0, x1, y1):
                    tile = tile.crop((part[0] - x0, part[1] - y0, part[2] - x0, part[3] - y0))
                image.paste(tile, part[:2])


@lru_cache(maxsize=4096)
def text_mask(
    text: str,
    size: int,
    bold: bool,
    condensed: bool,
    anchor: str,
    start: tuple[float, float],
    stroke: int = 0,
) -> tuple[Image.Image, tuple[int, int]]:
    """The anti-aliased mask of ``text`` anchored ``start`` (fractions of a pixel, from 0
    to 1) right of and below a pixel's corner, and the offset of its top-left corner from
    that corner: the mask ImageDraw.text fills with the ink there, drawn once per text,
    font and start; with a ``stroke`` that wide, the mask of the glyphs and their ring.

    ImageDraw.text draws it on a blank "L" image (at a whole pixel plus ``start``, whose
    whole part it takes apart as it does on the canvas) with ink 255, which leaves the
    mask's values; cropped to what it covers."""
    face = theme.font(size, bold, condensed)
    left, top, right, bottom = face.getbbox(text, anchor=anchor, stroke_width=stroke)
    x, y = max(1, 2 - math.floor(left)), max(1, 2 - math.floor(top))
    mask = Image.new("L", (x + math.ceil(right) + 2, y + math.ceil(bottom) + 2))
    ImageDraw.Draw(mask).text(
        (x + start[0], y + start[1]),
        text,
        fill=255,
        font=face,
        anchor=anchor,
        stroke_width=stroke,
        stroke_fill=255,
    )
    box = mask.getbbox() or (x, y, x, y)
    return mask.crop(box), (box[0] - x, box[1] - y)


IntBox = tuple[int, int, int, int]
Sprite = tuple[IntBox, Image.Image]  # image pixels changed (whole output pixels), palette


class Part(NamedTuple):
    """A drawing of a sprite: the view it draws in, and how."""

    origin: Point
    scale: float
    draw: Callable[[Canvas], None]


class Key:
    """A cache key hashed once, and one object per value (see :func:`interned`): keys
    that hold a sheet's layout hash and compare slowly, and the sprites' keys hold it."""

    __slots__ = ("hash", "value")

    def __init__(self, value: Hashable) -> None:
        self.value = value
        self.hash = hash(value)

    def __hash__(self) -> int:
        return self.hash

    def __eq__(self, other: object) -> bool:
        return other is self or (
            isinstance(other, Key) and other.hash == self.hash and other.value == self.value
        )


KEYS: dict[Key, Key] = {}  # one per card layout, language and scale: a few dozen


def interned(value: Hashable) -> Key:
    key = Key(value)
    return KEYS.setdefault(key, key)


@dataclass(eq=False)  # each is itself: lists of them are searched by identity
class Pending:
    """A sprite kept aside: its cache key, its box and output pixels, and its parts, to
    draw them on the image if something is drawn over it."""

    key: Hashable
    box: IntBox
    patch: Image.Image | None  # None for sprites joined: drawn when the image is saved
    parts: list[Part]


@dataclass
class Marks:
    """What a canvas and its views share: the image (made by ``make`` when first drawn
    on) and what was drawn on it: the cached card under it all (its cache key), the image
    boxes drawn since, and the sprites kept aside. ``measuring``: nothing is drawn, only
    the boxes that would be are marked (to find where a sprite draws)."""

    size: tuple[int, int] = (0, 0)
    measuring: bool = False
    scratch: Image.Image | None = None  # where sprites not cached yet are drawn
    make: Callable[[], Image.Image] | None = None
    image: Image.Image | None = None
    draw: ImageDraw.ImageDraw | None = None
    card: PrintedCard | None = None
    dirty: list[Box] = field(default_factory=list)
    pending: list[Pending] = field(default_factory=list)

    def open(self, image: Image.Image | None = None) -> Image.Image:
        """Use ``image``, or make the image, to draw on."""
        if image is None:
            assert self.make is not None
            image = self.make()
        self.image, self.draw, self.size = image, ImageDraw.Draw(image), image.size
        return image

    def under(self, box: IntBox) -> list[Pending]:
        """The sprites kept aside that ``box`` reaches, and those that the box around
        them all reaches, and so on, in the order they were kept."""
        x0, y0, x1, y1 = box  # most reach none: one pass, without a call per sprite
        found = [
            s
            for s in self.pending
            if x0 < s.box[2] and s.box[0] < x1 and y0 < s.box[3] and s.box[1] < y1
        ]
        grown = box
        more = found
        while more:
            for sprite in more:
                grown = (
                    min(grown[0], sprite.box[0]),
                    min(grown[1], sprite.box[1]),
                    max(grown[2], sprite.box[2]),
                    max(grown[3], sprite.box[3]),
                )
            more = [s for s in self.pending if s not in found and overlap(grown, s.box)]
            found += more
        return [s for s in self.pending if s in found]

    def touches(self, box: IntBox) -> bool:
        """Whether ``box`` shares an output pixel with anything drawn on the image."""
        s = theme.SUPERSAMPLE
        return any(
            overlap(
                box,
                (
                    int(b[0]) // s * s,
                    int(b[1]) // s * s,
                    (int(b[2]) // s + 1) * s,
                    (int(b[3]) // s + 1) * s,
                ),
            )
            for b in self.dirty
        )

    def draw_pending(self, b: Box) -> None:
        """Draw the sprites kept aside that share an output pixel with ``b``."""
        s = theme.SUPERSAMPLE
        grid = (
            int(b[0]) // s * s,
            int(b[1]) // s * s,
            (int(b[2]) // s + 1) * s,
            (int(b[3]) // s + 1) * s,
        )
        hit = [sprite for sprite in self.pending if overlap(grid, sprite.box)]
        for sprite in hit:
            self.pending.remove(sprite)
            self.draw_parts(sprite.parts)

    def draw_parts(self, parts: list[Part]) -> None:
        """Draw sprites' ``parts`` on the image."""
        for part in parts:
            part.draw(Canvas(None, part.origin, part.scale, self))


def overlap(a: IntBox, b: IntBox) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def shifted(b: Box, by: Point) -> Box:
    return (b[0] + by[0], b[1] + by[1], b[2] + by[0], b[3] + by[1])


STRIP = 32  # dirty boxes are merged per horizontal strip of this many image pixels


def merged(boxes: list[Box], size: tuple[int, int], align: int) -> list[tuple[int, int, int, int]]:
    """``boxes`` clipped to ``size`` and merged into one box per horizontal strip they
    touch, on multiples of ``align``: few crops, each a whole block of the box filter."""
    strips = -(-size[1] // STRIP)
    lefts, rights = [math.inf] * strips, [-math.inf] * strips
    for x0, y0, x1, y1 in boxes:
        for strip in range(max(0, int(y0)) // STRIP, min(size[1] - 1, int(y1)) // STRIP + 1):
            if x0 < lefts[strip]:
                lefts[strip] = x0
            if x1 > rights[strip]:
                rights[strip] = x1
    found = []
    for strip, (x0, x1) in enumerate(zip(lefts, rights, strict=True)):
        if x1 <= x0:
            continue
        left = max(0, int(x0) // align * align)
        right = min(size[0], -(-math.ceil(x1) // align) * align)
        if right > left:
            found.append((left, strip * STRIP, right, min(size[1], (strip + 1) * STRIP)))
    return found


def to_png(image: Image.Image) -> bytes:
    """Encode ``image`` as a palette PNG (adaptive palette, zlib level
    ``theme.PNG_COMPRESS_LEVEL``)."""
    return palette_png(
        image.quantize(
            colors=theme.PALETTE_COLOURS, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE
        )
    )


def palette_png(image: Image.Image, level: int | None = None, colours: int | None = None) -> bytes:
    """Encode a palette image as it is, at compression ``level``
    (``theme.PNG_COMPRESS_LEVEL`` unless given), with its first ``colours`` palette
    entries (those it uses unless given)."""
    return png.encode(image, level or theme.PNG_COMPRESS_LEVEL, colours)


class ImageCache(Generic[T]):
    """A bounded LRU cache of images that nobody changes once stored (callers paste or
    copy them, never draw on them), so any number of threads may read them at once: at
    most ``maxsize`` of them, and ``max_bytes`` of pixels if given (see :func:`held`).
    Building happens outside the lock: two threads missing the same key at once both
    build it, and the first one stored wins.
    """

    def __init__(
        self,
        maxsize: int,
        dependents: Sequence[ImageCache[Any]] = (),
        max_bytes: int | None = None,
    ) -> None:
        self.maxsize = maxsize
        self.max_bytes = max_bytes
        self.dependents = dependents  # caches of images drawn over these: cleared with them
        self.bytes = 0  # what the images hold (see held)
        self._images: OrderedDict[Hashable, T] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable, build: Callable[[], T]) -> T:
        with self._lock:
            if key in self._images:
                self._images.move_to_end(key)
                return self._images[key]
        image = build()
        with self._lock:
            if key in self._images:
                image = self._images[key]
            else:
                self._images[key] = image
                self.bytes += held(image)
            self._images.move_to_end(key)
            while len(self._images) > self.maxsize or (
                self.max_bytes is not None and self.bytes > self.max_bytes and len(self._images) > 1
            ):
                _, dropped = self._images.popitem(last=False)
                self.bytes -= held(dropped)
        return image

    def clear(self) -> None:
        with self._lock:
            self._images.clear()
            self.bytes = 0
        for cache in self.dependents:
            cache.clear()

    def __len__(self) -> int:
        return len(self._images)


def held(value: object) -> int:
    """The bytes of pixels an image holds (or a sprite, its box and image; or a card's
    tiles, deflated): Pillow keeps one a pixel in modes "P" and "L", four in "RGB" and
    "RGBA"; None holds none."""
    if isinstance(value, Tiles):
        return value.bytes
    if isinstance(value, tuple):
        value = value[-1]
    if not isinstance(value, Image.Image):
        return 0
    return value.width * value.height * (1 if value.mode in ("P", "L", "1") else 4)


# What is written on the cards, at output size in the palette (see Canvas.sprite): a
# crossed cell is 64 x 64 px, 4 KB, a closed row 78 KB; a Qwixx card has 44 cells in two
# looks each. 16 MB holds 2,600 or so. A piece drawn anew is drawn over the card's
# pixels in its box (CARD_TILES): 16 games of every variant in two languages, played in
# turn, took 2.9 ms a sheet (p90 3.6 ms) when played again with 16 MB, 4.3 ms (p90
# 7.8 ms) with 8 MB (measured when two whole cards were kept to draw them on).
CARD_SPRITES: ImageCache[Sprite | None] = ImageCache(maxsize=8192, max_bytes=16 * 2**20)
# The printed cards' supersampled pixels, deflated in tiles (see Tiles): what a sprite not
# cached yet is drawn over. Some 140 KB a sheet's card; one no longer kept is drawn again
# (6-10 ms) and deflated (as long again).
CARD_TILES: ImageCache[Tiles] = ImageCache(maxsize=8, max_bytes=2 * 2**20)
# Parts of cards drawn in another look (Canvas.redraw): a Qwinto column is 140 x 540 RGB.
REDRAWN: ImageCache[Image.Image] = ImageCache(maxsize=16)
# Printed parts pasted into a larger image: the On Board track over its legend (1780 x
# 1192 RGB, 8.5 MB; one per board and language), a sheet drawn smaller. A track no longer
# kept is drawn again (about 9 ms). Emptied, they empty the caches of what is drawn over
# printed parts too.
STATIC_IMAGES: ImageCache[Image.Image] = ImageCache(
    maxsize=2, dependents=[CARD_SPRITES, CARD_TILES, REDRAWN]
)
# The cards at output size in the fixed palette, what every sheet and board is composed on:
# 0.5 MB a sheet (one byte a pixel), one per layout and language.
CARD_PALETTE_IMAGES: ImageCache[Image.Image] = ImageCache(maxsize=8, max_bytes=4 * 2**20)
