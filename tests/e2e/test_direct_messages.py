"""Reaching people where they are, through the real bot and the local Discord stand-in:
a member who chose direct messages plays a whole game from them alone, one tap a
decision; a member whose direct messages are closed is told once and mentioned in the
channel instead; quiet hours hold mentions and letters back until their morning; a
restart repeats no letter. Every sentence of the letters is held to the game replayed
from the bot's database (:mod:`tests.truth.letters`)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.sandbox import GuildSpec, Sandbox, SimMember
from bot.sandbox.autoplay import CONFIRM, Choice, final_message, moves, wait_for_turn
from bot.sandbox.records import StoredMessage, said
from bot.store import Store
from tests.fakes import FakeClock, at
from tests.truth.facts import facts_of
from tests.truth.letters import check_letters, read_letters
from tests.truth.reading import shape

from .clocked import bot, clocked, timed_bot

NIGHT = (23 * 60, 7 * 60)
CHANNEL_POSTS = "/channels/{channel_id}/messages"
FOLLOW_UP = "/webhooks/{application_id}/{interaction_token}"


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(at(7, 12))


@pytest.fixture
async def sb(database: Path, clock: FakeClock) -> AsyncIterator[Sandbox]:
    guild = GuildSpec("Friday Club", channels=("qwixx",))
    async with clocked(database, clock, guild, ["Ana", "Ben", "Cem"]) as sandbox:
        yield sandbox


async def start(
    sb: Sandbox, members: list[SimMember], computers: int = 0, variant: str = "classic"
) -> StoredMessage:
    lobby = (await members[0].slash("qwixx", "start", variant=variant)).message
    for member in members[1:]:
        lobby = (await member.click(lobby, label="Join")).message
    for _ in range(computers):
        lobby = (await members[0].click(lobby, label="Add computer player")).message
    await members[0].click(lobby, label="Start")
    return await wait_for_turn(sb)


def channel_pings(sb: Sandbox) -> list[tuple[str, set[int]]]:
    """Every public post in the game's channel (a public follow-up too): its text and
    whom it let be pinged."""
    found = []
    for call in sb.server.calls:
        body = call.body if isinstance(call.body, dict) else {}
        public = call.route == FOLLOW_UP and not int(body.get("flags") or 0) & 64
        in_channel = call.route == CHANNEL_POSTS and call.path.split("/")[2] == str(sb.channel.id)
        if call.method == "POST" and (in_channel or public) and (call.status or 0) < 400:
            users = (body.get("allowed_mentions") or {}).get("users") or []
            found.append((said(body), {int(u) for u in users}))
    return found


def letters_sent(sb: Sandbox, member: SimMember) -> int:
    """How many letters the bot posted to ``member`` (a post repeated counts again, even
    one Discord answers with the message its nonce made before)."""
    dm = member.dm_channel
    return sum(
        1
        for call in sb.server.calls
        if call.method == "POST"
        and call.route == CHANNEL_POSTS
        and dm is not None
        and call.path.split("/")[2] == str(dm.id)
    )


def open_letters(member: SimMember) -> list[StoredMessage]:
    """The member's letters that still offer a move."""
    return [m for m in member.direct_messages() if not m.ephemeral and moves(m)]


def least_skipping(offered: list[Choice]) -> Choice:
    """What a person mostly taps: a cross that skips nothing, else the one skipping least,
    else passing (the labels say how many numbers a cross skips)."""

    def skips(choice: Choice) -> tuple[int, int]:
        text = choice.text
        if text == "Pass":
            return (1, 99)
        count = int(text.split("(skips ")[1].split(")")[0]) if "(skips " in text else 0
        return (0, count)

    return min(offered, key=skips)


async def closed(sb: Sandbox, member: SimMember, letter: StoredMessage) -> None:
    """Wait until ``letter`` offers nothing any more (its wait is over)."""
    await sb.wait_for(lambda: letter.id not in {m.id for m in open_letters(member)})


async def play_from_letters(sb: Sandbox, member: SimMember) -> tuple[int, int]:
    """``member`` plays the game to its end from their letters alone; (taps, decisions)."""
    taps = decisions = 0
    while final_message(sb) is None:
        await sb.wait_for(lambda: final_message(sb) is not None or bool(open_letters(member)))
        letters = open_letters(member)
        if not letters:
            continue
        assert len(letters) == 1, "one letter a wait, the others closed"
        letter = letters[0]
        after = await least_skipping(moves(letter)).take(member, letter)
        taps, decisions = taps + 1, decisions + 1
        if CONFIRM in after.labels:  # a cross skipping many numbers is asked about first
            await member.click(after, label=CONFIRM)
            taps += 1
        await closed(sb, member, letter)
    await sb.wait_for(lambda: tells_the_end(member))
    assert not open_letters(member)
    return taps, decisions


def tells_the_end(member: SimMember) -> bool:
    """Whether ``member``'s newest letter says how the game ended (its link to the end)."""
    letters = [m for m in member.direct_messages() if not m.ephemeral]
    last = letters[-1].content.splitlines()[-1:] if letters else []
    return any(shape("dm.end.link").match(line) for line in last)


async def replayed(database: Path) -> Any:
    store = await Store.open(database)
    try:
        record = await store.games.get(1)
        assert record is not None
        return facts_of(record, await store.games.moves(1))
    finally:
        await store.close()


@pytest.mark.parametrize("variant", ["classic", "longo", "onboard", "qwinto"])
async def test_a_member_plays_a_whole_game_from_direct_messages_alone(
    sb: Sandbox, database: Path, variant: str
) -> None:
    ana = sb.member("Ana")
    await bot(sb).service.members.change(ana.id, dm=True)
    await start(sb, [ana], computers=1, variant=variant)
    taps, decisions = await play_from_letters(sb, ana)
    assert final_message(sb) is not None
    facts = await replayed(database)
    own = [m for m in facts.moves if m.player_id == ana.id and m.source == "player"]
    assert decisions == len(own), "every decision of hers came from a letter"
    assert taps <= decisions + sum(1 for m in own if m.move.get("kind") == "cross"), (
        "a tap each, and one more only for a cross asked about"
    )
    letters = [m for m in ana.direct_messages() if not m.ephemeral]
    assert len(letters) == decisions, "a letter a wait, none repeated"
    emojis = {e.id: e.name for e in sb.server.world.emojis.values()}  # the dice's
    reading = read_letters([m.content for m in letters], ana.id, emojis)
    assert [v for v in check_letters(reading, facts) if not v.ok] == []
    told = {c.message for c in reading.claims if c.kind != "letter"}
    assert told == set(range(len(letters))), "each letter tells what happened"
    spoken = [c for c in reading.claims if c.values.get("player") == ana.id]
    assert spoken and all(f"<@{ana.id}>" not in c.line for c in spoken), "spoken to, not named"
    ends = {c.kind for c in reading.claims if c.message == len(letters) - 1}
    assert {"end_link", "final_title", "final_rank", "winner"} <= ends, "the last tells the end"
    assert not any(m.components for m in letters), "no buttons left"
    *turns, final = channel_pings(sb)
    assert all(ana.id not in users for _, users in turns), "never mentioned: a letter instead"
    assert ana.id in final[1], "the final scores call her"


async def test_closed_direct_messages_are_told_once_and_mentions_take_their_place(
    sb: Sandbox,
) -> None:
    ana, ben = sb.member("Ana"), sb.member("Ben", accepts_dms=False)
    await bot(sb).service.members.change(ben.id, dm=True)
    turn = await start(sb, [ana, ben])
    await sb.wait_for(
        lambda: any(f"<@{ben.id}>" in t and ben.id in u for t, u in channel_pings(sb))
    )
    assert [f.kind for f in sb.declined] == ["dm_closed"]
    assert ben.direct_messages() == []
    told = await ben.click(turn, label="Open my sheet")
    notices = [m for m in told.ephemeral if "could not send you a direct message" in m.content]
    assert len(notices) == 1
    again = await ben.click(turn, label="Open my sheet")
    assert not any("direct message" in m.content for m in again.ephemeral), "told once"
    await ben.click(turn, label="Pass")
    await ana.click(turn, label="Pass")
    await bot(sb).publisher.drain()
    assert [f.kind for f in sb.declined] == ["dm_closed"], "never tried again"


async def test_quiet_hours_hold_mentions_and_letters_until_morning(
    sb: Sandbox, clock: FakeClock
) -> None:
    ana, ben, cem = sb.member("Ana"), sb.member("Ben"), sb.member("Cem")
    service = bot(sb).service
    await service.members.change(ana.id, quiet=NIGHT)
    await service.members.change(ben.id, quiet=NIGHT, dm=True)
    clock.now = at(7, 23, 30)
    await start(sb, [ana, ben, cem])
    await bot(sb).publisher.drain()
    [(text, users)] = channel_pings(sb)[-1:]
    assert users == {cem.id}, "Ana and Ben sleep"
    assert f"<@{ana.id}>" in text and f"<@{ben.id}>" in text, "named all the same"
    assert ben.direct_messages() == []
    clock.now = at(8, 6, 59)
    await bot(sb).timers.tick()
    assert ben.direct_messages() == [] and channel_pings(sb)[-1][1] == {cem.id}
    clock.now = at(8, 7)
    await bot(sb).timers.tick()
    await sb.wait_for(lambda: len(ben.direct_messages()) == 1)
    assert channel_pings(sb)[-1][1] == {ana.id}, "Ana called in the channel at seven"
    [letter] = ben.direct_messages()
    assert moves(letter) and "turn 1" in letter.content
    assert all(ben.id not in users for _, users in channel_pings(sb))


async def test_a_restart_repeats_no_letter(sb: Sandbox, database: Path, clock: FakeClock) -> None:
    """Ana's letter is out; the bot restarts, and her game changes and is shown again,
    her wait still open: no second letter, not even one Discord would merge."""
    ana = sb.member("Ana")
    await bot(sb).service.members.change(ana.id, dm=True)
    await start(sb, [ana], computers=1)
    await sb.wait_for(lambda: len(open_letters(ana)) == 1)
    before, sent = [(m.id, m.content) for m in ana.direct_messages()], letters_sent(sb, ana)
    assert sent == 1
    await sb.stop_bot()
    await sb.run_bot(timed_bot(database, sb, clock))
    clock.now += 12 * 3600  # half time: the game changes (a reminder), and is shown again
    assert await bot(sb).timers.tick() == 1
    await bot(sb).publisher.drain()
    assert [(m.id, m.content) for m in ana.direct_messages()] == before
    assert letters_sent(sb, ana) == sent, "not even a post Discord would take for the same"
    [letter] = open_letters(ana)
    after = await least_skipping(moves(letter)).take(ana, letter)
    if CONFIRM in after.labels:
        await ana.click(after, label=CONFIRM)
    await closed(sb, ana, letter)
