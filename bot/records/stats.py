"""Results and statistics as the store reads them: totals, recent scores, history,
practice bests and accuracies."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final


@dataclass(frozen=True, slots=True)
class Totals:
    """Counted games of one player (in one variant, or all), summed."""

    player_id: int
    games: int
    wins: int
    score_sum: int
    best: int


@dataclass(frozen=True, slots=True)
class RecentScore:
    variant: str
    score: int
    finished_at: float


@dataclass(frozen=True, slots=True)
class HistoryLine:
    player_id: int
    score: int
    rank: int
    won: bool
    stand_in: bool = False


@dataclass(frozen=True, slots=True)
class HistoryGame:
    """A finished game as the history shows it; ``lines`` best first."""

    game_id: int
    channel_id: int
    variant: str
    started_at: float
    finished_at: float
    turns: int
    counted: bool
    lines: tuple[HistoryLine, ...]
    practice: bool = False
    hints: bool = False
    tournament: str | None = None
    """The tournament whose table the game was, and in which round."""
    round: int | None = None

    @property
    def daily(self) -> bool:
        """A daily challenge's game: played in no channel (see bot/service/daily.py)."""
        return self.channel_id < 0


@dataclass(frozen=True, slots=True)
class PracticeBest:
    """A player's solo practice games of one variant: how many, best and last score."""

    variant: str
    games: int
    best: int
    last: int


REVIEW_DUE: Final = "due"
"""``games.shown["review"]`` while a final message waits for the people's accuracies."""


@dataclass(frozen=True, slots=True)
class Accuracy:
    """A person's stored accuracy: in one game, or averaged over ``games`` games."""

    accuracy: float
    games: int = 1
