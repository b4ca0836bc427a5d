"""The dice's picture is drawn once a throw, though its turn card is edited at each
decision (an edit sends the card whole, its image with it)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest

import bot.cogs.images as images
from bot.render import render_dice
from bot.rules import new_game


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[dict[str, int]]]:
    """Every throw drawn, in order, with the kept pictures emptied first."""
    seen: list[dict[str, int]] = []

    def draw(dice: dict[str, int], *rest: Any) -> bytes:
        seen.append(dict(dice))
        return render_dice(dice, *rest)

    monkeypatch.setattr(images, "render_dice", draw)
    images.dice_picture.cache_clear()
    yield seen
    images.dice_picture.cache_clear()


def tuple_of(dice: dict[str, int]) -> tuple[tuple[str, int], ...]:
    return tuple(dice.items())


def test_a_throw_is_drawn_once_for_every_edit_of_its_card(drawn: list[dict[str, int]]) -> None:
    game = new_game("classic", [1, 2], seed=7)
    first = asyncio.run(images.dice_files(game))
    again = asyncio.run(images.dice_files(game))
    assert drawn == [game.dice_on_table()]
    assert first[0].fp.read() == again[0].fp.read() == render_dice(game.dice_on_table())
    assert first[0].description == again[0].description


def test_another_throw_gets_its_own_picture(drawn: list[dict[str, int]]) -> None:
    one, other = {"white1": 1, "white2": 2}, {"white1": 2, "white2": 1}
    assert images.dice_picture(tuple_of(one)) != images.dice_picture(tuple_of(other))
    assert drawn == [one, other]


def test_only_the_latest_throws_are_kept(drawn: list[dict[str, int]]) -> None:
    throws = [{"white1": a, "white2": b} for a in range(1, 7) for b in range(1, 7)]
    throws += [
        {"white1": a, "white2": b, "red": c} for a in (1, 2) for b in range(1, 7) for c in (1, 2, 3)
    ]
    assert len(throws) > images.DICE_KEPT
    for dice in throws:
        images.dice_picture(tuple_of(dice))
    images.dice_picture(tuple_of(throws[-1]))  # kept: not drawn again
    images.dice_picture(tuple_of(throws[0]))  # let go: drawn again
    assert images.dice_picture.cache_info().currsize == images.DICE_KEPT
    assert drawn == [*throws, throws[0]]
