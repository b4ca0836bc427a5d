"""The daily result's words: a standing as people say it (a place, and among many a
share beaten, never more than is true), in every language, and a text to share that
holds no number of the sheet."""

from __future__ import annotations

import re

import pytest

from bot.cogs.daily import SHARE_FROM, result_content, share_content, standing_line
from bot.i18n import LOCALES, using
from bot.i18n.words import ordinal, percent, plural
from bot.rules import new_game
from bot.service.daily import Result
from bot.store.daily import Attempt, DailyStanding

DAY = "2026-12-03"


def result(above: int, below: int, players: int, score: int = 31) -> Result:
    attempt = Attempt(DAY, "classic", 101, 11, 1, 5, score, 0.0)
    return Result(attempt, score, DailyStanding(above, below, players), [(101, score)], 40, 2, 0.0)


@pytest.mark.parametrize(
    ("above", "below", "players", "line"),
    [
        (0, 0, 1, "🌍 You are the first to finish these dice."),
        (1, 0, 2, "🌍 **2nd** of the 2 players who finished these dice so far"),
        (0, 1, 2, "🌍 **1st** of the 2 players who finished these dice so far"),
        (0, 2, 3, "🌍 **1st** of the 3 players who finished these dice so far"),
        (1, 0, 3, "🌍 **2nd** of the 3 players who finished these dice so far"),  # two share 1st
        (
            2,
            7,
            10,
            "🌍 **3rd** of the 10 players who finished these dice so far, better than "
            "**70%** of them",
        ),
        (
            0,
            9,
            10,
            "🌍 **1st** of the 10 players who finished these dice so far, better than "
            "**90%** of them",
        ),
        (0, 2, 3000, "🌍 **1st** of the 3000 players who finished these dice so far"),  # 0.07%
        (9, 0, 10, "🌍 **10th** of the 10 players who finished these dice so far"),
    ],
)
def test_a_standing_reads_as_a_place_and_among_many_a_share(
    above: int, below: int, players: int, line: str
) -> None:
    assert standing_line(result(above, below, players)) == line


@pytest.mark.parametrize("locale", LOCALES)
def test_a_standing_says_the_place_and_the_true_share_in_every_language(locale: str) -> None:
    with using(locale):
        for players in range(2, 25):
            for above in range(players):
                for below in range(players - above):
                    line = standing_line(result(above, below, players))
                    assert f"**{ordinal(above + 1)}**" in line, line
                    assert plural("unit.player", players) in line, line
                    share = 100 * below // players  # rounded down: never more than true
                    shown = re.findall(r"\*\*([^*]*\d[^*]*)\*\*", line)[1:]
                    expected = [percent(share / 100)] if share and players >= SHARE_FROM else []
                    assert shown == expected, line


@pytest.mark.parametrize("locale", LOCALES)
def test_the_text_to_share_holds_no_number_of_the_sheet(locale: str) -> None:
    game = new_game("classic", [101], 3, solo=True)
    while not game.finished:  # crosses and penalties: the first choice each time
        game, _ = game.apply(101, game.legal_moves(101)[0])
    assert any(game.sheets[101].crossed.values()) and game.scores()[101].penalties
    with using(locale):
        shared = share_content(result(0, 0, 1, game.scores()[101].total), game)
        main = result_content(result(0, 0, 1, game.scores()[101].total))
    title, *grid = shared.splitlines()
    assert DAY in title and "🔥2" in title
    assert grid and not re.search(r"\d", "".join(grid)), grid
    assert len(grid) == 5 and grid[-1] == "❌" * game.scores()[101].penalties
    assert title not in main and grid[0] not in main  # the share is a message of its own
