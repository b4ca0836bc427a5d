"""What the store keeps of a person and what forgetting them did."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class ServerData:
    """What one server's games keep about a person."""

    guild_id: int
    name: str | None = None
    """The display name kept for images (None: none)."""
    games: int = 0
    """Games they sat in, any status (lobbies, running, finished, abandoned)."""
    results: int = 0
    """Finished games with their score and rank."""
    counted: int = 0
    """Of those, the ones counted for the leaderboard and statistics."""
    first: float | None = None
    last: float | None = None
    """When their first and last result was recorded."""
    variants: int = 0
    """Variants with all-time totals (leaderboard sums)."""
    ratings: tuple[tuple[str, int], ...] = ()
    """Their ratings: (variant, rated games)."""
    accuracies: int = 0
    """Reviewed games with their accuracy."""
    daily: int = 0
    """Daily challenges they played that count for this server."""
    tournaments: int = 0
    """Tournaments they signed up for (their sign-up, check-in, tables and points)."""
    organised: int = 0
    """Tournaments they organised."""


@dataclass(frozen=True, slots=True)
class Forgotten:
    """What forgetting a person did: the anonymous id, the names removed, the games
    whose seats now carry it, the rows changed per table."""

    anonymous_id: int
    names: int
    games: int
    rows: dict[str, int]
