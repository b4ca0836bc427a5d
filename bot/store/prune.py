"""``qwixx-bot prune``: the move and event logs of games that ended long ago.

A game's moves and events are most of the database (a classic game: about 60 moves
and 150 events against one ``games`` row), and once the game has ended and its
channel shows its end nothing reads them: the history's final sheets are drawn from
the game row's final state, and the leaderboards, statistics, ratings and history
from ``matches``, ``results``, the totals and the rating tables. So the logs of games
that finished or were abandoned before a date can go, and everything else stays:
the game rows, results, totals, ratings and names. What goes with them is the
replay of those games from their seed (:meth:`bot.service.games.GameService.replay`,
the audit trail).

Never touched: lobbies, running games, and an ended game whose channel does not yet
show its end (``shown_version < version``: the channel is caught up from its events).

The same SQL serves both backends (see :mod:`bot.store.dialect`). Games go in batches
of :data:`BATCH`, one short write transaction each, so a bot running on the same
database waits for one batch at most.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Final

from bot.progress import stage, watched

from .records import ENDED_STATUSES
from .sql import Connection

if TYPE_CHECKING:
    from .store import Store

BATCH: Final = 200
"""Games whose logs one write transaction removes."""
_ENDED: Final = ", ".join(f"'{status}'" for status in ENDED_STATUSES)
PRUNABLE_SQL: Final = (
    f"status IN ({_ENDED}) AND finished_at < ? AND shown_version >= version "
    "AND (EXISTS (SELECT 1 FROM moves WHERE moves.game_id = games.id) "
    "OR EXISTS (SELECT 1 FROM game_events WHERE game_events.game_id = games.id))"
)
"""``games`` rows ended before ``?`` (unix seconds), shown whole, with logs left."""


@dataclass(frozen=True, slots=True)
class PruneReport:
    """What a prune removed (or, in a dry run, would remove)."""

    games: int
    """Games whose logs went (a game whose logs are gone already is not counted)."""
    moves: int
    events: int
    dry_run: bool
    free_bytes: int | None = None
    """SQLite: free space inside the file after the prune, reused by new rows before
    the file grows (None on PostgreSQL)."""
    freed_bytes: int | None = None
    """SQLite: how much of :attr:`free_bytes` the prune freed."""


async def _free_bytes(store: Store) -> int | None:
    """The free pages inside a SQLite file, in bytes (None on PostgreSQL)."""
    if store.backend != "sqlite":
        return None
    pages = await store._fetch("PRAGMA freelist_count")
    size = await store._fetch("PRAGMA page_size")
    return int(pages[0][0]) * int(size[0][0])


async def count_prunable(store: Store, before: float) -> PruneReport:
    """What :func:`prune` would remove of games that ended before ``before`` (a dry run)."""
    games = f"SELECT id FROM games WHERE {PRUNABLE_SQL}"
    counts = await store._fetch(
        f"SELECT (SELECT COUNT(*) FROM games WHERE {PRUNABLE_SQL}), "
        f"(SELECT COUNT(*) FROM moves WHERE game_id IN ({games})), "
        f"(SELECT COUNT(*) FROM game_events WHERE game_id IN ({games}))",
        (before, before, before),
    )
    found, moves, events = (int(value) for value in counts[0])
    return PruneReport(found, moves, events, dry_run=True, free_bytes=await _free_bytes(store))


def _prune_batch(
    conn: Connection, before: float, after_id: int, batch: int
) -> tuple[int, int, int, int]:
    """Remove the logs of the next ``batch`` prunable games after ``after_id``, in one
    transaction: ``(games, moves, events, last game id)``; ``games`` 0 when none is left."""
    rows = conn.execute(
        f"SELECT id FROM games WHERE id > ? AND {PRUNABLE_SQL} ORDER BY id LIMIT ?",
        (after_id, before, batch),
    ).fetchall()
    ids = [int(row[0]) for row in rows]
    if not ids:
        return 0, 0, 0, after_id
    marks = ", ".join("?" for _ in ids)
    moves = conn.execute(f"DELETE FROM moves WHERE game_id IN ({marks})", ids).rowcount
    events = conn.execute(f"DELETE FROM game_events WHERE game_id IN ({marks})", ids).rowcount
    return len(ids), moves, events, ids[-1]


async def prune(
    store: Store, before: float, *, dry_run: bool = False, batch: int = BATCH
) -> PruneReport:
    """Remove the moves and events of the games that finished or were abandoned before
    ``before`` (unix seconds) and whose channel shows their end; keep everything else.
    With ``dry_run``, only count them."""
    if dry_run:
        return await count_prunable(store, before)
    free = await _free_bytes(store)
    games = moves = events = 0
    after_id = 0
    found = (
        await store._fetch(f"SELECT COUNT(*) FROM games WHERE {PRUNABLE_SQL}", (before,))
        if watched()
        else [(0,)]
    )
    with stage("removing the logs of ended games", int(found[0][0]), "games") as advance:
        while True:
            done = await store._transact(
                partial(_prune_batch, before=before, after_id=after_id, batch=batch)
            )
            if not done[0]:
                break
            games, moves, events = games + done[0], moves + done[1], events + done[2]
            after_id = done[3]
            advance(done[0])
    free_now = await _free_bytes(store)
    freed = None if free is None or free_now is None else max(0, free_now - free)
    return PruneReport(games, moves, events, dry_run=False, free_bytes=free_now, freed_bytes=freed)
