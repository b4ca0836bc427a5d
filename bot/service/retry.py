"""One compare-and-set policy for every change that may lose a race to another writer
(a game, a tournament, the ratings): try again on a fresh read a few times, then
refuse politely as busy."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Final, TypeVar

from bot.service.errors import ServiceError

log = logging.getLogger(__name__)
T = TypeVar("T")

ATTEMPTS: Final = 5
"""Tries of one change before it is given up as busy."""
BUSY: Final = "error.busy"
"""What the person is told then: someone else changed it at the same moment, try again."""

Conflicts = type[Exception] | tuple[type[Exception], ...]


def busy() -> ServiceError:
    """The refusal of :data:`BUSY`."""
    return ServiceError(BUSY)


async def retry(
    attempt: Callable[[], Awaitable[T]],
    conflicts: Conflicts,
    what: str,
    refusal: Callable[[], ServiceError] = busy,
) -> T:
    """What ``attempt()`` returns, tried again each time it raises one of ``conflicts``
    (another writer came first: each try reads afresh); after :data:`ATTEMPTS` of
    them, ``refusal()`` (:data:`BUSY` unless the thing changed says it its own way),
    from the last conflict. ``what`` names the thing changed in the log."""
    last: Exception | None = None
    for _ in range(ATTEMPTS):
        try:
            return await attempt()
        except conflicts as conflict:
            log.info("%s changed concurrently; trying again", what)
            last = conflict
    raise refusal() from last
