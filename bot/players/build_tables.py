"""Learn the Qwixx value tables shipped in ``assets/players/`` (offline, a few CPU-minutes).

The table is learned by TD(0) over the *solo* game (one sheet, active every turn: a
white-sum cross, then a white-plus-colour cross, a penalty if neither): before each roll
the table's estimate is moved towards the best value reachable after the roll, which is
the exact score once the game is over. Play is greedy on the table; the dice explore.

Tables for games of two or more players are learned the same way over two-player
games, one table for the rolls a player throws and one for the others' rolls.

    python -m bot.players.build_tables [--games 120000] [--seed 1] [--only classic]
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Sequence
from typing import Protocol

from bot.players.qwixx_model import ASCENDING, PENALTY, Row, RowRules, ValueTable, table_path

RULES = {"classic": RowRules(), "longo": RowRules(faces=8, lock_span=2, lock_threshold=6)}


def white_options(rules: RowRules, rows: Sequence[Row], white: int) -> list[tuple[Row, ...]]:
    """Every sheet after crossing the white sum in one row (not passing)."""
    found = []
    for r, row in enumerate(rows):
        after = rules.cross(row, rules.index(ASCENDING[r], white))
        if after is not None:
            found.append((*rows[:r], after, *rows[r + 1 :]))
    return found


def colour_options(
    rules: RowRules, rows: Sequence[Row], whites: Sequence[int], colours: Sequence[int]
) -> list[tuple[Row, ...]]:
    """Every sheet after one white-plus-colour cross (a closed row has no die)."""
    found = []
    for r, row in enumerate(rows):
        if row[2]:
            continue
        for total in {whites[0] + colours[r], whites[1] + colours[r]}:
            after = rules.cross(row, rules.index(ASCENDING[r], total))
            if after is not None:
                found.append((*rows[:r], after, *rows[r + 1 :]))
    return found


Plan = tuple[float, tuple[Row, ...], int, tuple[Row, ...]]


class Judge(Protocol):
    """What :func:`best_turn` asks of a rating: a learned table, or any other rating."""

    @property
    def rules(self) -> RowRules: ...

    def terminal(self, rows: Sequence[Row], penalties: int) -> bool: ...

    def value(self, rows: Sequence[Row], penalties: int) -> float: ...


def best_turn(
    table: Judge,
    rows: tuple[Row, ...],
    penalties: int,
    whites: Sequence[int],
    colours: Sequence[int],
    crossed: bool = False,
) -> Plan:
    """The active player's best turn with these dice: its value, the sheet and penalties
    it leaves, and the sheet after action 1 alone."""
    rules = table.rules
    best: Plan = (float("-inf"), rows, penalties, rows)
    for first in [None, *white_options(rules, rows, whites[0] + whites[1])]:
        after_first = rows if first is None else first
        if first is not None and table.terminal(after_first, penalties):
            value = table.value(after_first, penalties)
            if value > best[0]:
                best = (value, after_first, penalties, after_first)
            continue
        for second in [None, *colour_options(rules, after_first, whites, colours)]:
            sheet = after_first if second is None else second
            pen = penalties + (first is None and second is None and not crossed)
            value = table.value(sheet, pen)
            if value > best[0]:
                best = (value, sheet, pen, after_first)
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
        target, rows_after, pen_after, _ = best_turn(table, rows, penalties, whites, colours)
        update(table, rows, penalties, rate * (target - table.value(rows, penalties)))
        rows, penalties = rows_after, pen_after
        if table.terminal(rows, penalties):
            return table.score(rows, penalties)


def close_shared(sheets: list[tuple[Row, ...]]) -> list[tuple[Row, ...]]:
    """A row locked on one sheet is closed on every sheet."""
    closed = [any(sheet[r][2] for sheet in sheets) for r in range(4)]
    return [tuple((s, c, x or closed[r]) for r, (s, c, x) in enumerate(sheet)) for sheet in sheets]


def learn_duel(tables: dict[bool, ValueTable], rng: random.Random, rate: float) -> list[int]:
    """Play one two-player game, each sheet greedy on the table for its next roll
    (``tables[True]``: before a roll one throws oneself), and update both tables."""
    rules = tables[True].rules
    sheets: list[tuple[Row, ...]] = [((0, 0, False),) * 4] * 2
    pens, active, over = [0, 0], 0, False
    while not over:
        before = [(sheets[p], pens[p], p == active) for p in (0, 1)]
        whites, colours = roll(rng, rules.faces)
        passive = 1 - active
        offered = [sheets[passive], *white_options(rules, sheets[passive], sum(whites))]
        sheets[passive] = max(offered, key=lambda s: tables[True].value(s, pens[passive]))
        start = sheets[active]
        sheets[active] = best_turn(tables[False], start, pens[active], whites, colours)[3]
        crossed = sheets[active] != start
        sheets = close_shared(sheets)
        if sum(r[2] for r in sheets[0]) < rules.rows_to_end:
            sheets[active], pens[active] = colour_choice(
                tables[False], sheets[active], pens[active], whites, colours, crossed
            )
            sheets = close_shared(sheets)
        over = any(tables[True].terminal(sheets[p], pens[p]) for p in (0, 1))
        for p in (0, 1):
            rows, pen, was_active = before[p]
            target = (
                tables[True].score(sheets[p], pens[p])
                if over
                else tables[p != active].value(sheets[p], pens[p])
            )
            table = tables[was_active]
            update(table, rows, pen, rate * (target - table.value(rows, pen)))
        active = passive
    return [tables[True].score(sheets[p], pens[p]) for p in (0, 1)]


def colour_choice(
    table: ValueTable,
    rows: tuple[Row, ...],
    penalties: int,
    whites: Sequence[int],
    colours: Sequence[int],
    crossed: bool,
) -> tuple[tuple[Row, ...], int]:
    """The active player's best action 2, and the penalties after the turn."""

    def after(sheet: tuple[Row, ...]) -> tuple[tuple[Row, ...], int]:
        return sheet, penalties + (not crossed and sheet is rows)

    options = [rows, *colour_options(table.rules, rows, whites, colours)]
    return max((after(s) for s in options), key=lambda o: table.value(*o))


def update(table: ValueTable, rows: Sequence[Row], penalties: int, step: float) -> None:
    closed = table.closed_count(rows)
    table.bias[penalties][closed] += step
    cells = table.rows[penalties][closed]
    for start, crosses, is_closed in rows:
        if not is_closed:
            cells[start][crosses] += step


def train(name: str, games: int, seed: int, duel: bool) -> dict[bool, ValueTable]:
    """Tables for solo play (``{True: table}``) or for games of two or more
    (``{True: before one's own roll, False: before another's}``)."""
    roles = (True, False) if duel else (True,)
    tables = {role: ValueTable.initial(RULES[name]) for role in roles}
    rng = random.Random(f"{name}:{seed}:{duel}")
    recent: list[int] = []
    started = time.perf_counter()
    for game in range(games):
        rate = 0.02 * (1 - game / games) + 0.002
        recent += learn_duel(tables, rng, rate) if duel else [learn_game(tables[True], rng, rate)]
        if (game + 1) % 5000 == 0:
            print(
                f"{name} {'duel' if duel else 'solo'}: {game + 1} games, mean score of the "
                f"last {len(recent)} sheets: {sum(recent) / len(recent):.1f} "
                f"({time.perf_counter() - started:.0f} s)",
                flush=True,
            )
            recent = []
    for table in tables.values():
        table.games = games
    return tables


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=120000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", choices=sorted(RULES))
    args = parser.parse_args()
    for name in [args.only] if args.only else sorted(RULES):
        solo = train(name, args.games, args.seed, duel=False)
        duel = train(name, args.games // 2, args.seed, duel=True)
        data = {
            "solo": solo[True].to_json(),
            "active": duel[True].to_json(),
            "passive": duel[False].to_json(),
        }
        path = table_path(name)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(data, separators=(",", ":")) + "\n", encoding="utf-8")
        print(f"wrote {path}")


if __name__ == "__main__":
    main()


__all__ = ["PENALTY", "best_turn", "train"]
