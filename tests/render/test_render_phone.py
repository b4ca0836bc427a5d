"""Images as a phone shows them: ``PHONE_WIDTH`` (350) px wide, scaled down by area (each
pixel the mean of those it covers), and measured there.

A cross reads as a cross on every sheet size the bot draws, the small sheets of the
table and the scoreboard included; the words of the table and the scoreboard are large
enough however wide their sheets are.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

import pytest
from PIL import Image

from bot.render import render_scoreboard, render_sheet, render_table, theme
from bot.render.compact import BLOCK_GAP, EDGE, CompactLayout, Surface
from bot.render.scoreboard import ScoreboardLayout
from bot.render.sheet import number_box
from bot.render.table import blocks_top
from bot.rules import new_game
from bot.rules.qwixx import QwixxGame

from .helpers import classic, longo, with_state

NAMES = {1: "Ana", 2: "Mehmet", 3: "Zofia"}
Box = tuple[float, float, float, float]

# The X is drawn in theme.INK (luminance 30); the digits over it are lighter (60-110).
X_INK = 60


def at_phone(data: bytes) -> tuple[Image.Image, float]:
    """The image in grey as a phone shows it, and the scale it was shown at."""
    img = Image.open(io.BytesIO(data)).convert("RGB")
    scale = theme.PHONE_WIDTH / img.width
    size = (theme.PHONE_WIDTH, round(img.height * scale))
    return img.resize(size, Image.Resampling.BOX).convert("L"), scale


def diagonal_ink(data: bytes, box: Box, start: float, end: float, samples: int = 16) -> float:
    """Of points from ``start`` to ``end`` of the way along each diagonal of ``box``
    (image pixels), the share with the X's ink at most a pixel away on the phone: the
    smaller of the two diagonals."""
    img, scale = at_phone(data)
    x0, y0, x1, y1 = (v * scale for v in box)
    shares = []
    for ax, ay, bx, by in ((x0, y0, x1, y1), (x0, y1, x1, y0)):
        hits = 0
        for k in range(samples):
            f = start + (end - start) * k / (samples - 1)
            x, y = int(ax + (bx - ax) * f), int(ay + (by - ay) * f)
            darkest = min(img.getpixel((x + dx, y + dy)) for dx in (-1, 0, 1) for dy in (-1, 0, 1))
            hits += darkest <= X_INK
        shares.append(hits / samples)
    return min(shares)


def assert_reads_as_a_cross(crossed: bytes, plain: bytes, box: Box) -> None:
    """Both strokes, dark, run from the corners on through the middle, between the digits
    written over them (not only corners peeping out from behind the digits: the middle
    then has none); the open cell has none of it."""
    assert diagonal_ink(crossed, box, 0.05, 0.15) >= 0.8  # from the top corners
    assert diagonal_ink(crossed, box, 0.85, 0.95) >= 0.8  # ... to the bottom ones
    assert diagonal_ink(crossed, box, 0.3, 0.7) >= 0.2  # on through the digits
    assert diagonal_ink(plain, box, 0.05, 0.95) == 0


def compact_box(game: QwixxGame, top: float, row: str, number: int) -> Box:
    """The compact cell of ``number`` in ``row`` of the block whose top is ``top``."""
    layout = CompactLayout.of(game)
    i = layout.rows.index(row)
    x, y = EDGE + layout.cell_x(layout.numbers[i].index(number)), top + layout.row_top(i)
    return (x, y, x + layout.cell[0], y + layout.cell[1])


CELLS = [
    (classic, "red", 5),
    (classic, "red", 10),
    (classic, "blue", 6),
    (classic, "yellow", 7),
    (longo, "green", 16),
    (longo, "blue", 16),
    (longo, "yellow", 12),
    (longo, "blue", 6),
]
Make = Callable[..., QwixxGame]


@pytest.mark.parametrize(("make", "row", "number"), CELLS)
def test_a_cross_reads_as_a_cross_on_the_sheet(make: Make, row: str, number: int) -> None:
    game = make()
    crossed = with_state(game, crossed={row: [number]})
    assert_reads_as_a_cross(
        render_sheet(crossed, 1, "Ana"), render_sheet(game, 1, "Ana"), number_box(game, row, number)
    )


@pytest.mark.parametrize(("make", "row", "number"), CELLS)
def test_a_cross_reads_as_a_cross_on_the_table(make: Make, row: str, number: int) -> None:
    game = make(3)
    crossed = with_state(game, crossed={row: [number]})
    box = compact_box(game, blocks_top(game), row, number)
    assert_reads_as_a_cross(render_table(crossed, NAMES), render_table(game, NAMES), box)


@pytest.mark.parametrize(("make", "row", "number"), CELLS)
def test_a_cross_reads_as_a_cross_on_the_scoreboard(make: Make, row: str, number: int) -> None:
    """The small sheets under the final ranking (Longo's are the smallest on a phone)."""
    game = with_state(make(3), player=1, crossed={"red": [2, 3, 4]})  # 1 ranks first
    crossed = with_state(game, player=2, crossed={row: [number]})
    layout = ScoreboardLayout.of(game)
    assert [s.player for s in game.ranking()][:2] == [1, 2]
    assert [s.player for s in crossed.ranking()][:2] == [1, 2]
    second = layout.sheets_top + layout.sheets.block_height + BLOCK_GAP
    box = compact_box(game, second, row, number)
    assert_reads_as_a_cross(render_scoreboard(crossed, NAMES), render_scoreboard(game, NAMES), box)


TWO_DIGITS = [
    (classic, "red", 11),
    (classic, "yellow", 10),
    (classic, "blue", 12),
    (longo, "green", 16),
    (longo, "yellow", 11),
]


@pytest.mark.parametrize(("make", "row", "number"), TWO_DIGITS)
def test_a_cross_runs_over_a_two_digit_number_on_the_small_sheets(
    make: Make, row: str, number: int
) -> None:
    """Corner to corner without a break, over the digits: drawn under them, it showed
    only between and beside them, and ``11`` read ``1✕1``."""
    game = make(3)
    crossed = with_state(game, crossed={row: [number]})
    box = compact_box(game, blocks_top(game), row, number)
    assert diagonal_ink(render_table(crossed, NAMES), box, 0.05, 0.95, samples=32) >= 0.9


# --- words large enough -------------------------------------------------------------------

REAL_NAMES = {
    1: "Maximilian Alexander von Schönhausen-Überlingen",
    2: "王小明🎲",
    3: "Zoë Ñúñez 🐉✨",
    4: "Computer 1",
    5: "Ana",
}
SEATS = {"classic": 5, "longo": 5, "onboard": 4, "qwinto": 5}


def words_drawn(
    monkeypatch: pytest.MonkeyPatch, draw: Callable[[], bytes]
) -> tuple[list[tuple[str, float]], int]:
    """Every text an image composed of small sheets draws, with its size, and the image's
    width."""
    drawn: list[tuple[str, float]] = []
    text = Surface.text

    def spy(
        surface: Surface, p: tuple[float, float], words: str, size: float, *args: Any, **kwargs: Any
    ) -> None:
        drawn.append((words, size))
        text(surface, p, words, size, *args, **kwargs)

    monkeypatch.setattr(Surface, "text", spy)
    width = Image.open(io.BytesIO(draw())).width
    return drawn, width


@pytest.mark.parametrize("variant", list(SEATS))
@pytest.mark.parametrize("kind", ["table", "scoreboard"])
def test_every_word_of_the_table_and_scoreboard_is_readable_on_a_phone(
    variant: str, kind: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Names, "total", "penalties", lucky numbers, captions: none under
    ``READABLE_WORDS`` px at a phone's width (Longo's wide blocks drew them at 7-8 px)."""
    game = new_game(variant, list(range(1, SEATS[variant] + 1)), 5)
    if kind == "table":
        drawn, width = words_drawn(monkeypatch, lambda: render_table(game, REAL_NAMES))
    else:
        drawn, width = words_drawn(monkeypatch, lambda: render_scoreboard(game, REAL_NAMES))
    assert len(drawn) > 4 * SEATS[variant]  # at least a name and three words a block
    small = [
        (words, round(size * theme.PHONE_WIDTH / width, 1))
        for words, size in drawn
        if size * theme.PHONE_WIDTH / width < theme.READABLE_WORDS
    ]
    assert not small
