"""How many lobbies and running games a server has, and who sits in them: what the
limits against abuse count (:mod:`bot.service.limits`).

One read per check, of the server's lobbies and running games only: the partial index
on active games (``games_due``) bounds it, whatever the server's finished history.
Daily challenges are not counted: they hold no channel, and each member has at most one
per variant a day.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .queries import ACTIVE_SQL
from .records import RUNNING, load_json

if TYPE_CHECKING:
    from .sql import Row

# No ORDER BY: SQLite would then walk the whole table in id order rather than the
# partial index of active games. A daily challenge's game holds no channel (its id is
# negative, see bot/service/daily.py) and counts against no limit.
IN_PLAY_SQL = (
    f"SELECT id, players, status, presence FROM games WHERE {ACTIVE_SQL} "
    "AND guild_id = ? AND channel_id > 0"
)


@dataclass(frozen=True)
class InPlay:
    """A lobby or running game, with the people who still play in it: a lobby's
    seats, a running game's seats but those away (they left, or stopped deciding)."""

    game_id: int
    people: frozenset[int]


def in_play(row: Row) -> InPlay:
    game_id, players, status, presence = row
    away = set(load_json(presence or "{}").get("away", [])) if status == RUNNING else set()
    return InPlay(int(game_id), frozenset(p for p in load_json(players) if p not in away))


class LimitQueries:
    """The limits' read of :class:`~bot.store.Store` (mixed into it)."""

    if TYPE_CHECKING:

        async def _fetch(self, sql: str, params: Sequence[Any]) -> list[Row]: ...

    async def games_in_play(self, guild_id: int) -> list[InPlay]:
        """The lobbies and running games of ``guild_id``, oldest first."""
        found = [in_play(row) for row in await self._fetch(IN_PLAY_SQL, (guild_id,))]
        return sorted(found, key=lambda game: game.game_id)
