"""Learn the margin tables ``hard`` plays by in games of two or more (offline, minutes).

Two-player games in the compact model of :mod:`bot.players.build_tables`: the learner
plays greedily on :class:`~bot.players.qwixx_model.Versus` (its expected final margin
over the opponent) against a mix of opponents, the rule of thumb three games in four
and ``easy``'s rule the fourth (``normal`` and ``easy`` as they played when the tables
were learned: ``easy`` let one number go, ``normal`` now plays by the score tables), so
the tables learn the pace those opponents set (how soon rows lock and penalties end
the game). (Adding games against itself, or telling apart how many rows may lock soon,
made it beat ``normal`` no more often.) Before each roll, TD(0) moves the learner's
estimate towards the estimate after the roll (the exact margin once the game is over):
the own table by the step, the rival's by minus the step.

    python -m bot.players.learn_versus [--games 40000] [--seed 1] [--only classic] [--resume]

(The shipped tables record how many games they learned from: classic 40,000, longo 30,000.
Going on from the classic tables with ``--resume`` for 60,000 or 120,000 more games, or
against a ``normal`` that rates its own throws by the score tables, moved no duel figure
beyond the benchmark's noise.)
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Sequence

from bot.players.build_tables import (
    RULES,
    best_turn,
    close_shared,
    colour_options,
    roll,
    update,
    white_options,
)
from bot.players.qwixx_model import (
    DUEL_SHARE,
    PENALTY,
    Row,
    RowRules,
    RuleOfThumb,
    ValueTable,
    Versus,
    closed_rows,
    table_path,
    triangle,
)

Rows = tuple[Row, ...]
Tables = dict[bool, tuple[ValueTable, ValueTable]]  # next roll is one's own -> (own, rival)
OPPONENTS = ("easy", "normal", "normal", "normal")  # the one to beat most often: normal


def skipped(before: Rows, after: Rows) -> int:
    return sum(a[0] - 1 - b[0] for a, b in zip(after, before, strict=True) if a != b)


def cheapest(before: Rows, options: Sequence[Rows], limit: int) -> Rows | None:
    """``easy``'s choice: the option that skips fewest numbers, if few enough."""
    best = min(options, key=lambda o: skipped(before, o), default=None)
    return best if best is not None and skipped(before, best) <= limit else None


class Duel:
    """One two-player game in the compact model; seat 0 learns."""

    def __init__(self, name: str, tables: Tables, rng: random.Random, opponent: str) -> None:
        self.name, self.tables, self.rng, self.opponent = name, tables, rng, opponent
        self.rules = tables[True][0].rules
        self.sheets: list[Rows] = [((0, 0, False),) * 4] * 2
        self.pens = [0, 0]
        self.active = rng.randrange(2)

    def judge(self, seat: int, own_roll_next: bool) -> Versus | RuleOfThumb | None:
        """How ``seat`` rates its sheet (None: ``easy``'s rules instead)."""
        if seat == 1 and self.opponent != "self":
            share = DUEL_SHARE[self.name]
            return RuleOfThumb(self.rules, share) if self.opponent == "normal" else None
        own, rival = self.tables[own_roll_next]
        return Versus(own, rival, ((self.sheets[1 - seat], self.pens[1 - seat]),))

    def over(self) -> bool:
        closed = closed_rows(self.sheets[0]) | closed_rows(self.sheets[1])
        return len(closed) >= self.rules.rows_to_end or max(self.pens) >= self.rules.penalty_limit

    def margin(self) -> int:
        points = [
            sum(triangle(r[1]) for r in s) - PENALTY * p
            for s, p in zip(self.sheets, self.pens, strict=True)
        ]
        return points[0] - points[1]

    def passive_choice(self, seat: int, whites: Sequence[int]) -> Rows:
        rows, pen = self.sheets[seat], self.pens[seat]
        options = white_options(self.rules, rows, sum(whites))
        judge = self.judge(seat, True)
        if judge is None:
            return cheapest(rows, options, 1) or rows
        return max([rows, *options], key=lambda s: judge.value(s, pen))

    def active_first(self, seat: int, whites: Sequence[int], colours: Sequence[int]) -> Rows:
        rows = self.sheets[seat]
        judge = self.judge(seat, False)
        if judge is None:
            return cheapest(rows, white_options(self.rules, rows, sum(whites)), 1) or rows
        return best_turn(judge, rows, self.pens[seat], whites, colours)[3]

    def active_second(
        self, seat: int, whites: Sequence[int], colours: Sequence[int], crossed: bool
    ) -> None:
        rows, pen = self.sheets[seat], self.pens[seat]
        options = colour_options(self.rules, rows, whites, colours)
        judge = self.judge(seat, False)
        if judge is None:
            after = cheapest(rows, options, 1 if crossed else 3) or rows
        else:

            def rated(sheet: Rows) -> float:
                return judge.value(sheet, pen + (not crossed and sheet is rows))

            after = max([rows, *options], key=rated)
        self.sheets[seat] = after
        self.pens[seat] = pen + (not crossed and after is rows)

    def turn(self) -> None:
        whites, colours = roll(self.rng, self.rules.faces)
        active, passive = self.active, 1 - self.active
        start = self.sheets[active]
        chosen = {
            passive: self.passive_choice(passive, whites),
            active: self.active_first(active, whites, colours),
        }
        self.sheets = close_shared([chosen[0], chosen[1]])
        if len(closed_rows(self.sheets[0])) < self.rules.rows_to_end:
            self.active_second(active, whites, colours, self.sheets[active] != start)
            self.sheets = close_shared(self.sheets)
        self.active = passive

    def learn(self, rate: float) -> int:
        """Play to the end, updating the learner's tables; the final margin."""
        while True:
            own_roll = self.active == 0
            own, rival = self.tables[own_roll]
            before = self.sheets
            judge = Versus(own, rival, ((self.sheets[1], self.pens[1]),))
            estimate, pace = judge.value(self.sheets[0], self.pens[0]), judge.pace(self.pens[0])
            self.turn()
            done = self.over()
            target: float
            if done:
                target = self.margin()
            else:
                rating = self.judge(0, self.active == 0)
                assert rating is not None  # seat 0 rates by its tables
                target = rating.value(self.sheets[0], self.pens[0])
            step = rate * (target - estimate)
            update(own, before[0], pace, step)
            update(rival, before[1], pace, -step)
            if done:
                return self.margin()


def initial(rules: RowRules) -> tuple[ValueTable, ValueTable]:
    """Tables to learn from: :class:`Versus` prices penalties itself."""
    pair = ValueTable.initial(rules), ValueTable.initial(rules)
    for table in pair:
        table.bias = [[0.0] * len(b) for b in table.bias]
    return pair


def shipped(name: str) -> Tables:
    """Fresh copies of the shipped margin tables, to learn on from."""
    data = json.loads(table_path(name).read_text(encoding="utf-8"))["versus"]
    return {
        key: (ValueTable.from_json(data[role]["own"]), ValueTable.from_json(data[role]["rival"]))
        for role, key in (("active", True), ("passive", False))
    }


def train(name: str, games: int, seed: int, resume: bool = False) -> Tables:
    """Learn from scratch, or with ``resume`` go on from the shipped tables with smaller
    steps (the recorded game count adds up)."""
    tables = shipped(name) if resume else {True: initial(RULES[name]), False: initial(RULES[name])}
    before = tables[True][0].games if resume else 0
    high, low = (0.003, 0.0005) if resume else (0.01, 0.001)
    rng = random.Random(f"{name}:{seed}:{'resume' if resume else 'versus'}")
    recent: dict[str, list[int]] = {o: [] for o in OPPONENTS}
    started = time.perf_counter()
    for game in range(games):
        opponent = OPPONENTS[game % len(OPPONENTS)]
        rate = high * (1 - game / games) + low
        recent[opponent].append(Duel(name, tables, rng, opponent).learn(rate))
        if (game + 1) % 6000 == 0:
            wins = ", ".join(
                f"{o} {sum(m > 0 for m in ms) / max(1, len(ms)):.0%}" for o, ms in recent.items()
            )
            print(
                f"{name}: {game + 1} games, wins against {wins} "
                f"({time.perf_counter() - started:.0f} s)",
                flush=True,
            )
            recent = {o: [] for o in OPPONENTS}
    for pair in tables.values():
        for table in pair:
            table.games = before + games
    return tables


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", choices=sorted(RULES))
    parser.add_argument(
        "--resume",
        action="store_true",
        help="go on from the shipped tables instead of starting afresh",
    )
    args = parser.parse_args()
    for name in [args.only] if args.only else sorted(RULES):
        tables = train(name, args.games, args.seed, args.resume)
        path = table_path(name)
        data = json.loads(path.read_text(encoding="utf-8"))
        data["versus"] = {
            role: {"own": tables[key][0].to_json(), "rival": tables[key][1].to_json()}
            for role, key in (("active", True), ("passive", False))
        }
        path.write_text(json.dumps(data, separators=(",", ":")) + "\n", encoding="utf-8")
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
