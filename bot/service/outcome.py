"""A game as read (:class:`Snapshot`) and as a change left it (:class:`Outcome`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from bot.records.games import GameRecord, StoredEvent
from bot.rules import Decision, Event, Game

Kind = Literal["changed", "same", "asked", "chosen"]


@dataclass(frozen=True, slots=True)
class Snapshot:
    """A game at one version: its record and its rules object (None for a lobby)."""

    record: GameRecord
    game: Game | None


@dataclass(frozen=True, slots=True)
class Outcome(Snapshot):
    """A game after a change, with what happened and the decision before it."""

    events: list[Event] = field(default_factory=list)
    before: Decision | None = None
    kind: Kind = "changed"
    """``changed``: what the click asked for is stored (or the game changed by itself);
    ``same``: the choice was made already (a double tap), nothing stored; ``asked``:
    a costly move, nothing stored until it is confirmed; ``chosen``: a confirmation of
    a move made already."""
    stored: list[StoredEvent] = field(default_factory=list)
    """The events the change stored, as stored (the channel tells its story from them)."""
    since: int | None = None
    """The version the change began from, when :attr:`stored` holds every event stored
    since then (None: the events since are to be read)."""

    @property
    def changed(self) -> bool:
        return self.kind == "changed"
