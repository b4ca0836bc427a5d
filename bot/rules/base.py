"""Values and the abstract game shared by every variant.

A game is plain data. ``apply`` never mutates: it returns a new game and the
events that happened, so the service can store the result atomically and the
same seed plus the same moves always replays the same game.
"""

from __future__ import annotations

import copy
import random
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Self


class RuleError(ValueError):
    """A move that the rules do not allow right now."""


@dataclass(frozen=True)
class Move:
    """One decision of one player. ``kind`` says what it is; the rest qualifies it."""

    kind: str
    row: str | None = None
    number: int | None = None
    dice: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": self.kind}
        if self.row is not None:
            data["row"] = self.row
        if self.number is not None:
            data["number"] = self.number
        if self.dice:
            data["dice"] = list(self.dice)
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Move:
        return cls(data["kind"], data.get("row"), data.get("number"), tuple(data.get("dice", ())))


PASS = Move("pass")


@dataclass(frozen=True)
class Event:
    """Something worth telling the players, e.g. ``Event("locked", player, {"row": "red"})``."""

    kind: str
    player: int | None = None
    data: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Decision:
    """Who the game waits for: ``waiting`` players must decide in ``phase``."""

    phase: str
    turn: int
    active: int | None
    waiting: frozenset[int]


@dataclass(frozen=True)
class Score:
    """A player's score, broken down the way the sheet shows it."""

    player: int
    rows: dict[str, int]
    penalties: int
    penalty_points: int
    bonus: int
    total: int


@dataclass(frozen=True)
class Standing:
    rank: int
    player: int
    total: int


def dice_rng(seed: int, *salt: object) -> random.Random:
    """A generator derived from the game's seed and a position in the game.

    Seeding with a string is stable across processes and Python versions, so a
    replay rolls exactly what the original game rolled.
    """
    return random.Random(":".join(str(part) for part in (seed, *salt)))


class Game(ABC):
    """The public API that every variant implements."""

    variant: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    # Phases in which every player decides at once (choices collect in ``chosen`` and
    # apply together); in every other phase only the active player decides.
    simultaneous_phases: ClassVar[tuple[str, ...]]
    phase: str
    chosen: dict[int, Move]

    def __init__(self, players: Sequence[int], seed: int, options: dict[str, Any]) -> None:
        self.players: tuple[int, ...] = tuple(players)
        self.seed = seed
        self.options = dict(options)
        self.turn = 1
        self.end_reason: str | None = None

    # --- decisions -------------------------------------------------------
    def decision(self) -> Decision:
        """The current phase and the players the game waits for."""
        if self.finished:
            return Decision("finished", self.turn, None, frozenset())
        if self.phase in self.simultaneous_phases:
            waiting = frozenset(p for p in self.players if p not in self.chosen)
        else:
            waiting = frozenset({self.active})
        return Decision(self.phase, self.turn, self.active, waiting)

    @abstractmethod
    def legal_moves(self, player: int) -> list[Move]:
        """Every move ``player`` may make now (empty when it is not their decision)."""

    @abstractmethod
    def _apply(self, player: int, move: Move) -> list[Event]:
        """Apply a legal move to this (already copied) game."""

    @abstractmethod
    def scores(self) -> dict[int, Score]:
        """Each player's score as it stands."""

    def apply(self, player: int, move: Move) -> tuple[Self, list[Event]]:
        """Return the game after ``player`` made ``move``, and what happened."""
        if self.finished:
            raise RuleError("the game is over")
        if player not in self.players:
            raise RuleError(f"player {player} is not in this game")
        if move not in self.legal_moves(player):
            raise RuleError(f"{move} is not a legal move for player {player} now")
        game = copy.deepcopy(self)
        return game, game._apply(player, move)

    @property
    def finished(self) -> bool:
        return self.end_reason is not None

    @property
    def active(self) -> int:
        return self.players[(self.turn - 1) % len(self.players)]

    def fallback_move(self, player: int) -> Move:
        """What ``player`` does when they do not decide in time: nothing, where the rules
        allow it (so an active player takes whatever penalty the rules give)."""
        moves = self.legal_moves(player)
        if not moves:
            raise RuleError(f"player {player} has nothing to decide")
        return PASS if PASS in moves else moves[0]

    def ranking(self) -> list[Standing]:
        """Players by total, best first; equal totals share a rank."""
        totals = sorted(
            ((s.total, p) for p, s in self.scores().items()), key=lambda t: -t[0]
        )
        standings: list[Standing] = []
        for index, (total, player) in enumerate(totals):
            tied = standings and standings[-1].total == total
            rank = standings[-1].rank if tied else index + 1
            standings.append(Standing(rank, player, total))
        return standings

    # --- serialisation ---------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        data = {"variant": self.variant, **self._state_json()}
        data.update(
            players=list(self.players),
            seed=self.seed,
            options=self.options,
            turn=self.turn,
            end_reason=self.end_reason,
        )
        return data

    @abstractmethod
    def _state_json(self) -> dict[str, Any]:
        """The variant's own part of the state, JSON-ready."""

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Self:
        game = cls.__new__(cls)
        Game.__init__(game, data["players"], data["seed"], data["options"])
        game.turn = data["turn"]
        game.end_reason = data["end_reason"]
        game._load_state(data)
        return game

    @abstractmethod
    def _load_state(self, data: dict[str, Any]) -> None:
        """Restore the variant's own part of the state from ``_state_json`` output."""


def score_of(player: int, rows: dict[str, int], penalties: int, bonus: int = 0) -> Score:
    penalty_points = -5 * penalties
    return Score(player, rows, penalties, penalty_points, bonus,
                 sum(rows.values()) + penalty_points + bonus)


