"""Qwinto sheets, dice and scoreboards: the staggered card and every state in its pixels."""

from __future__ import annotations

import itertools
from collections.abc import Iterable

import pytest
from PIL import Image

from bot.render import render_dice, render_scoreboard, render_sheet, render_table
from bot.render.compact import BLOCK_GAP, EDGE, CompactLayout
from bot.render.dice import die_positions, sum_box
from bot.render.parts import row_colours
from bot.render.qwinto_sheet import (
    column_band_box,
    complete_columns,
    failed_box,
    field_box,
    legal_fields,
    throw_box,
)
from bot.render.scoreboard import ScoreboardLayout
from bot.render.sheet import sheet_size
from bot.render.table import blocks_top
from bot.rules import PASS, Move
from bot.rules.qwinto import (
    BLANK,
    FAILED_LIMIT,
    GEOMETRY,
    PENTAGONS,
    ROW_COLUMNS,
    ROWS,
    TRIPLE_COLUMNS,
    QwintoGame,
)

from .helpers import changed, crop, dark, grown, image, qwinto, with_fields

NAMES = {1: "Ana", 2: "Mehmet", 3: "Zofia", 4: "Lee", 5: "Bo", 6: "Eun"}
BUSY = {
    "orange": {2: 3, 3: 4, 4: 5, 7: 9, 11: 17},
    "yellow": {1: 1, 3: 6, 8: 11, 10: 16},
    "purple": {0: 2, 2: 5, 3: 8, 9: 18},
}
DICE = {"orange": 3, "yellow": 6}  # a throw of 9 in the orange and yellow rows


def place(row: str, column: int) -> Move:
    return Move("place", row, column)


def render(game: QwintoGame, moves: Iterable[Move] = ()) -> bytes:
    return render_sheet(game, 1, "Ana", moves)


def test_sheet_is_a_small_palette_png() -> None:
    game = with_fields(qwinto(), fields=BUSY, failed=2, dice=DICE)
    data = render(game, game.legal_moves(1))
    img = image(data)
    assert img.mode == "P"
    assert img.size == sheet_size(game)
    assert 800 <= img.width <= 1000
    assert 350 <= img.height <= 600
    assert len(data) < 60_000


def test_rows_are_staggered_and_columns_line_up() -> None:
    game = qwinto()
    width, height = sheet_size(game)
    for row in ROWS:
        boxes = [field_box(game, row, c) for c in GEOMETRY[row].span]
        assert all(0 <= b[0] < b[2] <= width and 0 <= b[1] < b[3] <= height for b in boxes)
        assert all(a[2] < b[0] for a, b in itertools.pairwise(boxes))
    for column in (2, 9):  # columns all three rows share
        xs = {field_box(game, row, column)[0] for row in ROWS}
        assert len(xs) == 1
    tops = [field_box(game, row, 5)[1] for row in ROWS]
    assert tops == sorted(tops)
    assert field_box(game, "purple", 0)[0] < field_box(game, "yellow", 1)[0]
    with pytest.raises(ValueError):
        field_box(game, "orange", 0)


def test_a_written_field_differs_from_an_empty_one() -> None:
    empty = qwinto()
    written = with_fields(empty, fields={"yellow": {3: 7}})
    box = field_box(empty, "yellow", 3)
    before, after = crop(render(empty), box), crop(render(written), box)
    assert changed(before, after) > 0.05
    assert dark(after) > dark(before) + 0.05  # written in dark ink


def test_numbers_in_pentagons_show_too() -> None:
    empty = qwinto()
    column = PENTAGONS["purple"][0]
    written = with_fields(empty, fields={"purple": {column: 12}})
    box = field_box(empty, "purple", column)
    assert changed(crop(render(empty), box), crop(render(written), box)) > 0.05


def test_pentagon_and_blank_fields_look_unlike_plain_ones() -> None:
    data = render(qwinto())
    plain = crop(data, field_box(None, "orange", 4))
    pentagon = crop(data, field_box(None, "orange", PENTAGONS["orange"][0]))
    blank = crop(data, field_box(None, "orange", BLANK["orange"]))
    assert changed(plain, pentagon) > 0.1
    assert changed(plain, blank) > 0.3


def test_a_blank_field_is_never_highlighted() -> None:
    game = with_fields(qwinto(), dice=DICE)
    every_field = [place(row, c) for row in ROWS for c in GEOMETRY[row].span]
    assert not any(column == BLANK[row] for row, column in legal_fields(every_field))
    plain, marked = render(game), render(game, every_field)
    for row in ROWS:
        box = icons_free(field_box(game, row, BLANK[row]))
        assert changed(crop(plain, box), crop(marked, box)) < 0.01
    assert render(game, [place(row, BLANK[row]) for row in ROWS]) == plain


def icons_free(box: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
    """The inside of a field, clear of the rings its highlighted neighbours get."""
    return grown(box, -3)


@pytest.mark.parametrize(("row", "column"), [("orange", 4), ("purple", 2), ("yellow", 8)])
def test_highlighted_legal_fields_are_outlined(row: str, column: int) -> None:
    game = with_fields(qwinto(), dice=DICE)
    box = grown(field_box(game, row, column), 6)
    plain = crop(render(game), box)
    marked = crop(render(game, [place(row, column)]), box)
    assert changed(plain, marked) > 0.1
    assert dark(marked) > dark(plain) + 0.1  # a dark ring: shape, not only colour


def test_the_sum_shows_faintly_in_legal_fields() -> None:
    nine = with_fields(qwinto(), dice=DICE)
    twelve = with_fields(qwinto(), dice={"orange": 6, "yellow": 6})
    box = icons_free(field_box(nine, "orange", 4))
    moves = [place("orange", 4)]
    assert changed(crop(render(nine, moves), box), crop(render(twelve, moves), box)) > 0.02


def test_pass_and_other_moves_are_not_highlighted() -> None:
    game = with_fields(qwinto(), dice=DICE)
    moves = [PASS, Move("roll", dice=("orange",)), Move("keep"), Move("place", "blue", 3)]
    assert legal_fields(moves) == set()
    assert render(game, moves) == render(game)


def test_real_legal_moves_outline_real_fields() -> None:
    game = with_fields(qwinto(), fields=BUSY)
    game, _ = game.apply(game.active, Move("roll", dice=("orange", "yellow")))
    game, _ = game.apply(game.active, Move("keep"))
    fields = legal_fields(game.legal_moves(1))
    assert fields
    assert all(column in ROW_COLUMNS[row] for row, column in fields)


@pytest.mark.parametrize("failed", [1, 2, 3, 4])
def test_failed_throw_boxes_are_crossed(failed: int) -> None:
    game = qwinto()
    ended = {"end_reason": "failed_throws"} if failed == FAILED_LIMIT else {}
    plain, marked = render(game), render(with_fields(game, failed=failed, **ended))
    for k in range(4):
        box = failed_box(game, k)
        difference = changed(crop(plain, box), crop(marked, box))
        assert (difference > 0.05) == (k < failed)


def test_failed_boxes_and_throw_stay_clear_of_the_rows() -> None:
    game = qwinto()
    purple_end = field_box(game, "purple", GEOMETRY["purple"].last)
    assert all(failed_box(game, k)[0] > purple_end[2] for k in range(4))
    assert throw_box(game)[2] < field_box(game, "orange", GEOMETRY["orange"].first)[0]


def test_the_current_throw_shows_until_the_game_ends() -> None:
    game = qwinto()
    thrown = with_fields(game, dice=DICE)
    box = throw_box(game)
    assert changed(crop(render(game), box), crop(render(thrown), box)) > 0.1
    over = with_fields(game, dice=DICE, failed=FAILED_LIMIT, end_reason="failed_throws")
    assert changed(crop(render(game), box), crop(render(over), box)) < 0.01


def test_complete_triple_columns_change_their_band() -> None:
    column = TRIPLE_COLUMNS[0]
    full = {row: {column: n} for row, n in zip(ROWS, (4, 5, 6), strict=True)}
    game = with_fields(qwinto(), fields=full)
    assert complete_columns(game, 1) == [column]
    assert complete_columns(qwinto(), 1) == []
    # the band shows between the orange and yellow rows
    x0, _, x1, _ = column_band_box(game, column)
    gap = (
        x0 + 4,
        field_box(game, "orange", column)[3] + 9,
        x1 - 4,
        field_box(game, "yellow", column)[1] - 9,
    )
    assert changed(crop(render(qwinto()), gap), crop(render(game), gap), threshold=20) > 0.5


def test_other_players_sheets_show_their_own_numbers() -> None:
    game = with_fields(qwinto(), 2, fields={"orange": {4: 8}})
    box = field_box(game, "orange", 4)
    assert dark(crop(render_sheet(game, 2, "Mehmet"), box)) > 0.05
    assert dark(crop(render_sheet(game, 1, "Ana"), box)) < 0.01


def test_rendering_is_deterministic() -> None:
    game = with_fields(qwinto(), fields=BUSY, failed=1, dice=DICE)
    assert render(game, game.legal_moves(1)) == render(game, game.legal_moves(1))


def test_qwinto_dice_end_with_their_sum() -> None:
    dice = {"orange": 6, "yellow": 5, "purple": 1}
    data = render_dice(dice)
    img = image(data)
    assert len(data) < 20_000
    assert img.width > round(sum_box(dice)[2])
    assert list(die_positions(dice)) == ["orange", "yellow", "purple"]
    assert image(render_dice(dice, show_sum=False)).width < img.width
    # Qwixx throws show no sum unless asked
    qwixx = {"white1": 3, "white2": 5, "red": 1}
    assert image(render_dice(qwixx, show_sum=True)).width > image(render_dice(qwixx)).width


def test_qwinto_dice_have_their_colours() -> None:
    dice = {"orange": 2, "purple": 2}
    data = render_dice(dice)
    for die, colour in (("orange", (240, 122, 28)), ("purple", (122, 58, 152))):
        x0, y0, _, _ = die_positions(dice)[die]
        pixel = crop(data, (round(x0) + 8, round(y0) + 40, round(x0) + 9, round(y0) + 41))
        got = pixel.getpixel((0, 0))
        assert isinstance(got, tuple)
        assert max(abs(a - b) for a, b in zip(got, colour, strict=False)) < 20


def test_no_dice_draws_an_empty_picture() -> None:
    assert image(render_dice({})).width > 0


@pytest.mark.parametrize("players", [2, 3, 6])
def test_qwinto_scoreboard(players: int) -> None:
    game = qwinto(players)
    for p in game.players:
        game = with_fields(game, p, fields={"orange": {2: p, 3: p + 1}}, failed=p % 3)
    data = render_scoreboard(game, NAMES)
    img = image(data)
    layout = ScoreboardLayout.of(game)
    assert img.size == (layout.width, layout.height)
    assert layout.score_columns == ["orange", "yellow", "purple", "bonus", "failed", "total"]
    assert 400 <= img.width <= 600
    assert len(data) < 150_000


def pentagonal(img: Image.Image, box: tuple[float, float, float, float], row: str) -> bool:
    """Whether the field in ``box`` is a pentagon, point up: its box's top corners show the
    band, while its top middle and lower body are the field's."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0

    def band(x: float, y: float) -> bool:
        pixel = img.getpixel((round(x0 + x * w), round(y0 + y * h)))
        assert isinstance(pixel, tuple)
        colour = row_colours(row).band
        return max(abs(a - b) for a, b in zip(pixel, colour, strict=True)) < 30

    return (
        band(0.2, 0.1)
        and band(0.8, 0.1)
        and not band(0.5, 0.15)
        and not band(0.2, 0.6)
        and not band(0.8, 0.6)
    )


def test_pentagons_are_drawn_alike_on_the_sheet_the_table_and_the_scoreboard() -> None:
    """Each bonus field a pentagon on the sheet and on the small sheets, and no other
    field: on the small sheets they were plain fields with a gold bar under them."""
    game = with_fields(qwinto(2), 2, fields={"orange": {2: 3, 4: 5}})  # 2 ranks first
    sheet = image(render(game)).convert("RGB")
    table = image(render_table(game, NAMES)).convert("RGB")
    board = image(render_scoreboard(game, NAMES)).convert("RGB")
    layout = CompactLayout.of(game)
    tops = [
        (table, blocks_top(game)),
        (board, ScoreboardLayout.of(game).sheets_top + layout.block_height + BLOCK_GAP),
    ]
    assert [s.player for s in game.ranking()] == [2, 1]
    for i, row in enumerate(ROWS):
        geometry = GEOMETRY[row]
        for column in geometry.columns:
            expected = column in geometry.pentagons
            assert pentagonal(sheet, field_box(game, row, column), row) == expected
            for img, top in tops:
                x, y = EDGE + layout.cell_x(column), top + layout.row_top(i)
                box = (x, y, x + layout.cell[0], y + layout.cell[1])
                assert pentagonal(img, box, row) == expected, (row, column)
