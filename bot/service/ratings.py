"""Skill ratings per server and variant: pure functions over OpenSkill's Plackett-Luce
model, from each counted game's ranking.

A rating is ``(mu, sigma)``: the model's estimate of a player's skill and its
uncertainty. What people read (:func:`read`, the one mapping every message and image
uses) is the estimate on the scale chess players know: a newcomer reads :data:`START`
(1500), and a lead of 400 points means what it means in Elo — between two players the
model is sure of, the stronger wins 10 duels in 11 (:data:`POINTS` a unit of ``mu``).
Only results move it: a game's ranking against the model's expectation, never the
number of games; the uncertainty only decides how far one game moves it. A rating is
*provisional* (``1500?``) for its first :data:`PROVISIONAL` games, and ranks by the
number read, like any other.

Who takes part in a game's update (:func:`match_of`):

* every person whose result counts (the game counted, the seat was not played by a
  computer while they were away), rated and updated;
* every computer seat, at the fixed rating of its level (:data:`COMPUTER`), never
  updated;
* a stand-in seat (a computer that played someone's seat while they were away)
  counts for nobody: it is left out, as if the seat had not been at the table.

Ties share a rank and are ties for the model too. A game with fewer than two seats
taking part changes nothing.

The computers' fixed ratings: ``normal`` sits at the model's starting ``mu`` (a
newcomer is taken to play about as well as Normal), ``easy`` and ``hard`` one step
below and above it, the step being the gap at which the model expects the stronger
of two computers to win 75% of their duels — the narrowest lead a level keeps over the
one below in any variant (``python -m benchmarks.bench_players``: classic's Hard beats
Normal in 75.6% of 4,000 duels; every other pair and variant wins 80–93%):
``beta * sqrt(2 + 2 (sigma / beta)^2) * ln(0.75 / 0.25)``, about 6.7. Their ``sigma``
is small (1): the model treats them as known quantities, so beating Hard (mu 31.7,
read 1698) moves a person up far more than beating Easy (mu 18.3, read 1302).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from math import log, sqrt
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from openskill.models import PlackettLuce

MU: Final = 25.0  # the model's defaults: a newcomer's rating
SIGMA: Final = MU / 3
START: Final = 1500  # what a newcomer's rating reads
PROVISIONAL: Final = 5  # games under which a rating is marked provisional
BETA: Final = SIGMA / 2  # the model's default
ELO: Final = 400 / log(10)  # Elo's points per unit of log-odds: 400 points, 10 to 1
POINTS: Final = ELO / (sqrt(2) * BETA)
"""Points read per unit of ``mu`` (about 29.5): between two players of small ``sigma``
the model's log-odds of a duel are their gap in ``mu`` over ``sqrt(2) beta``."""
COMPUTER_SIGMA: Final = 1.0
COMPUTER_DUEL: Final = 0.75  # how often a level beats the one below it, at the least
COMPUTER_STEP: Final = round(
    BETA * sqrt(2 + 2 * (COMPUTER_SIGMA / BETA) ** 2) * log(COMPUTER_DUEL / (1 - COMPUTER_DUEL)), 1
)
COMPUTER: Final[Mapping[str, tuple[float, float]]] = {
    "easy": (MU - COMPUTER_STEP, COMPUTER_SIGMA),
    "normal": (MU, COMPUTER_SIGMA),
    "hard": (MU + COMPUTER_STEP, COMPUTER_SIGMA),
}


@dataclass(frozen=True, slots=True)
class Rating:
    """A person's rating in one server and variant, after ``games`` rated games."""

    mu: float = MU
    sigma: float = SIGMA
    games: int = 0

    @property
    def points(self) -> int:
        """The number people read: the estimate on the Elo-like scale, whole."""
        return round(START + POINTS * (self.mu - MU))

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL


NEW: Final = Rating()


def read(rating: Rating) -> str:
    """A rating as people read it, in every language: ``1624``, ``1500?`` while
    provisional, a typographic minus below zero."""
    number = str(rating.points).replace("-", "−")
    return number + ("?" if rating.provisional else "")


@dataclass(frozen=True, slots=True)
class RankedSeat:
    """One seat taking part in a game's update: a person (``player`` > 0, rated) or a
    computer (``level``, fixed), and its rank (1 best; equal ranks are a tie)."""

    rank: int
    player: int | None = None
    level: str | None = None


@dataclass(frozen=True, slots=True)
class RatingChange:
    """A person's rating before and after one game."""

    player: int
    before: Rating
    after: Rating

    @property
    def delta(self) -> int:
        """The change of the number read."""
        return self.after.points - self.before.points


def told(changes: Iterable[RatingChange]) -> dict[int, tuple[str, int]]:
    """What a final message tells of each person's rating: as read after the game, and
    its change."""
    return {c.player: (read(c.after), c.delta) for c in changes}


def match_of(
    people: Iterable[tuple[int, int, bool]], computers: Iterable[tuple[str, int]]
) -> tuple[RankedSeat, ...]:
    """The seats of a game's update: ``people`` as ``(player, rank, counts)`` (a seat
    that does not count, a stand-in's, is left out), ``computers`` as ``(level, rank)``
    (an unknown level plays as ``easy``, the default one). Ordered by rank, people
    before computers, then by id, so the same game always makes the same match."""
    seats = [RankedSeat(rank, player=player) for player, rank, counts in people if counts]
    seats += [
        RankedSeat(rank, level=level if level in COMPUTER else "easy") for level, rank in computers
    ]
    return tuple(
        sorted(seats, key=lambda s: (s.rank, s.player is None, s.player or 0, s.level or ""))
    )


@cache
def _model() -> PlackettLuce:
    # Imported at the first rating (a rated game's end), not with the bot: 1.4 MB.
    from openskill.models import PlackettLuce

    return PlackettLuce(mu=MU, sigma=SIGMA)


def rate(match: Sequence[RankedSeat], ratings: Mapping[int, Rating]) -> list[RatingChange]:
    """The people's new ratings after ``match`` (``ratings``: their current ones;
    someone missing is new). No change when fewer than two seats take part."""
    people = [s.player for s in match if s.player is not None]
    if len(match) < 2 or not people:
        return []
    model = _model()
    before = {p: ratings.get(p, NEW) for p in people}
    teams = []
    for seat in match:
        if seat.player is not None:
            rating = before[seat.player]
            teams.append([model.rating(mu=rating.mu, sigma=rating.sigma)])
        else:
            mu, sigma = COMPUTER[seat.level or "easy"]
            teams.append([model.rating(mu=mu, sigma=sigma)])
    rated = model.rate(teams, ranks=[float(s.rank) for s in match])
    changes = []
    for seat, (new,) in zip(match, rated, strict=True):
        if seat.player is not None:
            old = before[seat.player]
            changes.append(
                RatingChange(
                    seat.player, old, Rating(float(new.mu), float(new.sigma), old.games + 1)
                )
            )
    return changes


def replay(
    matches: Iterable[Sequence[RankedSeat]], ratings: Mapping[int, Rating] | None = None
) -> dict[int, Rating]:
    """Ratings after ``matches`` in order, from ``ratings`` (default: everyone new)."""
    found = dict(ratings or {})
    for match in matches:
        for change in rate(match, found):
            found[change.player] = change.after
    return found


def standings(ratings: Mapping[int, Rating]) -> list[tuple[int, int, Rating]]:
    """``(rank, player, rating)`` best first by the number read; equal numbers share a
    rank (1, 2, 2, 4), listed by more games, then by id."""
    keyed = sorted(ratings.items(), key=lambda pr: (-pr[1].points, -pr[1].games, pr[0]))
    ranked: list[tuple[int, int, Rating]] = []
    for index, (player, rating) in enumerate(keyed):
        same = ranked and ranked[-1][2].points == rating.points
        ranked.append((ranked[-1][0] if same else index + 1, player, rating))
    return ranked
