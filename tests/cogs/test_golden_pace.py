"""A whole game in which people are asked less, against its golden transcript
(``tests/cogs/golden/classic_pace.txt``; ``QWIXX_GOLDEN=update`` rewrites it after a
deliberate change: read the diff first): Ben lets "only what skips nothing" answer on the
others' turns, Cem the Hard computer (and when his time runs out), Cem is away until a
day for a while, Dan decides by hand, and the host decides the coloured die ahead with
the white sum (while Dan still chooses his) and passes should it no longer be possible.
Shown from the game as read at each sync, and from each change as the service made it:
both read the same; and the claim checker finds every line true."""

from __future__ import annotations

import os
import random
from dataclasses import replace
from pathlib import Path

import pytest

from bot.i18n import using
from bot.players import is_computer
from bot.records.plans import Step
from bot.rules import PASS, Game
from bot.service.games import GameService
from bot.service.outcome import Outcome
from bot.store import Store
from tests.cogs.test_plan import GOLDEN, HOST, FakeChannel, Showing
from tests.fakes import FakeClock
from tests.truth.checking import check
from tests.truth.facts import Facts, Ledger, facts_of
from tests.truth.reading import read

BEN, CEM, DAN = 222, 333, 444
SEED = 11
DAY = 86400.0
AWAY_FROM, AWAY_TO = 8, 13
"""Cem is away until a day from the turn ``AWAY_FROM`` to ``AWAY_TO``."""
LATE = 7
"""Cem's turn in which the game waits for him until his time runs out."""


async def play(tmp_path: Path, changes: bool) -> tuple[FakeChannel, Facts]:
    """The game's channel, and its facts (the seed and the move log replayed)."""
    clock = FakeClock(1_000_000.0)
    store = await Store.open(tmp_path / "pace.db", clock=clock)
    service = GameService(store, seeds=lambda: SEED, clock=clock)
    channel, rng = FakeChannel(), random.Random(SEED)
    showing = Showing(service, channel, changes)
    try:
        record = await service.lobby.open(1, 2, HOST, "classic")
        for person in (BEN, CEM, DAN):
            record = await service.lobby.join(record.id, person)
        await service.lobby.start(record.id, HOST)
        await service.turns.choose_for_game(record.id, HOST, fallback="pass")
        await service.turns.choose_for_game(record.id, BEN, others="safe")
        outcome = await service.turns.choose_for_game(
            record.id, CEM, others="computer", timeout="computer"
        )
        with using("en-US"):
            while True:
                await showing.sync(outcome)
                game = outcome.game
                assert game is not None
                if game.finished:
                    await showing.publisher.reviewed()
                    break
                if game.turn in (AWAY_FROM, AWAY_TO):
                    until = clock.now + 3 * DAY if game.turn == AWAY_FROM else None
                    if (await service.members.prefs(CEM)).away_until != until:
                        await service.members.change(CEM, away_until=until)
                        await showing.publisher.sync(record.id)
                        outcome = await as_read(service, record.id)
                        continue
                outcome = await decide(service, clock, record.id, game, rng)
        moves = await store.games.moves(record.id)
        facts = facts_of(outcome.record, moves, started=1_000_000.0)
        ratings, wins = Ledger().add(outcome.record, facts.game, facts.covered)
        facts = replace(facts, ratings=ratings, wins=wins)
    finally:
        await store.close()
    return channel, facts


async def as_read(service: GameService, game_id: int) -> Outcome:
    current = await service.keeper.read(game_id)
    return Outcome(current.record, current.game)


async def decide(
    service: GameService, clock: FakeClock, game_id: int, game: Game, rng: random.Random
) -> Outcome:
    """The active person first, then the others, each a random legal move; the host,
    their white sum chosen, decides the coloured die ahead; in turn :data:`LATE` Cem
    lets his time run out."""
    decision = game.decision()
    people = [p for p in decision.waiting if not is_computer(p)]
    people.sort(key=lambda p: (p != game.active, p))
    if game.turn == LATE and people == [CEM]:
        record = (await service.keeper.read(game_id)).record
        assert record.deadline is not None
        clock.now = record.deadline + 1
        fired = await service.deadlines.fire(game_id)
        assert fired is not None
        return fired
    player = next(p for p in people if not (game.turn == LATE and p == CEM))
    move = rng.choice(game.legal_moves(player))
    outcome = await service.turns.move(game_id, player, game.turn, decision.phase, move)
    after = outcome.game
    if player == HOST == game.active and decision.phase == "action1" and after is not None:
        foreseen = after.foresee(HOST, [move])
        if (
            after.decision().phase == "action1"
            and foreseen is not None
            and foreseen.turn == game.turn
            and not foreseen.finished
        ):
            options = [m for m in foreseen.legal_moves(HOST) if m != PASS] or [PASS]
            steps = (Step(foreseen.decision().phase, options[0]),)
            return await service.turns.plan(game_id, HOST, game.turn, steps)
    return outcome


@pytest.mark.parametrize("changes", [False, True], ids=["as read", "from its changes"])
async def test_a_game_with_standing_choices_and_plans_ahead_reads_as_its_golden_transcript(
    tmp_path: Path, changes: bool
) -> None:
    channel, facts = await play(tmp_path, changes)
    golden = GOLDEN / "classic_pace.txt"
    if os.environ.get("QWIXX_GOLDEN") == "update" and not changes:
        golden.write_text(channel.transcript(), encoding="utf-8")
    assert channel.transcript() == golden.read_text(encoding="utf-8")
    texts = [message.content for message in channel.messages.values()]
    assert [v for v in check(read(texts), facts) if not v.ok] == [], "every line is true"
