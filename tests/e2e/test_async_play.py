"""Games over hours and days: deadlines, reminders, expiry, restarts, threads, settings."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.sandbox import GuildSpec, Sandbox, SimMember
from bot.sandbox.autoplay import OPEN_SHEET, edits_of, turn_message, wait_for_turn
from bot.sandbox.permissions import Perm
from tests.fakes import FakeClock

from .clocked import bot, clocked, timed_bot
from .conftest import UNLIMITED

HOUR = 3600.0
MANAGE_GUILD = 1 << 5


@pytest.fixture
async def sb(database: Path, clock: FakeClock) -> AsyncIterator[Sandbox]:
    guild = GuildSpec(channels=("general", "games"))
    async with clocked(database, clock, guild, ["Ana", "Ben", "Cem", "Dan"]) as sandbox:
        yield sandbox


async def start(sb: Sandbox, members: list[SimMember], **options: object):
    lobby = (await members[0].slash("qwixx", "start", variant="classic", **options)).message
    for member in members[1:]:
        await member.click(lobby, label="Join")
    await members[0].click(lobby, label="Start")
    return await wait_for_turn(sb)


async def test_the_lobby_and_the_turn_message_show_the_time(sb: Sandbox, clock: FakeClock) -> None:
    ana, ben = sb.member("Ana"), sb.member("Ben")
    lobby = (await ana.slash("qwixx", "start", variant="classic", turn_time="2h")).message
    assert "Turn time: 2h" in lobby.content
    await ben.click(lobby, label="Join")
    await ana.click(lobby, label="Start")
    turn = await wait_for_turn(sb)
    assert f"<t:{int(clock.now + 2 * HOUR)}:R>" in turn.content
    bad = await ana.slash(
        "qwixx", "start", variant="classic", turn_time="1m", in_channel=sb.channel_named("games")
    )
    assert bad.message.ephemeral and "outside the allowed 5m to 7d" in bad.message.content


async def test_reminders_mention_only_who_still_decides_and_never_twice(
    sb: Sandbox, clock: FakeClock
) -> None:
    ana, ben, cem = sb.member("Ana"), sb.member("Ben"), sb.member("Cem")
    turn = await start(sb, [ana, ben, cem], turn_time="24h")
    await ben.click(turn, label="Pass")
    clock.now += 12 * HOUR
    assert await bot(sb).timers.tick() == 1
    reminder = await sb.wait_for_message(lambda m: "still open" in m.content)
    assert f"<@{ana.id}>" in reminder.content and f"<@{cem.id}>" in reminder.content
    assert f"<@{ben.id}>" not in reminder.content
    assert turn.id and str(turn.id) in reminder.content  # a link to the turn message
    assert await bot(sb).timers.tick() == 0
    clock.now += 11 * HOUR
    assert await bot(sb).timers.tick() == 1
    assert await bot(sb).timers.tick() == 0
    assert len([m for m in sb.messages() if "still open" in m.content]) == 2
    await ana.click(turn, label="Pass")  # Cem is still named by both reminders
    await bot(sb).publisher.drain()
    assert len([m for m in sb.messages() if "still open" in m.content]) == 2
    await cem.click(turn, label="Pass")  # now nobody they name still has to decide
    await sb.wait_for(lambda: not any("still open" in m.content for m in sb.messages()))
    assert not any(
        re.search(r"<t:\d+:R>", m.content) for m in sb.messages() if m.id != turn_message(sb).id
    )  # the live turn alone counts down


async def test_expiry_resolves_missing_decisions_and_says_so(sb: Sandbox, clock: FakeClock) -> None:
    ana, ben = sb.member("Ana"), sb.member("Ben")
    turn = await start(sb, [ana, ben], turn_time="1h")
    await ana.click(turn, label="Pass")
    clock.now += HOUR
    assert await bot(sb).timers.tick() == 1
    told = await sb.wait_for_message(lambda m: "Time ran out" in m.content)
    assert f"<@{ben.id}>" in told.content.split("Time ran out")[1].splitlines()[0]
    assert await bot(sb).timers.tick() == 0


async def test_a_pending_deadline_survives_a_restart_and_fires_once(
    sb: Sandbox, clock: FakeClock, database: Path
) -> None:
    ana, ben = sb.member("Ana"), sb.member("Ben")
    await start(sb, [ana, ben], turn_time="30m")
    await sb.stop_bot()
    clock.now += 10 * HOUR  # down for ten hours
    await sb.run_bot(timed_bot(database, sb, clock))  # its first tick comes at once
    await sb.wait_for_message(lambda m: "Time ran out" in m.content)
    assert await bot(sb).timers.tick() == 0
    turn = await sb.wait_for(lambda: (m := turn_message(sb)) and "**Turn" in m.content and m)
    assert f"<t:{int(clock.now + 1800)}:R>" in turn.content  # a fresh turn time from now


async def test_a_game_in_its_own_thread(sb: Sandbox) -> None:
    ana, ben = sb.member("Ana"), sb.member("Ben")
    opened = await ana.slash("qwixx", "start", variant="classic", thread=True)
    assert opened.message.ephemeral and "waiting in <#" in opened.message.content
    thread_id = int(re.search(r"<#(\d+)>", opened.message.content)[1])
    thread = sb.server.world.channels[thread_id]
    lobby = await sb.wait_for_message(lambda m: "lobby" in m.content, channel=thread)
    await ben.click(lobby, label="Join")
    await ana.click(lobby, label="Start")
    turn = await wait_for_turn(sb, thread)
    sheet = await ben.click(turn, label=OPEN_SHEET)
    assert sheet.message.ephemeral and sheet.message.attachments
    assert turn_message(sb, sb.channel) is None  # the channel itself stays quiet


async def test_no_thread_without_the_permission(sb: Sandbox) -> None:
    member = sb.server.world.members[(sb.guild.id, sb.server.world.bot.id)]
    member.permissions &= ~int(Perm.CREATE_PUBLIC_THREADS)
    refused = await sb.member("Ana").slash("qwixx", "start", variant="classic", thread=True)
    assert refused.message.ephemeral and "Create Public Threads" in refused.message.content
    assert all(not c.is_thread for c in sb.server.world.channels.values())


async def test_settings_need_manage_server(sb: Sandbox, clock: FakeClock) -> None:
    ana = sb.member("Ana")
    admin = sb.member("Admin", permissions=MANAGE_GUILD)
    shown = await ana.slash("qwixx", "settings")
    assert "**24h**" in shown.message.content
    denied = await ana.slash("qwixx", "settings", turn_time="2h")
    assert "Manage Server" in denied.message.content
    bad = await admin.slash("qwixx", "settings", turn_time="forever")
    assert "does not work" in bad.message.content
    saved = await admin.slash("qwixx", "settings", turn_time="3h")
    assert saved.message.ephemeral and "**3h**" in saved.message.content
    live = await admin.slash("qwixx", "settings", live_time="15m")
    assert live.message.content == "A game played live now gives each decision **15m**."
    assert "**15m**" in (await ana.slash("qwixx", "settings")).message.content
    turn = await start(sb, [ana, sb.member("Ben")])
    assert f"<t:{int(clock.now + 3 * HOUR)}:R>" in turn.content


async def test_my_games_and_leaving(sb: Sandbox) -> None:
    ana, ben, cem = sb.member("Ana"), sb.member("Ben"), sb.member("Cem")
    await start(sb, [ana, ben, cem])
    mine = await ben.slash("qwixx", "mygames")
    assert mine.message.ephemeral and "turn 1" in mine.message.content
    assert "https://discord.com/channels/" in mine.message.content
    asked = await cem.slash("qwixx", "leave")
    assert asked.message.ephemeral and "Leave this game?" in asked.message.content
    left = await cem.click(asked.message, label="Yes")
    assert left.message.content == "You gave up your seat; the game goes on without you."
    assert not left.message.labels  # the question is answered, not asked again
    turn = await sb.wait_for_message(lambda m: "left the game" in m.content)
    assert f"✅ Decided: <@{cem.id}>" not in turn.content  # who left decides nothing
    await ben.click(await wait_for_turn(sb), label="Pass")
    none = await cem.slash("qwixx", "mygames")
    assert "No game" in none.message.content
    await ben.click((await ben.slash("qwixx", "leave")).message, label="Yes")
    await sb.wait_for_message(lambda m: "without ranking" in m.content)
    assert turn_message(sb) is None
    told = [
        line for m in sb.messages() for line in m.content.splitlines() if "left the game" in line
    ]
    assert sorted(told) == sorted(
        f"🚪 <@{p.id}> left the game; it no longer waits for them." for p in (ben, cem)
    )  # each leave told once


async def test_decisions_within_the_window_become_one_edit(
    database: Path, clock: FakeClock, tmp_path: Path
) -> None:
    async with Sandbox(**UNLIMITED, members=["Ana", "Ben", "Cem", "Dan"], settle=0.02) as sb:
        await sb.run_bot(timed_bot(tmp_path / "slow.db", sb, clock, coalesce=0.6))
        members = [sb.member(n) for n in ("Ana", "Ben", "Cem", "Dan")]
        turn = await start(sb, members)
        before = len(edits_of(sb, turn))
        for member in members[1:]:
            await member.click(turn, label="Pass")
        await sb.wait_for(lambda: "✅" in (turn_message(sb) or turn).content, timeout=3)
        await bot(sb).publisher.drain()
        assert len(edits_of(sb, turn)) - before == 1
        decided = next(
            line for line in turn_message(sb).content.splitlines() if "✅ Decided:" in line
        )
        assert all(f"<@{m.id}>" in decided for m in members[1:])
