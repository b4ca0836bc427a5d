"""The ratings as the store keeps them, and the games waiting to be rated."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class StoredRating:
    """A person's rating as stored: ``games`` rated games so far."""

    mu: float
    sigma: float
    games: int


@dataclass(frozen=True, slots=True)
class RatedLine:
    """A person's rating before and after one game."""

    player_id: int
    before: StoredRating
    after: StoredRating


@dataclass(frozen=True, slots=True)
class GameToRate:
    """A counted game not rated yet: its people's lines ``(player, rank, counts)``
    (``counts`` False: a stand-in played the seat), and how many seats it had."""

    game_id: int
    guild_id: int
    variant: str
    finished_at: float
    seats: int
    people: tuple[tuple[int, int, bool], ...]

    @property
    def has_computers(self) -> bool:
        """Whether seats beyond the people's were computers (their ranks are in the game)."""
        return self.seats > len(self.people)
