"""Points by place: ties share, a short table counts its missing seats, a bye is a table of
one, computers take places but no points. Expected values are worked out by hand from
the rules in bot/tournament/points.py's docstring, or from a formula of their own."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.tournament import SeatResult, TableResult, points_text, skipped_points, table_points
from bot.tournament.points import shares
from tests.positions import position

FOUR = (6, 4, 2, 0)


@pytest.mark.parametrize(
    ("ranks", "expected"),
    [
        ([1, 2, 3, 4], [6, 4, 2, 0]),
        ([1, 1, 3, 4], [5, 5, 2, 0]),  # first and second shared: (6 + 4) / 2
        ([1, 2, 2, 4], [6, 3, 3, 0]),
        ([1, 1, 1, 4], [4, 4, 4, 0]),
        ([1, 1, 1, 1], [3, 3, 3, 3]),
        ([3, 1, 4, 2], [2, 6, 0, 4]),  # seats in any order
        ([1, 2, 3], [5, 3, 1]),  # a table of three at tables of four: the missing seat shared
        ([1, 1, 3], [4, 4, 1]),
        ([1, 2], [4, 2]),  # two missing seats: (6 + 4 + 2) / 3, (4 + 2 + 0) / 3
        ([1], [3]),  # a skipped game
    ],
)
def test_shares_at_tables_of_four(ranks: list[int], expected: list[int]) -> None:
    assert shares(ranks, FOUR) == expected


def test_custom_points_share_exactly() -> None:
    assert shares([1, 1, 3, 4], (6, 5, 3, 1)) == [Fraction(11, 2)] * 2 + [3, 1]
    assert shares([1, 2, 2, 2], (6, 5, 3, 1)) == [6, 3, 3, 3]
    assert shares([1, 1, 1], (10, 5, 1, 0)) == [4, 4, 4]  # (10 + 5 + 1 + 0) / 4: a seat missing
    assert shares([1, 1, 1, 4, 5], (10, 4, 3, 1, 0)) == [Fraction(17, 3)] * 3 + [1, 0]


def test_a_skipped_game_is_the_mean_of_the_places() -> None:
    assert skipped_points(FOUR) == 3
    assert skipped_points((8, 6, 4, 2, 0)) == 4
    assert skipped_points((6, 5, 3, 1)) == Fraction(15, 4)


@st.composite
def rankings(draw: st.DrawFn) -> tuple[list[int], int]:
    """A table's ranks (a competition ranking, seats shuffled) and the table size."""
    size = draw(st.integers(2, 5))
    seats = draw(st.integers(1, size))
    scores = draw(st.lists(st.integers(0, 4), min_size=seats, max_size=seats))
    ranks = [1 + sum(other > score for other in scores) for score in scores]
    return ranks, size


@settings(max_examples=300, deadline=None)
@given(rankings())
def test_default_points_are_two_a_player_beaten_one_a_player_tied_or_missing(
    case: tuple[list[int], int],
) -> None:
    ranks, size = case
    points = shares(ranks, tuple(2 * (size - k) for k in range(1, size + 1)))
    for rank, share in zip(ranks, points, strict=True):
        beaten = sum(other > rank for other in ranks)
        tied = ranks.count(rank) - 1
        assert share == 2 * beaten + tied + (size - len(ranks))


@settings(max_examples=300, deadline=None)
@given(rankings(), st.lists(st.integers(0, 100), min_size=5, max_size=5))
def test_a_full_table_shares_out_all_points_and_better_places_never_get_less(
    case: tuple[list[int], int], raw: list[int]
) -> None:
    ranks, size = case
    place_points = tuple(sorted(raw, reverse=True)[:size])
    points = shares(ranks, place_points)
    if len(ranks) == size:
        assert sum(points) == sum(place_points)
    for (a, pa), (b, pb) in zip(
        sorted(zip(ranks, points, strict=True)),
        sorted(zip(ranks, points, strict=True))[1:],
        strict=False,
    ):
        assert pa >= pb or a == b


def test_computers_take_places_but_get_no_points() -> None:
    result = TableResult(
        1,
        1,
        (
            SeatResult(-1, 90, 1, computer=True),
            SeatResult(7, 80, 2),
            SeatResult(8, 80, 2),
            SeatResult(-2, 10, 4, computer=True),
        ),
    )
    assert table_points(result, FOUR) == {7: 3, 8: 3}
    assert [seat.player for seat in result.people] == [7, 8]


def test_a_result_comes_from_the_games_ranking() -> None:
    """A finished classic game: the seats' scores and ranks are the game's, ties too."""
    game = position(
        "classic",
        [11, 12, -1, 13],
        end_reason="rows_locked",
        closed=["red", "blue"],
        sheets={
            11: "red: 2 3 4 5 6 | green: 12 11",  # 15 + 3
            12: "yellow: 2 3 4 5 6 7",  # 21
            -1: "yellow: 2 3 4 5 6 7",
            13: "blue: 12 | penalties: 2",
        },
    )  # 1 - 10
    ranking = game.ranking()
    result = TableResult.of(2, 3, ranking, computers={-1}, away={13}, timeouts={13: 2})
    assert [(s.player, s.score, s.rank, s.computer, s.away, s.timeouts) for s in result.seats] == [
        (12, 21, 1, False, False, 0),
        (-1, 21, 1, True, False, 0),
        (11, 18, 3, False, False, 0),
        (13, -9, 4, False, True, 2),
    ]
    assert table_points(result, FOUR) == {12: 5, 11: 2, 13: 0}


@pytest.mark.parametrize("ranks", [[1, 2, 2, 3], [2, 3], [1, 1, 2], [0, 1]])
def test_ranks_that_are_no_ranking_are_refused(ranks: list[int]) -> None:
    with pytest.raises(ValueError, match="not a ranking"):
        shares(ranks, FOUR)


def test_more_seats_than_the_table_has_are_refused() -> None:
    with pytest.raises(ValueError, match="5 seats at a table of 4"):
        shares([1, 2, 3, 4, 5], FOUR)


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (Fraction(5), "5"),
        (Fraction(0), "0"),
        (Fraction(11, 2), "5½"),
        (Fraction(1, 3), "⅓"),
        (Fraction(17, 3), "5⅔"),
        (Fraction(15, 4), "3¾"),
        (Fraction(55, 12), "4 7/12"),
        (Fraction(1234), "1234"),
    ],
)
def test_points_are_written_exactly(value: Fraction, text: str) -> None:
    assert points_text(value) == text


def test_the_whole_part_is_written_as_asked() -> None:
    def grouped(n: int) -> str:
        return f"{n:,}"

    assert points_text(Fraction(24691, 2), grouped) == "12,345½"
    assert points_text(Fraction(1234), grouped) == "1,234"
    assert points_text(Fraction(1, 2), grouped) == "½"
