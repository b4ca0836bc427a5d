"""Tournaments as pure data and functions: no Discord, no I/O, no clock, no global random.

Like :mod:`bot.rules` for a game, this package is the one place that says what a
tournament's settings allow, how a round is seated and what the standings are; the
store keeps its values, the service runs it and the Discord layer words it.

- :mod:`.settings`: :class:`TournamentSettings`, :func:`validate`,
  :class:`SettingsRefusal` (catalogue keys), the default points per place;
- :mod:`.points`: a table's result and the points by place (ties shared, short tables,
  skipped games);
- :mod:`.seating`: table sizes, byes, and who sits where (leaders grouped, repeat
  opponents avoided);
- :mod:`.standings`: places, points and tie-breaks, withdrawals;
- :mod:`.rounds`: the next round from all that was played.

Everything is deterministic: a seed given by the caller stands in for chance.
"""

from __future__ import annotations

from .points import SeatResult, TableResult, points_text, skipped_points, table_points
from .rounds import complete, next_round
from .seating import Round, Split, Table, first_order, met_before, seat, split
from .settings import SettingsRefusal, TournamentSettings, default_points, parse_points, validate
from .standings import Entrant, TournamentStanding, standings

__all__ = [
    "Entrant",
    "Round",
    "SeatResult",
    "SettingsRefusal",
    "Split",
    "Table",
    "TableResult",
    "TournamentSettings",
    "TournamentStanding",
    "complete",
    "default_points",
    "first_order",
    "met_before",
    "next_round",
    "parse_points",
    "points_text",
    "seat",
    "skipped_points",
    "split",
    "standings",
    "table_points",
    "validate",
]
