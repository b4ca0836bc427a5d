"""Every name whole and legible on every image that shows players' names.

The tests are differential: the same image drawn with a name differing only in one
letter. A name drawn whole changes pixels in its own place (its block, its line of the
ranking, its line of the legend) when its last letter changes; a name cut, or drawn
under something else, would not. Names up to 16 characters are never cut; longer ones
keep their first 12 characters and an ellipsis.
"""

from __future__ import annotations

import pytest
from PIL import Image

from bot.render import render_board, render_scoreboard, render_sheet, render_table, theme
from bot.render.board import legend_box
from bot.render.compact import BLOCK_GAP, CompactLayout
from bot.render.leaderboard import BoardRow, BoardTable, Layout, render_leaderboard, width_for
from bot.render.scoreboard import ScoreboardLayout
from bot.render.table import blocks_top
from bot.rules import Game, new_game
from bot.rules.onboard import OnBoardGame

from .helpers import image

VARIANTS = ["classic", "longo", "onboard", "qwinto"]
PLAYERS = [1, 2, 3, 4]
OTHERS = {1: "Ana", 2: "Mehmet", 3: "Zofia", 4: "Lee"}
# Wide letters: the most room a name of that length may need.
LONG = {12: "WMWMWMWMWMW", 16: "WMWMWMWMWMWMWMW"}  # ... and one more letter, the last
Box = tuple[int, int, int, int]


def game_of(variant: str) -> Game:
    return new_game(variant, PLAYERS, 5)


def rgb(data: bytes) -> Image.Image:
    return image(data).convert("RGB")


def differs(a: bytes, b: bytes, box: Box) -> bool:
    """Whether the two images differ inside ``box``."""
    first, second = rgb(a), rgb(b)
    return first.crop(box).tobytes() != second.crop(box).tobytes()


def with_name(player: int, name: str) -> dict[int, str]:
    return {**OTHERS, player: name}


def pair(length: int) -> tuple[str, str]:
    """Two names of ``length`` characters differing only in the last."""
    return LONG[length] + "a", LONG[length] + "e"


def block_box(game: Game, k: int, top: float) -> Box:
    """The ``k``-th compact block from ``top``."""
    layout = CompactLayout.of(game)
    y = round(top + k * (layout.block_height + BLOCK_GAP))
    return (0, y, layout.width, y + layout.block_height)


# --- the table view ------------------------------------------------------------------


@pytest.mark.parametrize("length", [12, 16])
@pytest.mark.parametrize("variant", VARIANTS)
def test_the_table_shows_every_seats_name_whole(variant: str, length: int) -> None:
    game = game_of(variant)
    active = game.decision().active
    assert active in PLAYERS
    a, b = pair(length)
    for k, player in enumerate(game.players):
        first = render_table(game, with_name(player, a))
        second = render_table(game, with_name(player, b))
        assert differs(first, second, block_box(game, k, blocks_top(game))), (variant, player)


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_table_shows_the_name_of_an_active_player_in_another_seat(variant: str) -> None:
    game = game_of(variant)
    a, b = pair(16)
    for player in PLAYERS:
        if game.decision().active == player:
            break
    k = game.players.index(player)
    first, second = (render_table(game, with_name(player, n)) for n in (a, b))
    assert differs(first, second, block_box(game, k, blocks_top(game)))


# --- the final scoreboard -----------------------------------------------------------------


@pytest.mark.parametrize("length", [12, 16])
@pytest.mark.parametrize("variant", VARIANTS)
def test_the_scoreboard_shows_every_name_whole_in_the_ranking_and_the_sheets(
    variant: str, length: int
) -> None:
    game = game_of(variant)
    layout = ScoreboardLayout.of(game)
    a, b = pair(length)
    order = [s.player for s in game.ranking()]
    for line, player in enumerate(order, start=1):
        first = render_scoreboard(game, with_name(player, a))
        second = render_scoreboard(game, with_name(player, b))
        x0, y0, x1, y1 = (round(v) for v in layout.table_cell(line, 1))
        assert differs(first, second, (x0, y0, x1, y1)), (variant, player, "ranking")
        box = block_box(game, line - 1, layout.sheets_top)
        assert differs(first, second, box), (variant, player, "sheet")


# --- On Board's board ---------------------------------------------------------------------


@pytest.mark.parametrize("length", [12, 16])
def test_the_boards_legend_shows_every_name_whole(length: int) -> None:
    game = game_of("onboard")
    assert isinstance(game, OnBoardGame)
    moves = game.legal_moves(game.active)
    a, b = pair(length)
    for player in game.players:
        first = render_board(game, with_name(player, a), moves)
        second = render_board(game, with_name(player, b), moves)
        assert differs(first, second, legend_box(game, player)), player


# --- a player's sheet -----------------------------------------------------------------------


@pytest.mark.parametrize("length", [12, 16])
@pytest.mark.parametrize("variant", VARIANTS)
def test_a_sheet_shows_its_players_name_whole(variant: str, length: int) -> None:
    game = game_of(variant)
    a, b = pair(length)
    for player in game.players:
        moves = game.legal_moves(player)
        first, second = (render_sheet(game, player, n, moves) for n in (a, b))
        header = (0, 0, rgb(first).width, theme.MARGIN + theme.HEADER)
        assert differs(first, second, header), (variant, player)


# --- the leaderboard ---------------------------------------------------------------------------


def board(names: list[str]) -> BoardTable:
    values = ("12", "5", "42%", "31.5", "77")
    rows = [
        BoardRow("1", names[0], values, leader=True),
        BoardRow("2", names[1], values),
        BoardRow("3", names[2], values, you=True),
        BoardRow("–", names[3], values, you=True, detached=True),
    ]
    return BoardTable(
        "All games — this month",
        "ranked by wins",
        "#",
        "Player",
        ("Games", "Wins", "Win rate", "Average", "Best"),
        tuple(rows),
        "Win rate and average rank only players with at least 3 games.",
        sorted_column=1,
    )


@pytest.mark.parametrize("length", [12, 16])
def test_the_leaderboard_shows_every_name_whole(length: int) -> None:
    a, b = pair(length)
    base = list(OTHERS.values())
    for k in range(4):
        first_table = board([a if j == k else n for j, n in enumerate(base)])
        second_table = board([b if j == k else n for j, n in enumerate(base)])
        first, second = render_leaderboard(first_table), render_leaderboard(second_table)
        layout = Layout(5, first_table.rows, 1, width_for(first_table))
        x0, y0, x1, y1 = (round(v) for v in layout.cell(k + 1, 1))
        assert differs(first, second, (x0, y0, x1, y1)), k


# --- a 32-character name: its first 12 characters and an ellipsis ---------------------------


def renders(variant: str, player: int, name: str) -> list[bytes]:
    """Every image of ``variant`` that shows ``player``'s name."""
    game = game_of(variant)
    names = with_name(player, name)
    found = [
        render_table(game, names),
        render_scoreboard(game, names),
        render_sheet(game, player, name, game.legal_moves(player)),
    ]
    if isinstance(game, OnBoardGame):
        found.append(render_board(game, names, game.legal_moves(game.active)))
    return found


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_32_character_name_is_cut_after_its_12th_character(variant: str) -> None:
    name = "Abcdefghijklmnopqrstuvwxyz012345"
    assert len(name) == 32
    twelfth = name[:11] + "X" + name[12:]
    twentieth = name[:19] + "X" + name[20:]
    for player in (1, 3):
        whole = renders(variant, player, name)
        for a, b in zip(whole, renders(variant, player, twelfth), strict=True):
            assert rgb(a).tobytes() != rgb(b).tobytes()  # the 12th letter shows
        for a, b in zip(whole, renders(variant, player, twentieth), strict=True):
            assert rgb(a).tobytes() == rgb(b).tobytes()  # the 20th does not


def test_a_32_character_name_on_the_leaderboard_is_cut_after_its_12th_character() -> None:
    name = "Abcdefghijklmnopqrstuvwxyz012345"
    base = list(OTHERS.values())[1:]
    whole = render_leaderboard(board([name, *base]))
    assert whole != render_leaderboard(board([name[:11] + "X" + name[12:], *base]))
    assert whole == render_leaderboard(board([name[:19] + "X" + name[20:], *base]))


# --- names in other scripts ----------------------------------------------------------------


@pytest.mark.parametrize("name", ["さくら", "王小明", "김민준", "Zoë 🎲", "🦊 Fuchs", "Ana 🇧🇷"])
def test_names_in_other_scripts_and_emoji_show_on_the_table(name: str) -> None:
    game = game_of("classic")
    plain = render_table(game, with_name(2, "Mehmet"))
    other = render_table(game, with_name(2, name))
    assert differs(plain, other, block_box(game, 1, blocks_top(game)))
