"""Seating a round: how many tables of which sizes, who sits out, who sits where.

**Table sizes** (:func:`split`). The fewest tables that seat everyone, as even as the
numbers allow, larger tables first: ``n`` players at tables of ``size`` sit at
``ceil(n / size)`` tables whose sizes differ by one at most. At tables of four:

====  ====================  =======================  ===========================
n     smallest table 3      smallest table 4         Hard computers fill
====  ====================  =======================  ===========================
7     4 + 3                 4, 3 sit out             4 + (3 + 1 computer)
11    4 + 4 + 3             4 + 4, 3 sit out         4 + 4 + (3 + 1)
13    4 + 3 + 3 + 3         4 + 4 + 4, 1 sits out    4 + (3 + 1) × 3
====  ====================  =======================  ===========================

With computers every table is filled to ``size`` and nobody sits out (the smallest table
does not apply). Without them a table is never below the smallest table: if the even
split would make one, as few players as possible sit out (a *bye*, worth the points of
a skipped game: :mod:`.points`) so that the rest split evenly; fewer players than the
smallest table all sit out. Byes go to the players with the fewest byes so far, the
lowest placed of them first.

**Who sits where** (:func:`seat`). Players come in order, best first (round one by
rating, later rounds by the standings), and sit as *grouped* as they can: of two
seatings, the more grouped one seats the leader at a lower-numbered table, or, if at
the same, the second, and so on (the seatings compared as the list of each player's
table number in the players' order, lexicographically). The most grouped seating of all
cuts the order into tables: the leaders together at table 1, the next at table 2, ...;
each table lists its players best first.

When repeat opponents are avoided, the seating is the most grouped of those with the
fewest repeats (pairs at a table who met in an earlier round). A depth-first search in
the players' order finds the most grouped seating within an allowance of repeats: each
player takes the first table with room where the repeats stay within it, and the search
goes back when a later player would find no such table, so a leader moves down only as
far as needed, and only when needed. It looks first for a seating without a repeat.
When there is none, each player takes the first table with room where they have met the
fewest people, then a player who meets someone again swaps with the nearest player for
whom that lowers the repeats, while one does; the search looks for a seating with one
repeat, two, ... fewer than that, and then, at the fewest, for the most grouped seating
with that many: it has the fewest repeats possible and is the most grouped of those.

Each step (the search without repeats, the swaps, the searches with fewer repeats, the
search at the fewest, the grouping below) looks at :data:`SEARCH_WORK` tables and
players at most, a count rather than a clock, so a round is seated in some 40 ms of CPU
at most whatever the history (a late round of 256: the first search gives up, the swaps
find a seating without repeats and the grouping swaps group it, ~27 ms in all;
``python -m benchmarks --only tournament`` times it). Past that the best seating found
stands (few repeats, not always the fewest: that is a hard problem; the round is then
not :attr:`Round.exhaustive`, so that its message claims no more), grouped by swaps: in
the players' order, each moves to the lowest table where a player placed below them can
take their seat without more repeats, until no swap of two players would group it better
or the work runs out (in that round of 256, 89% of the players sit within one table of
where the standings' order would put them). All of it is deterministic: the same order
and history seat the same round.
"""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass

from .settings import TournamentSettings

SEARCH_WORK = 60_000  # tables and players each of five steps looks at: some 8 ms of CPU
Met = Mapping[int, Collection[int]]


@dataclass(frozen=True)
class Table:
    """Table ``number`` (1 seats the leaders): its people, best first, and how many
    Hard computers fill it."""

    number: int
    players: tuple[int, ...]
    computers: int = 0

    @property
    def seats(self) -> int:
        return len(self.players) + self.computers


@dataclass(frozen=True)
class Round:
    """A round as seated: its tables, who sits out, and how many pairs at a table had
    met before (0 when repeats are avoided and could be). ``exhaustive``: every search
    finished within its work, so no seating has fewer repeats (else the fewest found);
    ``grouped``: no seating more grouped has as few repeats (a search found it, not the
    swaps); ``at_random``: the players came in a random order (round one with nobody
    rated)."""

    number: int
    tables: tuple[Table, ...]
    byes: tuple[int, ...] = ()
    repeats: int = 0
    exhaustive: bool = True
    grouped: bool = True
    at_random: bool = False

    @property
    def players(self) -> tuple[int, ...]:
        """Everyone in the round: at the tables in table order, then those sitting out."""
        return (*(p for table in self.tables for p in table.players), *self.byes)


@dataclass(frozen=True)
class Split:
    """People and computers per table, table 1 first, and how many sit out."""

    people: tuple[int, ...]
    computers: tuple[int, ...]
    byes: int


def even(count: int, tables: int) -> tuple[int, ...]:
    """``count`` people over ``tables`` tables, the larger ones first."""
    if not tables:
        return ()
    size, larger = divmod(count, tables)
    return tuple(size + 1 if k < larger else size for k in range(tables))


def split(count: int, settings: TournamentSettings) -> Split:
    """How ``count`` players sit (see the module's docstring)."""
    size = settings.table_size
    if settings.computers:
        people = even(count, -(-count // size))
        return Split(people, tuple(size - n for n in people), 0)
    seated = count
    while seated and -(-seated // size) * settings.smallest > seated:
        seated -= 1
    people = even(seated, -(-seated // size))
    return Split(people, (0,) * len(people), count - seated)


def seeded(seed: int, round: int, player: int) -> int:
    """A number for ``player`` that orders players at random, the same for the same
    seed and round on every machine."""
    digest = hashlib.blake2b(f"{seed}:{round}:{player}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")


def first_order(players: Iterable[int], ratings: Mapping[int, float], seed: int) -> list[int]:
    """Round one's order: rated players by rating, best first, then the unrated; equal
    ratings, and the unrated, in a seeded random order."""

    def key(player: int) -> tuple[bool, float, int]:
        rating = ratings.get(player)
        return (rating is None, -(rating or 0.0), seeded(seed, 1, player))

    return sorted(players, key=key)


def met_before(rounds: Iterable[Round]) -> dict[int, set[int]]:
    """Whom each player has sat at a table with (people only)."""
    met: dict[int, set[int]] = {}
    for round_ in rounds:
        for table in round_.tables:
            for player in table.players:
                met.setdefault(player, set()).update(p for p in table.players if p != player)
    return met


def repeats(groups: Iterable[Sequence[int]], met: Met) -> int:
    """How many pairs sitting together have met before."""
    return sum(
        1
        for group in groups
        for k, a in enumerate(group)
        for b in group[k + 1 :]
        if b in met.get(a, ())
    )


def seat(
    order: Sequence[int],
    settings: TournamentSettings,
    number: int,
    met: Met | None = None,
    byes_had: Mapping[int, int] | None = None,
    work: int = SEARCH_WORK,
) -> Round:
    """Round ``number`` for the players of ``order`` (best first): byes, then tables
    (see the module's docstring); ``met``: whom each has met (:func:`met_before`),
    ``byes_had``: how many byes each has had; ``work``: what each step of the search
    may look at."""
    plan = split(len(order), settings)
    byes_had = byes_had or {}
    place = {player: k for k, player in enumerate(order)}
    out = set(sorted(order, key=lambda p: (byes_had.get(p, 0), -place[p]))[: plan.byes])
    byes = [p for p in order if p in out]
    playing = [p for p in order if p not in out]
    met = met or {}
    grouped = group(playing, plan.people, met if settings.avoid_repeats else {}, work)
    tables = tuple(
        Table(k + 1, tuple(sorted(people, key=place.__getitem__)), computers)
        for k, (people, computers) in enumerate(zip(grouped.tables, plan.computers, strict=True))
    )
    count = repeats(grouped.tables, met)
    return Round(number, tables, tuple(byes), count, grouped.exhaustive, grouped.searched)


@dataclass(frozen=True)
class Grouped:
    """Players at tables; ``exhaustive``: no search ran out of work on the way, so none
    has fewer repeats; ``searched``: a search found it, so none more grouped has as few
    (the first seating in the players' order within its allowance)."""

    tables: list[list[int]]
    exhaustive: bool
    searched: bool = True


def group(
    players: Sequence[int], sizes: Sequence[int], met: Met, work: int = SEARCH_WORK
) -> Grouped:
    """``players`` (best first) at tables of ``sizes``: in order when nobody has met,
    else the most grouped seating with the fewest repeats, as far as ``work`` allows
    each step (see the module's docstring). A search that finds nothing within its
    allowance proves that there is no such seating unless it ran out of work; the
    seating found is sure only if every search before it proved so."""
    if not any(met.get(p) for p in players):
        cuts = [sum(sizes[:k]) for k in range(len(sizes) + 1)]
        return Grouped([list(players[a:b]) for a, b in itertools.pairwise(cuts)], True)
    search = Search(players, sizes, met, 0, Work(work))
    found = search.run()
    if found is not None:
        return Grouped(found, True)
    sure = not search.work.ran_out
    swapped = fewer_repeats(fewest_repeats(players, sizes, met), met, Work(work))
    fewest = repeats(swapped, met)
    shared = Work(work)
    for allowed in range(1, fewest):
        found = Search(players, sizes, met, allowed, shared).run()
        if found is not None:
            return Grouped(found, sure)
    sure = sure and not shared.ran_out
    if fewest:
        search = Search(players, sizes, met, fewest, Work(work))
        found = search.run()
        if found is not None:
            return Grouped(found, sure)
    return Grouped(more_grouped(swapped, players, met, Work(work)), False, searched=False)


@dataclass
class Work:
    """What one seating may still look at (:data:`SEARCH_WORK`): a count, not a clock,
    so that the seating is the same on any machine."""

    left: int

    def spend(self, amount: int) -> bool:
        """Whether there was room for ``amount`` more."""
        self.left -= amount
        return self.left >= 0

    @property
    def ran_out(self) -> bool:
        return self.left < 0


class Search:
    """Depth-first, in the players' order: each takes the first table with room where the
    repeats stay within ``allowed``, the next one when the players after them find no
    seat; empty tables of one size are alike, so only the first of them is tried."""

    def __init__(
        self, players: Sequence[int], sizes: Sequence[int], met: Met, allowed: int, work: Work
    ) -> None:
        self.players = players
        self.sizes = sizes
        self.met = met
        self.allowed = allowed
        self.work = work
        self.tables: list[list[int]] = [[] for _ in sizes]
        self.table_of: dict[int, int] = {}

    def run(self) -> list[list[int]] | None:
        """The seating, or None if there is none or the work ran out."""
        chosen: list[tuple[int, int]] = []  # each seated player's table and repeats there
        index, start, found = 0, 0, 0
        while index < len(self.players):
            player = self.players[index]
            if not self.work.spend(len(self.tables) - start + len(self.met.get(player, ()))):
                return None
            seat = self.first_table(player, start, self.allowed - found)
            if seat is not None:
                k, more = seat
                self.tables[k].append(player)
                self.table_of[player] = k
                chosen.append(seat)
                index, start, found = index + 1, 0, found + more
                continue
            if not chosen:
                return None
            index -= 1
            last, more = chosen.pop()
            self.tables[last].pop()
            del self.table_of[self.players[index]]
            start, found = last + 1, found - more
        return self.tables

    def first_table(self, player: int, start: int, room: int) -> tuple[int, int] | None:
        """The first table from ``start`` with a seat for ``player`` where they meet at
        most ``room`` people again (but an empty one like an empty one before it), and
        how many they meet there."""
        again: dict[int, int] = {}
        for other in self.met.get(player, ()):
            k = self.table_of.get(other)
            if k is not None:
                again[k] = again.get(k, 0) + 1
        empty = {self.sizes[k] for k in range(start) if not self.tables[k]}
        for k in range(start, len(self.tables)):
            table, size = self.tables[k], self.sizes[k]
            if len(table) == size or again.get(k, 0) > room:
                continue
            if not table:
                if size in empty:
                    continue
                empty.add(size)
            return k, again.get(k, 0)
        return None


def fewest_repeats(players: Sequence[int], sizes: Sequence[int], met: Met) -> list[list[int]]:
    """Each player in order at the first table with room where they have met the
    fewest people."""
    tables: list[list[int]] = [[] for _ in sizes]
    for player in players:
        known = met.get(player, ())
        open_ = (k for k, table in enumerate(tables) if len(table) < sizes[k])
        best = min(open_, key=lambda k: (sum(p in known for p in tables[k]), k))
        tables[best].append(player)
    return tables


def again(player: int, table: Iterable[int], met: Met, without: int | None = None) -> int:
    """How many at ``table`` (but ``player`` and ``without``) ``player`` has met."""
    known = met.get(player, ())
    return sum(1 for other in table if other != player and other != without and other in known)


def fewer_repeats(tables: list[list[int]], met: Met, work: Work) -> list[list[int]]:
    """``tables`` after swaps that lower the repeats, until none does or the work runs
    out: a player who meets someone again changes places with the player of the nearest
    table for whom the swap lowers them most (so players move as little as they can)."""
    while work.spend(sum(map(len, tables))):
        swap = next(
            (
                found
                for i, table in enumerate(tables)
                for a in table
                if again(a, table, met) and (found := best_swap(tables, i, a, met, work))
            ),
            None,
        )
        if swap is None:
            break
        i, a, j, b = swap
        tables[i][tables[i].index(a)] = b
        tables[j][tables[j].index(b)] = a
    return tables


def best_swap(
    tables: list[list[int]], i: int, a: int, met: Met, work: Work
) -> tuple[int, int, int, int] | None:
    """The swap of ``a`` (at table ``i``) with a player of the nearest table where one
    lowers the repeats, the one that lowers them most there."""
    for j in sorted(range(len(tables)), key=lambda j: (abs(j - i), j)):
        if j == i:
            continue
        if not work.spend(len(tables[j]) * (len(tables[i]) + len(tables[j]))):
            return None
        gains = [
            (
                again(a, tables[i], met)
                + again(b, tables[j], met)
                - again(a, tables[j], met, b)
                - again(b, tables[i], met, a),
                -k,
                b,
            )
            for k, b in enumerate(tables[j])
        ]
        gain, _, b = max(gains)
        if gain > 0:
            return i, a, j, b
    return None


def more_grouped(
    tables: list[list[int]], players: Sequence[int], met: Met, work: Work
) -> list[list[int]]:
    """``tables`` after swaps that group ``players`` (best first) better without adding
    a repeat, until none does or the work runs out: in the players' order, each moves to
    the lowest table where a player placed below them can take their seat instead (the
    lowest placed such player) without more repeats; again while a pass moved someone."""
    place = {player: k for k, player in enumerate(players)}
    table_of = {p: k for k, table in enumerate(tables) for p in table}
    moved = True
    while moved:
        moved = False
        for a in players:
            for j in range(table_of[a]):
                i = table_of[a]
                if not work.spend(len(tables[i]) + len(tables[j])):
                    return tables
                b = next(
                    (
                        b
                        for b in sorted(tables[j], key=place.__getitem__, reverse=True)
                        if place[b] > place[a]
                        and again(a, tables[j], met, b) + again(b, tables[i], met, a)
                        <= again(a, tables[i], met) + again(b, tables[j], met)
                    ),
                    None,
                )
                if b is not None:
                    tables[i][tables[i].index(a)] = b
                    tables[j][tables[j].index(b)] = a
                    table_of[a], table_of[b] = j, i
                    moved = True
                    break
    return tables
