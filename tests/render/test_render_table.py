"""The table view: every player's compact sheet in one image."""

from __future__ import annotations

import pytest

from bot.render import latest_between, latest_from_moves, render_table
from bot.render.compact import BLOCK_GAP, EDGE, CompactLayout
from bot.render.table import blocks_top, table_size
from bot.rules import PASS, Game, Move, new_game
from tests.positions import reposition

from .helpers import changed, crop, image, with_state

NAMES = {1: "Ana", 2: "Mehmet", 3: "Zofia", 4: "Lee", 5: "Bo"}
PLAYERS = {"classic": 5, "longo": 5, "onboard": 4, "qwinto": 5}


def game_of(variant: str) -> Game:
    return new_game(variant, list(range(1, PLAYERS[variant] + 1)), 3)


def block_top(game: Game, k: int) -> int:
    layout = CompactLayout.of(game)
    return blocks_top(game) + k * (layout.block_height + BLOCK_GAP)


def cell_box(game: Game, k: int, i: int, j: int) -> tuple[int, int, int, int]:
    """Cell ``j`` of row ``i`` in the block of the ``k``-th seat."""
    layout = CompactLayout.of(game)
    x = EDGE + layout.cell_x(j)
    y = block_top(game, k) + layout.row_top(i)
    return (x, y, x + layout.cell[0], y + layout.cell[1])


@pytest.mark.parametrize("variant", list(PLAYERS))
def test_every_variant_renders_every_player(variant: str) -> None:
    game = game_of(variant)
    data = render_table(game, NAMES)
    img = image(data)
    assert img.mode == "P"
    assert img.size == table_size(game)
    layout = CompactLayout.of(game)
    assert img.height > PLAYERS[variant] * layout.block_height
    assert len(data) < 120_000


def test_the_active_player_is_framed() -> None:
    game = game_of("classic")
    assert game.decision().active == 1
    img = image(render_table(game, NAMES)).convert("RGB")
    frame = (EDGE + 1, block_top(game, 0) + 20)
    assert max(img.getpixel(frame)) < 60  # the dark frame
    assert min(img.getpixel((EDGE + 1, block_top(game, 1) + 20))) > 240  # paper


def test_latest_crosses_are_ringed_and_nothing_else_changes() -> None:
    game = with_state(game_of("classic"), 2, crossed={"red": [2, 3], "green": [12]})
    plain = render_table(game, NAMES)
    ringed = render_table(game, NAMES, {2: {("red", 3)}})
    box = cell_box(game, 1, 0, 1)  # seat 2, red row, number 3
    assert changed(crop(plain, box), crop(ringed, box)) > 0.15
    before = crop(plain, (0, 0, *table_size(game))).copy()
    after = crop(ringed, (0, 0, *table_size(game))).copy()
    after.paste(crop(plain, box), box[:2])
    assert changed(before, after) == 0


def test_qwinto_fields_are_ringed_by_column() -> None:
    game = reposition(game_of("qwinto"), sheets={1: "orange: 3=5"})
    plain = render_table(game, NAMES)
    ringed = render_table(game, NAMES, {1: {("orange", 3)}})
    assert (
        changed(crop(plain, cell_box(game, 0, 0, 3)), crop(ringed, cell_box(game, 0, 0, 3))) > 0.15
    )


def test_latest_cells_from_moves_and_from_two_states() -> None:
    moves = [
        (1, Move("cross", "red", 5)),
        (2, PASS),
        (2, Move("lucky", "blue", 9)),
        (3, Move("place", "orange", 4)),
        (1, Move("roll", dice=("orange",))),
    ]
    assert latest_from_moves(moves) == {1: {("red", 5)}, 2: {("blue", 9)}, 3: {("orange", 4)}}
    before = game_of("classic")
    after = with_state(before, 3, crossed={"yellow": [2, 4]})
    assert latest_between(before, after) == {3: {("yellow", 2), ("yellow", 4)}}
    assert latest_between(after, after) == {}


def test_a_finished_game_has_no_active_player() -> None:
    game = with_state(game_of("classic"), 2, penalties=4, end_reason="penalties")
    img = image(render_table(game, NAMES)).convert("RGB")
    assert min(img.getpixel((EDGE + 1, block_top(game, 0) + 20))) > 240
