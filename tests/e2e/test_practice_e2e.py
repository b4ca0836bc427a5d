"""Through the stand-in: solo practice, a hard computer with hints, and an away seat a
computer plays until its player is back."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.i18n.words import signed
from bot.sandbox import GuildSpec, Sandbox, SimMember
from bot.sandbox.autoplay import (
    OPEN_SHEET,
    final_message,
    moves,
    next_turn,
    play_to_end,
    seeded_policy,
    turn_message,
    wait_for_turn,
)
from bot.sandbox.records import StoredMessage
from bot.store import Store
from bot.store.stats import PracticeBest
from tests.fakes import FakeClock

from .clocked import bot, clocked

HOUR = 3600.0
HINTED = re.compile(r"💡 \*\*(.+?)\*\*: about -?\d+ points (expected|ahead|behind)")


async def stats_of(member: SimMember) -> StoredMessage:
    return (await member.slash("qwixx", "stats")).message


async def test_solo_practice_is_played_to_the_end_and_gives_a_personal_best(
    sb: Sandbox, database: Path
) -> None:
    ana, ben = sb.member("Ana"), sb.member("Ben")
    lobby = (await ana.slash("qwixx", "start", variant="classic", solo=True)).message
    assert "Solo practice" in lobby.content and "(1/1)" in lobby.content
    assert lobby.find_component(label="Join").get("disabled")
    assert lobby.find_component(label="Add computer player").get("disabled")
    await ana.click(lobby, label="Start")
    await wait_for_turn(sb)
    final = await play_to_end(sb, [ana], seeded_policy(4))
    assert "final scores" in final.content
    reviewed = await sb.wait_for(
        lambda: re.search(  # the accuracy, once reviewed
            r"🎯 .*<@\d+> (\d+%)", sb.server.world.messages[final.id].content
        )
    )
    store = await Store.open(database)
    try:
        [played] = await store.stats.history(sb.guild.id)
        bests = await store.stats.practice_bests(sb.guild.id, ana.id)
    finally:
        await store.close()
    assert played.practice and not played.counted
    assert [(b.variant, b.games, b.best) for b in bests] == [("classic", 1, played.lines[0].score)]

    stats = await stats_of(ana)
    [embed] = stats.embeds
    fields = {f["name"]: f["value"] for f in embed["fields"]}
    score = signed(played.lines[0].score)
    assert fields == {
        "🧘 Solo practice": f"Qwixx: best **{score}** · games 1 · last {score} · "
        f"Accuracy **{reviewed[1]}** over 1 reviewed game"
    }
    assert "Accuracy: how close" in embed["footer"]["text"]
    board = (await ben.slash("qwixx", "leaderboard")).message
    assert "No counted games" in board.content or not board.attachments
    history = (await ana.slash("qwixx", "history")).message
    assert "(solo practice)" in history.embeds[0]["description"]
    again = (await ana.click(final, label="Rematch")).message  # practice again
    assert "Solo practice" in again.content and "(1/1)" in again.content


async def play_with_hints(sb: Sandbox, members: list[SimMember]) -> list[str]:
    """Every member asks for a hint at each decision and follows it; the hints."""
    hints: list[str] = []
    for _ in range(400):
        for member in members:
            turn = await next_turn(sb, None)
            if turn is None:
                return hints
            sheet = (await member.click(turn, label=OPEN_SHEET)).message
            offered = moves(sheet)  # Hint apart
            if not offered or "change your choice" in sheet.content:
                continue
            answer = (await member.click(sheet, label="Hint")).message
            assert answer.ephemeral and answer.id != sheet.id
            found = HINTED.match(answer.content)
            assert found is not None, answer.content
            assert len(answer.content.splitlines()) <= 2
            hints.append(answer.content)
            [choice] = [c for c in offered if c.text == found[1]]  # the hint is an option
            after = await choice.take(member, sheet)
            if "Yes" in after.labels:
                await member.click(after, label="Yes")
    raise AssertionError("the game did not end")


async def test_a_hard_computer_and_hints_play_to_the_end_and_do_not_count(
    sb: Sandbox, database: Path
) -> None:
    ana, ben = sb.member("Ana"), sb.member("Ben")
    lobby = (await ana.slash("qwixx", "start", variant="classic", hints=True)).message
    assert "Games with hints do not count for the leaderboard" in lobby.content
    await ben.click(lobby, label="Join")
    lobby = (await ana.click(lobby, label="Add computer player")).message
    assert "🤖 Computer 1 (Easy)" in lobby.content
    refused = await ben.select(lobby, ["-1.hard"], placeholder="Change a computer player's level")
    assert "Only the host" in refused.ephemeral[0].content
    lobby = (
        await ana.select(lobby, ["-1.hard"], placeholder="Change a computer player's level")
    ).message
    assert "🤖 Computer 1 (Hard)" in lobby.content
    await ana.click(lobby, label="Start")
    await wait_for_turn(sb)
    hints = await play_with_hints(sb, [ana, ben])
    assert hints and final_message(sb) is not None

    store = await Store.open(database)
    try:
        record = await store.games.get(1)
        [played] = await store.stats.history(sb.guild.id)
        totals = await store.stats.player_totals(sb.guild.id, ana.id)
    finally:
        await store.close()
    assert record is not None and record.options["levels"] == {"-1": "hard"}
    assert played.hints and not played.counted and totals == {}
    history = (await ana.slash("qwixx", "history")).message
    assert "(with hints)" in history.embeds[0]["description"]


# --- an away seat, with a clock the test moves -----------------------------------


@pytest.fixture
async def timed(database: Path, clock: FakeClock) -> AsyncIterator[Sandbox]:
    guild = GuildSpec(channels=("general",))
    async with clocked(database, clock, guild, ["Ana", "Ben"]) as sandbox:
        yield sandbox


async def decide(member: SimMember, turn: StoredMessage) -> bool:
    """``member`` makes the first offered move, if they have one; whether they did."""
    sheet = (await member.click(turn, label=OPEN_SHEET)).message
    offered = moves(sheet)
    if not offered or "change your choice" in sheet.content:
        return False
    after = await offered[0].take(member, sheet)
    if "Yes" in after.labels:
        await member.click(after, label="Yes")
    return True


async def test_an_away_seat_is_played_by_a_computer_and_handed_back(
    timed: Sandbox, clock: FakeClock, database: Path
) -> None:
    sb = timed
    ana, ben = sb.member("Ana"), sb.member("Ben")
    lobby = (
        await ana.slash("qwixx", "start", variant="classic", turn_time="1h", fill_away=True)
    ).message
    assert "replaced by a Normal computer" in lobby.content
    await ben.click(lobby, label="Join")
    await ana.click(lobby, label="Start")
    for _ in range(20):  # Ana plays, Ben lets his decisions run out
        if any("plays their seat" in m.content for m in sb.messages()):
            break
        await decide(ana, await wait_for_turn(sb))
        clock.now += HOUR
        await bot(sb).timers.tick()
    else:
        raise AssertionError("Ben's seat was never taken over")
    before = len(await moves_of(database, ben.id, "stand_in"))
    for _ in range(3):  # the game goes on: Ben's seat is played for him
        await decide(ana, await wait_for_turn(sb))
    assert len(await moves_of(database, ben.id, "stand_in")) > before

    await ben.click(await wait_for_turn(sb), label=OPEN_SHEET)  # Ben is back
    await sb.wait_for_message(lambda m: "is back and plays their own seat" in m.content)
    waited = False
    for _ in range(400):
        turn = await next_turn(sb, None)
        if turn is None:
            break
        waited = waited or f"<@{ben.id}>" in turn.content.split("\n", 1)[-1]
        for member in (ana, ben):
            if turn_message(sb) is not None:
                await decide(member, await wait_for_turn(sb))
    assert final_message(sb) is not None and waited
    assert len(await moves_of(database, ben.id, "player")) > 0

    history = (await ana.slash("qwixx", "history")).message
    line = history.embeds[0]["description"]
    assert f"<@{ben.id}>" in line and "🤖" in line and "(not counted)" not in line
    assert "the result counts for nobody" in history.embeds[0]["footer"]["text"]
    assert "has no finished games" in (await stats_of(ben)).content  # counted for nobody
    ana_stats = (await stats_of(ana)).embeds[0]["fields"][0]["value"]
    assert "Games **1**" in ana_stats


async def moves_of(database: Path, player: int, source: str) -> list[int]:
    store = await Store.open(database)
    try:
        return [
            m.seq
            for m in await store.games.moves(1)
            if m.player_id == player and m.source == source
        ]
    finally:
        await store.close()


async def test_games_against_computers_alone_show_in_stats_as_not_counted(
    sb: Sandbox, database: Path
) -> None:
    """A member who has only played against computers has finished games: /qwixx stats
    shows them (best, games, last, accuracy), apart from the counted ones."""
    ana = sb.member("Ana")
    lobby = (await ana.slash("qwixx", "start", variant="longo")).message
    lobby = (await ana.click(lobby, label="Add computer player")).message
    await ana.click(lobby, label="Start")
    await wait_for_turn(sb)
    final = await play_to_end(sb, [ana], seeded_policy(3))
    reviewed = await sb.wait_for(
        lambda: re.search(r"🎯 .*<@\d+> (\d+%)", sb.server.world.messages[final.id].content)
    )
    store = await Store.open(database)
    try:
        [played] = await store.stats.history(sb.guild.id)
        assert await store.stats.uncounted_bests(sb.guild.id, ana.id) == [
            PracticeBest("longo", 1, played.lines[0].score, played.lines[0].score)
        ]
        assert await store.stats.practice_bests(sb.guild.id, ana.id) == []
    finally:
        await store.close()
    [embed] = (await stats_of(ana)).embeds
    score = signed(played.lines[0].score)
    assert {f["name"]: f["value"] for f in embed["fields"]} == {
        "🤖 Not counted (against computers only, or with hints)": (
            f"Qwixx Longo: best **{score}** · games 1 · last {score} · "
            f"Accuracy **{reviewed[1]}** over 1 reviewed game"
        )
    }
    assert "against computers only or with hints do not count" in embed["footer"]["text"]
