"""What a game costs the channel: writes per turn, the busiest window, mentions per turn.

    python -m benchmarks.bench_channel [--variants classic,qwinto] [--seed N]

Each variant is played twice through the local Discord stand-in by the real bot:

* a **human table** — three members who take a moment before each click;
* a **fast computer table** — one member and computer players, clicking at once.

Time runs ten times faster than Discord's (the stand-in allows 5 channel writes per
0.5 s, the bot's budget and waits are scaled alike, members think 0.05-0.5 s), so a
game takes seconds; "busiest window" is the most writes to the channel in any
0.5 s, which stands for Discord's 5 s. Figures are per game turn; mentions count the
users a post let ping, reminders aside. "by click" counts the public writes made
through the token of a player's click (edits of the turn message, public follow-ups):
Discord limits those apart from the channel's writes. The script only uses what every version of
the bot since the stand-in was written offers, so it can measure an older checkout.
"""

from __future__ import annotations

import argparse
import asyncio
import inspect
import random
import re
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from bot.app import QwixxBot
from bot.rules import VARIANTS
from bot.sandbox import Sandbox, SimMember
from bot.sandbox.autoplay import choices, final_message, turn_message
from bot.sandbox.records import said
from bot.sandbox.rest import Rest
from bot.store import Store

SCALE = 10.0  # how much faster than Discord's clock this runs
WINDOW = 5.0 / SCALE
WRITES = ("/channels/{channel_id}/messages", "/channels/{channel_id}/messages/{message_id}")
FOLLOW_UP = "/webhooks/{webhook_id}/{webhook_token}"
EPHEMERAL = 64
TURN = re.compile(r"\*\*Turn (\d+)\*\*|turn (\d+)\*\*")
COMPUTERS = {"classic": 4, "longo": 4, "onboard": 3, "qwinto": 5}


def time_requests() -> None:
    """Stamp every request the stand-in receives with its arrival time."""
    handle = Rest._handle

    async def stamped(self: Rest, request: Any) -> Any:
        arrived, index = time.monotonic(), len(self.calls)
        response = await handle(self, request)
        if index < len(self.calls):
            self.calls[index].at = arrived
        return response

    Rest._handle = stamped  # type: ignore[method-assign]  # patched in for this benchmark


def make_bot(database: Path, sb: Sandbox, seed: int) -> QwixxBot:
    """The bot with its waits scaled; the write budget too where the bot has one."""
    parameters = inspect.signature(QwixxBot).parameters
    options: dict[str, Any] = {"coalesce": parameters["coalesce"].default / SCALE}
    if "budget" in parameters:
        from bot.channel.budget import WriteBudget

        options["budget"] = WriteBudget(writes=5, window=5.5 / SCALE)
    return QwixxBot(database, dev_guild=sb.guild.id, seeds=lambda: seed, **options)


async def play(
    sb: Sandbox, members: list[SimMember], rng: random.Random, think: tuple[float, float]
) -> None:
    """Each member in turn opens their sheet from the newest turn message and decides."""
    idle = 0
    while final_message(sb) is None and idle < 200:
        acted = False
        for member in members:
            turn = turn_message(sb)
            if turn is None or final_message(sb) is not None:
                break
            sheet = (await member.click(turn, label="Open my sheet")).message
            offered = choices(sheet)
            if not offered or "change your choice" in sheet.content:
                continue
            await asyncio.sleep(rng.uniform(*think))
            choice = rng.choice(offered)
            await choice.take(member, sheet)
            acted = True
        idle = 0 if acted else idle + 1
        if not acted:
            await asyncio.sleep(0.05)


def public_by_click(sb: Sandbox) -> list[Any]:
    """Public writes through interaction tokens: follow-ups without the ephemeral flag,
    and edits of an original message that everyone sees."""
    found = []
    for call in sb.server.calls:
        body = call.body if isinstance(call.body, dict) else {}
        if call.method == "POST" and call.route == FOLLOW_UP:
            if not int(body.get("flags") or 0) & EPHEMERAL:
                found.append(call)
        elif call.method == "PATCH" and call.route == FOLLOW_UP + "/messages/@original":
            record = sb.server.world.interaction_by_token(call.path.split("/")[3])
            target = (
                None if record is None else sb.server.world.messages.get(record.original_id or 0)
            )
            if target is not None and not target.ephemeral:
                found.append(call)
    return found


def figures(sb: Sandbox, turns: int, players: int) -> dict[str, float]:
    calls = [
        c for c in sb.server.calls if c.method in ("POST", "PATCH", "DELETE") and c.route in WRITES
    ]
    by_click = public_by_click(sb)
    stamps = [getattr(c, "at", 0.0) for c in calls]
    busiest = max(
        (sum(1 for t in stamps[i:] if t - start < WINDOW) for i, start in enumerate(stamps)),
        default=0,
    )
    pings: Counter[tuple[int, int]] = Counter()
    for call in [*calls, *(c for c in by_click if c.method == "POST")]:
        body = call.body if isinstance(call.body, dict) else {}
        text = said(body)
        if call.method != "POST" or text.startswith("⏰"):
            continue
        found = TURN.search(text)
        turn = int(found[1] or found[2]) if found else 0
        for user in (body.get("allowed_mentions") or {}).get("users") or []:
            pings[(int(user), turn)] += 1
    posts = sum(1 for c in calls if c.method == "POST")
    return {
        "turns": turns,
        "writes/turn": len(calls) / turns,
        "posts/turn": posts / turns,
        "edits/turn": (len(calls) - posts) / turns,
        "busiest": busiest,
        "by click/turn": len(by_click) / turns,
        "mentions/player/turn": sum(pings.values()) / turns / players,
        "most mentions of one player in a turn": max(pings.values(), default=0),
        "429s": sum(1 for c in sb.server.calls if c.status == 429),
    }


async def one_game(variant: str, computers: int, seed: int) -> dict[str, float]:
    rng = random.Random(seed)
    names = ["Ana"] if computers else ["Ana", "Ben", "Cem"]
    think = (0.0, 0.0) if computers else (0.05, 0.5)
    with tempfile.TemporaryDirectory() as folder:
        database = Path(folder) / "bench.db"
        async with Sandbox(members=names, settle=0.02) as sb:
            limit = getattr(sb.server.rest, "write_limit", None)
            if limit is not None:
                limit.window = WINDOW
            bot = make_bot(database, sb, seed)
            await sb.run_bot(bot)
            members = [sb.member(n) for n in names]
            lobby = (await members[0].slash("qwixx", "start", variant=variant)).message
            for member in members[1:]:
                await member.click(lobby, label="Join")
            for _ in range(computers):
                lobby = (await members[0].click(lobby, label="Add computer player")).message
            await members[0].click(lobby, label="Start")
            await sb.wait_for(lambda: turn_message(sb) is not None, timeout=30)
            await play(sb, members, rng, think)
            await bot.publisher.drain()
            await asyncio.sleep(1.0)  # the last edits, after the final post
        async with Store(database) as store:
            record = await store.games.get(1)
    turns = int(record.state["turn"]) if record and record.state else 1
    return figures(sb, turns, len(names))


async def main(variants: list[str], seed: int) -> None:
    time_requests()
    print(
        f"{'variant':9} {'table':9} {'turns':>5} {'writes/turn':>11} {'posts':>6} "
        f"{'edits':>6} {'by click':>8} {'busiest 5s*':>11} {'mentions/player/turn':>20} "
        f"{'max':>4} {'429s':>5}"
    )
    for variant in variants:
        for table, computers in (("human", 0), ("computer", COMPUTERS[variant])):
            f = await one_game(variant, computers, seed)
            print(
                f"{variant:9} {table:9} {f['turns']:5.0f} {f['writes/turn']:11.2f} "
                f"{f['posts/turn']:6.2f} {f['edits/turn']:6.2f} "
                f"{f['by click/turn']:8.2f} {f['busiest']:11.0f} "
                f"{f['mentions/player/turn']:20.2f} "
                f"{f['most mentions of one player in a turn']:4.0f} {f['429s']:5.0f}"
            )
    print(
        "* most channel writes in any 0.5 s of this 10x faster clock (Discord: 5 s); "
        "budget: 1.5 writes/turn on average, at most 5 in a window, no 429"
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variants", default=",".join(VARIANTS))
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    asyncio.run(main(args.variants.split(","), args.seed))
