"""The dice as emojis: every face of every die a game can show, drawn as the dice image
draws a die (:func:`.dice.draw_face`), on a transparent square the size of an emoji.

Discord shows an emoji in a line of text at about 22 pixels, on light and dark themes
alike: the edge and the pips are drawn heavier than on the dice image, so that a white
die keeps its outline on white and every pip stays a dot. :func:`art_version` names the
drawing (a hash of its pixels): an emoji drawn by other code has another name, which is
how the bot knows to replace it.
"""

from __future__ import annotations

import hashlib
import io
from functools import cache

from PIL import Image

from bot.rules import VARIANTS
from bot.rules.qwinto import FACES as QWINTO_FACES
from bot.rules.qwinto import ROWS as QWINTO_ROWS
from bot.rules.qwixx import ROWS as QWIXX_ROWS
from bot.rules.qwixx import QwixxGame

from .canvas import Canvas
from .dice import draw_face

SIZE = 128
"""Pixels per side (Discord scales an emoji down to its size in a line)."""
SUPERSAMPLE = 2
MARGIN = 5
EDGE = 8.0
PIP = 0.115
DIGIT = 0.66
"""The edge's width in pixels, a pip's radius and a figure's height as shares of the
die: heavier than the dice image's, so that they read at inline size."""


def every_face() -> tuple[tuple[str, int], ...]:
    """Each (colour, face) a game can show, from the rules: the Qwixx family's white and
    coloured dice with their faces (Longo's eight), Qwinto's three dice (its yellow die
    is the Qwixx yellow)."""
    found: dict[tuple[str, int], None] = {}
    for game in VARIANTS.values():
        colours: tuple[str, ...]
        if issubclass(game, QwixxGame):
            colours, faces = ("white", *QWIXX_ROWS), game.rules.faces
        else:
            colours, faces = QWINTO_ROWS, QWINTO_FACES
        found.update(dict.fromkeys((c, f) for c in colours for f in range(1, faces + 1)))
    return tuple(found)


def draw(colour: str, face: int) -> Image.Image:
    """The emoji of ``colour``'s die showing ``face`` (RGBA, transparent around it)."""
    big = Image.new("RGBA", (SIZE * SUPERSAMPLE, SIZE * SUPERSAMPLE), (0, 0, 0, 0))
    canvas = Canvas(big, scale=SUPERSAMPLE)
    box = (MARGIN, MARGIN, SIZE - MARGIN, SIZE - MARGIN)
    side = SIZE - 2 * MARGIN
    draw_face(canvas, box, colour, face, EDGE, PIP, DIGIT * side)
    return big.resize((SIZE, SIZE), Image.Resampling.LANCZOS)


def png(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


@cache
def drawn_art() -> tuple[dict[tuple[str, int], bytes], str]:
    """Every face's emoji as a PNG, and the art's version: four hex digits of a hash of
    every face's pixels, which change when the drawing does (not when only the PNG
    encoder does). Drawn once a process, in a fraction of a second."""
    art: dict[tuple[str, int], bytes] = {}
    digest = hashlib.blake2b(digest_size=8)
    for colour, face in every_face():
        image = draw(colour, face)
        digest.update(f"{colour}{face}:{image.size}".encode())
        digest.update(image.tobytes())
        art[colour, face] = png(image)
    return art, digest.hexdigest()[:4]


def emoji_art() -> dict[tuple[str, int], bytes]:
    """Every face's emoji as a PNG."""
    return drawn_art()[0]


def art_version() -> str:
    """The art's version (:func:`drawn_art`)."""
    return drawn_art()[1]
