"""The dice image."""

from __future__ import annotations

from bot.render import render_dice
from bot.render.dice import die_positions, ordered

from .helpers import changed, crop, image

ALL = {"white1": 3, "white2": 5, "red": 1, "yellow": 6, "green": 2, "blue": 4}


def test_dice_image_is_small() -> None:
    data = render_dice(ALL)
    img = image(data)
    assert img.mode == "P"
    assert 500 <= img.width <= 900
    assert 100 <= img.height <= 200
    assert len(data) < 20_000


def test_only_dice_in_play_are_drawn() -> None:
    without_green = {k: v for k, v in ALL.items() if k != "green"}
    full, fewer = image(render_dice(ALL)), image(render_dice(without_green))
    assert fewer.width < full.width
    assert fewer.height == full.height
    assert "green" not in die_positions(without_green)


def test_white_dice_come_first_whatever_the_dict_order() -> None:
    shuffled = {"blue": 1, "white2": 2, "red": 3, "white1": 4}
    assert ordered(shuffled) == ["white1", "white2", "red", "blue"]


def test_faces_change_the_picture() -> None:
    box = tuple(round(v) for v in die_positions(ALL)["red"])
    pictures = {face: crop(render_dice({**ALL, "red": face}), box) for face in range(1, 9)}
    for face in range(2, 9):
        assert changed(pictures[face - 1], pictures[face]) > 0.01


def test_eight_sided_faces_are_drawn_as_digits() -> None:
    data = render_dice({"white1": 8, "white2": 7, "red": 8})
    assert image(data).width < image(render_dice(ALL)).width
