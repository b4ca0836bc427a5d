"""A table's result and the tournament points it gives.

A result is each seat's final score and rank as the game ranked them (equal ranks are
ties), whether a computer played it (computers take their places, so a person they beat
scores as against anyone, but they get no points and stand nowhere), whether it was
played for an absent person (away, or after they withdrew: the seat plays on and its
place counts like any other), and how many of its decisions ran out (counted as the
game's rules say: a fallback move, nothing more, but told in the standings).

Points by place (:attr:`.settings.TournamentSettings.place_points`):

* **Ties share**: players tied over places p to q get the mean of those places'
  points. With the default points (two a player beaten) that is one point a player tied
  with, always a whole number; custom lists may give fractions, kept exact.
* **A table short of seats** (no computers to fill it) counts each missing seat as a
  place tied with every player: a group's share spans its places and the missing ones
  after them. With the default points a missing player is worth one point to each, the
  mean of beating and losing to them, so a short table gives each player on average
  what a full one does: at tables of four (6, 4, 2, 0) a table of three gives 5, 3, 1.
* **A skipped game** (a bye) is a table of one: the mean of all places' points
  (:func:`skipped_points`, 3 at four with the defaults).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from bot.rules import Standing

UNIT = 60  # a share is a mean of at most MOST_SEATS places: a whole number of sixtieths
MOST_SEATS = 6
FRACTIONS = {
    Fraction(1, 2): "½",
    Fraction(1, 3): "⅓",
    Fraction(2, 3): "⅔",
    Fraction(1, 4): "¼",
    Fraction(3, 4): "¾",
    Fraction(1, 5): "⅕",
    Fraction(2, 5): "⅖",
    Fraction(3, 5): "⅗",
    Fraction(4, 5): "⅘",
}


@dataclass(frozen=True)
class SeatResult:
    """One seat at a finished table."""

    player: int
    score: int
    rank: int  # 1 is best; tied seats share their best rank (1, 1, 3)
    computer: bool = False
    away: bool = False  # played for the person (away, or after withdrawing)
    timeouts: int = 0  # decisions that ran out


@dataclass(frozen=True)
class TableResult:
    """A finished table of round ``round`` (tables are numbered from 1)."""

    round: int
    table: int
    seats: tuple[SeatResult, ...]

    @classmethod
    def of(
        cls,
        round: int,
        table: int,
        ranking: Sequence[Standing],
        computers: Collection[int] = (),
        away: Collection[int] = (),
        timeouts: Mapping[int, int] | None = None,
    ) -> TableResult:
        """The result of a finished game from its ranking (:meth:`bot.rules.Game.ranking`)."""
        timeouts = timeouts or {}
        return cls(
            round,
            table,
            tuple(
                SeatResult(
                    s.player,
                    s.total,
                    s.rank,
                    s.player in computers,
                    s.player in away,
                    timeouts.get(s.player, 0),
                )
                for s in ranking
            ),
        )

    @property
    def people(self) -> tuple[SeatResult, ...]:
        return tuple(seat for seat in self.seats if not seat.computer)


def sixtieths(ranks: Sequence[int], place_points: Sequence[int]) -> list[int]:
    """The points of seats ranked ``ranks`` (in any order) at a table of ``len(ranks)``
    seats, with ``place_points`` for a full table (see the module's docstring), in
    :data:`UNIT` parts of a point: whole numbers, so that sums are exact and quick."""
    missing = len(place_points) - len(ranks)
    if missing < 0 or len(place_points) > MOST_SEATS:
        raise ValueError(f"{len(ranks)} seats at a table of {len(place_points)}")
    tied: dict[int, int] = {}
    for rank in ranks:
        tied[rank] = tied.get(rank, 0) + 1
    if any(rank != 1 + sum(n for r, n in tied.items() if r < rank) for rank in tied):
        raise ValueError(f"ranks {sorted(ranks)} are not a ranking (1, 1, 3, ...)")
    found = {}
    for rank, count in tied.items():
        span = place_points[rank - 1 : rank - 1 + count + missing]
        found[rank] = sum(span) * (UNIT // len(span))
    return [found[rank] for rank in ranks]


def shares(ranks: Sequence[int], place_points: Sequence[int]) -> list[Fraction]:
    """:func:`sixtieths` as points."""
    return [as_points(n) for n in sixtieths(ranks, place_points)]


@lru_cache(maxsize=4096)
def as_points(parts: int) -> Fraction:
    """``parts`` :data:`UNIT` parts of a point as points (the same few values over and
    over: made once)."""
    return Fraction(parts, UNIT)


def skipped_points(place_points: Sequence[int]) -> Fraction:
    """The points of a skipped game: a table of one, all other seats missing."""
    return shares([1], place_points)[0]


def table_points(result: TableResult, place_points: Sequence[int]) -> dict[int, Fraction]:
    """Each person's points at ``result``'s table (computers get none)."""
    return {player: as_points(n) for player, n in table_parts(result, place_points).items()}


def table_parts(result: TableResult, place_points: Sequence[int]) -> dict[int, int]:
    """:func:`table_points` in :data:`UNIT` parts of a point."""
    parts = sixtieths([seat.rank for seat in result.seats], place_points)
    return {
        seat.player: n for seat, n in zip(result.seats, parts, strict=True) if not seat.computer
    }


def points_text(value: Fraction, whole: Callable[[int], str] = str) -> str:
    """``5``, ``4½``, ``⅓``: points (never negative) as written, exact; a fraction no
    character writes as ``7 5/12``. ``whole`` writes the whole part (digits grouped the
    language's way, say)."""
    units, part = divmod(value, 1)
    head = whole(units) if units or not part else ""
    if not part:
        return head
    glyph = FRACTIONS.get(Fraction(part))
    return f"{head}{glyph}" if glyph else f"{head} {part.numerator}/{part.denominator}".strip()
