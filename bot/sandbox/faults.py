"""Injected REST faults: the next N matching requests answer 429 or 5xx."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from .routing import match_template

_log = logging.getLogger(__name__)


@dataclass
class Fault:
    """A pending fault for requests matching ``method`` and ``route``."""

    status: int
    method: str | None
    route: str | None
    remaining: int
    retry_after: float
    is_global: bool = False

    def matches(self, method: str, template: str, path: str) -> bool:
        """True if this fault applies to the request."""
        if self.method is not None and self.method != method:
            return False
        if self.route is None:
            return True
        return self.route == template or match_template(self.route, path) is not None

    def reply(self) -> tuple[int, dict[str, Any], dict[str, str]]:
        """Status, body and headers Discord would send."""
        if self.status == 429:
            body = {
                "message": "You are being rate limited.",
                "retry_after": self.retry_after,
                "global": self.is_global,
                "code": 0,
            }
            headers = {
                "Via": "1.1 google",
                "Retry-After": str(max(1, round(self.retry_after))),
                "X-RateLimit-Scope": "global" if self.is_global else "user",
            }
            return 429, body, headers
        return self.status, {"message": "Internal Server Error", "code": 0}, {}


class Faults:
    """The queue of faults waiting to be served."""

    def __init__(self) -> None:
        self.pending: list[Fault] = []
        self.served: list[tuple[str, str, int]] = []
        """(method, route template, status) of every fault answered."""

    def add(
        self,
        status: int,
        *,
        method: str | None = None,
        route: str | None = None,
        count: int = 1,
        retry_after: float = 0.05,
        is_global: bool = False,
    ) -> Fault:
        """Answer the next ``count`` matching requests with ``status`` (429, 500, 502…)."""
        fault = Fault(status, method, route, count, retry_after, is_global)
        self.pending.append(fault)
        return fault

    def take(self, method: str, template: str, path: str) -> Fault | None:
        """Consume one use of the first fault matching this request."""
        for fault in self.pending:
            if fault.remaining > 0 and fault.matches(method, template, path):
                fault.remaining -= 1
                self.served.append((method, template, fault.status))
                _log.info("sandbox injects %s on %s %s", fault.status, method, path)
                return fault
        return None


CHANNEL_WRITES = ("/channels/{channel_id}/messages", "/channels/{channel_id}/messages/{message_id}")


class ChannelWriteLimit:
    """Discord's limit on message writes per channel (about 5 per 5 s): past it, a 429.

    Every 429 served here is also recorded as a failure: a bot that keeps to the
    budget never sees one.
    """

    def __init__(self, writes: int = 5, window: float = 5.0) -> None:
        self.writes = writes
        self.window = window
        self._sent: dict[str, list[float]] = {}

    def take(self, method: str, template: str, path: str, now: float) -> Fault | None:
        """A 429 if this write goes over the channel's budget; None (and counted) if not."""
        if method not in ("POST", "PATCH", "DELETE") or template not in CHANNEL_WRITES:
            return None
        sent = self._sent.setdefault(path.split("/")[2], [])
        sent[:] = [at for at in sent if at > now - self.window]
        if len(sent) >= self.writes:
            return Fault(429, method, template, 0, round(sent[0] + self.window - now, 3))
        sent.append(now)
        return None
