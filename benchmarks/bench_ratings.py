"""How fast are the skill ratings on a large history?

Fills a temporary SQLite store as :mod:`benchmarks.bench_stats` does (100,000 results
over 1,000 players in one guild, a little noise in another), rates every game as the
first start with ratings does (the backfill, timed once), then times:

* ``/qwixx leaderboard sort:rating`` through :class:`bot.service.rated.RatingService`
  (SQL, ranking and names), for a variant and for the server's most rated one:
  target 20 ms (median);
* the rating update at a game's end (:meth:`RatingService.settle`, what the channel
  calls before it posts the final scores) of new games of 2 to 5 people, and of games
  of two people and a Hard computer (whose rank is read from the stored final state):
  target 5 ms (median).

    python -m benchmarks.bench_ratings [--results 100000] [--players 1000] [--runs 25]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from bot.players import choose
from bot.records.games import GameChange
from bot.rules import new_game
from bot.service.rated import RatingService
from bot.service.results import game_results
from bot.store import Store
from tests.fakes import FakeClock

from .bench_stats import GUILD, NOW, SPAN_DAYS, fill

BOARD_MS = 20.0
UPDATE_MS = 5.0


def final_state(seed: int, players: list[int]) -> tuple[dict[str, Any], Any]:
    """A classic game played to its end by computers, and the game."""
    rng = random.Random(seed)
    game = new_game("classic", players, seed=seed)
    while not game.finished:
        player = sorted(game.decision().waiting)[0]
        game, _ = game.apply(player, choose(game, player, rng, "easy"))
    return game.to_json(), game


async def finished_game(
    store: Store, players: list[int], seed: int, options: dict[str, Any]
) -> int:
    """A game of ``players`` stored as it ends: its final state and results together."""
    state, game = final_state(seed, players)
    people = [p for p in players if p > 0]
    record = await store.games.create(GUILD, 5_000 + seed, people[0], "classic", options, seed)
    record = await store.games.set_players(record.id, record.version, players)
    record = await store.games.start(record.id, record.version, {})
    change = GameChange([(people[0], {}, "player")], state, "finished", game_results(game))
    await store.games.change(record, change)
    return record.id


async def update_times(
    store: Store, ratings: RatingService, people: list[int], runs: int, computers: bool
) -> list[float]:
    rng = random.Random(11 if computers else 13)
    samples = []
    for k in range(runs):
        if computers:
            seated = [*rng.sample(people, 2), -1]
            options = {"levels": {"-1": "hard"}}
        else:
            seated, options = rng.sample(people, rng.randint(2, 5)), {}
        game_id = await finished_game(store, seated, 1_000 * computers + k, options)
        record = await store.games.get(game_id)
        assert record is not None
        start = time.perf_counter()
        changes = await ratings.settle(record)
        samples.append((time.perf_counter() - start) * 1000)
        assert len(changes) == sum(p > 0 for p in seated), changes
    return samples


async def measure(
    results: int = 100_000, players: int = 1_000, runs: int = 25, verbose: bool = False
) -> list[tuple[str, float, float]]:
    """(what, median ms, target ms) for each figure."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bench.db"
        async with Store(path):
            pass  # creates the schema
        count = fill(path, results, players, SPAN_DAYS)
        async with Store(path, clock=FakeClock(NOW, step=1.0)) as store:  # a game a second
            await store.stats.rebuild_totals()
            ratings = RatingService(store)
            start = time.perf_counter()
            rated = await ratings.backfill()
            if verbose:
                print(
                    f"filled {results:,} results in {count:,} games over {players:,} players; "
                    f"rated {rated:,} games (the first start's backfill) in "
                    f"{time.perf_counter() - start:.1f} s"
                )
            ids = sorted(await store.ratings.of_variant(GUILD, "classic"))
            typical = ids[len(ids) // 2]
            found: list[tuple[str, float, float]] = []
            for name, variant in (
                ("leaderboard sort=rating variant=classic", "classic"),
                ("leaderboard sort=rating (most rated variant)", None),
                ("leaderboard sort=rating variant=longo", "longo"),
            ):
                samples = []
                await ratings.leaderboard(GUILD, typical, variant)  # warm the caches
                for _ in range(runs):
                    start = time.perf_counter()
                    board = await ratings.leaderboard(GUILD, typical, variant)
                    samples.append((time.perf_counter() - start) * 1000)
                assert board.ranked > 500 and not board.empty
                found.append((name, statistics.median(samples), BOARD_MS))
            for name, computers in (
                ("rating update at a game's end, 2-5 people", False),
                ("rating update at a game's end, 2 people + Hard", True),
            ):
                samples = await update_times(store, ratings, ids, runs, computers)
                found.append((name, statistics.median(samples), UPDATE_MS))
            return found


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--results", type=int, default=100_000)
    parser.add_argument("--players", type=int, default=1_000)
    parser.add_argument("--runs", type=int, default=25)
    args = parser.parse_args()
    figures = await measure(args.results, args.players, args.runs, verbose=True)
    width = max(len(name) for name, _, _ in figures)
    print(f"{'what':<{width}}  median ms  target ms  ratio")
    for name, median, target in figures:
        print(f"{name:<{width}}  {median:9.2f}  {target:9.0f}  {median / target:5.2f}")
    worst = max(median / target for _, median, target in figures)
    print(f"worst ratio: {worst:.2f} ({'within' if worst <= 1 else 'OVER'} the targets)")


if __name__ == "__main__":
    asyncio.run(main())
