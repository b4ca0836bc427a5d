"""Every sentence the channel keeps after a game is true of the game: over a hundred seeded
games of each variant — people only, people with computers of every level, someone away,
a decision that runs out, a leave, an abandon, a channel that cannot be written for a
while, standing choices, plans made ahead (some meeting a lock), someone away until a
day, time run out with the Hard computer's move — played through the service and the
channel's plan, each channel's final state read line by line and held to the game
replayed from its seed and move log, and each live turn message, as it was shown, held
to the game at that moment (whom it waits for, since when).

``python -m pytest tests/truth -s`` prints the figures: games and claims checked per
variant, and the false ones by kind.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.truth.emojis import application_emojis
from tests.truth.table import scenarios
from tests.truth.verify import verify

GAMES = 100
"""Games per variant: the twelve kinds of table of :func:`scenarios`, over and over."""
SAMPLE = 24
"""Games per variant in the fast lane (twice each kind of table); the whole suite plays
:data:`GAMES` as well, and only they must tell every kind of claim."""
EVERY = (
    "started",
    "level",
    "uncounted.people",
    "header",
    "scores",
    "rank",
    "winner",
    "wins",
    "accuracy",
    "unasked.computers",
    "unasked.away",
    "away.expired",
    "away.stand_in",
    "away.back",
    "away.left",
    "game_over.abandoned",
    "game_over.no_seats",
    "missed",
    "summary_scores",
    "waiting",
    "by.ahead",
    "by.computer",
    "by.away",
    "by.timeout",
    "unasked.chosen",
    "ahead.away",
)
QWIXX_FAMILY = ("by.safe", "by.fallback_locked", "ahead.asked_locked", "ahead.unmet")
"""What the Qwixx family's games tell of decisions made without asking besides: a
standing choice to cross only what skips nothing (Qwinto skips nothing), a choice ahead
that a lock made impossible, and one whose moment never came."""
TOLD = {
    "classic": (
        *EVERY,
        *QWIXX_FAMILY,
        "by.away_safe",
        "dice",
        "crossed",
        "passed",
        "penalty",
        "locked",
        "die",
        "unasked.nobody",
        "expired.qwixx",
        "run.unasked.computers",
    ),
    "longo": (
        *EVERY,
        *QWIXX_FAMILY,
        "by.away_safe",
        "dice",
        "lucky",
        "penalty",
        "locked",
        "die",
        "unasked.nobody",
        "expired.qwixx",
    ),
    "onboard": (
        *EVERY,
        *QWIXX_FAMILY,
        "pawn_moved",
        "pawn_moved_crossed",
        "stayed",
        "finish_reached",
        "game_over.board_finish",
        "penalty",
        "locked",
        "unasked.nobody",
        "expired.qwixx",
        "run.unasked.computers",
    ),
    "qwinto": (
        *EVERY,
        "by.rethrow",
        "kept",
        "ahead.unmet_later",
        "rolled",
        "rerolled",
        "wrote",
        "wrote_nothing",
        "failed_throw",
        "expired.qwinto",
        "game_over.failed_throws",
    ),
}
"""Kinds of claim the games of each variant must make (so that none goes unchecked
because no game happened to tell it)."""


@pytest.mark.slow
@pytest.mark.parametrize("variant", list(TOLD))
async def test_every_sentence_in_the_channel_is_true_of_the_game(
    tmp_path: Path, variant: str, record_property: Any
) -> None:
    report = await verify(tmp_path / "truth.db", scenarios(variant, GAMES))
    print(f"\n{report.summary()}")
    record_property("games", report.games)
    record_property("claims", sum(report.claims.values()))
    record_property("false", len(report.false))
    assert report.games == GAMES
    untold = [kind for kind in TOLD[variant] if not report.claims[kind]]
    assert not untold, f"no game told {untold}: the scenarios no longer cover them"
    assert not report.false, report.describe()


@pytest.mark.parametrize("form", ["text", "emojis"])
@pytest.mark.parametrize("variant", list(TOLD))
async def test_a_sample_of_games_tells_only_the_truth(
    tmp_path: Path, variant: str, form: str
) -> None:
    """The fast lane's check: the first :data:`SAMPLE` games of each variant, their dice
    shown as text and as the dice's emojis."""
    faces, emojis = application_emojis() if form == "emojis" else ({}, {})
    report = await verify(tmp_path / "truth.db", scenarios(variant, SAMPLE), faces, emojis)
    assert report.games == SAMPLE and sum(report.claims.values()) > 0
    assert not report.false, report.describe()
