"""How a game is played beyond its rules: its record's ``options``, read."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from bot.players import DEFAULT_LEVEL, LEVELS, is_computer
from bot.records.memo import IdentityMemo

STAND_IN_LEVEL = "normal"  # who plays an away seat of a game started with fill_away


@dataclass(frozen=True)
class Options:
    """How a game is played beyond its rules, as stored in ``record.options``.

    ``levels``: each computer seat's level; ``solo``: a one-person practice game;
    ``hints``: sheets carry a Hint button; ``fill_away``: a computer plays away seats.
    """

    levels: Mapping[int, str] = field(default_factory=dict)
    solo: bool = False
    hints: bool = False
    fill_away: bool = False

    @classmethod
    def of(cls, options: Mapping[str, Any]) -> Options:
        """A record's options, read once per ``options`` object (twice a click)."""
        return _OPTIONS(options)

    @classmethod
    def read(cls, options: Mapping[str, Any]) -> Options:
        levels = {int(p): str(v) for p, v in options.get("levels", {}).items() if v in LEVELS}
        return cls(
            levels,
            bool(options.get("solo")),
            bool(options.get("hints")),
            bool(options.get("fill_away")),
        )

    def level(self, player: int) -> str:
        """The level a computer plays ``player``'s seat at."""
        return self.levels.get(player, DEFAULT_LEVEL) if is_computer(player) else STAND_IN_LEVEL

    @property
    def counted(self) -> bool:
        """Whether the game may count for the leaderboard at all."""
        return not (self.solo or self.hints)


_OPTIONS: IdentityMemo[Mapping[str, Any], Options] = IdentityMemo(Options.read)
