"""The daily share card: each row's crosses of how many, the locks, the penalties, as a
phone shows it, and not one digit drawn on it in any language."""

from __future__ import annotations

import unicodedata

import pytest

from bot.i18n import LOCALES, using
from bot.i18n.words import t
from bot.render import canvas as canvas_module
from bot.render import render_card
from bot.render.card import WIDTH, boxes, row_top
from bot.render.describe import card_alt
from bot.render.tally import RowTally, SheetTally, tally
from bot.rules import Game, new_game
from tests.positions import reposition

from .test_render_phone import diagonal_ink


def classic_sheet() -> Game:
    """Red locked by the player (five crosses, then 12), two penalties, blue untouched."""
    game = new_game("classic", [1, 2], 5)
    return reposition(
        game,
        sheets={1: "red: 2 3 4 5 6 12 | yellow: 2 | green: 12 11 10 | penalties: 2"},
        closed=["red"],
    )


def qwinto_sheet() -> Game:
    game = new_game("qwinto", [1, 2], 5)
    return reposition(game, sheets={1: "orange: 2=2 3=4 4=6 | purple: 8=17 | failed: 1"})


def test_the_tally_counts_each_row_its_lock_and_the_penalties() -> None:
    assert tally(classic_sheet(), 1) == SheetTally(
        (
            RowTally("red", 6, 11, locked=True),
            RowTally("yellow", 1, 11),
            RowTally("green", 3, 11),
            RowTally("blue", 0, 11),
        ),
        penalties=2,
        limit=4,
    )
    assert tally(qwinto_sheet(), 1) == SheetTally(
        (RowTally("orange", 3, 9), RowTally("yellow", 0, 9), RowTally("purple", 1, 9)),
        penalties=1,
        limit=4,
        qwinto=True,
    )
    longo = tally(new_game("longo", [1], 5, solo=True), 1)
    assert {r.cells for r in longo.rows} == {15} and longo.penalties == 0


def test_its_description_says_the_same_in_words() -> None:
    marks = tally(classic_sheet(), 1)
    assert card_alt(marks, "Daily Qwixx") == (
        "Daily Qwixx, the crosses without their numbers: Red 6 of 11 (lock crossed) · "
        "Yellow 1 of 11 · Green 3 of 11 · Blue 0 of 11 · penalties 2 of 4"
    )


@pytest.mark.parametrize("locale", LOCALES)
def test_no_digit_is_drawn_on_the_card(locale: str, monkeypatch: pytest.MonkeyPatch) -> None:
    drawn: list[str] = []
    original = canvas_module.Canvas.text

    def text(
        self: canvas_module.Canvas, p: object, words: str, *args: object, **kw: object
    ) -> None:
        drawn.append(words)
        original(self, p, words, *args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(canvas_module.Canvas, "text", text)
    with using(locale):
        for game in (classic_sheet(), qwinto_sheet(), new_game("longo", [1], 5, solo=True)):
            title = t("image.daily_card", title=game.title)
            render_card(tally(game, 1), title)
            assert title in drawn
    digits = [w for w in drawn if any(unicodedata.category(c) == "Nd" for c in w)]
    assert drawn and digits == []


def test_each_cross_reads_as_a_cross_on_a_phone_and_empty_boxes_stay_empty() -> None:
    for game in (classic_sheet(), new_game("longo", [1], 5, solo=True)):
        first, second = tally(game, 1).rows[:2]
        full = RowTally(first.row, first.cells, first.cells)  # every box crossed
        data = render_card(SheetTally((full, second), 0, 4), "Daily")
        crossed = boxes(full.cells, row_top(0), lock=True)
        left = boxes(second.cells, row_top(1), lock=True)[second.crosses :]
        assert min(diagonal_ink(data, box, 0.25, 0.75) for box in crossed) >= 0.75
        assert left and max(diagonal_ink(data, box, 0.25, 0.75) for box in left) == 0


def test_the_card_is_as_wide_as_a_phone_shows_well() -> None:
    from tests.render.helpers import image

    card = image(render_card(tally(classic_sheet(), 1), "Daily Qwixx"))
    assert card.size == (WIDTH, round(row_top(4)) + 58 + 24)
