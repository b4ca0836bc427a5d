"""Values derived once per part of a record (its options, its presence), for the many
reads of one click."""

from __future__ import annotations

from collections.abc import Callable
from typing import Final, Generic, TypeVar

KEPT: Final = 4_096
"""Games (or values) kept; when full, a memo starts again empty."""
S = TypeVar("S")
V = TypeVar("V")


class IdentityMemo(Generic[S, V]):
    """``derive(source)``, derived once per source *object*: for the parts of a record
    (its options, its presence), which a click finds as the same objects as long as
    they are unchanged (see :mod:`bot.store.cache`). Sources are values, never
    changed in place, and so must the derived values be. Each source is kept with its
    value, so its identity cannot pass to another object meanwhile."""

    def __init__(self, derive: Callable[[S], V], kept: int = KEPT) -> None:
        self._derive = derive
        self._kept = kept
        self._values: dict[int, tuple[S, V]] = {}

    def __call__(self, source: S) -> V:
        kept = self._values.get(id(source))
        if kept is not None and kept[0] is source:
            return kept[1]
        value = self._derive(source)
        if len(self._values) >= self._kept:
            self._values.clear()  # each step here is atomic: the memo serves two threads
        self._values[id(source)] = (source, value)
        return value
