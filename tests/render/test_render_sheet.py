"""The player's sheet: size, and that every state shows in the pixels."""

from __future__ import annotations

import itertools

import pytest

from bot.render import render_sheet
from bot.render.sheet import (
    Cell,
    cell_box,
    highlighted,
    lock_box,
    penalty_box,
    row_states,
    sheet_size,
)
from bot.rules import PASS, Move

from .helpers import LongoLike, changed, classic, crop, dark, grown, image, with_state

FULL = {
    "red": [2, 3, 5, 6, 8, 9],
    "yellow": [4, 7, 11],
    "green": [12, 9, 8, 6, 5, 2],
    "blue": [11, 7],
}


def test_sheet_is_a_small_palette_png_about_900_px_wide() -> None:
    game = classic()
    data = render_sheet(game, 1, "Ana")
    img = image(data)
    assert img.format == "PNG"
    assert img.mode == "P"
    assert 800 <= img.width <= 1000
    assert 450 <= img.height <= 700
    assert img.size == sheet_size(game)
    assert len(data) < 60_000


def test_a_busy_sheet_stays_under_60_kb() -> None:
    game = with_state(
        classic(), crossed=FULL, closed=("green", "blue"), end_reason="rows_locked", penalties=3
    )
    moves = [Move("cross", "red", 10), Move("cross", "yellow", 10), PASS]
    assert len(render_sheet(game, 1, "A rather long display name here", moves)) < 60_000


def test_rendering_is_deterministic() -> None:
    game = with_state(classic(), crossed=FULL, closed=("green",))
    assert render_sheet(game, 1, "Ana") == render_sheet(game, 1, "Ana")


def test_cells_lie_inside_the_image_in_order() -> None:
    game = classic()
    width, height = sheet_size(game)
    for row in ("red", "yellow", "green", "blue"):
        boxes = [cell_box(game, row, i) for i in range(12)]
        assert boxes[-1] == lock_box(game, row)
        assert all(0 <= b[0] < b[2] <= width and 0 <= b[1] < b[3] <= height for b in boxes)
        assert all(a[2] < b[0] for a, b in itertools.pairwise(boxes))
    assert cell_box(game, "red", 0)[3] < cell_box(game, "yellow", 0)[1]


def test_crossed_cell_shows_a_dark_x() -> None:
    empty = classic()
    crossed = with_state(empty, crossed={"red": [5]})
    box = cell_box(empty, "red", 3)
    before = crop(render_sheet(empty, 1, "Ana"), box)
    after = crop(render_sheet(crossed, 1, "Ana"), box)
    assert changed(before, after) > 0.1
    assert dark(before) < 0.01
    assert dark(after) > 0.1


def test_cross_on_one_sheet_does_not_touch_other_cells() -> None:
    empty = classic()
    crossed = with_state(empty, crossed={"red": [5]})
    box = cell_box(empty, "red", 6)  # right of the cross: still open
    assert (
        changed(
            crop(render_sheet(empty, 1, "Ana"), box), crop(render_sheet(crossed, 1, "Ana"), box)
        )
        < 0.01
    )


def test_skipped_cells_are_greyed_and_struck() -> None:
    empty = classic()
    crossed = with_state(empty, crossed={"blue": [9]})  # skips 12, 11, 10
    for index in range(3):
        box = cell_box(empty, "blue", index)
        before = crop(render_sheet(empty, 1, "Ana"), box)
        after = crop(render_sheet(crossed, 1, "Ana"), box)
        assert changed(before, after) > 0.3
        assert dark(after, limit=100) > 0.02  # the stroke


def test_highlighted_option_is_outlined() -> None:
    game = classic()
    box = grown(cell_box(game, "yellow", 5), 6)
    plain = crop(render_sheet(game, 1, "Ana"), box)
    marked = crop(render_sheet(game, 1, "Ana", [Move("cross", "yellow", 7)]), box)
    assert changed(plain, marked) > 0.1
    assert dark(marked) > dark(plain) + 0.1  # a dark ring: shape, not only colour


def test_pass_and_unknown_moves_are_not_highlighted() -> None:
    assert highlighted([PASS, Move("cross", "red", 4), Move("lucky", "red", 4)]) == {("red", 4)}
    game = classic()
    assert render_sheet(game, 1, "Ana", [PASS]) == render_sheet(game, 1, "Ana")


def test_row_states_follow_the_crosses_and_closed_rows() -> None:
    game = with_state(classic(), crossed={"red": [4, 6], "green": [10]}, closed=("green",))
    red = row_states(game, 1, "red")
    assert red[:5] == [Cell.SKIPPED, Cell.SKIPPED, Cell.CROSSED, Cell.SKIPPED, Cell.CROSSED]
    assert set(red[5:]) == {Cell.OPEN}
    green = row_states(game, 1, "green")
    assert green.count(Cell.CROSSED) == 1
    assert green.count(Cell.SKIPPED) == 10
    assert set(row_states(game, 1, "yellow")) == {Cell.OPEN}


def test_closed_row_looks_different() -> None:
    game = with_state(classic(), crossed={"green": [12, 10]})
    closed = with_state(game, crossed={"green": [12, 10]}, closed=("green",))
    open_png, closed_png = render_sheet(game, 1, "Ana"), render_sheet(closed, 1, "Ana")
    lock = lock_box(game, "green")
    assert changed(crop(open_png, lock), crop(closed_png, lock)) > 0.3
    assert dark(crop(closed_png, lock)) > 0.3  # the lock is drawn closed on a dark disc
    open_cell = cell_box(game, "green", 5)
    assert changed(crop(open_png, open_cell), crop(closed_png, open_cell), threshold=12) > 0.5
    other = cell_box(game, "blue", 5)
    assert changed(crop(open_png, other), crop(closed_png, other)) < 0.01


def test_lock_crossed_by_the_player_shows_a_cross() -> None:
    crosses = {"red": [2, 3, 4, 5, 6, 12]}
    by_other = with_state(classic(), crossed={"red": [2, 3]}, closed=("red",))
    by_me = with_state(classic(), crossed=crosses, closed=("red",))
    box = lock_box(by_me, "red")
    assert (
        changed(
            crop(render_sheet(by_other, 1, "Ana"), box), crop(render_sheet(by_me, 1, "Ana"), box)
        )
        > 0.05
    )


@pytest.mark.parametrize("penalties", [1, 2, 3, 4])
def test_penalty_boxes_are_crossed(penalties: int) -> None:
    game = classic()
    ended = {"end_reason": "penalties"} if penalties == 4 else {}
    with_penalties = with_state(game, penalties=penalties, **ended)
    plain, marked = render_sheet(game, 1, "Ana"), render_sheet(with_penalties, 1, "Ana")
    for k in range(4):
        box = penalty_box(game, k)
        difference = changed(crop(plain, box), crop(marked, box))
        assert (difference > 0.05) == (k < penalties)


def test_other_players_sheets_render_their_own_crosses() -> None:
    game = with_state(classic(), player=2, crossed={"red": [5]})
    box = cell_box(game, "red", 3)
    assert dark(crop(render_sheet(game, 2, "Mehmet"), box)) > 0.1
    assert dark(crop(render_sheet(game, 1, "Ana"), box)) < 0.01


def test_longer_rows_widen_the_sheet() -> None:
    longo = LongoLike([1, 2], 3, {})
    width, _ = sheet_size(longo)
    assert width > sheet_size(classic())[0]
    data = render_sheet(longo, 1, "Ana", [Move("cross", "red", 16)])
    assert image(data).size == sheet_size(longo)
    assert lock_box(longo, "red") == cell_box(longo, "red", 15)
    assert lock_box(longo, "red")[2] < width
    assert len(data) < 60_000
