"""Who a game stops waiting for and how each person wants to be asked: its record's
``presence``, read (the service decides on it, the channel shows it)."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from bot.players import is_computer
from bot.records.games import GameRecord
from bot.records.memo import IdentityMemo
from bot.records.plans import Plan
from bot.records.prefs import DEFAULT, Prefs
from bot.rules import Decision, Event, Game


@dataclass(frozen=True)
class Seats:
    """Who the game stops waiting for: players away (three decisions in a row let
    expire, or left), each player's current run of expired decisions, and the people
    whose seat a computer played at some point (``covered``: their result counts for
    nobody); each person's preferences in this game (:mod:`bot.records.prefs`) and
    what they planned ahead (:mod:`bot.records.plans`), secret until it is made."""

    away: frozenset[int] = frozenset()
    streak: dict[int, int] = field(default_factory=dict)
    covered: frozenset[int] = frozenset()
    prefs: Mapping[int, Prefs] = field(default_factory=dict)
    plans: Mapping[int, Plan] = field(default_factory=dict)
    live: frozenset[int] = frozenset()
    """The people who asked to play the game live (it turns live once all present do)."""

    AWAY_AFTER = 3

    @classmethod
    def of(cls, record: GameRecord) -> Seats:
        """A record's seats, read once per ``presence`` object (once a click)."""
        return _SEATS(record.presence)

    @classmethod
    def read(cls, data: Mapping[str, Any]) -> Seats:
        return cls(
            frozenset(data.get("away", [])),
            {int(p): n for p, n in data.get("streak", {}).items()},
            frozenset(data.get("covered", [])),
            {int(p): Prefs.from_json(v) for p, v in data.get("prefs", {}).items()},
            {int(p): Plan.from_json(v) for p, v in data.get("plans", {}).items()},
            frozenset(data.get("live", [])),
        )

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "away": sorted(self.away),
            "streak": {str(p): n for p, n in self.streak.items()},
        }
        if self.covered:
            data["covered"] = sorted(self.covered)
        prefs = {
            str(p): v.to_json() for p, v in sorted(self.prefs.items()) if v != DEFAULT or v.own
        }
        if prefs:
            data["prefs"] = prefs
        if self.plans:
            data["plans"] = {str(p): v.to_json() for p, v in sorted(self.plans.items())}
        if self.live:
            data["live"] = sorted(self.live)
        return data

    def prefs_of(self, player: int) -> Prefs:
        return self.prefs.get(player, DEFAULT)

    @property
    def timed(self) -> tuple[tuple[int, Prefs], ...]:
        """The people whose preferences shape a decision's clock — quiet hours, or
        reminders soon and again — with their preferences
        (:class:`~bot.service.timing.DecisionClock`)."""
        return tuple(
            (p, prefs)
            for p, prefs in sorted(self.prefs.items())
            if prefs.nudge or (prefs.quiet is not None and prefs.quiet[0] != prefs.quiet[1])
        )

    def with_prefs(self, player: int, prefs: Prefs) -> Seats:
        """``player``'s preferences in this game are ``prefs`` now."""
        return replace(self, prefs={**self.prefs, player: prefs})

    def planning(self, plans: Mapping[int, Plan]) -> Seats:
        """The plans made ahead are ``plans`` now (these very seats if unchanged)."""
        if dict(plans) == dict(self.plans):
            return self
        return replace(self, plans=dict(plans))

    def back(self, player: int) -> Seats:
        """A player who decides is here again (these very seats if nothing changes, as
        on most clicks: then nothing of them is written)."""
        if player not in self.away and self.streak.get(player, -1) == 0:
            return self
        return replace(self, away=self.away - {player}, streak={**self.streak, player: 0})

    def cover(self, players: Collection[int]) -> Seats:
        """``players``' seats were played by a computer."""
        if self.covered.issuperset(players):
            return self
        return replace(self, covered=self.covered | frozenset(players))

    def unattended(self, decision: Decision) -> bool:
        """Whether ``decision`` waits for a seat nobody clicks for: a computer's, or an
        away player's."""
        waiting = decision.waiting
        return any(map(is_computer, waiting)) or not waiting.isdisjoint(self.away)

    def answered(self, game: Game, now: float) -> bool:
        """Whether ``game`` waits for a seat whose decision is known now (what
        :meth:`bot.service.play.Play.answer` decides for): a computer's, an away
        player's, or one that a member's absence, plan or standing choice answers."""
        decision = game.decision()
        if self.unattended(decision):
            return True
        simultaneous = decision.phase in game.simultaneous_phases
        for player in decision.waiting:
            prefs = self.prefs.get(player)
            plan = self.plans.get(player)
            if prefs is not None and (
                prefs.away(now)
                or (
                    simultaneous
                    and player != decision.active
                    and prefs.answers_others(game.variant) != "ask"
                )
            ):
                return True
            if (
                plan is not None
                and player == decision.active
                and plan.step(decision.turn, decision.phase) is not None
            ):
                return True
        return False

    def people_present(self, players: Collection[int]) -> bool:
        return any(not is_computer(p) and p not in self.away for p in players)

    def expired(self, late: Collection[int], events: list[Event], reason: str = "expired") -> Seats:
        """``reason``: "stand_in" when a computer will play the seats that go away."""
        streak = {**self.streak, **{p: self.streak.get(p, 0) + 1 for p in late}}
        gone = {p for p in late if streak[p] >= self.AWAY_AFTER and p not in self.away}
        events += [Event("away", p, {"reason": reason}) for p in sorted(gone)]
        return replace(self, away=self.away | gone, streak=streak)

    def leave(self, player: int, events: list[Event]) -> Seats:
        events.append(Event("away", player, {"reason": "left"}))
        return replace(self, away=self.away | {player})


_SEATS: IdentityMemo[Mapping[str, Any], Seats] = IdentityMemo(Seats.read)
