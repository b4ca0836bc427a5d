"""The one compare-and-set policy: another writer coming first means trying again, a
few times, then a polite refusal as busy; anything else is no reason to try again."""

from __future__ import annotations

import logging

import pytest

from bot.i18n import ENGLISH, LOCALES, using
from bot.i18n.words import text
from bot.service.errors import ServiceError
from bot.service.retry import ATTEMPTS, BUSY, retry


class Conflict(Exception):
    """Another writer came first."""


class Attempts:
    """An attempt that conflicts its first ``conflicts`` times, then answers its try."""

    def __init__(self, conflicts: int, failure: Exception | None = None) -> None:
        self.conflicts, self.failure, self.tries = conflicts, failure, 0

    async def __call__(self) -> int:
        self.tries += 1
        if self.failure is not None:
            raise self.failure
        if self.tries <= self.conflicts:
            raise Conflict(self.tries)
        return self.tries


async def test_an_attempt_without_conflict_runs_once() -> None:
    attempt = Attempts(0)
    assert await retry(attempt, Conflict, "game 1") == 1
    assert attempt.tries == 1


async def test_each_conflict_is_tried_again_up_to_the_last_attempt(
    caplog: pytest.LogCaptureFixture,
) -> None:
    attempt = Attempts(ATTEMPTS - 1)
    with caplog.at_level(logging.INFO, logger="bot.service.retry"):
        assert await retry(attempt, (ValueError, Conflict), "game 7") == ATTEMPTS
    assert attempt.tries == ATTEMPTS
    assert caplog.messages == ["game 7 changed concurrently; trying again"] * (ATTEMPTS - 1)


async def test_too_many_conflicts_give_up_as_busy_from_the_last() -> None:
    attempt = Attempts(ATTEMPTS)
    with pytest.raises(ServiceError) as refused:
        await retry(attempt, Conflict, "tournament 3")
    assert attempt.tries == ATTEMPTS
    assert refused.value.key == BUSY and refused.value.values == {}
    cause = refused.value.__cause__
    assert isinstance(cause, Conflict) and cause.args == (ATTEMPTS,)


@pytest.mark.parametrize("locale", LOCALES)
async def test_what_a_person_is_told_when_it_gives_up_is_asked_of_them_in_their_language(
    locale: str,
) -> None:
    """Busy is a catalogue message, translated: a request to try again, never the
    conflict's name or the key."""
    with pytest.raises(ServiceError) as refused:
        await retry(Attempts(ATTEMPTS), Conflict, "game 4")
    with using(locale):
        told = refused.value.text()
    assert told == text(BUSY, locale) and told.endswith(".")
    assert "Conflict" not in told and BUSY not in told
    assert locale == ENGLISH or told != text(BUSY, ENGLISH)


async def test_a_refusal_or_failure_is_not_tried_again() -> None:
    for failure in (ServiceError("error.not_your_turn"), OSError("disk")):
        attempt = Attempts(0, failure)
        with pytest.raises(type(failure)) as raised:
            await retry(attempt, Conflict, "game 2")
        assert raised.value is failure and attempt.tries == 1


async def test_a_thing_changed_can_say_busy_its_own_way() -> None:
    """A tournament names itself rather than speak of a game."""
    with pytest.raises(ServiceError) as refused:
        await retry(
            Attempts(ATTEMPTS), Conflict, "tournament 3", lambda: ServiceError("x.busy", name="C")
        )
    assert refused.value.key == "x.busy" and refused.value.values == {"name": "C"}
    assert isinstance(refused.value.__cause__, Conflict)
