"""Whole tournaments and every seating of a small round, for the tournament tests and the
benchmark."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator, Mapping, Sequence

from bot.tournament import Entrant, Round, SeatResult, TableResult, TournamentSettings, next_round


def seatings(count: int, sizes: Sequence[int]) -> Iterator[tuple[int, ...]]:
    """Every seating of players 0 .. count - 1 at tables of ``sizes``, as the table of each
    player, in lexicographic order."""
    room, chosen = list(sizes), []

    def go(index: int) -> Iterator[tuple[int, ...]]:
        if index == count:
            yield tuple(chosen)
            return
        for k in range(len(sizes)):
            if room[k]:
                room[k] -= 1
                chosen.append(k)
                yield from go(index + 1)
                chosen.pop()
                room[k] += 1

    return go(0)


def repeats(tables: Sequence[Sequence[int]], met: Mapping[int, set[int]]) -> int:
    return sum(
        b in met.get(a, set()) for table in tables for a, b in itertools.combinations(table, 2)
    )


def play(round_: Round, rng: random.Random, low: int = 0, high: int = 12) -> list[TableResult]:
    """Random scores from ``low`` to ``high`` (few: many ties) at every table of ``round_``,
    ranked as the rules rank them."""
    found = []
    for table in round_.tables:
        seats = [(p, rng.randint(low, high), False) for p in table.players]
        seats += [(-1 - k, rng.randint(low, high), True) for k in range(table.computers)]
        found.append(
            TableResult(
                round_.number,
                table.number,
                tuple(
                    SeatResult(
                        p,
                        score,
                        1 + sum(other > score for _, other, _ in seats),
                        computer,
                        away=rng.random() < 0.1,
                        timeouts=rng.randint(0, 1),
                    )
                    for p, score, computer in seats
                ),
            )
        )
    return found


def run(
    settings_: TournamentSettings,
    count: int,
    seed: int,
    leaving: dict[int, int] | None = None,
    scores: tuple[int, int] = (0, 12),
) -> tuple[list[Entrant], list[Round], list[TableResult]]:
    """A tournament of ``count`` players played to its end; ``leaving``: who withdraws
    after which round; ``scores``: the lowest and highest game score."""
    rng = random.Random(seed)
    leaving = leaving or {}
    rounds: list[Round] = []
    results: list[TableResult] = []
    entrants = [Entrant(p) for p in range(1, count + 1)]
    for number in range(1, settings_.rounds + 1):
        entrants = [
            Entrant(e.player, leaving[e.player] if leaving.get(e.player, number) < number else None)
            for e in entrants
        ]
        round_ = next_round(
            settings_,
            entrants,
            rounds,
            results,
            seed,
            {p: rng.random() for p in range(1, count + 1, 2)},
        )
        assert round_.number == number
        rounds.append(round_)
        results += play(round_, rng, *scores)
    return [Entrant(e.player, leaving.get(e.player)) for e in entrants], rounds, results


def fewest_repeats(
    players: Sequence[int], sizes: Sequence[int], met: Mapping[int, set[int]]
) -> int:
    """The fewest repeats of any seating of ``players`` at tables of ``sizes``."""
    return min(
        repeats(
            [
                [p for p, k in zip(players, seating, strict=True) if k == t]
                for t in range(len(sizes))
            ],
            met,
        )
        for seating in seatings(len(players), sizes)
    )
