"""What the standings image lists: which lines (the leaders, the viewer's neighbourhood),
each line's words and numbers, the alt text; built without Pillow."""

from __future__ import annotations

from fractions import Fraction

import pytest

from bot.render.lines import BoardTable
from bot.render.standings_lines import (
    AROUND,
    TOP,
    StandingsRow,
    excerpt,
    standings_alt,
    standings_rows,
)
from bot.tournament import TournamentStanding
from tests.test_lazy_imports import loaded


def line(
    player: int,
    place: int,
    points: Fraction | int = 0,
    games: int = 1,
    withdrawn_after: int | None = None,
) -> TournamentStanding:
    return TournamentStanding(
        player,
        place,
        Fraction(points),
        Fraction(3 * player),
        1000 + player,
        (Fraction(points),),
        games=games,
        withdrawn_after=withdrawn_after,
    )


@pytest.mark.parametrize(
    ("count", "viewer", "shown"),
    [
        (4, None, [0, 1, 2, 3]),
        (20, 19, list(range(20))),
        (256, None, list(range(20))),
        (256, 17, list(range(20))),  # the viewer and two lines below are among the first 20
        (256, 18, [*range(15), "gap", *range(16, 21)]),
        (256, 129, [*range(15), "gap", *range(127, 132)]),
        (256, 255, [*range(15), "gap", *range(251, 256)]),
        (21, 20, [*range(15), "gap", *range(16, 21)]),
    ],
)
def test_the_image_shows_the_leaders_and_the_viewers_neighbourhood(
    count: int, viewer: int | None, shown: list[int | str]
) -> None:
    found: list[int | str] = []
    for index, gap in excerpt(count, viewer):
        found += ["gap", index] if gap else [index]
    assert found == shown
    assert len(excerpt(count, viewer)) == min(count, TOP)
    if viewer is not None:
        indices = [k for k, _ in excerpt(count, viewer)]
        assert viewer in indices
        assert all(k in indices for k in range(viewer - AROUND, min(count, viewer + AROUND + 1)))


def test_each_line_carries_place_name_points_tie_breaks_and_note() -> None:
    lines = [line(7, 1, Fraction(23, 2)), line(8, 2, 11), line(9, 2, 11, withdrawn_after=1)]
    rows = standings_rows(
        lines,
        {7: "Zoë Ñúñez 🐉✨", 8: "王小明🎲"},
        viewer=8,
        notes={9: "withdrawn"},
        number=lambda n: f"<{n}>",
    )
    assert rows == (
        StandingsRow("1", "Zoë Ñúñez 🐉✨", ("<11>½", "<21>", "<1007>"), leader=True),
        StandingsRow("2", "王小明🎲", ("<11>", "<24>", "<1008>"), you=True),
        StandingsRow("2", "9", ("<11>", "<27>", "<1009>"), note="withdrawn"),
    )


def test_numbers_are_written_the_languages_way_by_default() -> None:
    rows = standings_rows([line(1, 1, 1234)], {1: "Ana"})
    assert rows[0].values == ("1,234", "3", "1,001")


def test_no_medals_before_anyone_has_played() -> None:
    lines = [line(p, 1, games=0) for p in (1, 2, 3)]
    rows = standings_rows(lines, {})
    assert not any(row.medal or row.leader for row in rows)


def test_a_viewer_far_down_is_framed_after_a_gap() -> None:
    lines = [line(p, p, 300 - p) for p in range(1, 257)]
    rows = standings_rows(lines, {}, viewer=130)
    assert len(rows) == TOP
    assert [row.rank for row in rows if row.detached] == ["128"]
    assert [row.rank for row in rows if row.you] == ["130"]


def test_the_alt_text_reads_every_line_with_its_note() -> None:
    rows = (
        StandingsRow("1", "Ana", ("12", "30", "250"), leader=True),
        StandingsRow("2", "Zoë", ("9", "28", "240"), note="withdrawn"),
    )
    table = BoardTable(
        "Cup — standings",
        "after round 2 of 3",
        "#",
        "Player",
        ("Points", "Opp.", "Score"),
        rows,
        "Ties: opponents' points.",
        0,
    )
    assert standings_alt(table) == (
        "Cup — standings (after round 2 of 3)\n"
        "1. Ana: Points 12, Opp. 30, Score 250\n"
        "2. Zoë (withdrawn): Points 9, Opp. 28, Score 240\n"
        "Ties: opponents' points."
    )


def test_the_lines_are_built_without_the_drawing_code() -> None:
    found = loaded(
        "from bot.render.standings_lines import standings_rows\n"
        "from bot.tournament import TournamentStanding\n"
        "standings_rows([TournamentStanding(1, 1, 3, 0, 10, (3,), 1)], {1: 'Ana'})"
    )
    assert "babel.numbers" in found  # it did write numbers
    assert not found & {"PIL", "bot.render.canvas", "bot.render.fonts"}
