"""Turn times and the reminder schedule, as pure functions of timestamps."""

import pytest

from bot.durations import DurationError, format_duration, parse_duration
from bot.records.prefs import Prefs
from bot.service.timing import DecisionClock


@pytest.mark.parametrize(
    ("text", "seconds"),
    [
        ("5m", 300),
        ("90m", 5400),
        ("1h30m", 5400),
        ("24h", 86400),
        ("7d", 604800),
        (" 2H ", 7200),
        ("1d 12h", 129600),
    ],
)
def test_durations_are_read(text: str, seconds: int) -> None:
    assert parse_duration(text) == seconds


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("4m", "outside"),
        ("8d", "outside"),
        ("soon", "not a duration"),
        ("", "not a duration"),
        ("10", "not a duration"),
        ("5x", "not a duration"),
    ],
)
def test_bad_durations_name_the_problem(text: str, problem: str) -> None:
    with pytest.raises(DurationError, match=problem):
        parse_duration(text)


@pytest.mark.parametrize(
    ("seconds", "text"),
    [(300, "5m"), (5400, "1h30m"), (86400, "24h"), (172800, "2d"), (3600, "1h")],
)
def test_durations_are_written_back(seconds: int, text: str) -> None:
    assert format_duration(seconds) == text
    assert parse_duration(text) == seconds


def test_reminders_at_half_time_and_shortly_before_the_end() -> None:
    day = DecisionClock.start(1000.0, 86400)
    assert [m.at for m in day.rounds] == [1000 + 43200, 1000 + 86400 - 3600]
    short = DecisionClock.start(0.0, 300)
    assert [m.at for m in short.rounds] == [150, 270]


def test_what_is_due_when() -> None:
    clock = DecisionClock.start(0.0, 1000)
    assert clock.due(499) is None
    assert clock.due(500) == "remind" and clock.next_due() == 500
    once = DecisionClock(0.0, 1000, reminders=1)
    assert once.due(899) is None and once.due(900) == "remind"
    twice = DecisionClock(0.0, 1000, reminders=2)
    assert twice.due(999) is None and twice.next_due() == 1000
    assert twice.due(1000) == "expire"
    assert clock.due(5000) == "expire"  # downtime: an overdue deadline skips its reminders


NUDGED = ((7, Prefs(nudge=True)),)


def test_a_long_decision_nudges_those_who_asked_after_1_2_4_8_12_hours() -> None:
    """A day's decision: those who asked to be reminded soon and again are, after 1, 2,
    4, 8 and 12 hours; the others at half time, as before; everyone an hour before the
    end. A decision shorter than half a day keeps half time for everyone."""
    day = DecisionClock.start(0.0, 86400, NUDGED)
    hour = 3600
    assert [(m.at, m.only, m.but) for m in day.moments] == [
        (1 * hour, {7}, frozenset()),
        (2 * hour, {7}, frozenset()),
        (4 * hour, {7}, frozenset()),
        (8 * hour, {7}, frozenset()),
        (12 * hour, {7}, frozenset()),
        (12 * hour, None, {7}),
        (23 * hour, None, frozenset()),
    ]
    assert [m.counts(7) for m in day.moments] == [True] * 5 + [False, True]
    assert [m.counts(8) for m in day.moments] == [False] * 5 + [True, True]
    short = DecisionClock.start(0.0, 6 * hour, NUDGED)
    assert [m.at for m in short.moments] == [3 * hour, 6 * hour - 0.1 * 6 * hour]
    assert (
        DecisionClock.start(0.0, 86400).moments
        == DecisionClock.start(0.0, 86400, ((8, Prefs()),)).moments
    )


def test_stale_rounds_are_let_go_for_the_latest_due() -> None:
    """Twelve hours after a day's decision opened, the nudges of 1, 2, 4 and 8 hours are
    stale: one round goes, the 12 hours'; the clock then waits for the next."""
    clock = DecisionClock.start(0.0, 86400, NUDGED)
    caught = clock.caught_up(12 * 3600)
    assert caught.reminders == 4 and caught.next_due() == 12 * 3600
    assert caught.moment() is not None and caught.moment().only == {7}
    assert caught.reminded().caught_up(12 * 3600).reminders == 5, "the others' is not theirs"
    assert clock.caught_up(3599) == clock, "nothing due: nothing let go"
    plain = DecisionClock.start(0.0, 86400)
    assert plain.caught_up(23 * 3600).next_due() == 23 * 3600, "half time let go"
