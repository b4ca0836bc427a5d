"""Stand-ins the tests share."""

from __future__ import annotations


class FakeClock:
    """Unix seconds that move only when a test moves them (``clock.now += 3600``)."""

    def __init__(self, now: float = 2_000_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now
