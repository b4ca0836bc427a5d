"""A member's preferences: as stored, in a game, in time."""

from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest

from bot.records.prefs import (
    DEFAULT,
    Prefs,
    PrefsError,
    parse_clock,
    parse_day,
    parse_zone,
    zones_like,
)


def at(text: str, zone: str = "UTC") -> float:
    """A wall time in ``zone`` as unix seconds."""
    return datetime.fromisoformat(text).replace(tzinfo=ZoneInfo(zone)).timestamp()


def test_the_defaults_are_stored_as_nothing():
    assert DEFAULT.to_json() == {}
    assert Prefs.from_json({}) == DEFAULT


def test_round_trip():
    prefs = Prefs("safe", "computer", "pass", True, (23 * 60, 7 * 60), "Europe/Berlin", 1e9)
    prefs = prefs.for_this_game(others="computer")
    again = Prefs.from_json(prefs.to_json())
    assert again == prefs and again.own == {"others"}


def test_the_rethrow_rule_is_kept_and_read_leniently():
    prefs = Prefs(rethrow="unless_writable")
    assert prefs.to_json() == {"rethrow": "unless_writable"}
    assert Prefs.from_json(prefs.to_json()) == prefs
    assert Prefs.from_json({"rethrow": "sometimes"}).rethrow == "ask"


def test_zones_offered_as_a_member_types():
    assert zones_like("berl", 25) == ["Europe/Berlin"]
    found = zones_like("europe/", 5)
    assert len(found) == 5 and all(z.startswith("Europe/") for z in found)
    assert zones_like("utc", 25)[0] == "UTC"
    assert zones_like("no such place", 25) == []


def test_unknown_values_read_as_the_defaults():
    read = Prefs.from_json({"others": "sometimes", "timeout": 3, "own": ["dm", "others"]})
    assert (read.others, read.timeout, read.own) == ("ask", "pass", {"others"})


def test_a_choice_for_one_game_survives_new_defaults():
    game = DEFAULT.for_this_game(others="safe")
    defaults = Prefs(others="computer", timeout="computer", dm=True)
    after = game.with_defaults(defaults)
    assert (after.others, after.timeout, after.dm) == ("safe", "computer", True)
    assert after.own == {"others"}


def test_only_decisions_may_be_chosen_for_one_game():
    with pytest.raises(PrefsError) as refused:
        DEFAULT.for_this_game(dm=True)
    assert refused.value.key == "prefs.not_for_one_game"
    with pytest.raises(PrefsError) as refused:
        DEFAULT.for_this_game(others="often")
    assert refused.value.key == "prefs.unknown_choice"


def test_safe_means_ask_in_qwinto():
    prefs = Prefs(others="safe")
    assert prefs.answers_others("classic") == "safe"
    assert prefs.answers_others("qwinto") == "ask"


@pytest.mark.parametrize(
    "wall, quiet, ends",
    [
        ("2026-12-06 22:59", False, None),
        ("2026-12-06 23:00", True, "2026-12-07 07:00"),
        ("2026-12-07 03:10", True, "2026-12-07 07:00"),
        ("2026-12-07 06:59", True, "2026-12-07 07:00"),
        ("2026-12-07 07:00", False, None),
        ("2026-12-07 12:00", False, None),
    ],
)
def test_quiet_hours_over_midnight(wall, quiet, ends):
    prefs = Prefs(quiet=(23 * 60, 7 * 60), zone="Europe/Berlin")
    now = at(wall, "Europe/Berlin")
    assert prefs.quiet_now(now) == quiet
    end = prefs.quiet_end(now)
    assert (end is None) == (ends is None)
    if ends is not None:
        assert end == at(ends, "Europe/Berlin")


def test_quiet_hours_within_a_day_and_their_next_start():
    prefs = Prefs(quiet=(13 * 60, 14 * 60 + 30), zone="America/Sao_Paulo")
    before = at("2026-12-06 12:00", "America/Sao_Paulo")
    assert not prefs.quiet_now(before)
    assert prefs.next_quiet_start(before) == at("2026-12-06 13:00", "America/Sao_Paulo")
    after = at("2026-12-06 15:00", "America/Sao_Paulo")
    assert prefs.next_quiet_start(after) == at("2026-12-07 13:00", "America/Sao_Paulo")
    assert prefs.quiet_end(at("2026-12-06 14:00", "America/Sao_Paulo")) == at(
        "2026-12-06 14:30", "America/Sao_Paulo"
    )
    assert prefs.next_quiet_start(at("2026-12-06 14:00", "America/Sao_Paulo")) is None


def test_quiet_hours_across_a_change_of_clocks():
    """Berlin's clocks go forward at 02:00 on 2026-03-29: quiet hours 01:00-03:00 end at
    03:00 local, one hour of real time after they began."""
    prefs = Prefs(quiet=(60, 180), zone="Europe/Berlin")
    start = at("2026-03-29 01:00", "Europe/Berlin")
    end = prefs.quiet_end(start + 60)
    assert end is not None and end - start == 3600
    assert datetime.fromtimestamp(end, ZoneInfo("Europe/Berlin")).hour == 3


def test_no_quiet_hours():
    assert not DEFAULT.quiet_now(0) and DEFAULT.next_quiet_start(0) is None
    same = Prefs(quiet=(600, 600))
    assert not same.quiet_now(0) and same.next_quiet_start(0) is None


def test_away():
    prefs = Prefs(away_until=1000.0)
    assert prefs.away(999.0) and not prefs.away(1000.0)
    assert not DEFAULT.away(0)


def test_parsing():
    assert parse_clock("23:30") == 23 * 60 + 30
    assert parse_clock(" 7 ") == 7 * 60
    assert parse_zone(" europe/berlin ") == parse_zone("Europe/Berlin") == "Europe/Berlin"
    now = datetime(2026, 12, 6, tzinfo=UTC).timestamp()
    assert parse_day("2026-12-24", "UTC", now) == datetime(2026, 12, 25, tzinfo=UTC).timestamp()
    for text, key in [("25:00", "prefs.bad_clock"), ("7:60", "prefs.bad_clock")]:
        with pytest.raises(PrefsError) as refused:
            parse_clock(text)
        assert refused.value.key == key
    with pytest.raises(PrefsError) as refused:
        parse_zone("Mars/Olympus")
    assert refused.value.key == "prefs.bad_zone"
    for text, key in [
        ("24.12.2026", "prefs.bad_day"),
        ("2026-12-01", "prefs.day_past"),
        ("2028-01-01", "prefs.day_far"),
    ]:
        with pytest.raises(PrefsError) as refused:
            parse_day(text, "UTC", now)
        assert refused.value.key == key
