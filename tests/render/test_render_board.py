"""Qwixx On Board: the track image, the sheet's bonus box and the scoreboard's bonus column."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image

from bot.render import render_board, render_scoreboard, render_sheet, theme
from bot.render.board import board_size, bonus_box, field_box, legend_box, pawn_box
from bot.render.example import onboard_example, write_board_examples
from bot.render.scoreboard import ScoreboardLayout as ScoreboardLayout
from bot.render.sheet import SheetLayout, pawn_cells
from bot.rules import PASS, Move
from bot.rules.onboard import OnBoardGame
from tests.positions import position, reposition

from .helpers import changed, classic, crop, dark, grown, image

NAMES = {1: "Ana", 2: "Mehmet", 3: "Zofia", 4: "Lee"}


def onboard(
    players: int = 3, board: str = "A", pawns: dict[int, int] | None = None, phase: str = "action1"
) -> OnBoardGame:
    game = position(
        "onboard",
        list(range(1, players + 1)),
        seed=7,
        options={"board": board},
        pawns=pawns or {},
        phase=phase,
        chosen={},
    )
    assert isinstance(game, OnBoardGame)
    return game


def test_the_board_is_a_small_png_about_730_px_wide() -> None:
    for players, board in ((2, "A"), (4, "B")):
        game = onboard(players, board, pawns={1: 12, 2: 38})
        data = render_board(game, NAMES)
        img = image(data)
        assert img.format == "PNG" and img.mode == "P"
        assert img.size == board_size(game)
        assert 700 <= img.width <= 760 and 900 <= img.height <= 1000
        assert len(data) < 80_000


def ink_lines(img: Image.Image, box: tuple[int, int, int, int], ink: tuple[int, ...]) -> int:
    """How many pixel lines of ``box`` hold pixels near ``ink`` (a digit's height)."""
    part = img.crop(box)
    lines = {
        y
        for x in range(part.width)
        for y in range(part.height)
        if max(abs(a - b) for a, b in zip(part.getpixel((x, y)), ink, strict=True)) < 90
    }
    return max(lines) - min(lines) + 1 if lines else 0


@pytest.mark.parametrize("position", [1, 16, 40])
def test_a_fields_number_and_bonus_read_on_a_phone(position: int) -> None:
    """Both as tall as ``READABLE_DIGIT`` px at a phone's ``PHONE_WIDTH`` (the board was
    890 px wide, eleven fields a line: the bonus was 5 px there, the number 10)."""
    game = onboard()
    img = crop(render_board(game, NAMES), (0, 0, *board_size(game)))
    field = game.board.field(position)
    assert field is not None
    x0, y0, x1, _ = box = field_box(game, position)
    ink = theme.INK if field.colour in theme.LIGHT_BANDS else theme.PAPER
    pill = [round(v) for v in bonus_box(box)]
    number = ink_lines(img, (x0 + 20, y0 + 12, x1 - 6, pill[1] - 1), ink)
    bonus = ink_lines(img, (pill[0] + 12, pill[1] + 4, pill[2] - 12, pill[3] - 4), theme.INK)
    phone = theme.PHONE_WIDTH / img.width
    assert number * phone >= theme.READABLE_DIGIT, number
    assert bonus * phone >= theme.READABLE_DIGIT, bonus


def test_fields_lie_inside_the_image_in_order_without_overlap() -> None:
    game = onboard()
    width, height = board_size(game)
    boxes = [field_box(game, p) for p in range(41)]
    assert all(0 <= b[0] < b[2] <= width and 0 <= b[1] < b[3] <= height for b in boxes)
    for k, a in enumerate(boxes):
        for b in boxes[k + 1 :]:
            assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]
    assert field_box(game, 0)[:2] < field_box(game, 1)[:2]  # the start is top left


def test_rendering_is_deterministic() -> None:
    game = onboard(pawns={1: 5, 2: 9})
    assert render_board(game, NAMES) == render_board(game, NAMES)


def test_a_pawn_shows_on_its_field_and_leaves_the_start() -> None:
    before = onboard(pawns={1: 0, 2: 0, 3: 0})
    after = onboard(pawns={1: 17, 2: 0, 3: 0})
    a, b = render_board(before, NAMES), render_board(after, NAMES)
    on_17 = pawn_box(after, 17)
    assert changed(crop(a, on_17), crop(b, on_17)) > 0.3
    assert field_box(after, 17)[1] < on_17[3] < field_box(after, 17)[3]  # it stands on it
    start = field_box(after, 0)
    assert changed(crop(a, start), crop(b, start)) > 0.05
    untouched = field_box(after, 25)
    assert changed(crop(a, untouched), crop(b, untouched)) == 0


def printed(img: Image.Image, box: tuple[int, int, int, int]) -> set[tuple[int, int]]:
    """The pixels of field ``box`` that are not its colour: its position, number and bonus
    (its rounded corners left out)."""
    x0, y0, x1, y1 = box
    band = img.getpixel(((x0 + x1) // 2, y0 + 2))
    return {
        (x, y)
        for x in range(x0 + 4, x1 - 4)
        for y in range(y0 + 4, y1 - 4)
        if max(abs(a - b) for a, b in zip(img.getpixel((x, y)), band, strict=True)) > 24
    }


@pytest.mark.parametrize("board", ["A", "B"])
def test_no_pawn_hides_what_is_printed_on_its_field(board: str) -> None:
    """Not its number, its bonus nor its position: every pixel of them is as it was."""
    empty = onboard(4, board=board)
    plain = crop(render_board(empty, NAMES), (0, 0, *board_size(empty)))
    for start in range(1, 5):
        pawns = {1: start, 2: start + 13, 3: start + 26, 4: start + 35}  # one on each line
        game = onboard(4, board=board, pawns=pawns)
        img = crop(render_board(game, NAMES), (0, 0, *board_size(game)))
        for p in pawns.values():
            box = field_box(game, p)
            ink = printed(plain, box)
            assert len(ink) > 400  # the number alone
            moved = [
                xy
                for xy in ink
                if max(
                    abs(a - b) for a, b in zip(img.getpixel(xy), plain.getpixel(xy), strict=True)
                )
                > 24
            ]
            assert not moved, (p, len(moved))


def test_every_pawn_looks_different() -> None:
    base = onboard(4, pawns={1: 0, 2: 0, 3: 0, 4: 0})
    crops = []
    for player in (1, 2, 3, 4):
        game = reposition(base, pawns={player: 10})
        crops.append(crop(render_board(game, NAMES), pawn_box(game, 10)))
    for k, a in enumerate(crops):
        for b in crops[k + 1 :]:
            assert changed(a, b) > 0.05


def test_the_finish_area_is_marked() -> None:
    game = onboard()
    data = render_board(game, NAMES)

    def gap(p: int, q: int) -> tuple[int, int, int, int]:
        """The strip between two neighbouring fields of one line."""
        a, b = field_box(game, p), field_box(game, q)
        left, right = (a, b) if a[0] < b[0] else (b, a)
        return (left[2] + 1, left[1] + 10, right[0] - 1, left[3] - 10)

    assert dark(crop(data, gap(37, 38))) > 0.2  # the chequered frame shows between fields
    assert dark(crop(data, gap(33, 34))) < 0.02
    last = field_box(game, 40)
    flag_area = (last[0] - 230, last[1], last[0] - 20, last[3])
    assert dark(crop(data, flag_area)) > 0.03  # the flag and the word FINISH


def test_the_legend_names_every_player() -> None:
    game = onboard(4, pawns={1: 3, 2: 8})
    data = render_board(game, NAMES)
    for player in game.players:
        box = legend_box(game, player)
        assert box[3] <= board_size(game)[1]
        assert dark(crop(data, box)) > 0.008
    renamed = render_board(game, {**NAMES, 2: "Somebody else entirely"})
    box = legend_box(game, 2)
    assert changed(crop(data, box), crop(renamed, box)) > 0.01
    other = legend_box(game, 3)
    assert changed(crop(data, other), crop(renamed, other)) == 0
    assert render_board(game) != data  # without names: "Player 1", ...


def test_the_legend_tells_where_each_pawn_stands() -> None:
    game = onboard(pawns={1: 3})
    moved = onboard(pawns={1: 30})
    box = legend_box(game, 1)
    assert (
        changed(crop(render_board(game, NAMES), box), crop(render_board(moved, NAMES), box)) > 0.01
    )


def test_pawn_moves_are_outlined_on_the_board() -> None:
    game = onboard(pawns={1: 0}, phase="action3")
    moves = game.legal_moves(1)
    assert any(m.kind == "pawn" for m in moves)
    plain, marked = render_board(game, NAMES), render_board(game, NAMES, moves)
    for move in moves:
        if move.kind == "pawn":
            target = game.pawn_target(1, move.number or 0)
            assert target is not None
            box = grown(field_box(game, target[0]), 6)
            assert dark(crop(marked, box)) > dark(crop(plain, box)) + 0.05


# --- the sheet and the scoreboard ------------------------------------------------


def test_the_sheet_has_a_bonus_box_showing_the_pawns_bonus() -> None:
    game = onboard()
    layout = SheetLayout.of(game)
    assert (
        layout.board
        and len(layout.total_boxes()) == len(SheetLayout.of(classic()).total_boxes()) + 1
    )
    assert layout.total_boxes()[-1][2] <= layout.width - 10
    far = onboard(pawns={1: 40})
    assert far.scores()[1].bonus == 20 and far.scores()[1].total == 20
    bonus_box = tuple(round(v) for v in layout.total_boxes()[4])
    assert (
        changed(
            crop(render_sheet(game, 1, "Ana"), bonus_box),
            crop(render_sheet(far, 1, "Ana"), bonus_box),
        )
        > 0.02
    )
    assert len(render_sheet(far, 1, "A rather long display name here")) < 60_000


def test_the_sheet_outlines_the_cells_a_pawn_move_would_cross() -> None:
    game = onboard(pawns={1: 0}, phase="action3")
    moves = game.legal_moves(1)
    cells = pawn_cells(game, 1, moves)
    expected = set()
    for move in moves:
        target = game.pawn_target(1, move.number or 0) if move.kind == "pawn" else None
        if target is not None and target[2]:
            expected.add((target[1].colour, target[1].number))
    assert cells == expected and cells
    assert render_sheet(game, 1, "Ana", moves) != render_sheet(game, 1, "Ana")
    assert pawn_cells(game, 1, [PASS, Move("cross", "red", 5)]) == set()


def test_classic_sheets_and_scoreboards_keep_their_layout() -> None:
    assert not SheetLayout.of(classic()).board
    assert "bonus" not in ScoreboardLayout.of(classic()).score_columns


def test_the_scoreboard_always_shows_the_bonus_column() -> None:
    game = onboard(pawns={1: 0, 2: 0, 3: 0})
    assert "bonus" in ScoreboardLayout.of(game).score_columns
    ended = reposition(
        game,
        pawns={1: game.board.last},
        final_turn=game.turn,
        finish_by=1,
        end_reason="board_finish",
    )
    assert "bonus" in ScoreboardLayout.of(ended).score_columns
    data = render_scoreboard(ended, NAMES)
    assert image(data).width <= 1000


# --- the example ---------------------------------------------------------------------


def test_the_board_example_is_written_and_small(tmp_path: Path) -> None:
    paths = write_board_examples(tmp_path)
    assert sorted(paths) == ["board.png", "sheet-onboard.png"]
    assert paths["board.png"].stat().st_size < 80_000
    assert paths["sheet-onboard.png"].stat().st_size < 60_000
    game = onboard_example(22)
    assert not game.finished and game.phase == "action3"
    assert sum(m.kind == "pawn" for m in game.legal_moves(game.active)) >= 3


@pytest.mark.parametrize("board", ["A", "B"])
def test_both_sides_render(board: str) -> None:
    game = onboard(2, board)
    assert image(render_board(game, NAMES)).size == board_size(game)
