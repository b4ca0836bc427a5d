"""What a player decided ahead for their turn, as their seat keeps it until it is made
(:mod:`bot.service.ahead` makes it when its moment comes, if the rules allow it then)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bot.rules import Move

UNLESS_WRITABLE = "unless_writable"
"""Qwinto's re-throw rule: keep the throw if I can write it, else throw again."""
RETHROW_RULES = ("keep", "reroll", UNLESS_WRITABLE)


@dataclass(frozen=True)
class Step:
    """One decision taken ahead: ``move`` in ``phase`` (or, for Qwinto's re-throw, a
    ``rule`` of :data:`RETHROW_RULES`)."""

    phase: str
    move: Move | None = None
    rule: str | None = None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"phase": self.phase}
        if self.move is not None:
            data["move"] = self.move.to_json()
        if self.rule is not None:
            data["rule"] = self.rule
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Step:
        move = data.get("move")
        return cls(str(data["phase"]), Move.from_json(move) if move else None, data.get("rule"))


@dataclass(frozen=True)
class Plan:
    """What a player decided ahead for their turn ``turn``, a step per phase."""

    turn: int
    steps: tuple[Step, ...]

    def step(self, turn: int, phase: str) -> Step | None:
        if turn != self.turn:
            return None
        return next((s for s in self.steps if s.phase == phase), None)

    def to_json(self) -> dict[str, Any]:
        return {"turn": self.turn, "steps": [s.to_json() for s in self.steps]}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Plan:
        return cls(int(data["turn"]), tuple(Step.from_json(s) for s in data.get("steps", ())))
