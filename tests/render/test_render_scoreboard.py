"""The final scoreboard."""

from __future__ import annotations

from typing import Any

import pytest

from bot.i18n import using
from bot.i18n.words import t
from bot.render import render_scoreboard, theme
from bot.render.compact import CompactLayout, Surface
from bot.render.parts import measure
from bot.render.scoreboard import HEADER_SIZE, ScoreboardLayout
from bot.rules import new_game
from bot.rules.qwixx import QwixxGame

from .helpers import classic, crop, image, with_state

NAMES = {1: "Ana", 2: "Mehmet", 3: "Zofia", 4: "Lee", 5: "Bo"}


def finished(players: int) -> QwixxGame:
    game = classic(players)
    for p in game.players:
        game = with_state(game, p, crossed={"red": list(range(2, 2 + p))}, penalties=p % 3)
    return game


def winner_fill(data: bytes, layout: ScoreboardLayout, line: int) -> bool:
    """Whether table line ``line`` has the winner's background just left of the name."""
    x0, y0, _, y1 = layout.table_cell(line, 1)
    box = (round(x0) + 4, round((y0 + y1) / 2) - 2, round(x0) + 8, round((y0 + y1) / 2) + 2)
    colours = crop(data, box).getcolors()
    return colours is not None and any(
        max(abs(a - b) for a, b in zip(c, theme.WINNER, strict=True)) < 12 for _, c in colours
    )


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_scoreboard_renders_every_player(players: int) -> None:
    game = finished(players)
    data = render_scoreboard(game, NAMES)
    img = image(data)
    layout = ScoreboardLayout.of(game)
    assert img.size == (layout.width, layout.height)
    assert img.width == CompactLayout.of(game).width  # as wide as the compact sheets
    assert len(data) < 150_000


def test_height_grows_with_players() -> None:
    heights = [image(render_scoreboard(finished(n), NAMES)).height for n in (2, 3, 5)]
    assert heights == sorted(heights)
    assert heights[0] < heights[-1]


def test_ties_share_the_first_rank() -> None:
    game = with_state(classic(3), 1, crossed={"red": [2, 3]})
    game = with_state(game, 2, crossed={"blue": [12, 11]})
    assert [s.rank for s in game.ranking()] == [1, 1, 3]
    data = render_scoreboard(game, NAMES)
    layout = ScoreboardLayout.of(game)
    assert winner_fill(data, layout, 1)
    assert winner_fill(data, layout, 2)
    assert not winner_fill(data, layout, 3)


def test_only_the_winner_is_marked_without_a_tie() -> None:
    game = with_state(classic(2), 2, crossed={"red": [2, 3]})
    data = render_scoreboard(game, NAMES)
    layout = ScoreboardLayout.of(game)
    assert winner_fill(data, layout, 1)
    assert not winner_fill(data, layout, 2)


def test_missing_names_fall_back() -> None:
    assert image(render_scoreboard(classic(2), {})).width > 0


@pytest.mark.parametrize("language", ["en", "de", "fr", "pl", "pt_BR", "tr"])
@pytest.mark.parametrize("variant", ["classic", "longo", "onboard", "qwinto"])
def test_the_header_words_are_of_one_size_and_fit_their_columns(
    variant: str, language: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """ "penalties" is as large as "bonus" and "total" (On Board's seven columns, and
    Portuguese's "em branco", once drew it smaller), "rank" and "player" too."""
    drawn: list[tuple[tuple[float, float], str, float]] = []
    text = Surface.text

    def spy(
        surface: Surface, p: tuple[float, float], words: str, size: float, *args: Any, **kwargs: Any
    ) -> None:
        drawn.append((p, words, size))
        text(surface, p, words, size, *args, **kwargs)

    monkeypatch.setattr(Surface, "text", spy)
    game = new_game(variant, [1, 2, 3], 1, {"board": "A"} if variant == "onboard" else {})
    with using(language):
        render_scoreboard(game, NAMES)
        layout = ScoreboardLayout.of(game)
        columns = [c for c in layout.score_columns if c not in layout.rows]
        words = {t(f"image.{c}"): c for c in ["rank", "player", *columns]}
        header = {w: size for p, w, size in drawn if p[1] < layout.line_top(1)}
        assert set(words) <= set(header)
        sizes = {header[w] for w in words}
        assert len(sizes) == 1, {w: header[w] for w in words}
        size = sizes.pop()
        assert size >= HEADER_SIZE  # nothing shrunk: these languages' words fit
        for k, column in enumerate(layout.score_columns):
            if column in columns:
                cell = layout.table_cell(0, k + 2)
                assert measure(t(f"image.{column}"), size, column == "total") < cell[2] - cell[0]
