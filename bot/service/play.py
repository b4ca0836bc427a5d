"""Moves made in one go and stored together, answering the seats whose decision is known
(:class:`~bot.records.seats.Seats`)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Mapping
from dataclasses import replace
from typing import Any

from bot.players import choose, is_computer
from bot.records.options import Options
from bot.records.plans import Plan, Step
from bot.records.seats import Seats
from bot.rules import PASS, Decision, Event, Game, Move
from bot.rules.base import dice_rng, score_of
from bot.service.ahead import Ruling, hard_move, known

SOURCES: dict[str, str] = {
    "ahead": "ahead",
    "fallback": "ahead_fallback",
    "safe": "standing_safe",
    "computer": "standing_hard",
    "away": "away_until",
    "timeout": "timeout_hard",
}
"""The move log's source of a decision each rule of :mod:`bot.service.ahead` made (only
``player`` counts as the person's own decision: accuracy and reviews read that)."""
PHASES = {"action1": 0, "action2": 1, "action3": 2, "roll": 0, "reroll": 1, "place": 2}
"""The order of a turn's phases (a plan's step for a phase passed over is over)."""


class Play:
    """Moves applied to a game, kept to be stored together in one transaction."""

    LIMIT = 10_000  # moves the game may make for absent players in one go

    def __init__(self, game: Game, before: Decision | None = None) -> None:
        """``before``: ``game``'s pending decision, if known already."""
        self.game = game
        self.before = game.decision() if before is None else before
        self.moves: list[tuple[int, dict[str, Any], str]] = []
        self.events: list[Event] = []
        self.covered: set[int] = set()  # people whose seat a computer played here
        self.decided: set[tuple[int, int, str]] = set()
        """(player, turn, phase) of each decision made here (a plan's step whose phase
        someone else decided for its player is told as not used, not as unmet)."""
        self.unattended = True
        """Whether the game may wait for seats nobody clicks for once stored (found out
        when the change is made, :func:`bot.service.writes.change_of`)."""

    def apply(self, player: int, move: Move, source: str) -> None:
        before = self.game
        self.decided.add((player, before.turn, before.decision().phase))
        self.game, events = before.apply(player, move)
        self.moves.append((player, move.to_json(), source))
        self.events += with_scores(self.game, told_choices(before, events))

    def event_rows(self) -> list[tuple[int, str, int | None, dict[str, Any]]]:
        """The events to store, each with the turn it belongs to."""
        return event_rows(self.before.turn, self.events)

    def settle(
        self,
        players: Collection[int],
        source: str,
        this_turn: bool = False,
        seats: Seats | None = None,
    ) -> None:
        """Make the fallback move for each of ``players`` the game waits for, until it
        waits for none of them (within this turn only, if ``this_turn``). With ``seats``
        (a decision whose time ran out), a player who chose so has the Hard computer
        decide instead (told as automatic)."""
        turn = self.game.turn
        for _ in range(self.LIMIT):
            if self.game.finished or (this_turn and self.game.turn != turn):
                return
            absent = sorted(self.game.decision().waiting & set(players))
            if not absent:
                return
            player = absent[0]
            if seats is not None and seats.prefs_of(player).timeout == "computer":
                phase = self.game.decision().phase
                self.events.append(Event("auto", player, {"rule": "timeout", "phase": phase}))
                self.apply(player, hard_move(self.game, player), SOURCES["timeout"])
            else:
                self.apply(player, self.game.fallback_move(player), source)

    def answer(self, seats: Seats, options: Options, now: float, fill: bool = False) -> Seats:
        """Every seat the game waits for whose decision is known decides, until the game
        waits only for people it is to ask (or ends): computer seats at their level;
        away seats their fallback move or, if ``fill``, a computer's; and by the rules
        of :mod:`bot.service.ahead` — a member away until later, a plan made ahead, a
        standing choice for other people's turns. The seats after, their plans used."""
        plans = dict(seats.plans)
        for _ in range(self.LIMIT):
            if self.game.finished:
                break
            waiting = self.game.decision().waiting
            computer = sorted(p for p in waiting if is_computer(p))
            filled = sorted(waiting & seats.away) if fill else []
            if computer or filled:
                self.choose_for((computer or filled)[0], options)
            elif waiting & seats.away:
                self.settle(seats.away, "away", seats=seats)
            elif not self._known(waiting, seats, plans, now):
                break
        return seats.planning(self.close_plans(plans))

    def _known(
        self, waiting: Collection[int], seats: Seats, plans: dict[int, Plan], now: float
    ) -> bool:
        """The first of ``waiting`` whose decision is known makes it; whether one did."""
        for player in sorted(waiting):
            ruling = known(self.game, player, seats.prefs_of(player), plans.get(player), now)
            if ruling is None:
                continue
            if ruling.rule in ("ahead", "fallback"):
                self._tell_plan(player, ruling, plans)
                if ruling.move is None:  # to be asked: the plan is over
                    continue
            else:
                phase = self.game.decision().phase
                told = {"rule": ruling.rule, "phase": phase}
                if ruling.choice is not None:
                    told["choice"] = ruling.choice
                self.events.append(Event("auto", player, told))
            assert ruling.move is not None
            self.apply(player, ruling.move, SOURCES[ruling.rule])
            return True
        return False

    def _tell_plan(self, player: int, ruling: Ruling, plans: dict[int, Plan]) -> None:
        """A plan's step met its moment: made, or not (then the rest of the plan is over
        with it, and the game asks or passes as the member chose)."""
        decision = self.game.decision()
        plan = plans[player]
        step = plan.step(decision.turn, decision.phase)
        rest = tuple(s for s in plan.steps if s.phase != decision.phase)
        if ruling.move is None or ruling.rule == "fallback":
            rest = ()
        plans[player] = replace(plan, steps=rest)
        planned = ruling.planned
        self.events.append(
            Event(
                "ahead",
                player,
                {
                    "phase": decision.phase,
                    **({"move": planned.to_json()} if planned is not None else {}),
                    **({"rule": step.rule} if step is not None and step.rule else {}),
                    "applied": ruling.rule == "ahead",
                    "then": "ask" if ruling.move is None else "pass",
                },
            )
        )

    def close_plans(self, plans: Mapping[int, Plan]) -> dict[int, Plan]:
        """``plans`` less the steps whose moment has passed: a step never met (its phase
        was passed over, the turn or game ended before it) is told as not made, in the
        turn it was for."""
        game = self.game
        kept: dict[int, Plan] = {}
        for player, plan in sorted(plans.items()):
            passed = [
                step
                for step in plan.steps
                if game.finished
                or plan.turn < game.turn
                or (
                    plan.turn == game.turn
                    and PHASES.get(step.phase, 0) < PHASES.get(game.decision().phase, 0)
                )
            ]
            for step in passed:
                self._tell_unmet(player, plan.turn, step)
            rest = tuple(s for s in plan.steps if s not in passed)
            if rest:
                kept[player] = replace(plan, steps=rest)
        return kept

    def _tell_unmet(self, player: int, turn: int, step: Step) -> None:
        """A step of a plan for ``turn`` not made, told in that turn: its moment never
        came, or (``away``) its player was away then and the game decided for them."""
        away = (player, turn, step.phase) in self.decided
        event = Event(
            "ahead",
            player,
            {
                "phase": step.phase,
                **({"move": step.move.to_json()} if step.move is not None else {}),
                **({"rule": step.rule} if step.rule else {}),
                "applied": False,
                "then": "none",
                "turn": turn,
                **({"away": True} if away else {}),
            },
        )
        later = next(
            (
                i
                for i, e in enumerate(self.events)
                if e.kind == "turn" and int(e.data["turn"]) > turn
            ),
            None,
        )
        if later is None:
            self.events.append(event)
        else:
            self.events.insert(later, event)

    def choose_for(self, player: int, options: Options) -> None:
        """A computer decides for ``player`` (a computer seat, or an away one it fills)."""
        rng = dice_rng(
            self.game.seed, "computer", self.game.turn, self.game.decision().phase, player
        )
        move = choose(self.game, player, rng, options.level(player))
        if is_computer(player):
            self.apply(player, move, "computer")
        else:
            self.apply(player, move, "stand_in")
            self.covered.add(player)


def with_scores(game: Game, events: list[Event]) -> list[Event]:
    """``events`` (of one move, ``game`` the game after it), with everyone's totals told
    at the end of each turn that ended in them, and at the end if the game did.

    One move may end several turns: the rules play out at once the turns in which nobody
    has a decision, and those change the sheets by their penalties (Qwinto: failed
    throws) alone. So the totals at an earlier turn's end are the last ones without the
    penalties taken after it."""
    ends = [i for i, event in enumerate(events) if event.kind == "turn"]
    if game.finished:
        ends.append(len(events))
    if not ends:
        return events
    scores = game.scores()
    told = list(events)
    for end in reversed(ends):  # inserting from the back keeps the earlier places
        later = Counter(e.player for e in events[end:] if e.kind in PENALTIES)
        totals = {
            str(p): score_of(p, s.rows, s.penalties - later[p], s.bonus).total
            for p, s in scores.items()
        }
        told.insert(end, Event("scores", None, {"totals": totals}))
    return told


PENALTIES = ("penalty", "failed_throw")
"""The events of a turn nobody had a decision in that change a score."""


def told_choices(before: Game, events: list[Event]) -> list[Event]:
    """``events`` of a move made in ``before``, each pass of the decision it settled
    marked ``had_move`` when that player could have done something else: the story tells
    a computer's pass apart from having nothing to do. The passes of turns played out
    after it are the rules' own (nobody there had a move)."""
    marked = events
    for i, event in enumerate(events):
        if event.kind == "turn":
            break
        if (
            event.kind == "passed"
            and event.data.get("phase") == before.phase
            and event.player is not None
            and before.legal_moves(event.player) != [PASS]
        ):
            marked = marked if marked is not events else list(events)
            marked[i] = Event("passed", event.player, {**event.data, "had_move": True})
    return marked


def event_rows(turn: int, events: list[Event]) -> list[tuple[int, str, int | None, dict[str, Any]]]:
    """Events as stored: ``(turn, kind, player, data)``; a "turn" event opens its turn."""
    rows = []
    for event in events:
        if event.kind == "turn":
            turn = int(event.data["turn"])
        rows.append((turn, event.kind, event.player, event.data))
    return rows
