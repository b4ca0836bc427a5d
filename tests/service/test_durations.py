"""Durations from untrusted text: strict reading, short refusals."""

import pytest

from bot.durations import DurationError, parse_duration
from bot.service.errors import ServiceError
from bot.service.games import GameService
from bot.text import QUOTE_LIMIT, quote, shorten

DISCORD_MESSAGE_LIMIT = 2000


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("５m", "other digits are refused"),  # full-width digit
        ("5ｍ", "other digits are refused"),  # full-width letter
        ("٥m", "other digits are refused"),  # Arabic-Indic digit
        ("1m1m", "repeats a unit"),
        ("1h 2m 3h", "repeats a unit"),
        ("1m" * 3000, "too long"),
        ("1" * 5000 + "m", "too long"),  # beyond int()'s digit limit, too
        ("-5m", "not a duration"),
    ],
)
def test_strange_durations_are_refused_and_say_why(text: str, problem: str) -> None:
    with pytest.raises(DurationError, match=problem):
        parse_duration(text)


@pytest.mark.parametrize("text", ["x" * 2100, "1m" * 3000, "５" * 6000, "\n\t" * 3000 + "z"])
def test_refusals_quote_a_few_dozen_characters(text: str) -> None:
    with pytest.raises(DurationError) as refused:
        parse_duration(text)
    assert len(str(refused.value)) < 200


def test_a_duration_as_long_as_it_needs_is_read() -> None:
    assert parse_duration("1d 23h 59m") == 86400 + 23 * 3600 + 59 * 60


def test_shorten_and_quote() -> None:
    assert quote("soon") == '"soon"'
    assert shorten("a\n b\tc") == "a b c"
    assert shorten("a\x00b") == "a\ufffdb"
    long = shorten("y" * 100)
    assert len(long) == QUOTE_LIMIT and long.endswith("…")
    assert len(quote("z" * 6000, limit=10)) == 12


async def test_the_refusal_of_a_huge_turn_time_fits_a_message(service: GameService) -> None:
    with pytest.raises(ServiceError) as refused:
        await service.settings.turn_time(1, "x" * 2100)
    text = refused.value.text()
    assert "does not work" in text and "x" * (QUOTE_LIMIT - 1) + "…" in text
    assert len(text) < DISCORD_MESSAGE_LIMIT // 10
