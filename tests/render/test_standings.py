"""The standings image: phone width, digits readable at 350 px, every name whole (any
script, emoji), a note beside a name without covering it, and 256 players kept to one
screen of lines."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest

from bot.render import render_standings, theme
from bot.render.leaderboard import NAME_PAD, TEXT
from bot.render.lines import BoardTable
from bot.render.parts import measure
from bot.render.standings import (
    NAME_ROOM,
    ROW,
    SMALLEST,
    WIDTH,
    StandingsLayout,
    layout_for,
    name_block,
    number_widths,
    width_for,
)
from bot.render.standings_lines import TOP, StandingsRow, standings_rows
from bot.tournament import TournamentStanding

from .helpers import image
from .test_render_access import digit_height, readable
from .test_render_names import LONG, differs, rgb

HEADERS = ("Points", "Opp.", "Score")
NAMES = [
    "Maximilian Alexander von Schönhausen-Überlingen",
    "王小明🎲",
    "Zoë Ñúñez 🐉✨",
    "Ana",
    "Mehmet Yılmaz",
    "Zofia Wiśniewska",
    "さくら",
    "김민준",
]
Box = tuple[int, int, int, int]


def lines(count: int, score: int = 700) -> list[TournamentStanding]:
    """``count`` standings, best first, some points with a half."""
    return [
        TournamentStanding(
            k + 1,
            k + 1,
            Fraction(3 * (count - k), 2),
            Fraction(900 - k),
            score - k,
            (Fraction(3 * (count - k), 2),),
            games=1,
        )
        for k in range(count)
    ]


def table(
    rows: tuple[StandingsRow, ...], footer: str = "Ties: opponents' points, then score."
) -> BoardTable:
    return BoardTable(
        "Spring Cup — standings",
        "after round 3 of 5 · 13 players",
        "#",
        "Player",
        HEADERS,
        rows,
        footer,
        sorted_column=0,
    )


def names_for(count: int, **special: str) -> dict[int, str]:
    names = {k + 1: NAMES[k % len(NAMES)] for k in range(count)}
    names.update({int(k.removeprefix("p")): v for k, v in special.items()})
    return names


def layout_of(board: BoardTable) -> StandingsLayout:
    return layout_for(board, 1)


def name_box(board: BoardTable, line: int) -> Box:
    x0, y0, x1, y1 = layout_of(board).cell(line, 1)
    return (round(x0), round(y0), round(x1), round(y1))


# --- size and legibility ------------------------------------------------------------------


@pytest.mark.parametrize("count", [4, 13, 256])
def test_the_image_is_phone_width_and_at_most_twenty_lines_tall(count: int) -> None:
    board = table(standings_rows(lines(count), names_for(count), viewer=count))
    picture = image(render_standings(board))
    assert picture.width == WIDTH
    assert len(board.rows) == min(count, TOP)
    assert picture.height == layout_of(board).height
    assert picture.height < 1.1 * layout_of(table(board.rows[:TOP])).height + 40


@pytest.mark.parametrize(("column", "bold"), [(0, True), (1, False), (2, False)])
def test_digits_are_readable_at_350_px(column: int, bold: bool) -> None:
    """Points (bold, the sorted column), opponents' points and scores of four digits."""
    board = table(standings_rows(lines(13, score=1234), names_for(13), number=lambda n: f"{n:,}"))
    picture = rgb(render_standings(board))
    box = tuple(round(v) for v in layout_of(board).cell(2, column + 2))
    height = digit_height(picture, box, theme.INK)  # type: ignore[arg-type]
    assert height >= 15 if bold else height >= 14
    assert readable(height, picture.width), (height, picture.width)


@pytest.mark.parametrize(
    ("score", "name"),
    [
        (900, "Zofia Wiśniewska"),  # three digits: sixteen letters
        (1234, "Maximilian"),  # four digits: the first line of a long name
    ],
)
def test_a_name_keeps_its_full_size_beside_the_tie_breaks(score: int, name: str) -> None:
    board = table(standings_rows(lines(13, score=score), names_for(13), number=lambda n: f"{n:,}"))
    assert len(board.rows[1].values[2]) == len(f"{score:,}")
    cell = layout_of(board).cell(2, 1)
    assert cell[2] - cell[0] - NAME_PAD >= measure(name, TEXT)
    assert width_for(number_widths(board)) == WIDTH
    for row in board.rows:  # names Discord allows (32 characters) wrap, not shrink
        if len(row.name) <= 32:
            assert name_block(row, cell[2] - cell[0])[2] == TEXT, row.name


def test_numbers_too_wide_for_the_phone_width_widen_the_image_not_squeeze_the_names() -> None:
    board = table(standings_rows(lines(4), names_for(4), number=lambda n: f"{n * 10**6:,}"))
    layout = layout_of(board)
    assert layout.width > WIDTH
    cell = layout.cell(1, 1)
    assert cell[2] - cell[0] >= NAME_ROOM
    assert image(render_standings(board)).width == layout.width


# --- names --------------------------------------------------------------------------------


@pytest.mark.parametrize("length", [12, 16])
def test_every_line_shows_its_name_whole(length: int) -> None:
    """The leader, a plain line, a line with a note, the viewer's line after the gap: each
    name changes its own cell when its last letter does."""
    count = 60
    a, b = LONG[length] + "a", LONG[length] + "e"
    notes = {2: "withdrawn"}
    for player, line in ((1, 1), (2, 2), (5, 5), (38, 16), (40, 18)):
        first = table(
            standings_rows(
                lines(count), names_for(count, **{f"p{player}": a}), viewer=40, notes=notes
            )
        )
        second = table(
            standings_rows(
                lines(count), names_for(count, **{f"p{player}": b}), viewer=40, notes=notes
            )
        )
        assert first.rows[line - 1].name == a
        assert differs(render_standings(first), render_standings(second), name_box(first, line)), (
            player
        )


def test_a_note_stands_beside_the_name_in_its_cell() -> None:
    plain = table(standings_rows(lines(4), names_for(4)))
    noted = table(standings_rows(lines(4), names_for(4), notes={2: "withdrawn"}))
    first, second = render_standings(plain), render_standings(noted)
    x0, y0, x1, y1 = name_box(plain, 2)
    middle = (x0 + x1) // 2
    assert differs(first, second, (middle, y0, x1, y1))  # the note, right of the cell
    assert not differs(first, second, name_box(plain, 1))  # nothing else moved


def test_a_long_name_is_drawn_whole_on_a_taller_line() -> None:
    """Discord's longest name, 32 characters: each of them is drawn (the image changes
    with any one), on lines of its own within a taller table line."""
    name = "Abcdefghijklmnopqrstuvwxyz012345"

    def drawn(text: str) -> bytes:
        return render_standings(table(standings_rows(lines(4), names_for(4, p3=text))))

    whole = drawn(name)
    for k in (0, 11, 19, 31):
        assert whole != drawn(name[:k] + "X" + name[k + 1 :]), k
    board = table(standings_rows(lines(4), names_for(4, p3=name)))
    layout = layout_of(board)
    assert layout.row_height(3) > ROW == layout.row_height(4)
    assert image(whole).height == layout.height > layout_of(table(board.rows[:2])).height


@pytest.mark.parametrize("score", [700, 1234, 99_999])
@pytest.mark.parametrize("leader", [False, True])
@pytest.mark.parametrize(
    "name", ["W" * 32, "王" * 32, "🐉" * 32, "Ш" * 32, "Zoë Ñúñez de la Cruz y Olivares"]
)
def test_32_wide_characters_fit_whole_and_readable(score: int, leader: bool, name: str) -> None:
    board = table(
        standings_rows(lines(13, score=score), names_for(13, p2=name), number=lambda n: f"{n:,}")
    )
    layout = layout_of(board)
    cell = layout.cell(2, 1)
    row = replace(board.rows[1], leader=leader)
    _, drawn, size = name_block(row, cell[2] - cell[0])
    assert "".join(drawn).replace(" ", "") == name.replace(" ", "") and size >= SMALLEST
    assert size * theme.PHONE_WIDTH / layout.width >= theme.READABLE_WORDS


@pytest.mark.parametrize(
    ("name", "other"),
    [
        ("王小明🎲", "王小红🎲"),
        ("さくら", "さくま"),
        ("김민준", "김민수"),
        ("Zoë Ñúñez", "Zoë Ñúñéz"),
    ],
)
def test_names_in_any_script_are_drawn_letter_by_letter(name: str, other: str) -> None:
    """Another letter of the same script draws otherwise: no replacement boxes."""

    def drawn(text: str) -> bytes:
        return render_standings(table(standings_rows(lines(4), names_for(4, p2=text))))

    board = table(standings_rows(lines(4), names_for(4)))
    assert differs(drawn(name), drawn(other), name_box(board, 2))


def test_emoji_are_drawn_in_colour() -> None:
    board = table(standings_rows(lines(4), names_for(4, p2="Zoë Ñúñez 🐉✨")))
    cell = rgb(render_standings(board)).crop(name_box(board, 2))
    data = cell.tobytes()
    colourful = sum(
        1
        for pixel in zip(data[0::3], data[1::3], data[2::3], strict=True)
        if max(pixel) - min(pixel) > 60
    )
    assert colourful > 40
