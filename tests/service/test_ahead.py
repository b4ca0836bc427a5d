"""Decisions the game does not wait for: plans made ahead and standing choices."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.players.standing import skips_nothing
from bot.records.plans import UNLESS_WRITABLE, Plan, Step
from bot.records.prefs import DEFAULT, Prefs
from bot.rules import PASS, VARIANTS, Move, new_game
from bot.service.ahead import hard_move, known, planned, standing, while_away
from tests.positions import position

RED_7 = Move("cross", "red", 7)


def in_action2(closed: list[str] | None = None):
    """Classic, player 1 active in action 2 with white 3 + 4 and red 3 (red 7 or 6 to
    cross), player 2 having locked ``closed`` rows meanwhile."""
    return position(
        "classic",
        [1, 2],
        phase="action2",
        dice={
            die: face
            for die, face in dict(white1=3, white2=4, red=3, yellow=1, green=1, blue=1).items()
            if die not in (closed or [])
        },
        closed=closed or [],
        sheets={2: {row: [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12] for row in closed or []}},
    )


def test_a_plan_is_made_when_the_rules_still_allow_it():
    game = in_action2()
    plan = Plan(game.turn, (Step("action2", RED_7),))
    answer = planned(game, 1, plan, DEFAULT)
    assert answer is not None and (answer.move, answer.rule) == (RED_7, "ahead")


def test_a_plan_the_rules_no_longer_allow_falls_back():
    """Player 2 locked red meanwhile: red 7 is not a move any more."""
    game = in_action2(closed=["red"])
    assert RED_7 not in game.legal_moves(1)
    plan = Plan(game.turn, (Step("action2", RED_7),))
    asked = planned(game, 1, plan, DEFAULT)
    assert asked is not None and asked.move is None and asked.planned == RED_7
    passed = planned(game, 1, plan, Prefs(fallback="pass"))
    assert passed is not None and (passed.move, passed.rule) == (PASS, "fallback")


def test_a_plan_holds_only_for_its_turn_and_phase():
    game = in_action2()
    assert planned(game, 1, Plan(game.turn + 3, (Step("action2", RED_7),)), DEFAULT) is None
    assert planned(game, 1, Plan(game.turn, (Step("action3", RED_7),)), DEFAULT) is None
    assert planned(game, 2, Plan(game.turn, (Step("action2", RED_7),)), DEFAULT) is None
    assert planned(game, 1, None, DEFAULT) is None


def test_qwinto_rethrow_unless_writable():
    """Orange alone, a 6, that player 1 cannot write: the rule throws again; player 1
    with an emptier sheet keeps it."""
    stuck = position(
        "qwinto",
        [1, 2],
        phase="reroll",
        dice={"orange": 6},
        sheets={1: "orange: 2=2 3=3 4=4 6=5 7=6"},
    )
    fine = position("qwinto", [1, 2], phase="reroll", dice={"orange": 6})
    plan = Plan(stuck.turn, (Step("reroll", rule=UNLESS_WRITABLE),))
    assert planned(stuck, 1, plan, DEFAULT).move == Move("reroll")
    assert planned(fine, 1, plan, DEFAULT).move == Move("keep")


def white_sum_turn():
    """Classic turn 1 of three, white 3 + 4: player 1 active, players 2 and 3 to decide
    on someone else's turn."""
    return position(
        "classic",
        [1, 2, 3],
        dice=dict(white1=3, white2=4, red=3, yellow=1, green=1, blue=1),
        sheets={2: "yellow: 2 3 4 5 6", 3: "red: 2"},
    )


def test_standing_choices():
    game = white_sum_turn()
    assert standing(game, 2, DEFAULT) is None, "ask me"
    safe = standing(game, 2, Prefs(others="safe"))
    assert safe is not None and safe.move == Move("cross", "yellow", 7) == skips_nothing(game, 2)
    assert standing(game, 3, Prefs(others="safe")).move == PASS, "7 would skip red's 3-6"
    hard = standing(game, 3, Prefs(others="computer"))
    assert hard is not None and hard.rule == "computer" and hard.move == hard_move(game, 3)
    assert standing(game, 1, Prefs(others="computer")) is None, "never on one's own turn"


def test_standing_choices_leave_the_active_phases_alone():
    game = in_action2()
    assert standing(game, 1, Prefs(others="computer")) is None
    assert standing(game, 2, Prefs(others="computer")) is None, "not waited for"


def test_away():
    game = white_sum_turn()
    away = Prefs(others="safe", away_until=100.0)
    answer = while_away(game, 2, away, now=50.0)
    assert answer is not None and answer.rule == "away" and answer.move == skips_nothing(game, 2)
    assert while_away(game, 2, away, now=100.0) is None, "back"
    own = while_away(game, 1, Prefs(away_until=100.0), now=50.0)
    assert own is not None and own.move == hard_move(game, 1), "own turn: the Hard computer"
    assert known(game, 1, Prefs(away_until=100.0), None, 50.0) == own


PREFS = st.builds(
    Prefs,
    others=st.sampled_from(["ask", "safe", "computer"]),
    fallback=st.sampled_from(["ask", "pass"]),
    away_until=st.sampled_from([None, 0.0, 1e12]),
)


@settings(max_examples=40, deadline=None)
@given(
    variant=st.sampled_from(sorted(VARIANTS)),
    seed=st.integers(0, 10**6),
    prefs=st.lists(PREFS, min_size=3, max_size=3),
)
def test_every_answer_is_a_legal_move_at_its_moment(variant, seed, prefs):
    """Random games where each seat has random preferences and the active player plans
    ahead at random (sometimes a move the rules will not allow then): every answer given
    is a move ``legal_moves`` lists at that moment, or none."""
    rng = random.Random(seed)
    game = new_game(variant, [1, 2, 3], seed)
    plans: dict[int, Plan] = {}
    for _ in range(400):
        if game.finished:
            break
        decision = game.decision()
        active = decision.active
        if decision.phase in game.simultaneous_phases and active in decision.waiting:
            first = rng.choice(game.legal_moves(active))
            foreseen = game.foresee(active, [first])
            if foreseen is not None and foreseen.turn == game.turn:
                options = foreseen.legal_moves(active) or [RED_7]
                plans[active] = Plan(
                    game.turn, (Step(foreseen.decision().phase, rng.choice(options)),)
                )
        player = min(decision.waiting)
        answer = known(game, player, prefs[player - 1], plans.get(player), now=1.0)
        if answer is not None and answer.move is not None:
            assert answer.move in game.legal_moves(player)
            move = answer.move
        else:
            move = rng.choice(game.legal_moves(player))
        game, _ = game.apply(player, move)
