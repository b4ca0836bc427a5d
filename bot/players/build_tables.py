"""Learn the Qwixx value tables shipped in ``assets/players/`` (offline, a few CPU-minutes).

The table is learned by TD(0) over the *solo* game (one sheet, active every turn: a
white-sum cross, then a white-plus-colour cross, a penalty if neither): before each roll
the table's estimate is moved towards the best value reachable after the roll, which is
the exact score once the game is over. Play is greedy on the table; the dice explore.

    python -m bot.players.build_tables [--games 40000] [--seed 1] [--only classic]
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Sequence

from bot.players.qwixx_model import PENALTY, Row, RowRules, ValueTable, table_path

ASCENDING = (True, True, False, False)  # red, yellow ascending; green, blue descending
RULES = {"classic": RowRules(), "longo": RowRules(faces=8, lock_span=2, lock_threshold=6)}


def white_options(rules: RowRules, rows: Sequence[Row], white: int) -> list[tuple[Row, ...]]:
    """Every sheet after crossing the white sum in one row (not passing)."""
    found = []
    for r, row in enumerate(rows):
        after = rules.cross(row, rules.index(ASCENDING[r], white))
        if after is not None:
            found.append((*rows[:r], after, *rows[r + 1:]))
    return found


def colour_options(rules: RowRules, rows: Sequence[Row], whites: Sequence[int],
                   colours: Sequence[int]) -> list[tuple[Row, ...]]:
    """Every sheet after one white-plus-colour cross (a closed row has no die)."""
    found = []
    for r, row in enumerate(rows):
        if row[2]:
            continue
        for total in {whites[0] + colours[r], whites[1] + colours[r]}:
            after = rules.cross(row, rules.index(ASCENDING[r], total))
            if after is not None:
                found.append((*rows[:r], after, *rows[r + 1:]))
    return found


def best_turn(table: ValueTable, rows: tuple[Row, ...], penalties: int, whites: Sequence[int],
              colours: Sequence[int]) -> tuple[float, tuple[Row, ...], int]:
    """The best value after a solo turn with these dice, and the sheet it leaves."""
    rules = table.rules
    best: tuple[float, tuple[Row, ...], int] = (float("-inf"), rows, penalties)
    for first in [None, *white_options(rules, rows, whites[0] + whites[1])]:
        after_first = rows if first is None else first
        if first is not None and table.terminal(after_first, penalties):
            value = table.value(after_first, penalties)
            if value > best[0]:
                best = (value, after_first, penalties)
            continue
        for second in [None, *colour_options(rules, after_first, whites, colours)]:
            sheet = after_first if second is None else second
            pen = penalties + (first is None and second is None)
            value = table.value(sheet, pen)
            if value > best[0]:
                best = (value, sheet, pen)
    return best


def roll(rng: random.Random, faces: int) -> tuple[list[int], list[int]]:
    whites = [rng.randint(1, faces), rng.randint(1, faces)]
    return whites, [rng.randint(1, faces) for _ in range(4)]


def learn_game(table: ValueTable, rng: random.Random, rate: float) -> int:
    """Play one solo game greedily, updating the table; returns the final score."""
    rows: tuple[Row, ...] = ((0, 0, False),) * 4
    penalties = 0
    while True:
        whites, colours = roll(rng, table.rules.faces)
        target, rows_after, pen_after = best_turn(table, rows, penalties, whites, colours)
        update(table, rows, penalties, rate * (target - table.value(rows, penalties)))
        rows, penalties = rows_after, pen_after
        if table.terminal(rows, penalties):
            return table.score(rows, penalties)


def update(table: ValueTable, rows: Sequence[Row], penalties: int, step: float) -> None:
    closed = table.closed_count(rows)
    table.bias[penalties][closed] += step
    cells = table.rows[penalties][closed]
    for start, crosses, is_closed in rows:
        if not is_closed:
            cells[start][crosses] += step


def train(name: str, games: int, seed: int) -> ValueTable:
    table = ValueTable.initial(RULES[name])
    rng = random.Random(f"{name}:{seed}")
    recent: list[int] = []
    started = time.perf_counter()
    for game in range(games):
        rate = 0.02 * (1 - game / games) + 0.002
        recent.append(learn_game(table, rng, rate))
        if (game + 1) % 5000 == 0:
            mean = sum(recent) / len(recent)
            print(f"{name}: {game + 1} games, mean of the last {len(recent)}: {mean:.1f} "
                  f"({time.perf_counter() - started:.0f} s)", flush=True)
            recent = []
    table.games = games
    return table


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", choices=sorted(RULES))
    args = parser.parse_args()
    for name in [args.only] if args.only else sorted(RULES):
        table = train(name, args.games, args.seed)
        path = table_path(name)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(table.to_json(), separators=(",", ":")) + "\n",
                        encoding="utf-8")
        print(f"wrote {path}")


if __name__ == "__main__":
    main()


__all__ = ["PENALTY", "best_turn", "train"]
