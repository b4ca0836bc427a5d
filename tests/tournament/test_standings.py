"""The standings: points summed over rounds, tie-breaks in order (opponents' points, then
total score), shared places, byes, away games, withdrawals; and whole tournaments seated
round after round from them."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.tournament import (
    Entrant,
    Round,
    SeatResult,
    Table,
    TableResult,
    TournamentSettings,
    complete,
    met_before,
    next_round,
    standings,
)

from .helpers import fewest_repeats, repeats, run

THREE = TournamentSettings("x", table_size=3, smallest_table=3)  # (4, 2, 0) a place, a bye 2


def result(round_: int, table: int, *seats: tuple[int, int, int] | SeatResult) -> TableResult:
    return TableResult(
        round_, table, tuple(s if isinstance(s, SeatResult) else SeatResult(*s) for s in seats)
    )


ROUNDS = [
    Round(1, (Table(1, (1, 2, 3)), Table(2, (4, 5, 6))), byes=(7,)),
    Round(2, (Table(1, (1, 4, 7)), Table(2, (2, 3, 5)))),
]
RESULTS = [
    result(1, 1, (1, 50, 1), (2, 40, 2), (3, 40, 2)),
    result(1, 2, (4, 30, 1), (5, 20, 2), (6, 10, 3)),
    result(2, 1, (1, 60, 1), (4, 60, 1), (7, 5, 3)),
    result(2, 2, (2, 33, 2), (3, 12, 3), SeatResult(5, 45, 1, away=True, timeouts=3)),
]
ENTRANTS = [Entrant(p) for p in range(1, 6)] + [Entrant(6, withdrawn_after=1), Entrant(7)]


def tables_of(round_: Round) -> list[list[int]]:
    return [list(table.players) for table in round_.tables]


def test_a_small_tournament_worked_by_hand() -> None:
    """Round 1: 1 wins, 2 and 3 share second ((2 + 0) / 2 each); 4, 5, 6 in order; 7 sits
    out (2, the mean of 4, 2, 0). Round 2 (6 has withdrawn): 1 and 4 share first
    ((4 + 2) / 2), 7 is last; 5, away, wins for 2 and 3. 1 and 4 have 7 points each; 4's
    opponents have 6 + 0 + 7 + 2 = 15, 1's 3 + 1 + 7 + 2 = 13: 4 is first."""
    lines = standings(THREE, ENTRANTS, ROUNDS, RESULTS)
    assert [(s.place, s.player, s.points, s.opponents, s.score) for s in lines] == [
        (1, 4, 7, 15, 90),
        (2, 1, 7, 13, 110),
        (3, 5, 6, 11, 65),
        (4, 2, 3, 15, 73),
        (5, 7, 2, 14, 5),
        (6, 3, 1, 19, 52),
        (7, 6, 0, 13, 10),
    ]
    by = {s.player: s for s in lines}
    assert by[5].rounds == (2, 4) and (by[5].away, by[5].timeouts) == (1, 3)
    assert by[7].rounds == (2, 0) and (by[7].byes, by[7].games) == (1, 1)
    assert by[6].rounds == (0, None) and by[6].withdrawn_after == 1 and by[6].games == 1


def test_rounds_still_playing_count_nothing_yet() -> None:
    lines = standings(THREE, ENTRANTS, ROUNDS, RESULTS[:3])
    by = {s.player: s for s in lines}
    assert by[2].rounds == (1, None) and by[2].points == 1
    assert by[7].rounds == (2, 0)  # the bye counts at once, the table it did not sit at later
    assert by[1].opponents == 4 + 5 + 2  # 2 and 3 (1 and 1 + 0 so far... now 1 and 1), 4, 7
    assert not complete(ROUNDS[1], RESULTS[:3]) and complete(ROUNDS[0], RESULTS[:3])


def test_equal_on_everything_shares_a_place() -> None:
    two = TournamentSettings("x", table_size=2, smallest_table=2)
    rounds = [Round(1, (Table(1, (1, 2)), Table(2, (3, 4))))]
    results = [result(1, 1, (1, 10, 1), (2, 5, 2)), result(1, 2, (3, 10, 1), (4, 5, 2))]
    lines = standings(two, [Entrant(p) for p in (4, 3, 2, 1)], rounds, results)
    assert [(s.place, s.player) for s in lines] == [(1, 1), (1, 3), (3, 2), (3, 4)]


def test_computers_count_nothing_for_their_opponents() -> None:
    rounds = [Round(1, (Table(1, (1, 2), computers=1),))]
    results = [result(1, 1, (1, 30, 1), SeatResult(-1, 20, 2, computer=True), (2, 10, 3))]
    lines = standings(THREE, [Entrant(1), Entrant(2)], rounds, results)
    assert [(s.player, s.points, s.opponents) for s in lines] == [(1, 4, 0), (2, 0, 4)]


@pytest.mark.parametrize(
    ("results", "message"),
    [
        ([result(3, 1, (1, 1, 1))], "round 3 of 2"),
        ([result(1, 3, (1, 1, 1))], "table 3 of round 1"),
        ([result(1, 1, (1, 50, 1), (2, 40, 2), (7, 40, 2))], "seated"),
        ([result(1, 1, (1, 50, 1), (2, 40, 2))], "seated"),
        ([RESULTS[0], RESULTS[0]], "a second result"),
    ],
)
def test_a_result_that_does_not_fit_the_seating_is_refused(
    results: list[TableResult], message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        standings(THREE, ENTRANTS, ROUNDS, results)


# --- whole tournaments --------------------------------------------------------------------


def test_thirteen_at_tables_of_four_one_withdrawing_after_round_one() -> None:
    """Round 2 seats twelve at three tables of four: without a repeat only if each table
    takes one player of each of round 1's four tables, so not when the one who left sat
    at a table of three (then the table of four has one player too many). The rounds
    after the first have the fewest repeats of any seating."""
    settings_ = TournamentSettings("Cup", rounds=3)
    for seed in (1, 5):
        entrants, rounds, results = run(settings_, 13, seed=seed, leaving={9: 1})
        assert [[len(t.players) for t in r.tables] for r in rounds] == [
            [4, 3, 3, 3],
            [4, 4, 4],
            [4, 4, 4],
        ]
        assert all(9 not in r.players for r in rounds[1:])
        left_a_table_of_three = 9 not in rounds[0].tables[0].players
        assert rounds[1].repeats == (1 if left_a_table_of_three else 0), seed
        for number, round_ in enumerate(rounds[1:], start=2):
            met = met_before(rounds[: number - 1])
            assert round_.repeats == repeats(tables_of(round_), met)
            assert round_.repeats == fewest_repeats(list(round_.players), [4, 4, 4], met)
        lines = standings(settings_, entrants, rounds, results)
        assert {s.player: s.rounds[1:] for s in lines}[9] == (None, None)


def test_the_next_round_groups_the_standings_leaders() -> None:
    """Round 2 with nobody met in round 1 at the same table twice possible: the first
    table takes the first four of the standings that have not met."""
    settings_ = TournamentSettings("Cup", rounds=2, avoid_repeats=False)
    entrants, rounds, results = run(settings_, 12, seed=3)
    lines = standings(settings_, entrants, rounds[:1], [r for r in results if r.round == 1])
    order = [s.player for s in lines]
    places = {s.player: s.place for s in lines}
    seated = list(rounds[1].players)
    assert [places[p] for p in seated] == sorted(places[p] for p in order)


def test_there_is_no_round_after_the_last() -> None:
    settings_ = TournamentSettings("Cup", rounds=2)
    entrants, rounds, results = run(settings_, 8, seed=1)
    with pytest.raises(ValueError, match="round 3 of a tournament of 2"):
        next_round(settings_, entrants, rounds, results, seed=1)


def test_a_tournament_is_seated_the_same_from_the_same_history() -> None:
    settings_ = TournamentSettings("Cup", rounds=4, table_size=5)
    first = run(settings_, 23, seed=11, leaving={4: 2})
    assert run(settings_, 23, seed=11, leaving={4: 2}) == first
    assert run(settings_, 23, seed=12, leaving={4: 2})[1] != first[1]


@settings(max_examples=60, deadline=None)
@given(
    st.integers(2, 30),
    st.integers(1, 5),
    st.integers(2, 5),
    st.booleans(),
    st.booleans(),
    st.integers(0, 2**32),
    st.data(),
)
def test_standings_add_up_and_follow_the_tie_breaks(
    count: int,
    rounds_: int,
    size: int,
    computers: bool,
    avoid: bool,
    seed: int,
    data: st.DataObject,
) -> None:
    smallest = data.draw(st.integers(2, size))
    settings_ = TournamentSettings(
        "x",
        rounds=rounds_,
        table_size=size,
        smallest_table=smallest,
        computers=computers,
        avoid_repeats=avoid,
    )
    leaving = data.draw(
        st.dictionaries(st.integers(1, count), st.integers(1, rounds_), max_size=count // 3)
    )
    entrants, rounds, results = run(settings_, count, seed, leaving)
    lines = standings(settings_, entrants, rounds, results)
    assert sorted(s.player for s in lines) == list(range(1, count + 1))
    totals = {s.player: s.points for s in lines}
    for number, round_ in enumerate(rounds, start=1):
        playing = sorted(e.player for e in entrants if e.plays(number))
        assert sorted(round_.players) == playing  # each seated once, the withdrawn not
    for s in lines:
        assert s.points == sum(p for p in s.rounds if p is not None)
        assert len(s.rounds) == len(rounds)
        assert s.games + s.byes == sum(p is not None for p in s.rounds)
        met = [
            p.player
            for r in results
            for p in r.people
            if s.player in {q.player for q in r.people} and p.player != s.player
        ]
        assert s.opponents == sum((totals[p] for p in met), Fraction(0))
        assert s.score == sum(p.score for r in results for p in r.people if p.player == s.player)
    for better, worse in itertools.pairwise(lines):
        assert (better.points, better.opponents, better.score) >= (
            worse.points,
            worse.opponents,
            worse.score,
        )
        tied = (better.points, better.opponents, better.score) == (
            worse.points,
            worse.opponents,
            worse.score,
        )
        assert (worse.place == better.place) == tied
        assert worse.place == better.place or worse.place == lines.index(worse) + 1


def test_the_last_of_ten_rounds_of_256_meets_nobody_again() -> None:
    """Late rounds of a large tournament: the search for the most grouped seating gives
    up within its work, and the swaps still find one without a repeat."""
    settings_ = TournamentSettings("Cup", rounds=10)
    _, rounds, _ = run(
        settings_,
        256,
        seed=2026,
        scores=(-10, 140),
        leaving={p: 1 + p % 9 for p in range(10, 257, 10)},
    )
    assert [r.repeats for r in rounds] == [0] * 10
    assert len(rounds[-1].players) == 256 - 25
