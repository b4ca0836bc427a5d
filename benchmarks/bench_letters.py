"""Taps per decision taken from a direct message, through the local Discord stand-in.

    python -m benchmarks.bench_letters [--variants classic,qwinto] [--games N]

One member who chose direct messages plays whole games against a computer from her
letters alone, each decision a tap on a letter's button (and a second one, **Yes**,
where the bot asks about a cross that skips three numbers or more). Two ways of
choosing, on the same dice:

* **careful** — a cross that skips at most two numbers (the one skipping least), else
  Pass; any other choice (a throw, a field, a pawn move) the first offered;
* **greedy** — the cross skipping least, however many, Pass only when no cross is
  offered: the most confirmations a player can be asked for.

Printed per variant and way: decisions, taps, taps per decision (the budget is 1.2),
letters per decision (one letter a wait: 1.0) and mentions of her in the channel (the
final scores only).
"""

from __future__ import annotations

import argparse
import asyncio
import re
import tempfile
from collections.abc import Callable
from pathlib import Path

from bot.app import QwixxBot
from bot.channel.budget import WriteBudget
from bot.rules import VARIANTS
from bot.sandbox import Sandbox, SimMember
from bot.sandbox.autoplay import CONFIRM, Choice, choices, final_message, wait_for_turn
from bot.sandbox.records import StoredMessage

BUDGET = 1.2
SKIPS = re.compile(r"\(skips (\d+)\)")
Way = Callable[[list[Choice]], Choice]


def skipped(choice: Choice) -> int | None:
    """How many numbers a cross skips (None: no cross)."""
    if choice.text == "Pass" or not any(ch.isdigit() for ch in choice.text):
        return None
    found = SKIPS.search(choice.text)
    return int(found[1]) if found else 0


def careful(offered: list[Choice]) -> Choice:
    crosses = [c for c in offered if (s := skipped(c)) is not None and s <= 2]
    if crosses:
        return min(crosses, key=lambda c: skipped(c) or 0)
    return next((c for c in offered if c.text == "Pass"), offered[0])


def greedy(offered: list[Choice]) -> Choice:
    crosses = [c for c in offered if skipped(c) is not None]
    if crosses:
        return min(crosses, key=lambda c: skipped(c) or 0)
    return offered[0]


WAYS: dict[str, Way] = {"careful": careful, "greedy": greedy}


def open_letters(member: SimMember) -> list[StoredMessage]:
    return [m for m in member.direct_messages() if not m.ephemeral and choices(m)]


async def closed(sb: Sandbox, member: SimMember, letter: StoredMessage) -> None:
    """Wait until ``letter`` offers nothing any more (its wait is over)."""
    await sb.wait_for(lambda: letter.id not in {m.id for m in open_letters(member)})


def mentions_of(sb: Sandbox, member: SimMember) -> int:
    """Posts in the game's channel that let ``member`` be pinged."""
    count = 0
    for call in sb.server.calls:
        body = call.body if isinstance(call.body, dict) else {}
        users = (body.get("allowed_mentions") or {}).get("users") or []
        if call.method == "POST" and str(member.id) in {str(u) for u in users}:
            count += 1
    return count


async def game(variant: str, way: Way, seed: int, folder: Path) -> tuple[int, int, int, int]:
    """One game from the letters: (decisions, taps, letters, mentions)."""
    async with Sandbox(write_limit=False, members=["Ana"], settle=0.02) as sb:
        bot = QwixxBot(
            folder / f"{variant}-{seed}.db",
            dev_guild=sb.guild.id,
            seeds=lambda: seed,
            coalesce=0.05,
            tick=3600,
            budget=WriteBudget(writes=10_000, window=1.0),
        )
        await sb.run_bot(bot)
        ana = sb.member("Ana")
        await bot.service.members.change(ana.id, dm=True)
        lobby = (await ana.slash("qwixx", "start", variant=variant)).message
        lobby = (await ana.click(lobby, label="Add computer player")).message
        await ana.click(lobby, label="Start")
        await wait_for_turn(sb)
        decisions = taps = 0
        while final_message(sb) is None:
            await sb.wait_for(lambda: final_message(sb) is not None or bool(open_letters(ana)))
            letters = open_letters(ana)
            if not letters:
                continue
            letter = letters[-1]
            after = await way(choices(letter)).take(ana, letter)
            decisions, taps = decisions + 1, taps + 1
            if CONFIRM in after.labels:
                await ana.click(after, label=CONFIRM)
                taps += 1
            await closed(sb, ana, letter)
        await bot.publisher.drain()
        await bot.publisher.reviewed()  # the final message's accuracies, before the stop
        sent = len([m for m in ana.direct_messages() if not m.ephemeral])
        mentions = mentions_of(sb, ana)
        await sb.stop_bot()
        return decisions, taps, sent, mentions


async def measure(variants: list[str], games: int) -> None:
    print(
        f"{'variant':<9} {'way':<8} {'decisions':>9} {'taps':>5} {'taps/dec':>8} "
        f"{'letters/dec':>11} {'mentions':>8}"
    )
    with tempfile.TemporaryDirectory() as folder:
        for variant in variants:
            for name, way in WAYS.items():
                totals = [0, 0, 0, 0]
                for seed in range(1, games + 1):
                    for i, figure in enumerate(await game(variant, way, seed, Path(folder))):
                        totals[i] += figure
                decisions, taps, letters, mentions = totals
                print(
                    f"{variant:<9} {name:<8} {decisions:>9} {taps:>5} {taps / decisions:>8.2f} "
                    f"{letters / decisions:>11.2f} {mentions:>8}"
                )
    print(f"budget: taps per decision <= {BUDGET}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variants", default=",".join(VARIANTS))
    parser.add_argument("--games", type=int, default=3)
    args = parser.parse_args()
    asyncio.run(measure(args.variants.split(","), args.games))


if __name__ == "__main__":
    main()
