"""Decoded game rows kept in memory, so a row read again unchanged is not decoded again.

A click reads its game's row. Handing back the *same* record for an unchanged row
spares decoding its JSON columns, and lets the service reuse the game it built for
that record (:mod:`bot.service.memo`) rather than build it again from the state.
:class:`RecordCache` keeps, per running game or lobby, the last row seen and the
:class:`GameRecord` decoded from it; a row read later is handed the kept record only
if it is *equal* to the kept row, column for column. So the cache can never show
anything but what the database holds: a write by another :class:`Store` or process
changes at least ``version`` and ``updated_at``, and a column written without a version
bump (``message_id``, ``shown``) changes the row too; either way the row differs and is
decoded afresh.

A write returns the row as it wrote it (``RETURNING``), which goes through the cache
too, so the next click's read of the unchanged row finds it. A row that changed since
the kept one (a click's state, version and clock) is made from the kept record: the
columns whose text is unchanged keep their decoded values, the very objects, so what
the service built on them (a game's options, its seats) is found again.

Records (and their dicts) are shared by every reader of the same row: they are values,
never to be changed in place. A record keeps its state as the row's text (decoded at
each read of ``record.state``), so a kept game costs its text, not a decoded copy; and
the texts of the columns that take few values (:data:`SHARED`) are interned, so a
thousand kept rows hold one ``running``, one ``classic`` and one ``{}`` rather than a
thousand each (0.3 MB less with 1,000 games open, ``bench_startup``).
"""

from __future__ import annotations

import sys
from typing import Any, Final

from bot.records.games import ACTIVE_STATUSES, GameRecord, stored_state

from .engine import Row
from .records import GAME_COLUMNS, changed, game_from_row, load_json

KEPT: Final = 4_096
"""Games kept; when full, the cache starts again empty (a click then decodes once)."""
NAMES: Final = tuple(name.strip() for name in GAME_COLUMNS.split(","))
"""The columns, each named as its :class:`GameRecord` field."""
_INDEX: Final = {name: i for i, name in enumerate(NAMES)}
_JSON: Final = frozenset({"options", "players", "presence", "shown"})
SHARED: Final = tuple(
    _INDEX[name] for name in ("variant", "status", "options", "presence", "shown")
)
"""The columns whose texts a row keeps interned: few distinct values among many games."""


def shared(row: tuple[Any, ...]) -> tuple[Any, ...]:
    """``row`` with the texts of the :data:`SHARED` columns interned (equal values, so
    an equal row: only the objects kept differ)."""
    values = list(row)
    for index in SHARED:
        value = values[index]
        if type(value) is str:
            values[index] = sys.intern(value)
    return tuple(values)


def moved_on(before_row: tuple[Any, ...], before: GameRecord, row: tuple[Any, ...]) -> GameRecord:
    """The record of ``row``, the same game's row after ``before_row`` (``before``'s):
    only the columns that differ are decoded."""
    changes: dict[str, Any] = {}
    for name, old, new in zip(NAMES, before_row, row, strict=True):
        if old != new:
            if name in _JSON:
                new = load_json(new)
            elif name == "state":
                new = stored_state(new)
            changes[name] = new
    return changed(before, changes)


class RecordCache:
    """The last row of each game read or written through one store, with its record."""

    def __init__(self, kept: int = KEPT) -> None:
        self._kept = kept
        self._rows: dict[int, tuple[tuple[Any, ...], GameRecord]] = {}
        self.hits = 0
        self.misses = 0

    def record(self, row: Row) -> GameRecord:
        """The record of ``row`` (a row of :data:`GAME_COLUMNS`), decoded only if new."""
        row = tuple(row)
        kept = self._rows.get(row[0])
        if kept is not None and kept[0] == row:
            self.hits += 1
            return kept[1]
        self.misses += 1
        row = shared(row)
        record = game_from_row(row) if kept is None else moved_on(*kept, row)
        self._keep(row, record)
        return record

    def _keep(self, row: tuple[Any, ...], record: GameRecord) -> None:
        """Keep ``row`` as its game's; an ended game's is let go (it is seldom read
        again, and a long-running bot would otherwise hold every game it saw end)."""
        if record.status not in ACTIVE_STATUSES:
            self._rows.pop(record.id, None)
            return
        if len(self._rows) >= self._kept and row[0] not in self._rows:
            self._rows.clear()
        self._rows[row[0]] = (row, record)
