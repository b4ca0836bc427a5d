"""Discord away for an hour, then back: how the channels are caught up.

    python -m benchmarks.outage [--channels 100] [--resume] [--restart]

The real bot runs against the local Discord stand-in with its own clock injected. In
each of ``--channels`` channels a member plays a classic game with four computer
players; then Discord goes away (every REST request answers 503, the gateway closes
and refuses connections) and the bot's clock moves on an hour and more, a minute at a
time, while the timer loop fires the member's deadlines: after three the member is
away and the computers play the game to its end, so each channel misses a dozen turns
or more. Games fall behind at different times (the later a game was opened, the
shorter its turn time), so "oldest first" is not the order of the games' ids.

Then Discord comes back and the script prints how the gateway came back (resumed, or
identified anew: ``--resume`` keeps the sessions alive through the outage, as after a
short one; by default they end, as after an hour), how long the catch-up of every
channel took (wall time, from Discord's return until every channel shows its game's
stored version), the writes it took in all and per channel, whether any write was
answered 429, and the order in which the channels were caught up. With ``--restart``
the bot stops while Discord is away and a new one starts once it is back: the order
comes from the store.

discord.py waits up to 2^n seconds between reconnection attempts; the script makes it
try every 0.1 s, so the figures measure the bot, not that wait.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import discord.client

from bot.app import QwixxBot
from bot.channel import story
from bot.channel.budget import WriteBudget
from bot.i18n import using
from bot.sandbox import GuildSpec, Sandbox
from bot.sandbox.faults import CHANNEL_WRITES
from bot.sandbox.records import Call, said
from bot.service.limits import Limits
from bot.service.outcome import Snapshot

START = 1_800_000_000.0
STEP = 60.0
"""How far the bot's clock moves at a time while Discord is away."""
TURN_TIME = 300
"""The shortest turn time (five minutes, the least the bot allows)."""
COMPUTERS = 4
TICK = 0.05
"""The timer loop's interval (15 s in the bot; shorter here, as the clock is ours)."""
SUMMARY = "were played while the channel could not be updated"


class QuickBackoff:
    """discord.py's reconnection backoff, without the wait."""

    def __init__(self, *_: object, **__: object) -> None:
        pass

    def delay(self) -> float:
        return 0.1


@contextlib.contextmanager
def quick_reconnects() -> Iterator[None]:
    old = vars(discord.client)["ExponentialBackoff"]  # the name the client's reconnects use
    setattr(discord.client, "ExponentialBackoff", QuickBackoff)  # noqa: B010
    try:
        yield
    finally:
        setattr(discord.client, "ExponentialBackoff", old)  # noqa: B010


@dataclass
class Outage:
    """What the outage and the catch-up after it did."""

    channels: int
    reconnect: str = ""
    """``resumed`` or ``identified``."""
    minutes_away: float = 0.0
    """How long Discord was away by the bot's clock."""
    failed_requests: int = 0
    """REST requests answered 503 while Discord was away (the bot's, gateway aside)."""
    ticks_away: int = 0
    seconds_away: float = 0.0
    """How long Discord was away in real time."""
    reconnect_seconds: float = 0.0
    catch_up_seconds: float = 0.0
    writes: Counter[int] = field(default_factory=Counter)
    """Message writes per channel after Discord came back."""
    posts: Counter[int] = field(default_factory=Counter)
    summaries: Counter[int] = field(default_factory=Counter)
    """Posts per channel that sum up the turns it missed."""
    turn_lines: int = 0
    """Posted lines that tell one missed turn each (none when they are summed up)."""
    rate_limited: int = 0
    order: list[int] = field(default_factory=list)
    """Channels in the order their catch-up began."""
    oldest_first: list[int] = field(default_factory=list)
    """Channels in the order their games moved on from what the channel showed, or a
    write to them failed, as a reminder's post may (ties by the game's id)."""
    missed_turns: dict[int, int] = field(default_factory=dict)
    """Per channel, the turns played while Discord was away."""
    lagging_after: int = 0
    ended: int = 0
    untold: list[str] = field(default_factory=list)
    """Stored penalties, locks and failed throws no message of their channel tells."""
    """Channels whose last message is their game's final scoreboard."""
    channel_numbers: dict[int, int] = field(default_factory=dict)
    failures: list[str] = field(default_factory=list)


def turn_of(outcome: Snapshot) -> int:
    assert outcome.game is not None
    return outcome.game.turn


def channel_of(call: Call) -> int | None:
    """The channel a message write went to; None for anything else."""
    if call.method in ("POST", "PATCH", "DELETE") and call.route in CHANNEL_WRITES:
        return int(call.path.split("/")[2])
    return None


async def outage(
    channels: int,
    database: Path,
    *,
    end_sessions: bool = True,
    restart: bool = False,
    timeout: float = 60.0,
) -> Outage:
    """Play the outage through the stand-in and measure it (``restart``: the bot stops
    while Discord is away, and a new one starts once it is back)."""
    result = Outage(channels)
    now = [START]
    seeds = iter(range(1, 1_000_000))
    names = tuple(f"table-{i}" for i in range(channels))
    with quick_reconnects():
        async with Sandbox(
            guilds=[GuildSpec(channels=names)], members=["Ana"], settle=0.02, timeout=timeout
        ) as sb:

            def new_bot() -> QwixxBot:
                return QwixxBot(
                    database,
                    dev_guild=sb.guild.id,
                    seeds=lambda: next(seeds),
                    clock=lambda: now[0],
                    coalesce=0.05,
                    tick=TICK,
                    budget=WriteBudget(),
                    limits=Limits(),
                )  # one member, many games

            bot = new_bot()
            await sb.run_bot(bot)
            service = bot.service
            ana = sb.member("Ana")
            games: dict[int, int] = {}  # game id -> channel id
            turn_times: dict[int, int] = {}
            for index, channel_id in enumerate(sb.guild.channel_ids):
                result.channel_numbers[channel_id] = index
                group = (channels - 1 - index) * 20 // channels  # 20 moments to fall behind
                turn_time = TURN_TIME + group * int(STEP)
                lobby = await service.lobby.open(
                    sb.guild.id, channel_id, ana.id, "classic", turn_time=turn_time
                )
                for _ in range(COMPUTERS):
                    await service.lobby.add_computer(lobby.id, ana.id)
                await service.lobby.start(lobby.id, ana.id)
                games[lobby.id], turn_times[lobby.id] = channel_id, turn_time

            async def lagging() -> list[int]:
                return await service.keeper.lagging(limit=10_000)

            async def until(check: Callable[[], Awaitable[bool]]) -> None:
                async with asyncio.timeout(timeout):
                    while not await check():
                        await asyncio.sleep(0.01)

            async def all_shown() -> bool:
                return not await lagging()

            await until(all_shown)

            async def position(gid: int) -> tuple[str, int, str]:
                outcome = await service.keeper.read(gid)
                assert outcome.game is not None
                return outcome.record.status, outcome.game.turn, outcome.game.decision().phase

            async def marked_behind(gid: int) -> bool:
                return (await service.keeper.read(gid)).record.behind_since is not None

            before = {gid: await position(gid) for gid in games}
            first_turn = {gid: before[gid][1] for gid in games}

            gateway = sb.server.gateway
            identifies, resumes = gateway.identifies, gateway.resumes
            away_from = len(sb.server.calls)
            await sb.server.outage(end_sessions=end_sessions)

            async def fired_and_noted() -> bool:
                if await service.deadlines.due():
                    return False
                moved = [gid for gid in games if await position(gid) != before[gid]]
                return all(
                    [
                        (await service.keeper.read(gid)).record.behind_since is not None
                        for gid in moved
                    ]
                )

            async def running() -> bool:
                for gid in games:
                    if (await service.keeper.read(gid)).record.status == "running":
                        return True
                return False

            went = time.perf_counter()
            seen: dict[int, int] = {}  # game id -> the step it was first found lagging
            while await running():
                now[0] += STEP
                result.ticks_away += 1
                await until(fired_and_noted)
                for gid in games:  # behind once the game moved on from what was shown, or
                    # a write to its channel failed (a reminder that could not be posted)
                    if gid not in seen and (
                        await position(gid) != before[gid] or await marked_behind(gid)
                    ):
                        seen[gid] = result.ticks_away
            result.seconds_away = time.perf_counter() - went
            result.minutes_away = (now[0] - START) / 60
            result.failed_requests = sum(
                1 for call in sb.server.calls[away_from:] if call.status == 503
            )
            result.oldest_first = [games[gid] for gid in sorted(games, key=lambda g: (seen[g], g))]
            for gid, channel_id in games.items():
                result.missed_turns[channel_id] = (
                    turn_of(await service.keeper.read(gid)) - first_turn[gid]
                )

            if restart:
                await sb.stop_bot()
            back_from = len(sb.server.calls)
            started = time.perf_counter()
            await sb.server.outage(False)
            if restart:
                bot = new_bot()
                await sb.run_bot(bot)
                service = bot.service

            async def reconnected() -> bool:
                return gateway.connected and (
                    gateway.identifies > identifies or gateway.resumes > resumes
                )

            async def timed(check: Callable[[], Awaitable[bool]]) -> float:
                await until(check)
                return time.perf_counter() - started

            result.catch_up_seconds, result.reconnect_seconds = await asyncio.gather(
                timed(all_shown), timed(reconnected)
            )
            result.reconnect = "identified" if gateway.identifies > identifies else "resumed"
            result.lagging_after = len(await lagging())

            for call in sb.server.calls[back_from:]:
                target = channel_of(call)
                if target is None:
                    continue
                result.writes[target] += 1
                if target not in result.order:
                    result.order.append(target)
                if call.method != "POST":
                    continue
                result.posts[target] += 1
                content = said(call.body)
                result.summaries[target] += SUMMARY in content
                result.turn_lines += content.count(" was active — ")
            for gid, channel_id in games.items():
                shown = sb.messages(sb.server.world.channels[channel_id])
                text = "\n".join(m.content for m in shown)
                with using("en-US"):
                    result.untold += [
                        line
                        for e in await service.keeper.events(gid)
                        if e.kind in ("penalty", "locked", "failed_throw")
                        for line in story.event_lines(e, [], "classic")
                        if line not in text
                    ]
                result.ended += bool(
                    shown
                    and shown[-1].attachments
                    and shown[-1].attachments[0].filename == "scoreboard.png"
                )
            result.rate_limited = sum(1 for call in sb.server.calls if call.status == 429)
            result.failures = [str(f) for f in sb.failures]
    return result


def report(result: Outage) -> str:
    writes = sorted(result.writes.values()) or [0]
    missed = sorted(result.missed_turns.values()) or [0]
    return "\n".join(
        [
            f"channels: {result.channels}; Discord away {result.minutes_away:.0f} min by the "
            f"bot's clock ({result.ticks_away} steps of {STEP:.0f} s)",
            f"turns missed per channel: min {missed[0]}, median {missed[len(missed) // 2]}, "
            f"max {missed[-1]}",
            f"requests answered 503 while away: {result.failed_requests} in "
            f"{result.seconds_away:.1f} s (the timer loop ticks every {TICK} s)",
            f"reconnect: {result.reconnect} after {result.reconnect_seconds:.2f} s",
            f"catch-up: {result.catch_up_seconds:.2f} s until every channel showed its game",
            f"writes: {sum(writes)} in all; per channel min {writes[0]}, median "
            f"{writes[len(writes) // 2]}, max {writes[-1]}",
            f"posts per channel: max {max(result.posts.values(), default=0)}; summaries per "
            f"channel: {sorted(set(result.summaries.values()))}; one-line-per-turn lines "
            f"posted: {result.turn_lines}",
            "caught up in the order (channel numbers): "
            f"{' '.join(str(result.channel_numbers[c]) for c in result.order)}",
            f"stored penalties, locks and failed throws not in their channel: {len(result.untold)}",
            f"429s: {result.rate_limited}; oldest first: "
            f"{result.order == result.oldest_first}; still lagging: {result.lagging_after}; "
            f"stand-in failures: {len(result.failures)}",
        ]
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--channels", type=int, default=100)
    parser.add_argument(
        "--resume",
        action="store_true",
        help="the gateway sessions survive the outage (a short one)",
    )
    parser.add_argument(
        "--restart",
        action="store_true",
        help="the bot stops while Discord is away and starts once it is back",
    )
    args = parser.parse_args()
    logging.basicConfig(level=logging.ERROR)  # the bot's warnings while Discord is away
    logging.getLogger("discord").setLevel(logging.CRITICAL)  # each reconnection attempt
    with tempfile.TemporaryDirectory() as folder:
        result = asyncio.run(
            outage(
                args.channels,
                Path(folder) / "qwixx.db",
                end_sessions=not args.resume,
                restart=args.restart,
                timeout=600.0,
            )
        )
    print(report(result))


if __name__ == "__main__":
    main()
