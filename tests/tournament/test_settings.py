"""A tournament's settings: the defaults, and a polite, specific refusal for each setting
that cannot be."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.tournament import (
    SettingsRefusal,
    TournamentSettings,
    default_points,
    parse_points,
    validate,
)
from bot.tournament.settings import (
    CHECK_IN,
    DAY,
    HOUR,
    MAX_NAME,
    MAX_ROUNDS,
    MINUTE,
    check_sign_ups,
    table_sizes,
)

NOW = 1_750_000_000
GOOD = TournamentSettings("Spring Cup", deadline=NOW + DAY, check_in=HOUR)


def refusal(settings: TournamentSettings) -> SettingsRefusal:
    with pytest.raises(SettingsRefusal) as caught:
        validate(settings, NOW)
    return caught.value


def test_the_defaults_are_a_valid_tournament() -> None:
    validate(GOOD, NOW)
    validate(TournamentSettings("Manual start"), NOW)
    assert GOOD.place_points == (6, 4, 2, 0)
    assert GOOD.smallest == 3
    assert GOOD.check_in_opens == NOW + DAY - HOUR
    assert TournamentSettings("x").check_in_opens is None


def test_default_points_are_two_a_player_beaten() -> None:
    assert [default_points(n) for n in range(2, 6)] == [
        (2, 0),
        (4, 2, 0),
        (6, 4, 2, 0),
        (8, 6, 4, 2, 0),
    ]


def test_the_smallest_table_defaults_to_one_fewer_but_two() -> None:
    assert [TournamentSettings("x", table_size=n).smallest for n in range(2, 6)] == [2, 2, 3, 4]
    assert TournamentSettings("x", table_size=5, smallest_table=2).smallest == 2


def test_table_sizes_follow_the_game() -> None:
    assert table_sizes("classic") == range(2, 6)
    assert table_sizes("onboard") == range(2, 5)  # On Board seats four at most
    assert table_sizes("qwinto") == range(2, 6)  # six at most, tournaments five


@pytest.mark.parametrize(
    ("change", "key", "values"),
    [
        ({"name": "  "}, "tournament.error.name", {"most": MAX_NAME}),
        ({"name": "x" * (MAX_NAME + 1)}, "tournament.error.name", {"most": MAX_NAME}),
        ({"name": "two\nlines"}, "tournament.error.name", {"most": MAX_NAME}),
        (
            {"variant": "yahtzee"},
            "tournament.error.variant",
            {"variant": "yahtzee", "known": "classic, longo, onboard, qwinto"},
        ),
        ({"rounds": 0}, "tournament.error.rounds", {"most": MAX_ROUNDS}),
        ({"rounds": MAX_ROUNDS + 1}, "tournament.error.rounds", {"most": MAX_ROUNDS}),
        (
            {"table_size": 6},
            "tournament.error.table_size",
            {"variant": "classic", "least": 2, "most": 5},
        ),
        (
            {"variant": "onboard", "table_size": 5},
            "tournament.error.table_size",
            {"variant": "onboard", "least": 2, "most": 4},
        ),
        ({"smallest_table": 1}, "tournament.error.smallest_table", {"most": 4}),
        ({"smallest_table": 5}, "tournament.error.smallest_table", {"most": 4}),
        ({"points": (6, 4, 2)}, "tournament.error.points_count", {"size": 4}),
        ({"points": (6, 4, 2, -1)}, "tournament.error.points_range", {"most": 100}),
        ({"points": (101, 4, 2, 0)}, "tournament.error.points_range", {"most": 100}),
        ({"points": (6, 2, 4, 0)}, "tournament.error.points_order", {}),
        ({"points": (3, 3, 3, 3)}, "tournament.error.points_flat", {}),
        ({"turn_time": 0}, "tournament.error.turn_time", {}),
        ({"deadline": NOW}, "tournament.error.deadline_past", {}),
        ({"deadline": NOW + 31 * DAY}, "tournament.error.deadline_far", {"days": 30}),
        ({"deadline": None}, "tournament.error.check_in_manual", {}),
        ({"check_in": 4 * MINUTE}, "tournament.error.check_in_range", {"least": 5, "most": 48}),
        ({"check_in": 2 * DAY + 1}, "tournament.error.check_in_range", {"least": 5, "most": 48}),
    ],
)
def test_each_impossible_setting_is_refused_by_name(
    change: dict[str, object], key: str, values: dict[str, object]
) -> None:
    found = refusal(replace(GOOD, **change))  # type: ignore[arg-type]
    assert (found.key, found.values) == (key, values)


def test_the_limits_themselves_are_allowed() -> None:
    validate(
        replace(
            GOOD,
            name="x" * MAX_NAME,
            rounds=MAX_ROUNDS,
            table_size=5,
            smallest_table=5,
            check_in=CHECK_IN[0],
        ),
        NOW,
    )
    validate(
        replace(
            GOOD,
            table_size=2,
            smallest_table=2,
            points=(1, 0),
            check_in=CHECK_IN[1],
            deadline=NOW + 30 * DAY,
        ),
        NOW,
    )
    validate(replace(GOOD, points=(6, 4, 0, 0)), NOW)  # equal places lower down are fine


@pytest.mark.parametrize(
    ("text", "points"),
    [
        ("6, 4, 2, 0", (6, 4, 2, 0)),
        ("+6 +5 +3 +1", (6, 5, 3, 1)),
        ("10;5;1;0", (10, 5, 1, 0)),
        (" 6/4/2/0 ", (6, 4, 2, 0)),
    ],
)
def test_points_are_read_as_organisers_write_them(text: str, points: tuple[int, ...]) -> None:
    assert parse_points(text, 4) == points


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("", "points_read"),
        ("six, four", "points_read"),
        ("６, 4, 2, 0", "points_read"),
        ("6.5, 4, 2, 0", "points_read"),
        ("-6 4 2 0", "points_read"),
        ("1, " * 30 + "0", "points_read"),
        ("6, 4, 2", "points_count"),
        ("0, 2, 4, 6", "points_order"),
    ],
)
def test_points_that_cannot_be_read_are_refused(text: str, key: str) -> None:
    with pytest.raises(SettingsRefusal) as caught:
        parse_points(text, 4)
    assert caught.value.key == f"tournament.error.{key}"


def test_sign_ups_must_make_a_first_round_and_stay_within_the_limit() -> None:
    check_sign_ups(GOOD, 3, 256)  # one table of three
    with pytest.raises(SettingsRefusal) as caught:
        check_sign_ups(GOOD, 2, 256)
    assert caught.value == SettingsRefusal("tournament.error.too_few", count=2, least=3)
    check_sign_ups(replace(GOOD, computers=True), 2, 256)  # two people and two computers
    with pytest.raises(SettingsRefusal) as caught:
        check_sign_ups(GOOD, 257, 256)
    assert caught.value == SettingsRefusal("tournament.error.too_many", most=256)
