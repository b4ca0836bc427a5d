"""``/qwixx preferences`` and ``/qwixx mygames``: what is read from the options, what is
refused and how, and the words and components of the answers."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from bot.cogs.choice_items import PrefsButton, PrefsSelect
from bot.cogs.inbox import inbox_content, live_link
from bot.cogs.prefs import Given, changes_of, prefs_content, prefs_view, zone_choices
from bot.i18n import using
from bot.i18n.words import t
from bot.records.prefs import Prefs, PrefsError
from bot.service.outcome import Snapshot
from tests.cogs.records import game_record
from tests.positions import position

NOW = datetime(2026, 3, 1, 12, tzinfo=ZoneInfo("UTC")).timestamp()


def test_the_options_given_become_the_changes() -> None:
    given = Given(
        others="safe",
        direct_messages=True,
        remind_soon=True,
        quiet_from="22:30",
        quiet_to="7",
        timezone="europe/berlin",
        away_until="2026-03-10",
    )
    changes = changes_of(given, Prefs(), NOW)
    end = datetime(2026, 3, 11, tzinfo=ZoneInfo("Europe/Berlin")).timestamp()
    assert changes == {
        "others": "safe",
        "dm": True,
        "nudge": True,
        "zone": "Europe/Berlin",
        "quiet": (22 * 60 + 30, 7 * 60),
        "away_until": end,
    }
    assert changes_of(Given(), Prefs(), NOW) == {}, "nothing given: the answer shows them"


def test_one_end_of_the_quiet_hours_keeps_the_other() -> None:
    current = Prefs(quiet=(22 * 60, 7 * 60))
    assert changes_of(Given(quiet_to="6:15"), current, NOW) == {"quiet": (22 * 60, 6 * 60 + 15)}
    assert changes_of(Given(quiet_off=True), current, NOW) == {"quiet": None}
    assert changes_of(Given(back=True), Prefs(away_until=NOW + 10), NOW) == {"away_until": None}


@pytest.mark.parametrize(
    ("given", "key"),
    [
        (Given(quiet_from="25:00", quiet_to="7"), "prefs.bad_clock"),
        (Given(quiet_from="22:00"), "prefs.quiet_both"),
        (Given(quiet_from="7", quiet_to="07:00"), "prefs.quiet_empty"),
        (Given(quiet_from="22", quiet_off=True), "prefs.quiet_conflict"),
        (Given(timezone="Mars/Olympus"), "prefs.bad_zone"),
        (Given(away_until="next week"), "prefs.bad_day"),
        (Given(away_until="2026-02-01"), "prefs.day_past"),
        (Given(away_until="2028-01-01"), "prefs.day_far"),
        (Given(away_until="2026-03-10", back=True), "prefs.away_conflict"),
    ],
)
def test_wrong_input_is_refused_by_name(given: Given, key: str) -> None:
    with pytest.raises(PrefsError) as refused:
        changes_of(given, Prefs(), NOW)
    assert refused.value.key == key
    text = t(key, **refused.value.values)
    assert "{" not in text and text.endswith(".")


def test_the_answer_says_every_default_and_offers_to_change_them() -> None:
    prefs = Prefs(
        others="computer",
        dm=True,
        quiet=(23 * 60, 6 * 60 + 30),
        zone="Europe/Warsaw",
        away_until=NOW,
    )
    text = prefs_content(prefs, saved=True)
    assert text.splitlines()[:9] == [
        "✅ Saved.",
        "**Your choices for every game** (a choice made for one game stays with it):",
        "• On others' turns: the Hard computer chooses",
        "• If my time runs out: pass",
        "• If a choice made ahead is no longer possible: ask me",
        "• Direct messages when a game waits for you: on",
        "• Reminders: at half time and shortly before the end",
        "• Quiet hours: 23:00–06:30, Europe/Warsaw time",
        f"• Away until <t:{int(NOW)}:f>: until then your games decide for you",
    ]
    view = prefs_view(prefs)
    selects = {c.name: c for c in view.children if isinstance(c, PrefsSelect)}
    assert [o.value for o in selects["others"].item.options if o.default] == ["computer"]
    buttons = [c.action for c in view.children if isinstance(c, PrefsButton)]
    assert buttons == ["dm-off", "nudge-on", "here"]
    nudged = [
        c.action for c in prefs_view(Prefs(nudge=True)).children if isinstance(c, PrefsButton)
    ]
    assert nudged == ["dm-on", "nudge-off"]
    assert "Quiet hours: none (time zone UTC)" in prefs_content(Prefs())
    with using("pl"):
        assert "Cisza nocna: brak" in prefs_content(Prefs())


def test_time_zones_are_offered_as_typed() -> None:
    assert [c.value for c in zone_choices("Berl")] == ["Europe/Berlin"]
    assert len(zone_choices("")) == 25


# --- the inbox -----------------------------------------------------------------------
def waiting(game_id: int, guild: int, phase: str = "action1", since: float = 1000.0) -> Snapshot:
    dice = dict(white1=3, white2=4, red=1, yellow=1, green=1, blue=1)
    game = position("classic", [11, 22], phase=phase, dice=dice)
    record = replace(
        game_record([11, 22], status="running", game_id=game_id),
        guild_id=guild,
        channel_id=guild * 10,
        message_id=game_id * 100,
        stage_started=since,
    )
    return Snapshot(record, game)


def test_the_inbox_says_what_each_game_waits_for_since_when_and_where() -> None:
    text = inbox_content([waiting(2, 7, "action2", 2000.0), waiting(1, 8)])
    assert text.splitlines() == [
        "**Games waiting for you**, the newest wait first:",
        "• Qwixx in <#70> — your coloured die, waiting since <t:2000:R> · "
        "[turn 1](https://discord.com/channels/7/70/200)",
        "• Qwixx in <#80> — your white sum (7), waiting since <t:1000:R> · "
        "[turn 1](https://discord.com/channels/8/80/100)",
    ]
    assert inbox_content([]) == "No game is waiting for you, on any server."


def test_a_long_inbox_is_cut_to_one_message() -> None:
    text = inbox_content([waiting(n, 7) for n in range(1, 60)])
    assert len(text) <= 2000 and text.endswith("more.")
    shown = text.count("\n• ")
    assert text.splitlines()[-1] == f"…and {59 - shown} more."


def test_a_game_without_a_live_message_links_its_channel() -> None:
    record = replace(waiting(1, 7).record, message_id=None)
    assert live_link(record) == "https://discord.com/channels/7/70"
