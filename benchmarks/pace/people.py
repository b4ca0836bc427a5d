"""The simulated people: when they are awake, when they look at Discord, and whether a
notification brings them (the model is described in :mod:`benchmarks.bench_async`).

Each person draws from two generators of their own, seeded by the run's seed, the game
and their seat: one for the looks they take by themselves, one for the notifications.
So the looks a person takes by themselves are the same whatever the bot does, and two
behaviours meet the same people."""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass

MINUTE, HOUR, DAY = 60.0, 3600.0, 86400.0


@dataclass(frozen=True)
class Model:
    """The people's habits, the same for every behaviour of the bot."""

    looks: float = 4.0
    """Looks at Discord per waking day, at random (a Poisson process while awake)."""
    awake_hours: float = 16.0
    wakes_at: float = 7.0
    """The local hour a person wakes at (asleep from ``wakes_at + awake_hours``)."""
    spread: float = 3.0
    """Time zones: each person's offset from UTC is drawn uniformly within ± this many
    hours, per game."""
    look_minutes: float = 3.0
    """A look answers everything waiting on the person at any moment while it lasts."""
    tap_seconds: float = 10.0
    """What each tap takes, reading and deciding included; people at the table tap
    one after another."""
    notice: float = 1 / 3
    """The chance that a notification received awake brings a look."""
    notice_within: float = 30.0
    """Minutes within which that look comes (uniformly)."""

    @property
    def look_seconds(self) -> float:
        return self.look_minutes * MINUTE

    @property
    def mean_gap(self) -> float:
        """Seconds of waking time between two looks, on average."""
        return self.awake_hours * HOUR / self.looks


class Person:
    """One simulated member: their time zone and their draws."""

    def __init__(self, member: int, offset: float, model: Model, key: str) -> None:
        self.member = member
        self.offset = offset
        """Seconds ahead of UTC."""
        self.model = model
        self._looks = random.Random(f"{key}:looks")
        self._notices = random.Random(f"{key}:notices")
        self._wake = model.wakes_at * HOUR
        self._day = model.awake_hours * HOUR

    def local(self, when: float) -> float:
        """Seconds since the person's local midnight."""
        return (when + self.offset) % DAY

    def _since_waking(self, when: float) -> float:
        """Seconds since the person last woke (a hair short of a day is a day: the
        moment they wake, whatever the rounding)."""
        since = (self.local(when) - self._wake) % DAY
        return 0.0 if DAY - since < 1e-6 else since

    def awake(self, when: float) -> bool:
        return self._since_waking(when) < self._day

    def wakes(self, when: float) -> float:
        """``when`` if the person is awake then, else the moment they wake."""
        since = self._since_waking(when)
        return when if since < self._day else when + DAY - since

    def night(self) -> tuple[int, int]:
        """The person's night as quiet hours in UTC: (from, to), minutes after midnight."""
        sleep = (self.model.wakes_at + self.model.awake_hours) * HOUR - self.offset
        wake = self.model.wakes_at * HOUR - self.offset
        return (round(sleep / MINUTE) % 1440, round(wake / MINUTE) % 1440)

    def sleeps(self, when: float) -> float:
        """The moment the person, awake at ``when``, falls asleep."""
        return when + self._day - self._since_waking(when)

    def next_look(self, after: float) -> float:
        """When the person next looks by themselves: a gap of waking time drawn from the
        exponential law (the process is memoryless, so it may start anew at any look)."""
        gap = self._looks.expovariate(1.0 / self.model.mean_gap)
        when = self.wakes(after)
        while gap >= self.sleeps(when) - when:
            gap -= self.sleeps(when) - when
            when = self.sleeps(when) + DAY - self._day  # the next morning
        return when + gap

    def notified(self, when: float) -> float | None:
        """When a notification received at ``when`` brings the person to look, or None:
        never asleep, once in ``notice`` otherwise, within ``notice_within`` minutes; a
        look that would fall in their night does not happen. Both draws are made
        whatever the outcome: each notification takes two numbers of the person's own
        stream, and no other draw."""
        chance = self._notices.random()
        delay = self._notices.uniform(0.0, self.model.notice_within * MINUTE)
        if not self.awake(when) or chance >= self.model.notice:
            return None
        return when + delay if self.awake(when + delay) else None

    def changes(self, start: float, end: float) -> list[float]:
        """The moments within [start, end) the person wakes or falls asleep."""
        awake = self.awake(start)
        edge, found = (self.sleeps(start) if awake else self.wakes(start)), []
        while edge < end:
            found.append(edge)
            edge += DAY - self._day if awake else self._day
            awake = not awake
        return found


def asleep_together(people: list[Person], start: float, end: float) -> float:
    """Seconds of (start, end) during which every one of ``people`` is asleep."""
    cuts = sorted({start, end, *(t for p in people for t in p.changes(start, end))})
    return sum(
        b - a for a, b in itertools.pairwise(cuts) if not any(p.awake((a + b) / 2) for p in people)
    )
