"""The publisher carrying a game's direct messages out, beside its channel, through
recording writers: whole games through the service, each member reading their letters
as the writer keeps them. One letter a wait, each closed in the end, none repeated by a
restart; a member whose letters Discord refuses is mentioned instead and told once."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

import pytest

from bot.channel.direct import Closing, Letter
from bot.channel.plan import Post
from bot.channel.publisher import Publisher
from bot.channel.writer import Unreachable
from bot.i18n import using
from bot.records.games import GameRecord
from bot.records.seats import Seats
from bot.rules import Event, Game
from bot.service.games import GameService
from bot.service.outcome import Outcome
from bot.store import Store
from tests.cogs.test_plan import FakeChannel
from tests.fakes import FakeClock

GUILD, CHANNEL, ANA, BEN = 1, 2, 11, 22


@dataclass
class Letters:
    """Each member's direct messages as they read them: the publisher's
    :class:`~bot.channel.writer.DirectWriter`."""

    refused: set[int] = field(default_factory=set)
    """Members whose direct messages are closed."""
    read: dict[int, list[int]] = field(default_factory=dict)
    """Member -> their letters' ids, oldest first."""
    content: dict[int, str] = field(default_factory=dict)
    buttons: dict[int, bool] = field(default_factory=dict)
    waits: list[tuple[int, int, str]] = field(default_factory=list)
    """(member, turn, phase) of every letter sent."""
    edits: int = 0

    async def send(self, record: GameRecord, game: Game, letter: Letter) -> tuple[int, int]:
        if letter.person in self.refused:
            raise Unreachable("50007: Cannot send messages to this user")
        message_id = 7000 + len(self.content)
        self.read.setdefault(letter.person, []).append(message_id)
        self.content[message_id], self.buttons[message_id] = letter.content, True
        self.waits.append((letter.person, letter.turn, letter.phase))
        return 500 + letter.person, message_id

    async def close(self, record: GameRecord, closing: Closing) -> None:
        assert closing.sent.channel_id == 500 + closing.person
        self.edits += 1
        self.content[closing.sent.message_id] = closing.content
        self.buttons[closing.sent.message_id] = False

    def place(self, record: GameRecord) -> tuple[str, str]:
        return ("Friday Club", "qwixx")


@dataclass
class Pinging(FakeChannel):
    """A channel that remembers whom each post pinged."""

    pinged: list[tuple[int, ...]] = field(default_factory=list)

    async def post(self, record: GameRecord, game: Game | None, step: Post) -> int:
        self.pinged.append(step.pinged)
        return await super().post(record, game, step)


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(1_000_000.0)


@pytest.fixture
async def service(tmp_path: Path, clock: FakeClock) -> AsyncIterator[GameService]:
    async with Store(tmp_path / "letters.db", clock=clock) as store:
        yield GameService(store, seeds=lambda: 3, clock=clock)


async def started(service: GameService, **prefs: object) -> Outcome:
    if prefs:
        await service.members.change(ANA, **prefs)
    lobby = await service.lobby.open(GUILD, CHANNEL, ANA, "classic")
    await service.lobby.join(lobby.id, BEN)
    return await service.lobby.start(lobby.id, ANA)


async def play_on(
    service: GameService,
    publisher: Publisher,
    outcome: Outcome,
    moves: int = 10_000,
    until: Callable[[], bool] = lambda: False,
) -> Outcome:
    """Ana and Ben decide at random, each change shown, ``moves`` decisions, or until
    ``until`` says, or to the end (reviewed)."""
    rng = random.Random(3)
    with using("en-US"):
        await publisher.sync(outcome.record.id)
        for _ in range(moves):
            game = outcome.game
            assert game is not None
            if game.finished:
                await publisher.reviewed()
                break
            if until():
                break
            person = min(game.decision().waiting)
            outcome = await service.turns.move(
                outcome.record.id,
                person,
                game.turn,
                game.decision().phase,
                rng.choice(game.legal_moves(person)),
            )
            await publisher.sync(outcome.record.id)
    return outcome


async def test_a_whole_game_gives_one_letter_a_wait_all_closed_and_no_ping(
    service: GameService,
) -> None:
    channel, letters = Pinging(), Letters()
    publisher = Publisher(service.channel, channel, settle=0.0, direct=letters)
    end = await play_on(service, publisher, await started(service, dm=True))
    assert end.game is not None and end.game.finished
    moves = await service.keeper.moves(end.record.id)
    anas = [m for m in moves if m.player_id == ANA and m.source == "player"]
    assert len(letters.waits) == len(set(letters.waits)) == len(anas), "one a wait"
    assert {p for p, _, _ in letters.waits} == {ANA}, "Ben chose none"
    assert not any(letters.buttons.values()), "every wait is over"
    *turns, final = channel.pinged
    assert all(ANA not in pinged for pinged in turns), "a letter instead"
    assert any(BEN in pinged for pinged in turns)
    assert set(final) == {ANA, BEN}, "the final scores call everyone"
    assert len(anas) <= letters.edits <= 2 * len(anas), "closed once, or chosen then told"
    edits = letters.edits
    again = Publisher(service.channel, channel, settle=0.0, direct=letters)  # a restart
    await again.sync(end.record.id)
    assert (len(letters.waits), letters.edits) == (len(anas), edits), "nothing again"


async def test_a_restart_mid_game_neither_repeats_nor_forgets_a_letter(
    service: GameService,
) -> None:
    channel, letters = Pinging(), Letters()
    outcome = await started(service, dm=True)
    outcome = await play_on(
        service,
        Publisher(service.channel, channel, settle=0.0, direct=letters),
        outcome,
        until=lambda: len(letters.waits) > 2 and any(letters.buttons.values()),
    )
    sent = list(letters.waits)
    assert any(letters.buttons.values()), "Ana has a letter waiting"
    restarted = Publisher(service.channel, channel, settle=0.0, direct=letters)
    await restarted.sync(outcome.record.id)
    assert letters.waits == sent
    await play_on(service, restarted, outcome)
    assert not any(letters.buttons.values()), "the letter sent before the restart is closed"


async def test_refused_letters_fall_back_to_mentions_and_are_told_once(
    service: GameService,
) -> None:
    channel, letters = Pinging(), Letters(refused={ANA})
    publisher = Publisher(service.channel, channel, settle=0.0, direct=letters)
    outcome = await started(service, dm=True)
    with using("en-US"):
        await publisher.sync(outcome.record.id)
        assert channel.pinged == [(BEN,)]  # the turn, before Discord refused her letter
        await publisher.drain()  # the game, changed by the refusal, shown again
    record = (await service.keeper.read(outcome.record.id)).record
    assert Seats.of(record).prefs_of(ANA).dm_blocked
    assert channel.pinged[-1] == (ANA,), "called in the channel instead"
    assert publisher.courier is not None and publisher.courier.unreached == {ANA}
    assert await publisher.told_unreached(ANA)
    assert not await publisher.told_unreached(ANA), "once"
    assert not await Publisher(service.channel, channel, direct=letters).told_unreached(ANA)
    await play_on(service, publisher, outcome, moves=6)
    assert letters.waits == [], "no letter tried again"


async def test_an_untold_refusal_is_told_after_a_restart(service: GameService) -> None:
    outcome = await started(service, dm=True)
    await service.members.dms_closed(ANA)
    publisher = Publisher(service.channel, Pinging(), settle=0.0, direct=Letters())
    assert not await publisher.told_unreached(ANA), "not known before a sync"
    with using("en-US"):
        await publisher.sync(outcome.record.id)
    assert await publisher.told_unreached(ANA)


async def test_a_reminder_pings_whoever_it_reminds_a_letters_reader_too(
    service: GameService,
) -> None:
    """A reminder is a call of its own: it reaches Ana, whose direct message told her of
    the decision (the message is not written again), as it reaches Ben."""
    channel = Pinging()
    publisher = Publisher(service.channel, channel, settle=0.0, direct=Letters())
    outcome = await started(service, dm=True)
    with using("en-US"):
        await publisher.sync(outcome.record.id)
        for players, pinged in (([ANA, BEN], (ANA, BEN)), ([ANA], (ANA,)), ([], None)):
            before = len(channel.pinged)
            reminder = Event("reminder", None, {"players": players, "deadline": 1_086_400})
            await publisher.remind(replace(outcome, events=[reminder]))
            assert channel.pinged[before:] == ([pinged] if pinged else [])
    first, last = list(channel.messages.values())[-2:]
    assert f"<@{ANA}>" in first.content and f"<@{BEN}>" in first.content, "named, both"
    assert f"<@{ANA}>" in last.content and f"<@{BEN}>" not in last.content
