"""The daily challenge as the store keeps it: attempts, a ranking's message, a
server's daily settings, bests and where a score stands."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Attempt:
    """A member's attempt at a day's dice of one variant (``score`` None: unfinished)."""

    day: str
    variant: str
    user_id: int
    guild_id: int
    channel_id: int
    game_id: int
    score: int | None
    finished_at: float | None


@dataclass(frozen=True, slots=True)
class RankingPost:
    """A server's ranking message of a day and variant: where it is (``message_id``
    None: not posted yet) and how many finishes it has not shown yet."""

    channel_id: int
    message_id: int | None
    owed: int


@dataclass(frozen=True, slots=True)
class DailySettings:
    """A server's daily settings: the ranking's channel (None: where it is played) and
    the local hour, in ``timezone``, at which its day turns."""

    channel_id: int | None = None
    hour: int = 0
    timezone: str = "UTC"


@dataclass(frozen=True, slots=True)
class DailyBest:
    """A member's finished attempts at one variant, every day and place together."""

    variant: str
    days: int
    best: int
    average: float


@dataclass(frozen=True, slots=True)
class DailyStanding:
    """Where a score stands among everyone's of the same dice: ``above`` scored more,
    ``below`` less, ``players`` finished in all."""

    above: int
    below: int
    players: int

    @property
    def place(self) -> int:
        """The score's place (1 is first; equal scores share one)."""
        return self.above + 1
