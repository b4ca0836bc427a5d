"""What a leaderboard image lists, in words: its lines and headers (no Pillow here, so
a command can build them without loading the drawing code; :mod:`.leaderboard` draws
them)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class BoardRow:
    """One table line: ``rank`` as shown (``"–"`` for an unranked player)."""

    rank: str
    name: str
    values: tuple[str, ...]
    you: bool = False
    detached: bool = False  # drawn apart, after a gap (the caller outside the top)
    leader: bool = False  # rank 1 (with a real standing): the gold band
    medal: bool = True  # a medal for ranks 1 to 3; False: no standing to show one for


@dataclass(frozen=True)
class BoardTable:
    """What the image shows; ``headers`` has one entry per value column."""

    title: str
    subtitle: str
    rank_header: str
    name_header: str
    headers: tuple[str, ...]
    rows: tuple[BoardRow, ...]
    footer: str
    sorted_column: int | None = None  # index into ``headers``
