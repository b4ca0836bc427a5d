"""An adjustable clock, so tests can age interaction tokens without sleeping."""

import time
from collections.abc import Callable


class SandboxClock:
    """Monotonic seconds plus an offset that tests may advance."""

    def __init__(self, source: Callable[[], float] = time.monotonic) -> None:
        self._source = source
        self._offset = 0.0
        self._listeners: list[Callable[[], None]] = []

    def now(self) -> float:
        """Current time in seconds."""
        return self._source() + self._offset

    def advance(self, seconds: float) -> None:
        """Move time forward and let listeners (deadline checks) react."""
        self._offset += seconds
        for listener in list(self._listeners):
            listener()

    def on_advance(self, listener: Callable[[], None]) -> None:
        """Call ``listener`` after every :meth:`advance`."""
        self._listeners.append(listener)
