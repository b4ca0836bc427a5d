"""Turn times and the reminder schedule, as pure functions of timestamps."""

import pytest

from bot.service.timing import Clock, DurationError, format_duration, parse_duration


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
    day = Clock.start(1000.0, 86400)
    assert day.reminder_times == (1000 + 43200, 1000 + 86400 - 3600)
    short = Clock.start(0.0, 300)
    assert short.reminder_times == (150, 270)


def test_what_is_due_when() -> None:
    clock = Clock.start(0.0, 1000)
    assert clock.due(499) is None
    assert clock.due(500) == "remind" and clock.next_due() == 500
    once = Clock(0.0, 1000, reminders=1)
    assert once.due(899) is None and once.due(900) == "remind"
    twice = Clock(0.0, 1000, reminders=2)
    assert twice.due(999) is None and twice.next_due() == 1000
    assert twice.due(1000) == "expire"
    assert clock.due(5000) == "expire"  # downtime: an overdue deadline skips its reminders
