"""Decision deadlines as data: turn times, reminder times, what is due when, the
people's quiet hours holding calls and reminders back until they end.

Pure functions of timestamps (unix seconds), so the scheduler, the store and
the tests agree on what is due without any sleeping task.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property
from typing import Literal

from bot.durations import DAY, HOUR, MINUTE
from bot.records.games import GameRecord, Timing
from bot.records.prefs import Prefs

DEFAULT_TURN_TIME = DAY
NUDGES = (HOUR, 2 * HOUR, 4 * HOUR, 8 * HOUR, 12 * HOUR)
"""A long decision's reminders for those who asked to be reminded soon and again, after
it opened (see :attr:`DecisionClock.rounds`)."""
NUDGED_FROM = 12 * HOUR
DEFAULT_LIVE_TIME = 10 * MINUTE
"""A decision's time in a game played live, unless the server chose another."""


@dataclass(frozen=True)
class Moment:
    """A moment a decision's clock acts at, before its deadline: a ``round`` of reminders
    (``held``: the people it skips, in their quiet hours), or a ``wake``, the end of
    some people's quiet hours (``woken``: they are called now if the game still waits
    for them and nobody did; ``owed``: those of them a round skipped, reminded now)."""

    at: float
    kind: Literal["round", "wake"]
    held: frozenset[int] = frozenset()
    woken: frozenset[int] = frozenset()
    owed: frozenset[int] = frozenset()
    only: frozenset[int] | None = None
    """A round's people, if not everyone still deciding."""
    but: frozenset[int] = frozenset()
    """Those a round for everyone is not for."""

    def counts(self, person: int) -> bool:
        """Whether this round is for ``person``."""
        return person in self.only if self.only is not None else person not in self.but

    def covers(self, other: Moment) -> bool:
        """Whether this round is for everyone ``other`` is for."""
        if self.only is None:
            return other.but >= self.but if other.only is None else self.but.isdisjoint(other.only)
        return other.only is not None and self.only >= other.only


Timed = tuple[tuple[int, Prefs], ...]
"""The people whose preferences shape a decision's clock (quiet hours, reminders soon
and again), with their preferences."""


@dataclass(frozen=True)
class DecisionClock:
    """When the current decision began and ends, and how many of its moments went by
    (:meth:`moments`: the reminders, and the ends of the people's quiet hours)."""

    started: float
    deadline: float
    reminders: int = 0
    people: Timed = ()
    """The people whose quiet hours hold their calls and reminders back, or who asked
    to be reminded soon and again."""

    @classmethod
    def start(cls, now: float, turn_time: int, people: Timed = ()) -> DecisionClock:
        return cls(now, now + turn_time, 0, people)

    @property
    def rounds(self) -> tuple[Moment, ...]:
        """The rounds of reminders, without their quiet hours yet: at half time, and
        shortly before the end (a tenth of the time, at most an hour). A decision of half
        a day or more (played over days) reminds those who asked to be reminded soon and
        again after 1, 2, 4, 8 and 12 hours instead of at half time, the gaps doubling
        while an answer is most likely to come soon."""
        length = self.deadline - self.started
        half, last = self.started + length / 2, self.deadline - min(HOUR, length / 10)
        nudged = frozenset(p for p, prefs in self.people if prefs.nudge)
        if not nudged or length < NUDGED_FROM:
            return (Moment(half, "round"), Moment(last, "round"))
        found = [
            Moment(self.started + after, "round", only=nudged)
            for after in NUDGES
            if self.started + after < last
        ]
        found.append(Moment(half, "round", but=nudged))
        return (*sorted(found, key=lambda r: r.at), Moment(last, "round"))

    @cached_property
    def moments(self) -> tuple[Moment, ...]:
        """What the clock does before its deadline, in order: the rounds of reminders,
        each skipping the people in their quiet hours then; and the end of each stretch
        of quiet hours the decision began in, or a round of theirs fell in (a call held
        back, a reminder owed), if it comes before the deadline."""
        quiet = [(p, prefs) for p, prefs in self.people if prefs.quiet is not None]
        rounds = [
            replace(
                r,
                held=frozenset(p for p, prefs in quiet if prefs.quiet_now(r.at) and r.counts(p)),
            )
            for r in self.rounds
        ]
        wakes: dict[float, tuple[set[int], set[int]]] = {}
        for person, prefs in quiet:
            theirs = [r.at for r in rounds if r.counts(person)]
            for at, skipped in ((self.started, False), *((at, True) for at in theirs)):
                end = prefs.quiet_end(at)
                if end is None or end >= self.deadline:
                    continue
                woken, owed = wakes.setdefault(end, (set(), set()))
                woken.add(person)
                if skipped:
                    owed.add(person)
        found = rounds + [
            Moment(at, "wake", woken=frozenset(woken), owed=frozenset(owed))
            for at, (woken, owed) in wakes.items()
        ]
        return tuple(sorted(found, key=lambda m: (m.at, m.kind == "wake")))

    def next_due(self) -> float:
        """When something next happens: a moment, or the deadline."""
        moments = self.moments
        return moments[self.reminders].at if self.reminders < len(moments) else self.deadline

    def moment(self) -> Moment | None:
        """The next moment (None: only the deadline is left)."""
        moments = self.moments
        return moments[self.reminders] if self.reminders < len(moments) else None

    @classmethod
    def of(cls, record: GameRecord, people: Timed = ()) -> DecisionClock | None:
        """The clock of a stored game's pending decision, if it has one."""
        if record.stage_started is None or record.deadline is None:
            return None
        return cls(record.stage_started, record.deadline, record.reminders, people)

    def reminded(self) -> DecisionClock:
        """The clock once its next moment went by."""
        return replace(self, reminders=self.reminders + 1)

    def caught_up(self, now: float) -> DecisionClock:
        """The clock with the rounds of reminders that a later one due at ``now`` makes
        stale let go (after downtime, or a long gap between passes, one reminder says
        what several would have)."""
        moments, clock = self.moments, self
        while clock.reminders + 1 < len(moments):
            stale, later = moments[clock.reminders], moments[clock.reminders + 1]
            if stale.kind != "round" or later.kind != "round" or later.at > now:
                break
            if not later.covers(stale):
                break
            clock = clock.reminded()
        return clock

    def timing(self) -> Timing:
        """As stored: with the moment the scheduler must look again."""
        return Timing(self.started, self.deadline, self.reminders, self.next_due())

    def due(self, now: float) -> str | None:
        """``"expire"``, ``"remind"`` (a moment: see :meth:`moment`) or None. An overdue
        deadline skips its moments."""
        if now >= self.deadline:
            return "expire"
        if self.reminders < len(self.moments) and now >= self.next_due():
            return "remind"
        return None
