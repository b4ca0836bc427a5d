"""What a tournament's standings image lists, in words (no Pillow here, so a command
builds it without loading the drawing code; :mod:`.standings` draws it).

The image is the leaderboard's ruled table (:class:`.lines.BoardTable`) with a line per
place: place, name, points, opponents' points, total score, and a short note after a
name (a withdrawal, say). It shows at most :data:`TOP` lines: on a phone that is one
screen of lines whose digits stay as large as Discord's text; 256 lines would be an
image some 10,000 px tall, which Discord shows shrunk past reading, and columns side by
side would leave each name a few letters. So the image shows the leaders, and for a
member who asks (``viewer``) the leaders and, after a gap, the lines around their own;
every place is in the text that goes with it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace

from bot.i18n.words import whole
from bot.tournament import TournamentStanding, points_text

from .describe import leaderboard_alt
from .lines import BoardRow, BoardTable

TOP = 20  # lines at most
AROUND = 2  # lines shown above and below a viewer outside the top


@dataclass(frozen=True)
class StandingsRow(BoardRow):
    """A leaderboard line with a short note drawn after the name (muted, smaller)."""

    note: str = ""


def excerpt(count: int, viewer: int | None = None) -> list[tuple[int, bool]]:
    """Which of ``count`` lines the image shows, as (index, whether a gap comes before
    it): all of them up to :data:`TOP`; else the first :data:`TOP`, or, when the line
    at index ``viewer`` is not among them with :data:`AROUND` lines below it, the first
    ones and the viewer's, :data:`TOP` in all."""
    if count <= TOP:
        return [(k, False) for k in range(count)]
    if viewer is None or viewer + AROUND < TOP:
        return [(k, False) for k in range(TOP)]
    end = min(count, viewer + AROUND + 1)
    start = end - (2 * AROUND + 1)
    head = TOP - (end - start)
    return [(k, False) for k in range(head)] + [(k, k == start) for k in range(start, end)]


def standings_rows(
    standings: Sequence[TournamentStanding],
    names: Mapping[int, str],
    viewer: int | None = None,
    notes: Mapping[int, str] | None = None,
    number: Callable[[int], str] = whole,
) -> tuple[StandingsRow, ...]:
    """The image's lines for ``standings`` (best first): the :func:`excerpt` around
    ``viewer``'s line (a player id, framed) if given. ``notes``: a note per player;
    ``number`` writes whole numbers (the language's grouping by default)."""
    notes = notes or {}
    index = next((k for k, s in enumerate(standings) if s.player == viewer), None)
    played = any(s.games or s.byes for s in standings)  # no medals before anyone has
    rows = []
    for k, gap in excerpt(len(standings), index):
        line = standings[k]
        rows.append(
            StandingsRow(
                str(line.place),
                names.get(line.player, str(line.player)),
                (
                    points_text(line.points, number),
                    points_text(line.opponents, number),
                    number(line.score),
                ),
                you=line.player == viewer,
                detached=gap,
                leader=played and line.place == 1,
                medal=played,
                note=notes.get(line.player, ""),
            )
        )
    return tuple(rows)


def standings_alt(table: BoardTable) -> str:
    """The image's description: the leaderboard's (:func:`.describe.leaderboard_alt`),
    each note in brackets after its name."""
    rows = tuple(
        replace(row, name=f"{row.name} ({row.note})")
        if isinstance(row, StandingsRow) and row.note
        else row
        for row in table.rows
    )
    # TableLike declares its attributes settable, which a frozen BoardTable's are not
    return leaderboard_alt(replace(table, rows=rows))  # type: ignore[arg-type]
