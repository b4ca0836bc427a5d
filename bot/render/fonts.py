"""Text in any script: each character drawn with a bundled font that has its glyph.

Pillow draws a string with one font, and DejaVu (the images' face) has no Chinese,
Japanese or Korean and no emoji: players' names in them would be empty boxes. So text
is cut into runs, each drawn with the first font whose character map has its
characters: DejaVu, then Droid Sans Fallback (CJK, Hangul), then Noto Color Emoji
(a bitmap font drawn at its one size, 109 px, and scaled). Text that DejaVu covers
alone, all the catalogue's words and digits, is drawn as before.

Characters are grouped into clusters that stay in one run, and count as one character
when a name is shortened: a letter with its combining accents, an emoji with its
variation selector, skin tone or keycap, emoji joined by zero-width joiners (a family),
and pairs of regional indicators (a flag). A cluster no font has is drawn as U+FFFD.
"""

from __future__ import annotations

import math
import struct
import unicodedata
from bisect import bisect_right
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from bot import ASSETS

FONTS = ASSETS / "fonts"
CJK_FONT = FONTS / "DroidSansFallback.ttf"
EMOJI_FONT = FONTS / "NotoColorEmoji.ttf"
EMOJI_PPEM = 109  # the one size of Noto Color Emoji's bitmaps
EMOJI_SCALE = 0.9  # an emoji is drawn this many times the text's size (its box is 1.25 em)
REPLACEMENT = "\N{REPLACEMENT CHARACTER}"

MAIN, CJK, EMOJI = "main", "cjk", "emoji"

# Whole names up to this many characters; longer ones keep this many and an ellipsis.
NAME_WHOLE = 16
NAME_KEPT = 12

ZWJ = 0x200D
KEYCAP = 0x20E3


# --- character maps -------------------------------------------------------------------


class CodePoints:
    """A set of code points kept as its runs: a font's few thousand lie in a few hundred
    (three DejaVu faces' held 1.3 MB as sets of ints, a few KB so)."""

    __slots__ = ("_ends", "_starts")

    def __init__(self, codes: Iterable[int]) -> None:
        starts: list[int] = []
        ends: list[int] = []
        for code in sorted(codes):
            if ends and code == ends[-1] + 1:
                ends[-1] = code
            else:
                starts.append(code)
                ends.append(code)
        self._starts, self._ends = tuple(starts), tuple(ends)

    def __contains__(self, code: int) -> bool:
        run = bisect_right(self._starts, code) - 1
        return run >= 0 and code <= self._ends[run]


@lru_cache(maxsize=16)
def coverage(path: Path) -> CodePoints:
    """The code points that the font at ``path`` maps to a glyph (its 'cmap' table,
    Unicode subtables of formats 4 and 12)."""
    data = path.read_bytes()
    tables = {}
    for k in range(struct.unpack_from(">H", data, 4)[0]):
        tag, _, offset, _ = struct.unpack_from(">4sIII", data, 12 + 16 * k)
        tables[tag] = offset
    base = tables[b"cmap"]
    found: set[int] = set()
    for k in range(struct.unpack_from(">H", data, base + 2)[0]):
        platform, encoding, offset = struct.unpack_from(">HHI", data, base + 4 + 8 * k)
        if (platform, encoding) not in ((0, 3), (0, 4), (0, 6), (3, 1), (3, 10)):
            continue
        at = base + offset
        kind = struct.unpack_from(">H", data, at)[0]
        if kind == 4:
            segments = struct.unpack_from(">H", data, at + 6)[0] // 2
            ends = struct.unpack_from(f">{segments}H", data, at + 14)
            starts = struct.unpack_from(f">{segments}H", data, at + 16 + 2 * segments)
            deltas = struct.unpack_from(f">{segments}h", data, at + 16 + 4 * segments)
            ranges = at + 16 + 6 * segments
            offsets = struct.unpack_from(f">{segments}H", data, ranges)
            for s, (start, end) in enumerate(zip(starts, ends, strict=True)):
                if start == 0xFFFF:
                    continue
                for code in range(start, end + 1):
                    if offsets[s] == 0:
                        glyph = (code + deltas[s]) & 0xFFFF
                    else:
                        where = ranges + 2 * s + offsets[s] + 2 * (code - start)
                        glyph = struct.unpack_from(">H", data, where)[0]
                        glyph = (glyph + deltas[s]) & 0xFFFF if glyph else 0
                    if glyph:
                        found.add(code)
        elif kind == 12:
            for g in range(struct.unpack_from(">I", data, at + 12)[0]):
                start, end, glyph = struct.unpack_from(">III", data, at + 16 + 12 * g)
                found.update(range(start + (glyph == 0), end + 1))
    return CodePoints(found)


# --- clusters ---------------------------------------------------------------------------


def regional(code: int) -> bool:
    return 0x1F1E6 <= code <= 0x1F1FF


def joins(code: int) -> bool:
    """Whether ``code`` belongs to the cluster before it: combining marks, variation
    selectors, zero-width joiners, skin tones, tags and the keycap."""
    return (
        code in (ZWJ, KEYCAP)
        or 0xFE00 <= code <= 0xFE0F
        or 0x1F3FB <= code <= 0x1F3FF
        or 0xE0020 <= code <= 0xE007F
        or 0xE0100 <= code <= 0xE01EF
        or unicodedata.category(chr(code)) in ("Mn", "Me", "Mc")
    )


@lru_cache(maxsize=4096)
def clusters(text: str) -> tuple[str, ...]:
    """``text`` in user-perceived characters (an approximation of Unicode's grapheme
    clusters, enough for names: see the module's docstring)."""
    found: list[str] = []
    for char in text:
        code = ord(char)
        if found:
            last = found[-1]
            if joins(code) or ord(last[-1]) == ZWJ:
                found[-1] += char
                continue
            if regional(code) and len(last) == 1 and regional(ord(last)):
                found[-1] += char
                continue
        found.append(char)
    return tuple(found)


def short_name(name: str) -> str:
    """``name`` as the images show it: whole up to :data:`NAME_WHOLE` characters, else
    its first :data:`NAME_KEPT` and an ellipsis."""
    parts = clusters(name.strip())
    if len(parts) <= NAME_WHOLE:
        return "".join(parts)
    return "".join(parts[:NAME_KEPT]).rstrip() + "…"


def emoji_like(cluster: str) -> bool:
    """Whether ``cluster`` asks for an emoji: a flag, a keycap, a joined sequence, a
    skin tone or the emoji variation selector."""
    return any(
        ord(c) in (ZWJ, KEYCAP, 0xFE0F) or regional(ord(c)) or 0x1F3FB <= ord(c) <= 0x1F3FF
        for c in cluster
    )


def kind_of(cluster: str, main: Path) -> str | None:
    """Which font draws ``cluster``: the main one (``main``), CJK or emoji; None if none."""
    base = ord(cluster[0])
    if emoji_like(cluster) and base in coverage(EMOJI_FONT):
        return EMOJI
    marks = [ord(c) for c in cluster[1:] if unicodedata.category(c).startswith("M")]
    for kind, path in ((MAIN, main), (CJK, CJK_FONT)):
        have = coverage(path)
        if base in have and all(m in have for m in marks):
            return kind
    if base in coverage(EMOJI_FONT):
        return EMOJI
    return None


@lru_cache(maxsize=4096)
def runs(text: str, main: Path) -> tuple[tuple[str, str], ...]:
    """``text`` as (kind, text) runs of one font each (see :func:`kind_of`); clusters no
    font has become U+FFFD in the main font."""
    found: list[list[str]] = []
    for cluster in clusters(text):
        kind = kind_of(cluster, main)
        if kind is None:
            kind, cluster = MAIN, REPLACEMENT
        if found and found[-1][0] == kind:
            found[-1][1] += cluster
        else:
            found.append([kind, cluster])
    return tuple((kind, part) for kind, part in found)


@lru_cache(maxsize=8192)
def plain(text: str, main: Path) -> bool:
    """Whether the main font has every character of ``text`` (it is drawn as it is)."""
    have = coverage(main)
    return all(ord(c) in have for c in text)


# --- drawing runs -----------------------------------------------------------------------


@lru_cache(maxsize=64)
def cjk_font(size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(CJK_FONT), size)


@lru_cache(maxsize=1)
def emoji_font() -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(EMOJI_FONT), EMOJI_PPEM)


def emboldened(size: int) -> int:
    """The stroke that makes the CJK font (which has no bold face) look bold."""
    return max(1, round(size / 36))


def run_length(kind: str, text: str, size: int, main: ImageFont.FreeTypeFont, bold: bool) -> float:
    if kind == MAIN:
        return main.getlength(text)
    if kind == CJK:
        return cjk_font(size).getlength(text) + (2 * emboldened(size) if bold else 0)
    return emoji_font().getlength(text) * size * EMOJI_SCALE / EMOJI_PPEM


def length(
    text: str, size: int, main_path: Path, main: ImageFont.FreeTypeFont, bold: bool
) -> float:
    """Width of ``text`` at ``size`` px, each run in its own font."""
    return sum(run_length(kind, part, size, main, bold) for kind, part in runs(text, main_path))


@dataclass(frozen=True)
class Drawn:
    """Text drawn in runs: a mask to fill with the ink, the emoji in colour (RGBA, or
    None), both with their top-left corner at ``offset`` from the anchor point."""

    mask: Image.Image
    colour: Image.Image | None
    offset: tuple[int, int]


@lru_cache(maxsize=1024)
def render(
    text: str, size: int, main_path: Path, main: ImageFont.FreeTypeFont, bold: bool, anchor: str
) -> Drawn:
    """``text`` drawn at ``size`` px run by run, placed like Pillow places one font's
    text at ``anchor`` (l/m/r and a/t/m/s/b/d), by the main font's ascent and descent."""
    ascent, descent = main.getmetrics()
    parts = runs(text, main_path)
    widths = [run_length(kind, part, size, main, bold) for kind, part in parts]
    total = sum(widths)
    pad = size  # room for glyphs reaching past their advance and below the descent
    width = math.ceil(total) + 2 * pad
    height = ascent + descent + 2 * pad
    mask = Image.new("L", (width, height), 0)
    colour: Image.Image | None = None
    draw = ImageDraw.Draw(mask)
    x, baseline = float(pad), pad + ascent
    for (kind, part), advance in zip(parts, widths, strict=True):
        if kind == MAIN:
            draw.text((x, baseline), part, fill=255, font=main, anchor="ls")
        elif kind == CJK:
            stroke = emboldened(size) if bold else 0
            draw.text(
                (x + stroke, baseline),
                part,
                fill=255,
                font=cjk_font(size),
                anchor="ls",
                stroke_width=stroke,
                stroke_fill=255,
            )
        else:
            colour = colour or Image.new("RGBA", (width, height), (0, 0, 0, 0))
            glyphs = emoji_glyphs(part)
            scale = size * EMOJI_SCALE / EMOJI_PPEM
            w, h = max(1, round(glyphs.width * scale)), max(1, round(glyphs.height * scale))
            small = glyphs.resize((w, h), Image.Resampling.LANCZOS)
            top = baseline - round(emoji_font().getmetrics()[0] * scale)
            colour.alpha_composite(small, (round(x), top))
        x += advance
    left = {"l": 0.0, "m": total / 2, "r": total}[anchor[0]]
    rise = {
        "a": ascent,
        "t": ascent,
        "m": (ascent - descent) / 2,
        "s": 0,
        "b": -descent,
        "d": -descent,
    }[anchor[1]]
    box = mask.getbbox()
    if colour is not None:
        extra = colour.getbbox()
        if extra:
            box = (
                extra
                if box is None
                else (
                    min(box[0], extra[0]),
                    min(box[1], extra[1]),
                    max(box[2], extra[2]),
                    max(box[3], extra[3]),
                )
            )
    box = box or (0, 0, 1, 1)
    mask = mask.crop(box)
    colour = colour.crop(box) if colour is not None else None
    offset = (round(box[0] - pad - left), round(box[1] - baseline + rise))
    return Drawn(mask, colour, offset)


@lru_cache(maxsize=512)
def emoji_glyphs(text: str) -> Image.Image:
    """``text`` in Noto Color Emoji at its size, RGBA, the box of its advance and line."""
    font = emoji_font()
    ascent, descent = font.getmetrics()
    image = Image.new("RGBA", (math.ceil(font.getlength(text)) + 1, ascent + descent), (0, 0, 0, 0))
    ImageDraw.Draw(image).text((0, ascent), text, font=font, anchor="ls", embedded_color=True)
    return image
