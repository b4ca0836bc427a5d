"""Qwixx Longo sheets: narrow cells, the lucky-number badge and lucky options."""

from __future__ import annotations

import itertools

import pytest

from bot.render import render_scoreboard, render_sheet
from bot.render.scoreboard import ScoreboardLayout
from bot.render.sheet import (
    SheetLayout,
    cell_box,
    lock_box,
    lucky_box,
    lucky_cells,
    lucky_numbers,
    number_box,
    penalty_box,
    sheet_size,
)
from bot.rules import PASS, Move

from .helpers import LongoLike, changed, classic, crop, dark, grown, image, longo, with_state

LUCKY_GREEN_16 = Move("lucky", "green", 16)
NAMES = {1: "Ana", 2: "Mehmet", 3: "Zofia", 4: "Lee", 5: "Bo"}


def test_longo_sheet_stays_under_1050_px_and_60_kb() -> None:
    game = longo()
    data = render_sheet(game, 1, "Ana", game.legal_moves(1))
    img = image(data)
    assert img.mode == "P"
    assert img.size == sheet_size(game)
    assert sheet_size(classic())[0] < img.width <= 1050  # wide enough for readable digits
    assert 450 <= img.height <= 700
    assert len(data) < 60_000


def test_a_busy_longo_sheet_stays_under_60_kb() -> None:
    game = with_state(
        longo(),
        crossed={
            "red": [2, 3, 5, 6, 8, 9, 11, 13],
            "yellow": [4, 7],
            "green": [16, 14, 13, 11, 9, 8, 7],
            "blue": [12],
        },
        closed=("green",),
        penalties=3,
    )
    moves = [Move("cross", "red", 14), LUCKY_GREEN_16, Move("lucky", "blue", 11), PASS]
    assert len(render_sheet(game, 1, "A rather long display name here", moves)) < 60_000


def test_digits_stay_about_16_px_tall_at_discords_550_px() -> None:
    layout = SheetLayout.of(longo())
    assert layout.narrow
    digit_height = layout.number_size * 0.76  # DejaVu's digits are 0.76 em tall
    assert digit_height * 550 / layout.width >= 16


def test_narrow_cells_lie_inside_the_image_in_order() -> None:
    game = longo()
    width, height = sheet_size(game)
    for row in ("red", "yellow", "green", "blue"):
        boxes = [cell_box(game, row, i) for i in range(16)]
        assert boxes[-1] == lock_box(game, row)
        assert all(0 <= b[0] < b[2] <= width and 0 <= b[1] < b[3] <= height for b in boxes)
        assert all(a[2] < b[0] for a, b in itertools.pairwise(boxes))
    assert number_box(game, "green", 16) == cell_box(game, "green", 0)
    assert penalty_box(game, 3)[2] <= width


def test_lucky_numbers_come_from_the_game() -> None:
    game = longo(lucky={1: (6, 11), 2: (5, 8)})
    assert lucky_numbers(game, 1) == (6, 11)
    assert lucky_numbers(game, 2) == (5, 8)
    assert lucky_numbers(classic(), 1) is None
    assert lucky_box(classic()) is None
    assert lucky_box(LongoLike([1, 2], 3, {})) is None


def test_lucky_badge_sits_in_the_name_line() -> None:
    game = longo()
    badge = lucky_box(game)
    assert badge is not None
    width, _ = sheet_size(game)
    assert 0 < badge[0] < badge[2] < width
    assert badge[3] <= cell_box(game, "red", 0)[1]


def test_lucky_numbers_show_on_the_sheet() -> None:
    six_eleven = longo(lucky={1: (6, 11), 2: (5, 8)})
    five_eight = longo(lucky={1: (5, 8), 2: (6, 11)})
    badge = lucky_box(six_eleven)
    assert badge is not None
    mine = crop(render_sheet(six_eleven, 1, "Ana"), badge)
    assert changed(mine, crop(render_sheet(five_eight, 1, "Ana"), badge)) > 0.02
    assert dark(mine) > 0.02  # the numbers are printed in dark ink
    # each player's sheet carries their own numbers
    assert mine == crop(render_sheet(five_eight, 2, "Ana"), badge)


def test_lucky_cells_come_from_lucky_moves_only() -> None:
    moves = [PASS, Move("cross", "red", 4), LUCKY_GREEN_16, Move("lucky", None, None)]
    assert lucky_cells(moves) == {("green", 16)}


def test_lucky_option_is_outlined_and_marked() -> None:
    game = longo()
    box = grown(number_box(game, "green", 16), 14)
    plain = crop(render_sheet(game, 1, "Ana"), box)
    lucky = crop(render_sheet(game, 1, "Ana", [LUCKY_GREEN_16]), box)
    cross = crop(render_sheet(game, 1, "Ana", [Move("cross", "green", 16)]), box)
    assert changed(plain, lucky) > 0.1
    assert dark(lucky) > dark(plain) + 0.08  # a dark ring: shape, not only colour
    assert changed(cross, lucky) > 0.01  # the clover tells luck from an ordinary cross


def test_lucky_highlight_touches_only_its_cell() -> None:
    game = longo()
    far = number_box(game, "blue", 10)
    assert (
        changed(
            crop(render_sheet(game, 1, "Ana"), far),
            crop(render_sheet(game, 1, "Ana", [LUCKY_GREEN_16]), far),
        )
        < 0.01
    )


@pytest.mark.parametrize("players", [2, 5])
def test_longo_scoreboard(players: int) -> None:
    game = longo(players)
    for p in game.players:
        game = with_state(
            game, p, crossed={"red": list(range(2, 3 + p)), "green": [16, 15]}, penalties=p % 3
        )
    data = render_scoreboard(game, NAMES)
    img = image(data)
    layout = ScoreboardLayout.of(game)
    assert img.size == (layout.width, layout.height)
    assert img.width <= 1000
    assert len(data) < 150_000
