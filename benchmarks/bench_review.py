"""How long does the review of a finished game take? Budget: 2 s of CPU for a 5-player
classic game, every seat a person (every decision rated), outside the event loop.

Games are played through the rules API by five ``normal`` computer players standing in
for people (their moves stored as the people's own), then reviewed as the bot does
(:func:`bot.service.review.review_game`: the game rebuilt from its seed and move log,
``hard``'s options rated before each decision). Prints the CPU time per game (mean and
worst over the games) and the worst's ratio to the budget (above 1 misses it).

Then what a review costs the event loop: the games are reviewed again as the bot does
after a game's end (on the reviews' worker thread, :class:`bot.service.review.ReviewKeeper`)
while a task on the loop asks to wake every millisecond; how late it wakes, against the
same ticker with no review running, and against reviews that do not let the
interpreter's lock go after each decision (Python's threads share one lock, which a
thread busy computing otherwise holds for 5 ms at a time).

    python -m benchmarks.bench_review [--games 5] [--variant classic] [--players 5]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import time

from bot.players import choose
from bot.records.games import GameRecord, MoveRecord
from bot.rules import new_game
from bot.service.review import _WORKER, Review, review_game

BUDGET_S = 2.0


def finished(variant: str, players: int, seed: int) -> tuple[GameRecord, list[MoveRecord]]:
    """A finished game of ``players`` people and its move log, as the store keeps them."""
    seats = list(range(1001, 1001 + players))
    game = new_game(variant, seats, seed)
    rng, moves = random.Random(seed), list[MoveRecord]()
    while not game.finished:
        player = sorted(game.decision().waiting)[0]
        move = choose(game, player, rng, "normal")
        moves.append(MoveRecord(0, len(moves) + 1, player, move.to_json(), 0.0))
        game, _ = game.apply(player, move)
    state = game.to_json()
    record = GameRecord(
        id=0,
        guild_id=1,
        channel_id=1,
        message_id=None,
        host_id=seats[0],
        variant=variant,
        options={},
        seed=seed,
        players=seats,
        state=state,
        status="finished",
        version=len(moves),
        created_at=0.0,
        updated_at=0.0,
        finished_at=0.0,
    )
    return record, moves


def measure(variant: str, players: int, games: int) -> tuple[list[float], list[Review]]:
    times, reviews = [], []
    for seed in range(1, games + 1):
        record, moves = finished(variant, players, seed)
        start = time.process_time()
        reviews.append(review_game(record, moves))
        times.append(time.process_time() - start)
    return times, reviews


async def lateness(
    games: list[tuple[GameRecord, list[MoveRecord]]] | None,
    seconds: float = 1.0,
    yielding: bool = True,
) -> list[float]:
    """How late (ms) a 1 ms ticker on the loop wakes while ``games`` are reviewed on the
    reviews' worker thread one after another (None: for ``seconds``, nothing else runs)."""
    loop, late = asyncio.get_running_loop(), []
    done = asyncio.Event()

    async def ticker() -> None:
        while not done.is_set():
            asked = time.perf_counter()
            await asyncio.sleep(0.001)
            late.append((time.perf_counter() - asked - 0.001) * 1000)

    task = asyncio.create_task(ticker())
    if games is None:
        await asyncio.sleep(seconds)
    else:
        for record, moves in games:
            await loop.run_in_executor(_WORKER, review_game, record, moves, yielding)
    done.set()
    await task
    return late


def p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--variant", default="classic")
    parser.add_argument("--players", type=int, default=5)
    args = parser.parse_args()
    times, reviews = measure(args.variant, args.players, args.games)
    decisions = sum(len(r.rated) for r in reviews) / len(reviews)
    worst = max(times)
    print(
        f"review of a finished {args.players}-player {args.variant} game "
        f"({decisions:.0f} decisions rated on average, {args.games} games): "
        f"mean {sum(times) / len(times):.3f} s, worst {worst:.3f} s of CPU; "
        f"budget {BUDGET_S:.0f} s, ratio {worst / BUDGET_S:.2f}"
    )
    games = [finished(args.variant, args.players, seed) for seed in range(1, args.games + 1)]
    idle = asyncio.run(lateness(None))
    busy = asyncio.run(lateness(games))
    held = asyncio.run(lateness(games, yielding=False))

    def late(values: list[float]) -> str:
        return (
            f"p50 {statistics.median(values):.2f} ms, p99 {p99(values):.2f} ms, "
            f"worst {max(values):.2f} ms"
        )

    print(
        f"event loop while they are reviewed on the worker thread, a 1 ms timer wakes "
        f"late by: {late(busy)} (the review letting the lock go after each decision, as "
        f"the bot does); {late(held)} (holding it); idle {late(idle)}"
    )


if __name__ == "__main__":
    main()
