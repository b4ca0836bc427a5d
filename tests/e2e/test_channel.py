"""The channel tells the game: turn messages in order, mentions, the write budget,
catching up after a crash, lobbies that expire."""

from __future__ import annotations

import asyncio
import re
import sys
from collections import Counter
from pathlib import Path

import pytest

from bot.app import QwixxBot
from bot.channel.budget import WriteBudget
from bot.sandbox import Sandbox, SimMember
from bot.sandbox.autoplay import play_to_end, seeded_policy, turn_message, wait_for_turn
from bot.sandbox.faults import CHANNEL_WRITES, ChannelWriteLimit
from bot.sandbox.records import Call, StoredMessage, said
from bot.store import Store
from tests.fakes import FakeClock

from .clocked import timed_bot
from .conftest import UNLIMITED, make_bot

ROOT = Path(__file__).resolve().parents[2]
WEBHOOK = "/webhooks/{webhook_id}/{webhook_token}"
TURN = re.compile(r"\*\*Turn (\d+)\*\*|turn (\d+)\*\*")
TURN_DONE = re.compile(r"^\*\*Turn \d+\*\* · .* was active$")


async def open_game(
    sb: Sandbox, members: list[SimMember], variant: str = "classic", computers: int = 0
) -> None:
    host = members[0]
    lobby = (await host.slash("qwixx", "start", variant=variant)).message
    for member in members[1:]:
        await member.click(lobby, label="Join")
    for _ in range(computers):
        lobby = (await host.click(lobby, label="Add computer player")).message
    await host.click(lobby, label="Start")
    await wait_for_turn(sb)


def writes(sb: Sandbox) -> list[Call]:
    return [
        c
        for c in sb.server.calls
        if c.method in ("POST", "PATCH", "DELETE") and c.route in CHANNEL_WRITES
    ]


def busiest(calls: list[Call], window: float) -> int:
    """The most writes to one channel within any ``window`` seconds."""
    most = 0
    for i, call in enumerate(calls):
        channel = call.path.split("/")[2]
        most = max(
            most,
            sum(
                1 for c in calls[i:] if c.path.split("/")[2] == channel and c.at - call.at < window
            ),
        )
    return most


def pings_per_turn(sb: Sandbox) -> Counter[tuple[int, int]]:
    """(user, turn) → how often a post let that user be pinged (reminders aside), in the
    channel or as a public follow-up of a click."""
    pings: Counter[tuple[int, int]] = Counter()
    for call in sb.server.calls:
        body = call.body if isinstance(call.body, dict) else {}
        text = said(body)
        public_follow_up = call.route == WEBHOOK and not int(body.get("flags") or 0) & 64
        if (
            call.method != "POST"
            or text.startswith("⏰")
            or not (call.route == CHANNEL_WRITES[0] or public_follow_up)
        ):
            continue
        found = TURN.search(text)
        turn = int(found[1] or found[2]) if found else 0
        for user in (body.get("allowed_mentions") or {}).get("users") or []:
            pings[(int(user), turn)] += 1
    return pings


def own_lines(content: str) -> list[str]:
    """A finished turn message's own lines: from its header on, after the lines of the
    turns it opens with (each one line that says why nobody was asked)."""
    lines = content.splitlines()
    headers = [i for i, line in enumerate(lines) if TURN_DONE.match(line)]
    return lines[headers[-1] :] if headers else []


@pytest.mark.parametrize("variant", ["classic", "longo", "onboard", "qwinto"])
async def test_each_finished_turn_message_tells_its_whole_turn(
    database: Path, variant: str
) -> None:
    async with Sandbox(**UNLIMITED, members=["Ana", "Ben"], settle=0.02) as sb:
        await sb.run_bot(make_bot(database, sb))
        members = [sb.member("Ana"), sb.member("Ben")]
        await open_game(sb, members, variant)
        final = await play_to_end(sb, members, seeded_policy(11))
        assert sb.failures == [], sb.describe_failures()
        numbers = [
            int(n) for m in sb.messages() for n in re.findall(r"\*\*Turn (\d+)\*\*", m.content)
        ]
        assert numbers == sorted(numbers) and len(numbers) > 3  # in order, one per turn
        told = [m for m in sb.messages() if own_lines(m.content)]
        for message in told:
            assert not message.labels and "Decide <t:" not in message.content
            lines = own_lines(message.content)
            assert lines[1].startswith("🎲")  # the roll (Qwinto: the throw)
            if variant == "qwinto":  # what was written, or that nobody could write it
                assert "Written:" in message.content or "Nobody could write" in message.content
            else:
                assert lines[2].startswith("Action 1:")
        assert all(m.content.splitlines()[-1].startswith("Scores:") for m in told[:-1])
        assert not any("Action 1 is done" in m.content for m in sb.messages())
        humans = {f"<@{m.id}>" for m in members}
        assert all(name in final.content for name in humans)
        async with Store(database) as store:
            record = await store.games.get(1)
        turns = record.state["turn"]  # type: ignore[union-attr,index]
        assert len(writes(sb)) <= 1.5 * turns  # edits ride on the players' clicks
        pings = pings_per_turn(sb)
        assert max(pings.values()) == 1  # at most once a turn, for each player
        final_post = next(
            c
            for c in sb.server.calls
            if isinstance(c.body, dict) and "final scores" in said(c.body)
        )
        assert {int(u) for u in final_post.body["allowed_mentions"]["users"]} == {
            m.id for m in members
        }
        for call in sb.server.calls:  # nobody can make the bot ping everyone or a role
            mentions = call.body.get("allowed_mentions") if isinstance(call.body, dict) else None
            if mentions is not None:
                assert not {"everyone", "roles"} & set(mentions.get("parse") or [])
                assert not mentions.get("roles")


async def test_a_fast_computer_table_keeps_the_write_budget(database: Path) -> None:
    """One person and four computers as fast as clicks go: the budget holds, no 429.

    Both sides run ten times faster than Discord's 5 writes per 5 s, with the bot's
    window twice the stand-in's, so that a slow request cannot fake a burst.
    """
    async with Sandbox(members=["Ana"], settle=0.02) as sb:
        sb.server.rest.write_limit = ChannelWriteLimit(writes=5, window=0.5)
        bot = QwixxBot(
            database,
            dev_guild=sb.guild.id,
            seeds=lambda: 3,
            coalesce=0.05,
            budget=WriteBudget(writes=5, window=1.0),
        )
        await sb.run_bot(bot)
        ana = sb.member("Ana")
        await open_game(sb, [ana], computers=4)
        await play_to_end(sb, [ana], seeded_policy(2))
        await bot.publisher.drain()
        assert sb.failures == [], sb.describe_failures()  # no "rate_limited" among them
        assert busiest(writes(sb), 0.5) <= 5


async def test_a_bot_killed_between_commit_and_post_catches_up_once(
    database: Path, tmp_path: Path
) -> None:
    async with Sandbox(**UNLIMITED, members=["Ana", "Ben"], settle=0.02) as sb:
        log = (tmp_path / "bot.log").open("w")

        async def spawn(*extra: str) -> asyncio.subprocess.Process:
            synced = len([c for c in sb.server.calls if "commands" in c.route])
            process = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "tests.e2e.bot_process",
                sb.server.base_url,
                sb.server.gateway_url,
                str(database),
                str(sb.guild.id),
                *extra,
                cwd=ROOT,
                stdout=log,
                stderr=log,
            )
            await sb.wait_for(
                lambda: (
                    sb.server.gateway.connected
                    and synced < len([c for c in sb.server.calls if "commands" in c.route])
                ),
                timeout=60,
            )
            return process

        first = await spawn("--die-at-turn", "2")
        ana, ben = sb.member("Ana"), sb.member("Ben")
        await open_game(sb, [ana, ben])

        async def pass_until_killed() -> None:
            while first.returncode is None:
                turn = turn_message(sb)
                for member in (ben, ana):
                    if turn is not None and "Pass" in turn.labels and first.returncode is None:
                        await member.click(turn, label="Pass")
                await asyncio.sleep(0.05)  # the bot answers first, then edits the message

        await asyncio.wait_for(pass_until_killed(), timeout=120)
        assert await first.wait() == -9  # SIGKILL, right after the commit
        assert not any("**Turn 2**" in m.content for m in sb.messages())
        async with Store(database) as store:
            record = await store.games.get(1)
        assert record is not None and record.state is not None and record.state["turn"] == 2
        assert record.shown_version < record.version  # the channel lags the store

        second = await spawn()
        try:
            turn2 = await sb.wait_for(
                lambda: next((m for m in sb.messages() if "**Turn 2**" in m.content), None),
                timeout=30,
            )
            assert "Open my sheet" in turn2.labels

            async def caught_up() -> bool:
                async with Store(database) as store:
                    game = await store.games.get(1)
                return game is not None and game.shown_version >= game.version

            for _ in range(300):
                if await caught_up():
                    break
                await asyncio.sleep(0.1)
            assert len([m for m in sb.messages() if "**Turn 2**" in m.content]) == 1
            turn1 = next(m for m in sb.messages() if "**Turn 1**" in m.content)
            assert "was active" in turn1.content and not turn1.labels
            final = await play_to_end(sb, [ana, ben], seeded_policy(4))
            assert "final scores" in final.content
        finally:
            second.terminate()
            await second.wait()
            log.close()


async def test_a_lobby_nobody_starts_closes_after_the_turn_time(database: Path) -> None:
    clock = FakeClock()
    async with Sandbox(**UNLIMITED, members=["Ana", "Ben"], settle=0.02) as sb:
        bot = timed_bot(database, sb, clock)
        await sb.run_bot(bot)
        lobby = (await sb.member("Ana").slash("qwixx", "start", turn_time="1h")).message
        clock.now += 3599
        await bot.timers.tick()
        assert "Join" in sb.messages()[-1].labels
        clock.now += 2
        await bot.timers.tick()
        closed = await sb.wait_for(
            lambda: (m := sb.server.world.messages[lobby.id]) and "closed" in m.content and m
        )
        assert not list(closed.interactive()), "its buttons are gone"
        again = await sb.member("Ben").slash("qwixx", "start")  # the channel is free
        assert "lobby" in again.message.content and not again.message.ephemeral
        assert sb.failures == [], sb.describe_failures()


async def to_action_2(
    sb: Sandbox, ana: SimMember, ben: SimMember
) -> tuple[StoredMessage, StoredMessage]:
    """A classic duel to Ana's action 2: she opens her sheet and passes action 1, Ben
    passes on the turn message; the turn message, and her sheet once it moved on."""
    await open_game(sb, [ana, ben])
    turn = turn_message(sb)
    assert turn is not None
    opened = (await ana.click(turn, label="Open my sheet")).message  # tap 1
    assert opened.ephemeral and "action 1" in opened.content
    sheet = (await ana.click(opened, label="Pass")).message  # tap 2: action 1
    await ben.click(turn, label="Pass")  # action 1 resolves on Ben's click
    moved = await sb.wait_for(  # past the page of her coloured die ahead, to action 2 itself
        lambda: (
            (m := sb.server.world.messages[sheet.id])
            and "action 2" in m.content
            and "action 2 ahead" not in m.content
            and m
        )
    )
    return turn, moved


async def test_the_active_players_open_sheet_moves_on_to_action_2(database: Path) -> None:
    """Three taps for the active player: open the sheet, action 1, action 2."""
    async with Sandbox(**UNLIMITED, members=["Ana", "Ben"], settle=0.02) as sb:
        await sb.run_bot(make_bot(database, sb))
        ana = sb.member("Ana")
        _, moved = await to_action_2(sb, ana, sb.member("Ben"))
        assert any("⚪" in label for label in moved.labels)  # white + colour options
        await ana.click(moved, label="Pass")  # tap 3: action 2, the turn is over
        await sb.wait_for(lambda: any("**Turn 2**" in m.content for m in sb.messages()))
        assert sb.failures == [], sb.describe_failures()


async def test_turn_edits_ride_on_clicks_and_fall_back_to_the_channel(database: Path) -> None:
    """A click on the turn message lends its token: the turn's edits go through it (no
    channel write) until it expires, then through the channel; the story stays whole."""
    async with Sandbox(**UNLIMITED, members=["Ana", "Ben"], settle=0.02) as sb:
        await sb.run_bot(make_bot(database, sb))
        ana = sb.member("Ana")
        turn, moved = await to_action_2(sb, ana, sb.member("Ben"))
        # action 1 resolved: the turn message is edited
        await sb.wait_for(lambda: "Action 1:" in sb.server.world.messages[turn.id].content)

        def channel_edits() -> list[Call]:
            return [c for c in writes(sb) if c.method == "PATCH" and str(turn.id) in c.path]

        assert channel_edits() == []  # edited through a token, not the channel
        sb.server.world.clock.advance(16 * 60)  # every token lent so far has expired
        await ana.click(moved, label="Pass")  # action 2 ends the turn
        await sb.wait_for(lambda: any("**Turn 2**" in m.content for m in sb.messages()))
        finished = sb.server.world.messages[turn.id]
        await sb.wait_for(lambda: not finished.labels)
        assert "was active" in finished.content and "Action 2:" in finished.content
        assert channel_edits()  # the expired tokens gave way to the channel
        assert {f.kind for f in sb.failures} <= {"token_expired"}, sb.describe_failures()
