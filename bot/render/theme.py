"""Everything the images look like, in one place: colours, fonts and geometry.

Geometry is in output pixels. Drawing happens at ``SUPERSAMPLE`` times that size and is
scaled down at the end, which gives smooth edges without anti-aliased primitives.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from PIL import ImageFont

from bot import ASSETS

from . import fonts

RGB = tuple[int, int, int]

# --- colours -------------------------------------------------------------


def blend(a: RGB, b: RGB, t: float) -> RGB:
    """``a`` moved a fraction ``t`` towards ``b``."""
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )


@dataclass(frozen=True)
class RowColours:
    """The colours of one printed row: its band, its number cells and its ink."""

    band: RGB
    cell: RGB
    ink: RGB


ROW_COLOURS: dict[str, RowColours] = {
    # Qwixx, as printed: saturated bands, pale cells, numbers in a dark shade of the colour.
    "red": RowColours(band=(214, 35, 42), cell=(253, 228, 228), ink=(178, 20, 30)),
    "yellow": RowColours(band=(249, 200, 20), cell=(255, 246, 200), ink=(150, 108, 0)),
    "green": RowColours(band=(0, 148, 70), cell=(221, 243, 228), ink=(0, 110, 50)),
    "blue": RowColours(band=(28, 96, 178), cell=(222, 233, 250), ink=(20, 70, 145)),
    # Qwinto.
    "orange": RowColours(band=(240, 122, 28), cell=(255, 234, 214), ink=(180, 80, 0)),
    "purple": RowColours(band=(122, 58, 152), cell=(238, 226, 246), ink=(96, 40, 124)),
}
FALLBACK_ROW = RowColours(band=(110, 110, 110), cell=(235, 235, 235), ink=(60, 60, 60))

PAPER: RGB = (255, 255, 255)
CARD_EDGE: RGB = (190, 190, 190)
INK: RGB = (30, 30, 30)  # crosses, outlines, text
MUTED: RGB = (110, 110, 110)  # captions
RULE: RGB = (200, 200, 200)  # table lines
SKIPPED_CELL: RGB = (205, 205, 205)
SKIPPED_INK: RGB = (150, 150, 150)
SKIPPED_STROKE: RGB = (80, 80, 80)
CLOSED_BAND: RGB = (95, 95, 95)
HIGHLIGHT_OUTER: RGB = (15, 15, 15)
HIGHLIGHT_INNER: RGB = (255, 255, 255)
WINNER: RGB = (255, 236, 160)
GOLD: RGB = (214, 160, 0)
CLOVER: RGB = (24, 130, 52)  # Longo's lucky numbers
CLOVER_PALE: RGB = (226, 244, 228)
COLUMN_BAND: RGB = (222, 222, 222)  # Qwinto: the triple columns behind the rows
COLUMN_DONE: RGB = (246, 206, 80)  # ... once all three fields are filled

# Qwixx On Board: the pawns, one colour per seat, chosen to stand out on every field colour
# (each pawn also carries its seat number, so colour is never the only clue).
PAWN_COLOURS: tuple[RGB, ...] = ((250, 250, 250), (35, 35, 35), (150, 70, 190), (250, 140, 30))
PAWN_EDGE_LIGHT: RGB = (30, 30, 30)  # the outline of light pawns
PAWN_EDGE_DARK: RGB = (255, 255, 255)  # ... and of dark ones
TRACK_ROAD: RGB = (222, 222, 222)  # the path behind the fields
START_FIELD: RGB = (246, 246, 246)
FINISH_DARK: RGB = (30, 30, 30)  # the finish area's chequered frame
FINISH_LIGHT: RGB = (255, 255, 255)

# Dice: body and pip colours; pips are dark on light bodies for contrast.
WHITE_DIE = (250, 250, 250)
DIE_EDGE: RGB = (60, 60, 60)
LIGHT_BANDS = frozenset({"yellow", "orange"})  # colours that need dark text and pips
DARK_PIPS = {"white", *LIGHT_BANDS}

# --- fonts ---------------------------------------------------------------

FONT_REGULAR = ASSETS / "fonts" / "DejaVuSans.ttf"
FONT_BOLD = ASSETS / "fonts" / "DejaVuSans-Bold.ttf"
FONT_CONDENSED = ASSETS / "fonts" / "DejaVuSansCondensed-Bold.ttf"  # long rows' numbers
FONTS_KEPT = 4
"""Faces kept loaded, one per font and size. Each holds a map of its file of its own,
of which FreeType reads some 0.3 MB (the tables, the glyphs drawn): the twenty a sheet
of each variant loads held 5.4 MB. Text is drawn from cached masks and lengths, so a
face is seldom needed again: along 24 games' sheets, 136 of the 665 faces asked for
were loaded anew (0.15 ms each) with four kept, 91 with eight, 24 with all kept."""


@lru_cache(maxsize=FONTS_KEPT)
def font(size: int, bold: bool = False, condensed: bool = False) -> ImageFont.FreeTypeFont:
    """The bundled DejaVu font at ``size`` pixels, the last :data:`FONTS_KEPT` kept.

    ``condensed`` is the narrow bold face (whatever ``bold`` says), used where two-digit
    numbers must fit narrow cells.
    """
    return ImageFont.truetype(str(font_path(bold, condensed)), size)


def font_path(bold: bool = False, condensed: bool = False) -> Path:
    """The file of the face :func:`font` loads."""
    return FONT_CONDENSED if condensed else FONT_BOLD if bold else FONT_REGULAR


@lru_cache(maxsize=8192)
def text_length(text: str, size: int, bold: bool = False, condensed: bool = False) -> float:
    """Width of ``text`` in :func:`font` ``(size, bold, condensed)``, measured once: fitting
    text to cells asks for the same widths over and over. Characters DejaVu lacks are
    measured in the fonts that draw them (:mod:`.fonts`)."""
    face = font(size, bold, condensed)
    path = font_path(bold, condensed)
    if fonts.plain(text, path):
        return face.getlength(text)
    return fonts.length(text, size, path, face, bold)


# --- geometry (output pixels) --------------------------------------------

SUPERSAMPLE = 2
PALETTE_COLOURS = 128  # fewer merge the yellow ink into the red one
# Compression levels of libdeflate (bot.render.png), the lowest that keep each kind of
# image no larger than zlib level 6 (5 for the scoreboard and the table) made it: half
# the time or less. Sheets, dice, the board and the leaderboard:
PNG_COMPRESS_LEVEL = 7
# The scoreboard got a line per standing for whole names: 7 keeps it about that size.
SCOREBOARD_COMPRESS_LEVEL = 7
TABLE_COMPRESS_LEVEL = 6

MARGIN = 20
HEADER = 52  # name line above the rows
NAME_SIZE = 30
TITLE_SIZE = 22

CELL = 60  # a number cell is CELL x CELL
GAP = 6  # between cells
BAND_PAD = 7  # coloured band around the cells
ARROW = 24  # the direction arrow at the start of a row
ROW_GAP = 10  # between rows
NUMBER_SIZE = 38  # digits ~28 px tall: ~17 px when Discord shows the sheet 550 px wide
CELL_RADIUS = 9
# A crossed cell's X: this wide under digits of NUMBER_SIZE (as heavy for its digits on
# every sheet size), running this close to the cell's corners. Its number is written again
# over it, whole, ringed this wide in the cell's colour: the X runs on between the digits
# and reads as an X at any size (wider rings cut it into corners on a phone).
CROSS_WIDTH = 7
CROSS_HALO = 1.5
CROSS_REACH = 0.07
CROSSED_TINT = 0.18  # ... and the cell turns this far towards the band's colour
ROW_LETTER = 22  # the row's letter at the start of each row
STROKE_WIDTH = 5
HIGHLIGHT_WIDTH = 6
TAB_SIZE = 15  # the "LOCKED" tab on a closed row
# The tab sits on the row's top edge, reaching no further up than the gap: one that
# reached the row above would join its crosses and outlines to the closed row in one
# cached image (Canvas.sprite), drawn again whenever any of them changes.
TAB_HEIGHT = 2 * (ROW_GAP - 1)

# Rows longer than NARROW_FROM numbers (Longo's 15) get narrower cells and condensed digits,
# sized so that the digits stay at least READABLE_DIGIT px tall at a phone's 350 px.
NARROW_FROM = 13
NARROW_CELL = (58, 58)  # width, height
NARROW_GAP = 2
NARROW_PAD = 3  # digits may use the cell's width less this

# Readability: every image's digits at least this tall (px) when shown PHONE_WIDTH px wide,
# like the digits of Discord's 16 px body text (about 11.5 px), and its words at least
# this large (font size, px), a little under Discord's 12 px captions.
PHONE_WIDTH = 350
READABLE_DIGIT = 11
READABLE_WORDS = 11

LUCKY_BADGE = (178, 40)  # the clover badge "lucky 6 · 11" in the header
LUCKY_SIZE = 25
LUCKY_CAPTION = 17
CLOVER_MARK = 28  # the small clover on a cell a lucky number may cross

SECTION_GAP = 16
TABLE_CELL = (44, 30)  # points table column width, row height
TABLE_LABEL = 92
TABLE_SIZE = 18
PENALTY_BOX = 40
CAPTION_SIZE = 17

TOTAL_BOX = (84, 52)
TOTAL_SIZE = 30
OPERATOR = 30

# Qwinto: a 12-column grid, three staggered rows.
QWINTO_CELL = 62
QWINTO_GAP = 6
QWINTO_ROW_GAP = 14  # the triple columns' band shows between the rows
QWINTO_NUMBER_SIZE = 40
QWINTO_FAILED_BOX = 31  # two by two, right of the purple row
QWINTO_CAPTION = 15
QWINTO_CAPTION_LINE = 17
QWINTO_LETTER = 32  # the row's letter in its blank field

DIE = 92
DIE_GAP = 14
DIE_GROUP_GAP = 34  # between the white dice and the coloured ones
DIE_LABEL = 24
DIE_LABEL_SIZE = 17
DIE_DIGIT_SIZE = 52
DICE_SUM_SIZE = 46  # Qwinto's "= 11" after the dice

# Qwixx On Board: the track, a snake of 9 slots per line (start + 40 fields in five lines,
# the five finish fields on the last): a phone shows the board 734 px wide at 350 px, so
# the fields' numbers and bonuses are READABLE_DIGIT px tall there.
TRACK_COLUMNS = 9
TRACK_CELL = (70, 100)  # a field: width, height
TRACK_GAP = 8  # between fields in a line
TRACK_LINE_GAP = 48  # between lines: the road turns here, the pawns of the line below stand
TRACK_TITLE = 44
TRACK_NUMBER_SIZE = 36
TRACK_BONUS = 40  # the white pill with the bonus under the number
TRACK_BONUS_SIZE = 34
TRACK_INDEX_SIZE = 12  # the small position number in a field's corner
TRACK_ROAD_WIDTH = 22
TRACK_CHEQUER = 7  # the finish frame's squares
PAWN = (50, 64)  # a pawn's shape: width, height (at the start, in the legend, on a sheet)
# A pawn on a field stands on its top edge, at its right: this tall, its foot this far
# into the field, above the number (and right of the field's position).
TRACK_PAWN = 56
PAWN_FOOT = 15
LEGEND_ROW = 72
LEGEND_SIZE = 26
# The board's smaller words (the legend's fields, the finish's caption, the side, the steps
# on targets): READABLE_WORDS px when a phone shows the board (TRACK_COLUMNS of fields).
TRACK_WORDS = 24
SHEET_PAWN = 34  # the pawn in the sheet's bonus box
