"""The same check through the real bot and the local Discord stand-in: whole games
played by members clicking, the channel's messages read as Discord keeps them, held to
the game replayed from the bot's database."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.sandbox import Sandbox
from bot.sandbox.autoplay import final_message, play_to_end, seeded_policy, wait_for_turn
from bot.store import Store
from tests.e2e.conftest import UNLIMITED, make_bot
from tests.truth.checking import Verdict, check
from tests.truth.facts import Ledger, facts_of
from tests.truth.reading import Emojis, read

COUNTDOWN = re.compile(r"<t:\d+:R>")


async def play(sb: Sandbox, variant: str, people: list[str], computers: int, seed: int) -> None:
    host = sb.member(people[0])
    lobby = (await host.slash("qwixx", "start", variant=variant)).message
    for name in people[1:]:
        lobby = (await sb.member(name).click(lobby, label="Join")).message
    for _ in range(computers):
        lobby = (await host.click(lobby, label="Add computer player")).message
    await host.click(lobby, label="Start")
    await wait_for_turn(sb)
    await play_to_end(sb, [sb.member(name) for name in people], seeded_policy(seed))


async def held_to_the_game(database: Path, texts: list[str], emojis: Emojis) -> list[Verdict]:
    """The claims of the channel's ``texts`` (its dice's ``emojis`` as Discord lists
    them) held to the first game replayed from the bot's ``database``."""
    store = await Store.open(database)
    try:
        record = await store.games.get(1)
        assert record is not None
        facts = facts_of(record, await store.games.moves(1))
    finally:
        await store.close()
    facts.ratings, facts.wins = Ledger().add(record, facts.game, facts.covered)
    return check(read(texts, emojis), facts)


@pytest.mark.parametrize(
    ("variant", "people", "computers"),
    [
        ("classic", ["Ana", "Ben"], 1),
        ("longo", ["Ana"], 2),
        ("onboard", ["Ana", "Ben"], 1),
        ("qwinto", ["Ana"], 2),
    ],
)
async def test_the_channel_through_discord_is_true_of_the_game(
    tmp_path: Path, variant: str, people: list[str], computers: int
) -> None:
    database, seed = tmp_path / "qwixx.db", 7
    async with Sandbox(**UNLIMITED, members=people, settle=0.02) as sb:
        await sb.run_bot(make_bot(database, sb, seed))
        await play(sb, variant, people, computers, seed)
        # The final message is edited once more when the people's accuracies are in.
        await sb.wait_for(
            lambda: (
                (final := final_message(sb)) is not None
                and "🎯" in final.content
                and not any(COUNTDOWN.search(m.content) for m in sb.messages())
            )
        )
        texts = [m.content for m in sb.messages()]
        emojis = {e.id: e.name for e in sb.server.world.emojis.values()}
        assert sb.failures == [], sb.describe_failures()
    verdicts = await held_to_the_game(database, texts, emojis)
    false = [f"turn {v.turn}: [{v.kind}] {v.line}\n    {v.why}" for v in verdicts if not v.ok]
    assert len(verdicts) > 100
    assert not false, "\n".join(false)
