"""Stand-ins the tests share."""

from __future__ import annotations

from datetime import UTC, datetime


class FakeClock:
    """Unix seconds that move only when a test moves them (``clock.now += 3600``,
    ``clock.tick(60)``, ``clock.set(when)``), or, given a ``step``, by ``step`` at each
    reading (so that no two stamps are equal)."""

    def __init__(self, now: float = 2_000_000_000.0, *, step: float = 0.0) -> None:
        self.now = now
        self.step = step

    def __call__(self) -> float:
        if self.step:
            self.now += self.step
        return self.now

    def tick(self, seconds: float = 1.0) -> float:
        """Move on ``seconds``; the time it is then."""
        self.now += seconds
        return self.now

    def set(self, when: datetime) -> None:
        self.now = when.timestamp()


def at(day: int, hour: int, minute: int = 0) -> float:
    """December ``day`` 2026, at ``hour``:``minute`` UTC: when the tests of quiet hours
    and time away play."""
    return datetime(2026, 12, day, hour, minute, tzinfo=UTC).timestamp()
