"""Decision deadlines as data: turn times, reminder times, what is due when, the
people's quiet hours holding calls and reminders back until they end.

Pure functions of timestamps (unix seconds), so the scheduler, the store and
the tests agree on what is due without any sleeping task.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Literal

from bot.i18n.words import t
from bot.records import GameRecord, Timing
from bot.service.prefs import Prefs
from bot.text import quote

MINUTE, HOUR, DAY = 60, 3600, 86400
SHORTEST, LONGEST, DEFAULT_TURN_TIME = 5 * MINUTE, 7 * DAY, DAY
DEFAULT_LIVE_TIME = 10 * MINUTE
"""A decision's time in a game played live, unless the server chose another."""
UNITS = {"m": MINUTE, "h": HOUR, "d": DAY}
PART = re.compile(r"([0-9]+)([mhd])")
LONGEST_TEXT = 20
"""No duration needs more: ``"1d 23h 59m"`` is 10 characters."""


class DurationError(ValueError):
    """A turn time that cannot be read or lies outside 5m-7d; the message says which."""


def parse_duration(text: str) -> int:
    """``"5m"``, ``"90m"``, ``"1h30m"``, ``"24h"``, ``"7d"`` → seconds (5 minutes to 7 days).

    Strict on purpose: other scripts' digits (full-width ``５m``) and repeated units
    (``1m1m…``) are refused, not guessed at; the refusal quotes the input shortened.
    """
    cleaned = "".join(text.lower().split())
    if len(cleaned) > LONGEST_TEXT:
        raise DurationError(t("duration.too_long", text=quote(text)))
    if not cleaned.isascii():
        raise DurationError(t("duration.not_read", text=quote(text)))
    parts = PART.findall(cleaned)
    if not cleaned or PART.sub("", cleaned):
        raise DurationError(t("duration.not_duration", text=quote(text)))
    units = [unit for _, unit in parts]
    if len(set(units)) < len(units):
        raise DurationError(t("duration.repeats", text=quote(text)))
    seconds = sum(int(n) * UNITS[unit] for n, unit in parts)
    if not SHORTEST <= seconds <= LONGEST:
        raise DurationError(t("duration.range", text=quote(text)))
    return seconds


def format_duration(seconds: int) -> str:
    """The shortest exact text: ``86400`` → ``"24h"``, ``5400`` → ``"1h30m"``."""
    if seconds % DAY == 0 and seconds >= 2 * DAY:
        return f"{seconds // DAY}d"
    hours, rest = divmod(seconds, HOUR)
    minutes = rest // MINUTE
    return (f"{hours}h" if hours else "") + (f"{minutes}m" if minutes or not hours else "")


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


Quiet = tuple[tuple[int, Prefs], ...]
"""The people with quiet hours, and their preferences."""


@dataclass(frozen=True)
class Clock:
    """When the current decision began and ends, and how many of its moments went by
    (:meth:`moments`: the reminders, and the ends of the people's quiet hours)."""

    started: float
    deadline: float
    reminders: int = 0
    quiet: Quiet = ()
    """The people whose quiet hours hold their calls and reminders back."""

    @classmethod
    def start(cls, now: float, turn_time: int, quiet: Quiet = ()) -> Clock:
        return cls(now, now + turn_time, 0, quiet)

    @property
    def reminder_times(self) -> tuple[float, float]:
        """Half-time, and shortly before the end (a tenth of the time, at most an hour)."""
        length = self.deadline - self.started
        return self.started + length / 2, self.deadline - min(HOUR, length / 10)

    @cached_property
    def moments(self) -> tuple[Moment, ...]:
        """What the clock does before its deadline, in order: the two rounds of
        reminders, each skipping the people in their quiet hours then; and the end of
        each stretch of quiet hours the decision began in, or a round fell in (a call
        held back, a reminder owed), if it comes before the deadline."""
        rounds = [
            Moment(at, "round", frozenset(p for p, prefs in self.quiet if prefs.quiet_now(at)))
            for at in self.reminder_times
        ]
        wakes: dict[float, tuple[set[int], set[int]]] = {}
        for person, prefs in self.quiet:
            for at, skipped in ((self.started, False), *((r.at, True) for r in rounds)):
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
    def of(cls, record: GameRecord, quiet: Quiet = ()) -> Clock | None:
        """The clock of a stored game's pending decision, if it has one."""
        if record.stage_started is None or record.deadline is None:
            return None
        return cls(record.stage_started, record.deadline, record.reminders, quiet)

    def reminded(self) -> Clock:
        """The clock once its next moment went by."""
        return replace(self, reminders=self.reminders + 1)

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
