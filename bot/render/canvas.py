"""A small drawing surface in output pixels, drawn supersampled and saved as palette PNG."""

from __future__ import annotations

import io
from collections.abc import Sequence

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

    # --- coordinates -----------------------------------------------------
    def point(self, p: Point) -> Point:
        return (self.origin[0] + p[0] * self.scale, self.origin[1] + p[1] * self.scale)

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
             anchor: str = "mm", condensed: bool = False) -> None:
        """Draw ``text`` with its ``anchor`` (Pillow anchors, centred by default) at ``p``."""
        self.draw.text(self.point(p), text, fill=fill,
                       font=theme.font(self.px(size), bold, condensed), anchor=anchor)

    def text_width(self, text: str, size: float, bold: bool = False,
                   condensed: bool = False) -> float:
        """Width of ``text`` in this canvas's units."""
        return theme.font(self.px(size), bold, condensed).getlength(text) / self.scale

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
        """The image scaled to output size, as a small palette PNG."""
        w, h = self.image.size
        out = self.image.resize((w // theme.SUPERSAMPLE, h // theme.SUPERSAMPLE),
                                Image.Resampling.LANCZOS)
        return to_png(out)


def to_png(image: Image.Image) -> bytes:
    """Encode ``image`` as an optimised palette PNG."""
    pal = image.quantize(colors=theme.PALETTE_COLOURS, method=Image.Quantize.FASTOCTREE,
                         dither=Image.Dither.NONE)
    buffer = io.BytesIO()
    pal.save(buffer, format="PNG", optimize=True)
    return buffer.getvalue()
