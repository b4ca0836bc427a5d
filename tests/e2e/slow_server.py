"""The slow server's game played through the pure rules: how its members decide, and
the search for a seed on which a lock takes a choice made ahead away.

Three members at a classic table: Ana is away until the end of the first day (the Hard
computer decides for her), Ben crosses only what skips nothing on other people's turns
and passes when a choice he made ahead can no longer be made, Cem is asked when his
can't. Whoever decides by hand takes the cross that skips fewest numbers; the active
player decides their white sum first and, while someone else still has to decide,
chooses their coloured die ahead the same way. ``python -m tests.e2e.slow_server``
prints the first seeds on which, so played, a choice made ahead is made, a second one
is taken away by someone else's lock, and the game runs on past Ana's return.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field

from bot.players import rate
from bot.players.standing import skips_nothing
from bot.rules import PASS, Game, Move, new_game
from bot.service.ahead import hard_move

ANA, BEN, CEM = 1, 2, 3
"""Seats in the order the members join (the stand-in's ids grow the same way)."""
QUIET_TURN = 8
"""Ben's turn, played at 23:30: Cem's next decision opens in his quiet hours."""
AWAY_LAST = QUIET_TURN + 1
"""The last turn whose decisions are made for Ana (her day ends in Cem's night)."""
FALLBACK = {ANA: "ask", BEN: "pass", CEM: "ask"}
"""What each member chose for a choice ahead that is no longer possible then."""


def fewest_skips(game: Game, player: int) -> Move:
    """The cross that skips fewest numbers (the rules' row order, then the lower number
    among equals), else a pass."""
    options = [m for m in game.legal_moves(player) if m != PASS]
    if not options:
        return PASS
    return min(options, key=lambda m: (len(game.skipped_by(player, m)), m.row, m.number))


def plan_for(game: Game, player: int) -> Move | None:
    """The coloured die the active ``player`` chooses ahead once their white sum is
    chosen, while someone else still decides (None: nothing but a pass to choose)."""
    chosen = game.chosen_move(player)
    foreseen = None if chosen is None else game.foresee(player, [chosen])
    if foreseen is None or foreseen.decision().phase != "action2":
        return None
    move = fewest_skips(foreseen, player)
    return None if move == PASS else move


@dataclass
class Played:
    """What the seed's game did, as the rules played it."""

    applied: list[int] = field(default_factory=list)
    """Turns in which a choice made ahead was made."""
    taken: list[tuple[int, int, int, str]] = field(default_factory=list)
    """(turn, planner, locker, row): choices made ahead someone else's lock took away."""
    ties: int = 0
    """Ana's decisions in which the Hard computer weighed several moves the same (its
    choice then depends on her id, which the stand-in makes anew each run)."""
    turns: int = 0


def play(seed: int) -> Played:
    """The slow server's game on ``seed`` (see the module)."""
    game = new_game("classic", [ANA, BEN, CEM], seed)
    played = Played()
    plans: dict[int, tuple[int, Move]] = {}
    while not game.finished:
        decision = game.decision()
        automatic = answered(game, plans, played)
        if automatic is not None:
            player, move = automatic
        else:
            player = min(decision.waiting, key=lambda p: (p != decision.active, p))
            move = fewest_skips(game, player)
        before = game
        game, events = game.apply(player, move)
        if (
            decision.phase == "action1"
            and player == decision.active
            and game.decision().phase == "action1"
            and (planned := plan_for(game, player)) is not None
        ):
            plans[player] = (decision.turn, planned)
        for event in events:
            if event.kind == "locked" and before.decision().phase == "action1":
                row = event.data["row"]
                for planner, (turn, step) in plans.items():
                    if turn == decision.turn and step.row == row and event.player != planner:
                        played.taken.append((turn, planner, event.player or 0, row))
    played.turns = game.turn
    return played


def answered(
    game: Game, plans: dict[int, tuple[int, Move]], played: Played
) -> tuple[int, Move] | None:
    """The first decision the game makes without asking, as the service does: Ana's
    while she is away, Ben's standing choice, a choice made ahead (or its fallback)."""
    decision = game.decision()
    for player in sorted(decision.waiting):
        if player == ANA and decision.turn <= AWAY_LAST:
            options = rate(game, player, "hard")
            played.ties += sum(o.value >= options[0].value - 1e-9 for o in options) > 1
            return player, hard_move(game, player)
        if player == BEN and player != decision.active and decision.phase == "action1":
            return player, skips_nothing(game, player)
        plan = plans.get(player)
        if plan is not None and decision.phase == "action2" and plan[0] == decision.turn:
            del plans[player]
            if plan[1] in game.legal_moves(player):
                played.applied.append(decision.turn)
                return player, plan[1]
            if FALLBACK[player] == "pass":
                return player, PASS
    return None


def suits(played: Played) -> bool:
    """A choice ahead made, a later one taken away by a lock, Ana back for a while, and
    no tie the Hard computer breaks by her id."""
    return (
        bool(played.applied)
        and any(turn > min(played.applied) for turn, *_ in played.taken)
        and played.turns > AWAY_LAST + 6
        and played.ties == 0
    )


if __name__ == "__main__":  # pragma: no cover -- the search, by hand
    first = int(sys.argv[1]) if len(sys.argv) > 1 else 1
    for seed in range(first, first + 400):
        found = play(seed)
        if suits(found):
            print(seed, found)
