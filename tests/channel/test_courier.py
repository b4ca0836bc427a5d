"""The courier on its own: a game's letters sent and noted in what the game shows, none
sent twice, a refusal stored through the source (and a failure to store it only
logged), and a refused member told once."""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Sequence
from typing import cast

import pytest

from bot.channel.courier import Courier
from bot.channel.dice import TEXT
from bot.channel.direct import Sent, storable, stored
from bot.channel.outage import Outage
from bot.channel.plan import Events, Shown
from bot.channel.source import Change, Source
from bot.i18n import using
from bot.records.games import StoredEvent
from bot.rules import PASS
from bot.service.games import GameService
from bot.service.outcome import Outcome
from tests.channel.test_direct_publisher import ANA, Letters, clock, service, started
from tests.fakes import FakeClock

__all__ = ["clock", "service"]  # the fixtures of the publisher's letters, shared


def courier(source: Source, letters: Letters, clock: FakeClock) -> Courier:
    return Courier(source, letters, lambda: TEXT, Outage(clock))


async def deliver(courier: Courier, outcome: Outcome, shown: Shown, now: float) -> bool:
    assert outcome.game is not None
    events: Events = defaultdict(list)
    with using("en-US"):
        return await courier.deliver(outcome.record, outcome.game, shown, events, now)


async def test_a_letter_is_sent_once_and_noted_in_what_the_game_shows(
    service: GameService, clock: FakeClock
) -> None:
    letters = Letters()
    outcome = await started(service, dm=True)
    sending, shown = courier(service.channel, letters, clock), Shown.of(outcome.record)
    assert not await deliver(sending, outcome, shown, clock()), "a letter is a post"
    assert [person for person, _, _ in letters.waits] == [ANA]
    assert set(shown.direct) == {str(ANA)}
    assert await deliver(sending, outcome, shown, clock()), "nothing new: no post"
    assert len(letters.waits) == 1


async def test_a_refused_letter_is_stored_as_refused_and_told_once(
    service: GameService, clock: FakeClock
) -> None:
    letters = Letters(refused={ANA})
    outcome = await started(service, dm=True)
    sending, shown = courier(service.channel, letters, clock), Shown.of(outcome.record)
    assert await deliver(sending, outcome, shown, clock()), "nothing was posted"
    assert shown.direct == {} and sending.unreached == set()
    changed = await sending.store_refusals()
    assert [change.record.id for change in changed] == [outcome.record.id]
    assert sending.unreached == {ANA}
    assert await sending.store_refusals() == [], "stored once"
    told = await sending.told_unreached(ANA)
    assert told is not None and [c.record.id for c in told] == [outcome.record.id]
    assert await sending.told_unreached(ANA) is None, "told once"


class Unstorable:
    """A source that cannot store a refusal."""

    async def dms_closed(self, person: int) -> Sequence[Change]:
        raise OSError("database is locked")


async def test_a_refusal_that_cannot_be_stored_is_logged_and_kept_unreached(
    service: GameService, clock: FakeClock, caplog: pytest.LogCaptureFixture
) -> None:
    letters = Letters(refused={ANA})
    outcome = await started(service, dm=True)
    sending = courier(cast(Source, Unstorable()), letters, clock)
    await deliver(sending, outcome, Shown.of(outcome.record), clock())
    with caplog.at_level(logging.WARNING, logger="bot.channel.courier"):
        assert await sending.store_refusals() == []
    assert "closed direct messages not stored (database is locked)" in caplog.text
    assert sending.unreached == {ANA}, "the adapter still tells them"


async def ended_with_an_old_letter(service: GameService) -> tuple[Outcome, Shown]:
    """Ana's game played to its end by passes, her letter of turn 1 closed long before."""
    outcome = await started(service, dm=True)
    while outcome.game is not None and not outcome.game.finished:
        game = outcome.game
        person = min(game.decision().waiting)
        phase = game.decision().phase
        outcome = await service.turns.move(outcome.record.id, person, game.turn, phase, PASS)
    shown = Shown.of(outcome.record)
    shown.direct = storable({ANA: Sent(500 + ANA, 7000, 1, "action1", "closed")})
    return outcome, shown


async def test_the_end_reads_what_an_old_letter_said_and_tells_it_once(
    service: GameService, clock: FakeClock
) -> None:
    """The sync that ends the game holds only its last turns' events: the courier reads
    those from the oldest letter's turn on, so that the letter still says what happened."""
    letters = Letters()
    outcome, shown = await ended_with_an_old_letter(service)
    sending = courier(service.channel, letters, clock)
    assert await deliver(sending, outcome, shown, clock()), "an edit, no post"
    told = letters.content[7000].splitlines()
    assert told[1] == "Action 1: You passed" and told[-1].startswith("🔗 How the game ended: ")
    assert "🏁 A fourth penalty: game over." in told and not letters.buttons[7000]
    assert stored(shown.direct)[ANA].state == "ended"
    await deliver(sending, outcome, shown, clock())
    assert letters.edits == 1, "told once"


class Unreadable:
    """A source that cannot read a game's events."""

    async def events(self, game_id: int, first_turn: int = 0) -> list[StoredEvent]:
        raise OSError("database is locked")


async def test_an_end_whose_events_cannot_be_read_is_told_at_the_next_sync(
    service: GameService, clock: FakeClock
) -> None:
    letters = Letters()
    outcome, shown = await ended_with_an_old_letter(service)
    with pytest.raises(OSError, match="locked"):
        await deliver(courier(cast(Source, Unreadable()), letters, clock), outcome, shown, clock())
    assert letters.edits == 0 and stored(shown.direct)[ANA].state == "closed", "not yet told"
    await deliver(courier(service.channel, letters, clock), outcome, shown, clock())
    assert letters.edits == 1 and stored(shown.direct)[ANA].state == "ended"
