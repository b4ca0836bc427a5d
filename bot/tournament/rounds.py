"""The next round, from everything played so far: who is still in, in which order, whom
they have met and who has sat out.

Round one orders players by rating (:func:`.seating.first_order`); later rounds by the
standings (points, then opponents' points, then total score), players equal on all
three in a seeded random order drawn afresh each round, so no one is always first of
their group. A function of its inputs: the seating of a round can be recomputed, and
checked, from what the store holds.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace

from .points import TableResult
from .seating import SEARCH_WORK, Round, first_order, met_before, seat, seeded
from .settings import TournamentSettings
from .standings import Entrant, standings


def next_round(
    settings: TournamentSettings,
    entrants: Sequence[Entrant],
    rounds: Sequence[Round],
    results: Iterable[TableResult],
    seed: int,
    ratings: Mapping[int, float] | None = None,
    work: int = SEARCH_WORK,
) -> Round:
    """Round ``len(rounds) + 1`` (ValueError past the last) for the entrants who have not
    withdrawn. ``ratings``: the players' ratings on the server (higher is better; none
    for any of them: a random first round, marked :attr:`Round.at_random`); ``work``:
    what each step of the seating search may look at."""
    number = len(rounds) + 1
    if number > settings.rounds:
        raise ValueError(f"round {number} of a tournament of {settings.rounds}")
    playing = [e.player for e in entrants if e.plays(number)]
    if number == 1:
        order = first_order(playing, ratings or {}, seed)
    else:
        lines = {s.player: s for s in standings(settings, entrants, rounds, results)}
        order = sorted(playing, key=lambda p: (lines[p].place, seeded(seed, number, p)))
    byes: dict[int, int] = {}
    for round_ in rounds:
        for player in round_.byes:
            byes[player] = byes.get(player, 0) + 1
    seated = seat(order, settings, number, met_before(rounds), byes, work)
    at_random = number == 1 and not any(p in (ratings or {}) for p in playing)
    return replace(seated, at_random=at_random)


def complete(round_: Round, results: Iterable[TableResult]) -> bool:
    """Whether every table of ``round_`` has its result."""
    done = {r.table for r in results if r.round == round_.number}
    return all(table.number in done for table in round_.tables)
