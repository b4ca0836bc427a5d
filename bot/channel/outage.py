"""Whether Discord answers: since when it has not, as the channel's writes find it.

While Discord cannot be reached, the timer loop leaves the channels to the catch-up,
which stops at its first failed write, so that a tick costs one try; each change said
once in the log, when Discord goes away and when it comes back.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from bot.channel.budget import unreachable

log = logging.getLogger(__name__)


class Outage:
    """Since when Discord has not answered the channel's writes, if it has not."""

    def __init__(self, clock: Callable[[], float]) -> None:
        self.clock = clock
        self.since: float | None = None
        """Since when Discord has not answered (None: it did, last time it was asked)."""

    def failed(self, error: BaseException) -> None:
        """A write failed: if ``error`` says Discord is away, remember since when."""
        if unreachable(error) and self.since is None:
            self.since = self.clock()
            log.warning(
                "Discord cannot be reached (%s); channels are caught up once it answers again",
                error,
            )

    def reached(self) -> None:
        """A write went through: Discord is there (again)."""
        if self.since is not None:
            log.warning(
                "Discord answers again, after %.0f s; the lagging channels are caught up",
                self.clock() - self.since,
            )
            self.since = None
