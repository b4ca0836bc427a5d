"""Soak: the Discord-layer fuzzer of ``tests/fuzz``, many actions long.

``python -m benchmarks.soak [--actions 10000] [--seed 13]``.

Random member actions through the stand-in (clicks, forged components, stray ids,
select values never offered, slash commands with random options, double taps,
members who do not play, time passing), with every invariant checked after each
action. Prints actions, games, interactions, failures and the slowest answer.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
from pathlib import Path

from tests.fuzz.fuzzer import TEXTS, Figures, run

ACK_BUDGET = 3.0  # Discord's window for answering an interaction


class Seeded:
    """Choices from a seeded ``random.Random``: the same seed, the same run."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def index(self, size: int) -> int:
        return self.rng.randrange(size)

    def text(self) -> str:
        if self.rng.random() < 0.6:
            return self.rng.choice(TEXTS)
        alphabet = "0123456789smhd ٣５xyz:.-"
        return "".join(self.rng.choice(alphabet) for _ in range(self.rng.randrange(0, 30)))


def report(figures: Figures, seconds: float, failures: int) -> None:
    actions = sum(figures.actions.values())
    kinds = ", ".join(f"{k} {v}" for k, v in sorted(figures.actions.items()))
    print(f"actions        {actions}  ({kinds})")
    print(f"games          {len(figures.games)} ({len(figures.finished)} finished)")
    print(f"interactions   {figures.interactions}")
    print(f"failures       {failures}")
    print(
        f"max ack time   {figures.max_ack:.3f} s (budget {ACK_BUDGET:g} s, "
        f"ratio {figures.max_ack / ACK_BUDGET:.2f})"
    )
    print(f"wall time      {seconds:.0f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=13)
    args = parser.parse_args()
    started = time.monotonic()
    with tempfile.TemporaryDirectory() as folder:
        try:
            figures = asyncio.run(run(Path(folder) / "soak.db", Seeded(args.seed), args.actions))
        except AssertionError as failure:
            print(f"FAILED: {failure}")
            sys.exit(1)
    report(figures, time.monotonic() - started, 0)


if __name__ == "__main__":
    main()
