"""A small drawing surface in output pixels, drawn supersampled and saved as palette PNG."""

from __future__ import annotations

import io
import math
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence

from PIL import Image, ImageDraw

from . import theme

Box = tuple[float, float, float, float]
Point = tuple[float, float]
Colour = tuple[int, int, int]


class Canvas:
    """Draws in output-pixel coordinates onto a supersampled image.

    ``view`` returns a canvas on the same image with a shifted and scaled origin, so a
    sheet can be drawn full size for one player or small on the scoreboard.
    """

    def __init__(self, image: Image.Image, origin: Point = (0, 0), scale: float = 1.0) -> None:
        self.image = image
        self.draw = ImageDraw.Draw(image)
        self.origin = origin
        self.scale = scale

    @classmethod
    def new(cls, width: int, height: int, background: Colour = theme.PAPER) -> Canvas:
        size = (width * theme.SUPERSAMPLE, height * theme.SUPERSAMPLE)
        return cls(Image.new("RGB", size, background), scale=theme.SUPERSAMPLE)

    def view(self, x: float, y: float, scale: float = 1.0) -> Canvas:
        """A canvas whose (0, 0) is this canvas's (x, y), drawing ``scale`` times as large."""
        return Canvas(self.image, self.point((x, y)), self.scale * scale)

    def static(self, key: Hashable, width: float, height: float,
               draw: Callable[[Canvas], None]) -> None:
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
        image = STATIC_IMAGES.get((key, self.scale, size),
                                  lambda: self._draw_static(size, draw))
        self.image.paste(image, (int(x), int(y)))

    def _draw_static(self, size: tuple[int, int], draw: Callable[[Canvas], None]) -> Image.Image:
        canvas = Canvas(Image.new("RGB", size, theme.PAPER), scale=self.scale)
        draw(canvas)
        return canvas.image

    # --- coordinates -----------------------------------------------------
    def point(self, p: Point) -> Point:
        """``p`` in image pixels, rounded to a millionth of a pixel: float noise (an edge at
        242.99999999999997) must not move a line by a pixel when the origin moves."""
        return (round(self.origin[0] + p[0] * self.scale, 6),
                round(self.origin[1] + p[1] * self.scale, 6))

    def box(self, b: Box) -> Box:
        x0, y0 = self.point((b[0], b[1]))
        x1, y1 = self.point((b[2], b[3]))
        return (x0, y0, x1, y1)

    def px(self, length: float) -> int:
        return max(1, round(length * self.scale))

    # --- primitives ------------------------------------------------------
    def rect(self, b: Box, fill: Colour | None = None, outline: Colour | None = None,
             width: float = 1, radius: float = 0) -> None:
        w = self.px(width) if outline else 0
        self.draw.rounded_rectangle(self.box(b), radius=self.px(radius) if radius else 0,
                                    fill=fill, outline=outline, width=w)

    def ellipse(self, b: Box, fill: Colour | None = None, outline: Colour | None = None,
                width: float = 1) -> None:
        self.draw.ellipse(self.box(b), fill=fill, outline=outline,
                          width=self.px(width) if outline else 0)

    def arc(self, b: Box, start: float, end: float, fill: Colour, width: float) -> None:
        self.draw.arc(self.box(b), start, end, fill=fill, width=self.px(width))

    def line(self, points: Sequence[Point], fill: Colour, width: float,
             round_ends: bool = True) -> None:
        pts = [self.point(p) for p in points]
        w = self.px(width)
        self.draw.line(pts, fill=fill, width=w, joint="curve")
        if round_ends:
            r = w / 2
            for x, y in (pts[0], pts[-1]):
                self.draw.ellipse((x - r, y - r, x + r, y + r), fill=fill)

    def polygon(self, points: Sequence[Point], fill: Colour | None = None,
                outline: Colour | None = None, width: float = 1) -> None:
        self.draw.polygon([self.point(p) for p in points], fill=fill, outline=outline,
                          width=self.px(width) if outline else 0)

    def text(self, p: Point, text: str, size: float, fill: Colour, bold: bool = False,
             anchor: str = "mm", condensed: bool = False, halo: Colour | None = None,
             halo_width: float = 0) -> None:
        """Draw ``text`` with its ``anchor`` (Pillow anchors, centred by default) at ``p``,
        ringed ``halo_width`` wide in ``halo`` if given (a digit over a cross)."""
        stroke = self.px(halo_width) if halo and halo_width else 0
        self.draw.text(self.point(p), text, fill=fill,
                       font=theme.font(self.px(size), bold, condensed), anchor=anchor,
                       stroke_width=stroke, stroke_fill=halo if stroke else None)

    def text_width(self, text: str, size: float, bold: bool = False,
                   condensed: bool = False) -> float:
        """Width of ``text`` in this canvas's units."""
        return theme.text_length(text, self.px(size), bold, condensed) / self.scale

    def fit_text(self, text: str, size: float, width: float, bold: bool = False,
                 condensed: bool = False) -> float:
        """The largest size up to ``size`` at which ``text`` fits ``width``."""
        while size > 8 and self.text_width(text, size, bold, condensed) > width:
            size -= 1
        return size

    def fit_name(self, text: str, size: float, width: float,
                 bold: bool = False) -> tuple[str, float]:
        """Shrink ``text`` to at most a quarter smaller, then cut it with an ellipsis."""
        smallest = size * 0.75
        size = max(smallest, self.fit_text(text, size, width, bold))
        while len(text) > 1 and self.text_width(text, size, bold) > width:
            text = text[:-2].rstrip() + "…"
        return text, size

    # --- output ----------------------------------------------------------
    def png(self) -> bytes:
        """The image scaled to output size, as a small palette PNG.

        Each output pixel is the mean of its ``SUPERSAMPLE`` x ``SUPERSAMPLE`` block (a box
        filter): at 2x it looks the same as Lanczos and takes a tenth of the time.
        """
        return to_png(self.image.reduce(theme.SUPERSAMPLE))


def to_png(image: Image.Image) -> bytes:
    """Encode ``image`` as a palette PNG (adaptive palette, zlib level
    ``theme.PNG_COMPRESS_LEVEL``)."""
    return palette_png(image.quantize(colors=theme.PALETTE_COLOURS,
                                      method=Image.Quantize.FASTOCTREE,
                                      dither=Image.Dither.NONE))


def palette_png(image: Image.Image) -> bytes:
    """Encode a palette image as it is (zlib level ``theme.PNG_COMPRESS_LEVEL``)."""
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", compress_level=theme.PNG_COMPRESS_LEVEL)
    return buffer.getvalue()


class ImageCache:
    """A bounded LRU cache of images that nobody changes once stored (callers paste or
    copy them, never draw on them), so any number of threads may read them at once.
    Building happens outside the lock: two threads missing the same key at once both
    build it, and the first one stored wins.
    """

    def __init__(self, maxsize: int) -> None:
        self.maxsize = maxsize
        self._images: OrderedDict[Hashable, Image.Image] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable, build: Callable[[], Image.Image]) -> Image.Image:
        with self._lock:
            image = self._images.get(key)
            if image is not None:
                self._images.move_to_end(key)
                return image
        image = build()
        with self._lock:
            image = self._images.setdefault(key, image)
            self._images.move_to_end(key)
            while len(self._images) > self.maxsize:
                self._images.popitem(last=False)
        return image

    def clear(self) -> None:
        with self._lock:
            self._images.clear()

    def __len__(self) -> int:
        return len(self._images)


# The printed parts of sheets and boards: one image per layout and scale. A full-size
# sheet's is 1728 x 1124 RGB, ~6 MB, the scoreboard's half-size ones a quarter of that;
# the bot uses about eight (three Qwixx variants at two scales, two boards): ~35 MB.
STATIC_IMAGES = ImageCache(maxsize=12)
