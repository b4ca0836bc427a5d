"""The standings: every entrant's place, points and tie-breaks, recounted from the rounds
as seated and the results of the tables that have finished.

* **Points**: each round's points (:mod:`.points`: a table's place, or a skipped game's
  points for a bye), summed.
* **Tie-breaks**, in this order: *opponents' points*, the sum of the points of every
  person met at a table, each meeting counted (computers count nothing, a bye meets
  nobody), then *total score*, the sum of the player's game scores. Players equal on all
  three share a place (1, 2, 2, 4) and are listed by id.
* **Withdrawals**: a player who withdraws after round k keeps their place in the list
  and what they scored; the game they were playing plays on for them (away), and they are
  seated in no later round, which then gives them nothing.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from .points import TableResult, as_points, sixtieths, table_parts
from .seating import Round
from .settings import TournamentSettings


@dataclass(frozen=True)
class Entrant:
    """A player in the tournament; ``withdrawn_after``: the last round they were seated
    in, if they have withdrawn."""

    player: int
    withdrawn_after: int | None = None

    def plays(self, round: int) -> bool:
        """Whether the player is seated in round ``round``."""
        return self.withdrawn_after is None or round <= self.withdrawn_after


@dataclass(frozen=True)
class TournamentStanding:
    """One line of the standings. ``rounds``: the points of each round seated so far,
    None while the player's table plays and for rounds after they withdrew."""

    player: int
    place: int
    points: Fraction
    opponents: Fraction
    score: int
    rounds: tuple[Fraction | None, ...]
    games: int = 0  # tables finished
    byes: int = 0
    away: int = 0  # games played for them, in part or whole
    timeouts: int = 0  # their decisions that ran out
    withdrawn_after: int | None = None


@dataclass
class Tally:
    """A player's figures while they are counted (points in :data:`.points.UNIT` parts)."""

    rounds: list[int | None]
    score: int = 0
    games: int = 0
    byes: int = 0
    away: int = 0
    timeouts: int = 0
    points: int = 0
    opponents: int = 0

    @property
    def key(self) -> tuple[int, int, int]:
        """What the standings are sorted by, best first."""
        return (-self.points, -self.opponents, -self.score)

    def standing(self, player: int, place: int, withdrawn_after: int | None) -> TournamentStanding:
        return TournamentStanding(
            player,
            place,
            as_points(self.points),
            as_points(self.opponents),
            self.score,
            tuple(None if n is None else as_points(n) for n in self.rounds),
            self.games,
            self.byes,
            self.away,
            self.timeouts,
            withdrawn_after,
        )


def standings(
    settings: TournamentSettings,
    entrants: Sequence[Entrant],
    rounds: Sequence[Round],
    results: Iterable[TableResult],
) -> list[TournamentStanding]:
    """Every entrant, best first (see the module's docstring). ``rounds``: the rounds
    seated, round 1 first; ``results``: the finished tables."""
    tallies = tally(settings, entrants, rounds, checked(results, rounds))
    order = sorted(tallies, key=lambda p: (tallies[p].key, p))
    withdrawn = {e.player: e.withdrawn_after for e in entrants}
    lines: list[TournamentStanding] = []
    for index, player in enumerate(order):
        tied = index and tallies[order[index - 1]].key == tallies[player].key
        place = lines[-1].place if tied else index + 1
        lines.append(tallies[player].standing(player, place, withdrawn[player]))
    return lines


def tally(
    settings: TournamentSettings,
    entrants: Sequence[Entrant],
    rounds: Sequence[Round],
    finished: Sequence[TableResult],
) -> dict[int, Tally]:
    """Each entrant's figures: byes and tables round by round, then opponents' points."""
    tallies = {e.player: Tally([None] * len(rounds)) for e in entrants}
    skipped = sixtieths([1], settings.place_points)[0]
    for round_ in rounds:
        for player in round_.byes:
            tallies[player].rounds[round_.number - 1] = skipped
            tallies[player].byes += 1
    for result in finished:
        points = table_parts(result, settings.place_points)
        for seat in result.people:
            found = tallies[seat.player]
            found.rounds[result.round - 1] = points[seat.player]
            found.score += seat.score
            found.games += 1
            found.away += seat.away
            found.timeouts += seat.timeouts
    for found in tallies.values():
        found.points = sum(p for p in found.rounds if p is not None)
    for result in finished:
        people = [seat.player for seat in result.people]
        met = sum(tallies[p].points for p in people)
        for player in people:
            tallies[player].opponents += met - tallies[player].points
    return tallies


def checked(results: Iterable[TableResult], rounds: Sequence[Round]) -> list[TableResult]:
    """``results``, if each is the one result of a table as seated (else ValueError: a
    result that does not fit the seating would count points nobody played for)."""
    found: dict[tuple[int, int], TableResult] = {}
    for result in results:
        if not 1 <= result.round <= len(rounds):
            raise ValueError(f"a result of round {result.round} of {len(rounds)} seated")
        tables = rounds[result.round - 1].tables
        if not 1 <= result.table <= len(tables):
            raise ValueError(f"a result of table {result.table} of round {result.round}")
        table = tables[result.table - 1]
        people = sorted(seat.player for seat in result.people)
        if people != sorted(table.players) or len(result.seats) != table.seats:
            raise ValueError(
                f"round {result.round} table {result.table} seated "
                f"{sorted(table.players)} (+{table.computers}), not {people}"
            )
        if (result.round, result.table) in found:
            raise ValueError(f"round {result.round} table {result.table}: a second result")
        found[result.round, result.table] = result
    return list(found.values())
