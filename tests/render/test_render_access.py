"""Images for everyone: rows apart without colour, crossed numbers readable, and digits
large enough on a phone.

The phone measure: an image shown ``PHONE_WIDTH`` (350) px wide must have digits at
least ``READABLE_DIGIT`` (11) px tall, about the digits of Discord's 16 px body text.
Digit heights are measured on the rendered pixels.
"""

from __future__ import annotations

import itertools

import pytest
from PIL import Image

from bot.render import render_scoreboard, render_sheet, render_table, theme
from bot.render.compact import BLOCK_GAP, EDGE, LABEL_GAP, PAD, CompactLayout
from bot.render.parts import row_colours
from bot.render.qwinto_sheet import field_box
from bot.render.scoreboard import ScoreboardLayout
from bot.render.sheet import SheetLayout, number_box
from bot.render.table import blocks_top
from bot.rules import Game, new_game
from bot.rules.qwinto import GEOMETRY

from .helpers import classic, image, longo, qwinto, with_fields, with_state

NAMES = {1: "Ana", 2: "Mehmet", 3: "Zofia", 4: "Lee", 5: "Bo"}
Box = tuple[int, int, int, int]

# Machado, Oliveira & Fernandes (2009), severity 1, applied to linear RGB.
DEUTERANOPIA = (
    (0.367322, 0.860646, -0.227968),
    (0.280085, 0.672501, 0.047413),
    (-0.011820, 0.042940, 0.968881),
)
PROTANOPIA = (
    (0.152286, 1.052583, -0.204868),
    (0.114503, 0.786281, 0.099216),
    (-0.003882, -0.048116, 1.051998),
)


def to_linear(v: float) -> float:
    c = v / 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def to_srgb(c: float) -> int:
    c = min(1.0, max(0.0, c))
    v = c * 12.92 if c <= 0.0031308 else 1.055 * c ** (1 / 2.4) - 0.055
    return round(v * 255)


def simulate(img: Image.Image, matrix: tuple[tuple[float, ...], ...]) -> Image.Image:
    """``img`` as seen with the colour vision ``matrix`` describes."""
    linear = img.convert("RGB").point([round(to_linear(v) * 255) for v in range(256)] * 3)
    flat = tuple(itertools.chain.from_iterable((*row, 0) for row in matrix))
    seen = linear.convert("RGB", flat)
    return seen.point([to_srgb(v / 255) for v in range(256)] * 3)


def glyph(img: Image.Image) -> list[bool]:
    """The pixels of a label that stand out from its background (the median grey)."""
    grey = list(img.convert("L").tobytes())
    ground = sorted(grey)[len(grey) // 2]
    return [abs(v - ground) > 60 for v in grey]


def assert_labels_differ(labels: list[Image.Image]) -> None:
    """Each label shows a glyph, and no two glyphs are alike."""
    masks = [glyph(label) for label in labels]
    for mask in masks:
        assert sum(mask) > 0.05 * len(mask)
    for a, b in itertools.combinations(masks, 2):
        union = sum(x or y for x, y in zip(a, b, strict=True))
        assert sum(x != y for x, y in zip(a, b, strict=True)) > 0.15 * union


def letter_box(b: tuple[float, float, float, float]) -> Box:
    """The top of a row's label box: its letter (the arrow under it is alike on all)."""
    return (round(b[0]), round(b[1]), round(b[2]), round(b[1] + (b[3] - b[1]) * 0.55))


def rgb(data: bytes) -> Image.Image:
    return image(data).convert("RGB")


@pytest.mark.parametrize("matrix", [DEUTERANOPIA, PROTANOPIA], ids=["deutan", "protan"])
def test_sheet_rows_stay_apart_without_red_and_green(matrix: tuple) -> None:
    game = classic()
    seen = simulate(rgb(render_sheet(game, 1, "Ana")), matrix)
    layout = SheetLayout.of(game)
    labels = [seen.crop(letter_box(layout.arrow_box(i))) for i in range(len(layout.rows))]
    assert_labels_differ(labels)


def test_without_labels_red_and_green_rows_look_alike() -> None:
    """The check above is needed: simulated, the red and green bands nearly match."""
    bands = Image.new("RGB", (2, 1))
    bands.putpixel((0, 0), row_colours("red").band)
    bands.putpixel((1, 0), row_colours("green").band)
    grey = simulate(bands, DEUTERANOPIA).convert("L")
    assert abs(grey.getpixel((0, 0)) - grey.getpixel((1, 0))) < 25


@pytest.mark.parametrize("matrix", [DEUTERANOPIA, PROTANOPIA], ids=["deutan", "protan"])
@pytest.mark.parametrize("variant", ["classic", "qwinto"])
def test_table_rows_stay_apart_without_red_and_green(matrix: tuple, variant: str) -> None:
    game = classic(3) if variant == "classic" else qwinto(3)
    seen = simulate(rgb(render_table(game, NAMES)), matrix)
    layout = CompactLayout.of(game)
    x = EDGE + PAD  # the row letters' chips
    tops = [blocks_top(game) + layout.row_top(i) for i in range(len(layout.rows))]
    assert_labels_differ([seen.crop((x, y, x + layout.label, y + layout.cell[1])) for y in tops])


def test_qwinto_sheet_rows_carry_their_letter() -> None:
    game = qwinto()
    seen = simulate(rgb(render_sheet(game, 1, "Ana")), DEUTERANOPIA)
    assert_labels_differ([seen.crop(field_box(game, row, g.blank)) for row, g in GEOMETRY.items()])


def test_qwinto_small_sheets_rows_carry_their_letter_as_the_sheet_does() -> None:
    game = qwinto(3)
    seen = simulate(rgb(render_table(game, NAMES)), DEUTERANOPIA)
    layout = CompactLayout.of(game)
    blanks = []
    for i, row in enumerate(layout.rows):
        x, y = EDGE + layout.cell_x(GEOMETRY[row].blank), blocks_top(game) + layout.row_top(i)
        blanks.append(seen.crop((x, y, x + layout.cell[0], y + layout.cell[1])))
    assert_labels_differ(blanks)


# --- a crossed number stays readable ---------------------------------------------------


def ink_pixels(img: Image.Image, ink: tuple[int, int, int], near: int = 60) -> set[tuple[int, int]]:
    return {
        (x, y)
        for x in range(img.width)
        for y in range(img.height)
        if max(abs(a - b) for a, b in zip(img.getpixel((x, y)), ink, strict=True)) < near
    }


def assert_digits_survive(
    open_cell: Image.Image, crossed_cell: Image.Image, ink: tuple[int, int, int]
) -> None:
    inner = (6, 6, open_cell.width - 6, open_cell.height - 6)  # not the band's corners
    open_cell, crossed_cell = open_cell.crop(inner), crossed_cell.crop(inner)
    digits = ink_pixels(open_cell, ink)
    assert len(digits) > 40
    kept = digits & ink_pixels(crossed_cell, ink)
    assert len(kept) >= 0.9 * len(digits)


@pytest.mark.parametrize(
    ("make", "row", "number"), [(classic, "red", 5), (classic, "blue", 8), (longo, "yellow", 12)]
)
def test_a_crossed_number_keeps_its_digits(make: object, row: str, number: int) -> None:
    game = make()  # type: ignore[operator]
    crossed = with_state(game, crossed={row: [number]})
    box = number_box(game, row, number)
    ink = row_colours(row).ink
    assert_digits_survive(
        rgb(render_sheet(game, 1, "Ana")).crop(box),
        rgb(render_sheet(crossed, 1, "Ana")).crop(box),
        ink,
    )


def dark_pixels(img: Image.Image) -> set[tuple[int, int]]:
    """The X's ink (theme.INK, and its anti-aliased edge over the digits)."""
    return {
        (x, y)
        for x in range(img.width)
        for y in range(img.height)
        if max(img.getpixel((x, y))) < 90
    }


@pytest.mark.parametrize(
    ("make", "row", "number"),
    [(classic, "red", 10), (classic, "yellow", 11), (classic, "blue", 8), (longo, "yellow", 12)],
)
def test_a_crossed_number_keeps_its_digits_under_the_x_on_the_table(
    make: object, row: str, number: int
) -> None:
    """The small sheets' X goes over the number, as a pen's: every pixel of the digits
    keeps its ink but where the X's lies on it, and most keep it, so that the number
    reads through the X."""
    game = make(2)  # type: ignore[operator]
    crossed = with_state(game, crossed={row: [number]})
    layout = CompactLayout.of(game)
    i = layout.rows.index(row)
    x, y = (
        EDGE + layout.cell_x(layout.numbers[i].index(number)),
        blocks_top(game) + layout.row_top(i),
    )
    inner = (x + 2, y + 2, x + layout.cell[0] - 2, y + layout.cell[1] - 2)  # not its edge
    open_cell = rgb(render_table(game, NAMES)).crop(inner)
    crossed_cell = rgb(render_table(crossed, NAMES)).crop(inner)
    digits = ink_pixels(open_cell, row_colours(row).ink)
    kept = digits & ink_pixels(crossed_cell, row_colours(row).ink)
    under = digits & dark_pixels(crossed_cell)
    assert len(digits) > 80
    assert kept | under == digits  # nothing else changed them: no ring, no wash
    assert len(kept) >= 0.5 * len(digits)


# --- readable at a phone's width --------------------------------------------------------


def digit_height(img: Image.Image, box: Box, ink: tuple[int, int, int]) -> int:
    """How many pixel lines inside ``box`` hold digit ink."""
    lines = {y for _, y in ink_pixels(img.crop(box), ink, near=90)}
    return max(lines) - min(lines) + 1 if lines else 0


def readable(height: int, width: int) -> bool:
    return height * theme.PHONE_WIDTH / width >= theme.READABLE_DIGIT


@pytest.mark.parametrize("variant", ["classic", "longo", "onboard"])
def test_sheet_digits_are_readable_at_350_px(variant: str) -> None:
    game = new_game(variant, [1, 2], 1)
    img = rgb(render_sheet(game, 1, "Ana"))
    height = digit_height(img, number_box(game, "red", 12), row_colours("red").ink)
    assert readable(height, img.width), (height, img.width)


def test_qwinto_sheet_digits_are_readable_at_350_px() -> None:
    game = with_fields(qwinto(), fields={"purple": {1: 12}})
    img = rgb(render_sheet(game, 1, "Ana"))
    height = digit_height(img, field_box(game, "purple", 1), theme.INK)
    assert readable(height, img.width), (height, img.width)


def compact_cell(game: Game, top: float, row: int, j: int) -> Box:
    """Inside a small sheet's cell: clear of its rounded corners, where the row's band
    (of a colour near its digits') shows."""
    layout = CompactLayout.of(game)
    x, y = EDGE + layout.cell_x(j), round(top + layout.row_top(row))
    return (x + 5, y + 1, x + layout.cell[0] - 5, y + layout.cell[1] - 1)


@pytest.mark.parametrize("make", [classic, longo, qwinto])
def test_table_digits_are_readable_at_350_px(make: object) -> None:
    game = make(5)  # type: ignore[operator]
    if game.variant == "qwinto":
        game = with_fields(game, fields={"purple": {1: 12}})
        row, j, ink = 2, 1, theme.INK
    else:
        row, j, ink = 0, 10, row_colours("red").ink  # red 12
    img = rgb(render_table(game, NAMES))
    height = digit_height(img, compact_cell(game, blocks_top(game), row, j), ink)
    assert readable(height, img.width), (height, img.width)


@pytest.mark.parametrize("make", [classic, longo, qwinto])
def test_scoreboard_table_and_sheets_are_readable_at_350_px(make: object) -> None:
    game = make(5)  # type: ignore[operator]
    if game.variant == "qwinto":
        game = with_fields(game, fields={"purple": {1: 12}})
        row, j, ink = 2, 1, theme.INK
    else:
        game = with_state(game, crossed={"red": [2, 3, 4, 5, 6]})  # 15 points
        row, j, ink = 0, 10, row_colours("red").ink
    img = rgb(render_scoreboard(game, NAMES))
    layout = ScoreboardLayout.of(game)
    top = layout.sheets_top
    cell = tuple(round(v) for v in layout.table_cell(1, len(layout.score_columns) + 1))
    assert readable(digit_height(img, cell, theme.INK), img.width)  # the total
    if game.variant != "qwinto":
        top += layout.sheets.block_height + BLOCK_GAP  # player 1 ranks first: 2nd block
    height = digit_height(img, compact_cell(game, top, row, j), ink)
    assert readable(height, img.width), (height, img.width)


@pytest.mark.parametrize("variant", ["classic", "longo", "onboard", "qwinto"])
@pytest.mark.parametrize("kind", ["table", "scoreboard"])
def test_row_letters_are_as_readable_as_the_digits_at_350_px(variant: str, kind: str) -> None:
    """The letter on each row's chip, on the small sheets: Longo's were drawn at a fixed
    21 px on its 765 px wide image, 7 px tall on a phone."""
    game = new_game(variant, list(range(1, 5)), 5)
    if kind == "table":
        img, top = rgb(render_table(game, NAMES)), blocks_top(game)
    else:
        img, top = rgb(render_scoreboard(game, NAMES)), ScoreboardLayout.of(game).sheets_top
    layout = CompactLayout.of(game)
    for i, row in enumerate(layout.rows):
        x, y = EDGE + PAD, round(top + layout.row_top(i))
        right = EDGE + layout.cell_x(0) - LABEL_GAP  # the chip's, before the row's band
        box = (x + 6, y, right - 6, y + layout.cell[1])  # clear of its corners
        ink = theme.INK if row in theme.LIGHT_BANDS else theme.PAPER
        height = digit_height(img, box, ink)
        assert readable(height, img.width), (row, height, img.width)
