"""Decisions the game does not wait for: taken ahead by the active player, or answered
by a member's standing choice.

The active player may decide, in one visit, what comes after their first decision of
the turn: the Qwixx family's coloured-die cross (and On Board's pawn) with their white
sum, Qwinto's re-throw as a rule with the throw (and their next throw with this turn's
number). A :class:`~bot.records.plans.Plan` keeps it; when its moment comes the move is
checked against the rules again (:func:`planned`) and made only if they allow it then —
else the fallback the member chose applies (a pass, or they are asked).

A member's standing choice answers their decisions on other people's turns
(:func:`standing`), and their whole seat while they are away (:func:`while_away`).
Every answer names the rule that gave it, which the channel tells and the move log
keeps (so accuracy and reviews leave it out).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Literal

from bot.players import choose
from bot.players.standing import skips_nothing
from bot.records.plans import RETHROW_RULES, UNLESS_WRITABLE, Plan, Step
from bot.records.prefs import Prefs
from bot.rules import PASS, Game, Move
from bot.rules.base import dice_rng
from bot.rules.qwinto import ROLL_MOVES
from bot.service.errors import ServiceError

Rule = Literal["ahead", "fallback", "safe", "computer", "away", "timeout"]
"""Why a decision was made without its player: ``ahead``, chosen ahead by them;
``fallback``, their choice ahead could not be made and they chose to pass then;
``safe`` and ``computer``, their standing choice for other people's turns; ``away``,
they are away (their standing choice, else the Hard computer); ``timeout``, their time
ran out and they chose the Hard computer's move for that."""
AUTOMATIC: frozenset[str] = frozenset(("ahead", "fallback", "safe", "computer", "away", "timeout"))
"""The move log's sources of decisions made by these rules (see :data:`Rule`)."""


@dataclass(frozen=True)
class Ruling:
    """A decision made without its player: the move, and the rule that made it. A move
    of None: a choice made ahead that cannot be made now, and its player asked to be
    asked then (the plan is over; the game waits for them)."""

    move: Move | None
    rule: Rule
    planned: Move | None = None
    """For ``ahead`` and ``fallback``: the move chosen ahead (for a rule, the move it gave)."""
    choice: str | None = None
    """For ``away``: which answered — ``safe`` (their standing choice "only what skips
    nothing") or ``computer`` (the Hard computer), as the channel tells it."""


Asked = None
"""No answer: the game waits for the player (they are asked)."""


def planned(game: Game, player: int, plan: Plan | None, prefs: Prefs) -> Ruling | None:
    """The answer ``plan`` gives ``player`` now: its move if the rules allow it now; else
    a pass where they chose to pass then (and the rules allow one); else an answer
    without a move (they are asked). None: the plan holds nothing for now."""
    decision = game.decision()
    step = None if plan is None else plan.step(decision.turn, decision.phase)
    if step is None or player != decision.active or player not in decision.waiting:
        return Asked
    legal = game.legal_moves(player)
    move = step.move if step.rule is None else rethrow(game, player, step.rule)
    if move is not None and move in legal:
        return Ruling(move, "ahead", move)
    if prefs.fallback == "pass" and PASS in legal:
        return Ruling(PASS, "fallback", move)
    return Ruling(None, "fallback", move)


def rethrow(game: Game, player: int, rule: str) -> Move | None:
    """The move Qwinto's re-throw ``rule`` makes now (None: not a rule the game knows)."""
    if rule == UNLESS_WRITABLE:
        could_write = getattr(game, "could_write", None)
        if could_write is None:
            return None
        return Move("keep") if could_write(player) else Move("reroll")
    return Move(rule) if rule in RETHROW_RULES else None


def standing(game: Game, player: int, prefs: Prefs) -> Ruling | None:
    """The answer of ``player``'s standing choice for a decision on someone else's turn
    (None: it is their own turn, a phase only the active player decides, or they asked
    to be asked)."""
    decision = game.decision()
    if (
        player == decision.active
        or player not in decision.waiting
        or decision.phase not in game.simultaneous_phases
    ):
        return Asked
    choice = prefs.answers_others(game.variant)
    if choice == "safe":
        return Ruling(skips_nothing(game, player), "safe")
    if choice == "computer":
        return Ruling(hard_move(game, player), "computer")
    return Asked


def while_away(game: Game, player: int, prefs: Prefs, now: float) -> Ruling | None:
    """While ``player`` is away (``prefs.away_until``), no decision of theirs waits: on
    someone else's turn their standing choice answers, else the Hard computer decides."""
    if not prefs.away(now) or player not in game.decision().waiting:
        return Asked
    answer = standing(game, player, prefs)
    if answer is not None:
        return Ruling(answer.move, "away", choice=answer.rule)
    return Ruling(hard_move(game, player), "away", choice="computer")


def hard_move(game: Game, player: int) -> Move:
    """What the Hard computer player decides for ``player`` now (seeded by the game, the
    turn, the phase and the seat, as every computer decision is)."""
    rng: random.Random = dice_rng(game.seed, "computer", game.turn, game.decision().phase, player)
    return choose(game, player, rng, "hard")


def known(game: Game, player: int, prefs: Prefs, plan: Plan | None, now: float) -> Ruling | None:
    """The answer the game already has for ``player``'s pending decision, by the first
    rule that gives one: away, a plan of theirs, their standing choice; else None."""
    return (
        while_away(game, player, prefs, now)
        or planned(game, player, plan, prefs)
        or standing(game, player, prefs)
    )


def next_turn_of(game: Game, player: int) -> int:
    """The next turn ``player`` is the active player of (this one while it has not come to
    the phases they decide alone: Qwinto's throw)."""
    players, turn = game.players, game.turn
    seat = players.index(player)
    if players[(turn - 1) % len(players)] == player and game.decision().phase in (
        "roll",
        "reroll",
    ):
        return turn
    ahead = (seat - (turn - 1) % len(players)) % len(players) or len(players)
    return turn + ahead


def checked_plan(game: Game, player: int, turn: int, steps: tuple[Step, ...]) -> Plan:
    """``player``'s plan for ``turn``, if the rules will allow each step as foreseen now;
    refused by a catalogue key otherwise.

    The Qwixx family: in their own turn's action 1, once they chose their white sum, the
    coloured-die cross (and On Board's pawn), each among ``legal_moves`` of the game
    :meth:`~bot.rules.Game.foresee` shows. Qwinto: the throw and the re-throw rule of
    their next turn (any throw is allowed then), or this turn's re-throw rule."""
    if not steps:
        raise ServiceError("error.plan_empty")
    if game.variant == "qwinto":
        return _qwinto_plan(game, player, turn, steps)
    decision = game.decision()
    if turn != decision.turn or player != decision.active:
        raise ServiceError("error.plan_not_yours")
    if decision.phase not in game.simultaneous_phases:
        raise ServiceError("error.plan_late")
    first = game.chosen_move(player)
    if first is None:
        raise ServiceError("error.plan_first")
    made = [first]
    for step in steps:
        foreseen = game.foresee(player, made)
        if (
            foreseen is None
            or foreseen.turn != turn
            or foreseen.decision().phase != step.phase
            or step.move is None
            or step.move not in foreseen.legal_moves(player)
        ):
            raise ServiceError("error.plan_illegal")
        made.append(step.move)
    return Plan(turn, steps)


def _qwinto_plan(game: Game, player: int, turn: int, steps: tuple[Step, ...]) -> Plan:
    if turn != next_turn_of(game, player):
        raise ServiceError("error.plan_not_yours")
    for step in steps:
        if step.phase == "roll":
            if turn == game.turn or step.move is None:
                raise ServiceError("error.plan_illegal")
        elif step.phase != "reroll" or step.rule not in RETHROW_RULES:
            raise ServiceError("error.plan_illegal")
    if turn == game.turn and game.decision().phase != "roll":
        raise ServiceError("error.plan_late")
    rolls = [s for s in steps if s.phase == "roll"]
    if rolls and rolls[0].move not in ROLL_MOVES:
        raise ServiceError("error.plan_illegal")
    return Plan(turn, steps)
