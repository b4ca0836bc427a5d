"""``/qwixx privacy``'s answer in every language: every kind of data named, within
Discord's 2,000 characters however many servers, and the grace period as set."""

from __future__ import annotations

import pytest

from bot.cogs.privacy import report_text
from bot.i18n import LOCALES, using
from bot.i18n.words import plural, t
from bot.records.games import NO_SERVER
from bot.service.privacy import ServerData

FULL = ServerData(
    1,
    name="Ana *the* Bold",
    games=12,
    results=10,
    counted=8,
    first=1.7e9,
    last=1.8e9,
    variants=2,
    ratings=(("classic", 8), ("qwinto", 2)),
    tournaments=3,
    organised=1,
)


@pytest.mark.parametrize("locale", LOCALES)
def test_every_kind_of_data_is_named(locale: str) -> None:
    with using(locale):
        text = report_text([FULL, ServerData(2, games=1)], {1: "Alpha"}, 30 * 86400)
        words = (plural("unit.days_after", 30), plural("unit.variant_in", 2))
        tournaments = (t("privacy.tournaments", count=3), t("privacy.organised", count=1))
    for part in (
        "**Alpha**",
        "Ana \\*the\\* Bold",
        "12",
        "10",
        "8",
        "<t:1700000000:d>",
        "<t:1800000000:d>",
        "Qwixx",
        "Qwinto",
        *words,
        *tournaments,
        "(2)",
        "forget-me",
    ):
        assert part in text, (locale, part)
    assert "30d" not in text  # the grace period in words: "30 days", "30 Tagen"...
    assert len(text) <= 2000


@pytest.mark.parametrize("locale", LOCALES)
def test_many_servers_stay_within_one_message(locale: str) -> None:
    servers = [
        ServerData(
            i,
            name="N" * 32,
            games=99,
            results=9,
            counted=9,
            first=1.7e9,
            last=1.8e9,
            variants=4,
            ratings=(("classic", 9),),
        )
        for i in range(60)
    ]
    with using(locale):
        text = report_text(servers, {i: "S" * 100 for i in range(60)}, 12 * 3600)
    assert len(text) <= 2000 and "12h" in text
    assert text.count("S" * 100) < 60


@pytest.mark.parametrize("locale", LOCALES)
def test_nothing_kept_says_so(locale: str) -> None:
    with using(locale):
        text = report_text([], {}, 30 * 86400)
    assert "forget-me" in text and len(text) < 1000


@pytest.mark.parametrize("locale", LOCALES)
def test_what_is_kept_outside_servers_is_named_so_and_kept_until_forget_me(locale: str) -> None:
    elsewhere = ServerData(NO_SERVER, games=2, daily=1)
    with using(locale):
        text = report_text([elsewhere, ServerData(7, daily=1)], {}, 30 * 86400)
        outside, kept = t("privacy.no_server"), t("privacy.no_server_kept")
        daily, here = t("privacy.daily_elsewhere", daily=1), t("privacy.daily", daily=1)
    block, other = text.split("\n\n")[1:3]
    assert block.startswith(f"**{outside}**") and daily in block and kept in block
    assert here not in block and here in other and kept not in other
