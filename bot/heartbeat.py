"""The bot's sign of life: a file (``QWIXX_HEARTBEAT``) the timer loop touches after each
pass, and ``qwixx-bot health``, which says whether its last touch is recent. The Docker
image's ``HEALTHCHECK`` runs the latter: a bot whose loop is stuck, or that never got
set up, is then shown as unhealthy."""

from __future__ import annotations

import logging
from pathlib import Path

log = logging.getLogger(__name__)

STALE_AFTER = 300.0
"""Seconds without a pass after which the bot is not alive: passes come every 15 s, and
the first after an outage, catching up every channel, may take a few minutes."""


class Heartbeat:
    """Touches ``path``; a failure is logged once (until it works again), never raised."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._failing = False

    def beat(self) -> None:
        try:
            self.path.touch()
        except OSError as error:
            if not self._failing:
                log.warning("cannot touch %s (%s)", self.path, error.strerror or error)
            self._failing = True
        else:
            self._failing = False


def health(path: Path, now: float, stale_after: float = STALE_AFTER) -> tuple[bool, str]:
    """Whether ``path`` says the bot is alive at ``now``, and the line that says so."""
    try:
        age = now - path.stat().st_mtime
    except FileNotFoundError:
        return False, (
            f"no sign of life yet: {path} is missing (the bot writes it once it is set up, "
            "then after every pass of its timers)"
        )
    except OSError as error:
        return False, f"cannot read {path}: {error.strerror or error}"
    if age > stale_after:
        return False, (
            f"the timers' last pass (by {path}) was {age:,.0f} s ago, more than "
            f"{stale_after:,.0f} s: the bot is stuck or stopped"
        )
    return True, f"alive, the timers' last pass {max(age, 0):,.0f} s ago"
