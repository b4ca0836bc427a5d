"""``hard``'s rating one roll deeper in classic games of two or more (``Lookahead``)."""

from __future__ import annotations

import itertools
import random

import pytest

from bot.players.build_tables import colour_options, white_options
from bot.players.qwixx_model import (
    FORBIDDEN,
    SETTLE,
    Alone,
    Lookahead,
    Row,
    RowRules,
    Settle,
    Versus,
    crossing_table,
    expected_best,
    load_table,
    load_versus,
)

Rows = tuple[Row, ...]
OPEN: Row = (0, 0, False)
MINE: Rows = ((3, 2, False), (5, 4, False), (2, 1, False), (0, 0, False))
THEIRS: Rows = ((4, 3, False), (0, 0, False), (6, 4, False), (1, 1, False))


def versus(role: str, others: Rows = THEIRS, penalties: int = 1) -> Versus:
    own, rival = load_versus("classic", role)
    return Versus(own, rival, ((others, penalties),))


def brute_best(floor: float, dice: list[list[float]]) -> float:
    """E[max(floor, …)] by going through every throw of the dice."""
    throws = list(itertools.product(*dice))
    return sum(max(floor, *throw) for throw in throws) / len(throws)


@pytest.mark.parametrize("seed", range(5))
def test_expected_best_equals_going_through_every_throw(seed: int) -> None:
    rng = random.Random(seed)
    dice = [[rng.choice([-9.0, rng.uniform(-3, 5), 2.0]) for _ in range(6)] for _ in range(3)]
    outcomes = [(v, r) for r, die in enumerate(dice) for v in die if v > 0.5]
    assert expected_best(0.5, outcomes, 6) == pytest.approx(brute_best(0.5, dice))


def test_expected_best_by_hand() -> None:
    assert expected_best(0.0, [(6.0, 0)], 6) == pytest.approx(1.0)
    assert expected_best(0.0, [(6.0, 0), (6.0, 1)], 6) == pytest.approx(6 * 11 / 36)
    assert expected_best(-1.0, [], 6) == -1.0


def test_gains_are_the_changes_of_the_margin() -> None:
    judge = versus("active")
    locking: Rows = ((3, 2, False), (5, 4, False), (2, 1, False), (9, 5, False))
    for rows in (MINE, locking):
        for r in range(4):
            gains = judge.gains(rows, 0, r)
            for total in range(2, 13):
                after = [o for o in white_options(judge.rules, rows, total) if o[r] != rows[r]]
                if not after:
                    assert gains[total] == FORBIDDEN
                else:
                    change = judge.value(after[0], 0) - judge.value(rows, 0)
                    assert gains[total] == pytest.approx(change)


def test_before_anothers_roll_the_answer_is_the_best_white_sum_or_none() -> None:
    judge = versus("active")
    expected = 0.0
    for low, high in itertools.product(range(1, 7), repeat=2):
        options = [MINE, *white_options(judge.rules, MINE, low + high)]
        expected += max(judge.value(o, 0) for o in options) / 36
    assert Lookahead(judge, own_roll=False).value(MINE, 0) == pytest.approx(expected)


def test_before_ones_own_roll_the_whole_turn_is_averaged_over_the_dice() -> None:
    """Both crosses are chosen knowing all the dice; a penalty if neither. One row is
    closed, to keep the throws few."""
    judge = versus("passive", penalties=0)
    rows: Rows = ((3, 2, False), (5, 4, False), (11, 6, True), (0, 0, False))
    expected = 0.0
    for throw in itertools.product(range(1, 7), repeat=5):
        whites, dice = list(throw[:2]), [*throw[2:4], 1, throw[4]]  # the closed row's die is out
        best = judge.value(rows, 1)
        for first in [rows, *white_options(judge.rules, rows, sum(whites))]:
            if first != rows:
                best = max(best, judge.value(first, 0))
            if not judge.terminal(first, 0):
                best = max(
                    [
                        best,
                        *(
                            judge.value(o, 0)
                            for o in colour_options(judge.rules, first, whites, dice)
                        ),
                    ]
                )
        expected += best / 6**5
    assert Lookahead(judge, own_roll=True).value(rows, 0) == pytest.approx(expected)


def test_a_finished_game_is_rated_exactly() -> None:
    judge = versus("active")
    locked: Rows = ((11, 7, True), (11, 6, True), OPEN, OPEN)
    assert Lookahead(judge, own_roll=True).value(locked, 0) == judge.value(locked, 0)


def test_hard_keeps_numbers_for_the_next_roll_where_the_tables_alone_would_skip() -> None:
    """Green 11 and 10 crossed; the dice offer green 9 or green 7. The tables alone rate
    skipping 9 and 8 a little higher; a roll deeper, keeping them is clearly better."""
    from bot.players.qwixx_player import Turn, rate_moves, sheet_of
    from bot.rules import Move
    from bot.rules.qwixx import QwixxGame
    from tests.positions import position

    game = position(
        "classic",
        [-1, -2],
        seed=1,
        turn=11,
        phase="action2",
        active_crossed=True,
        dice={"white1": 1, "white2": 3, "red": 1, "yellow": 1, "green": 6, "blue": 2},
        sheets={
            -1: "red: 4 5 7 8 | yellow: 5 6 7 8 9 | green: 11 10",
            -2: "yellow: 3 5 6 8 9 | penalties: 2",
        },
    )
    assert isinstance(game, QwixxGame)
    nine, seven = Move("cross", "green", 9), Move("cross", "green", 7)
    assert {nine, seven} <= set(game.legal_moves(-1))
    deep = {r.move: r.value for r in rate_moves(game, -1, "hard")}
    assert deep[nine] > deep[seven] + 0.5
    own, rival = load_versus("classic", "passive")  # the next roll is the other's
    flat = Turn.of(game, -1, Versus(own, rival, (sheet_of(game, own.rules, -2),)))
    rated = {r.move: r.value for r in flat.rate_all()}
    assert rated[seven] > rated[nine]


@pytest.mark.parametrize("variant", ["classic", "longo"])
def test_hard_looks_a_roll_deeper_alone_and_in_classic_and_longo_games_of_two_or_more(
    variant: str,
) -> None:
    from bot.players.qwixx_player import evaluator
    from bot.rules import new_game, variant_class
    from bot.rules.qwixx import QwixxGame

    game = new_game(variant, [-1, -2, -3], 2)
    assert isinstance(game, QwixxGame) and game.turn == 1  # -1 throws, then -2, then -3
    for player, own_roll, then in (
        (-1, False, "passive"),
        (-2, True, "passive"),
        (-3, False, "active"),
    ):
        judge = evaluator(game, player, "hard")
        assert isinstance(judge, Lookahead) and judge.own_roll is own_roll
        assert isinstance(judge.after, Versus) and judge.prune is None
        assert (judge.after.own, judge.after.rival) == load_versus(variant, then)
        assert len(judge.after.others) == 2
    solo = variant_class(variant)([-1], 2, {})
    assert isinstance(solo, QwixxGame)
    alone = evaluator(solo, -1, "hard")  # alone: by the solo table, one's own roll next
    assert isinstance(alone, Lookahead) and alone.own_roll and alone.prune is not None
    assert isinstance(alone.after, Alone) and alone.after.table is load_table(variant, "solo")
    onboard = new_game("onboard", [-1, -2], 2)
    assert isinstance(onboard, QwixxGame)
    assert not isinstance(evaluator(onboard, -1, "hard"), Lookahead)
    onboard_alone = variant_class("onboard")([-1], 2, {})
    assert isinstance(onboard_alone, QwixxGame)
    assert isinstance(evaluator(onboard_alone, -1, "hard"), Lookahead)


def test_alone_the_gains_are_the_changes_of_the_solo_table() -> None:
    alone = Alone(load_table("classic", "solo"))
    locking: Rows = ((3, 2, False), (5, 4, False), (11, 6, True), (9, 5, False))
    for rows in (MINE, locking):
        for r in range(4):
            gains = alone.gains(rows, 1, r)
            for total in range(2, 13):
                after = [o for o in white_options(alone.rules, rows, total) if o[r] != rows[r]]
                if not after:
                    assert gains[total] == FORBIDDEN
                else:
                    change = alone.value(after[0], 1) - alone.value(rows, 1)
                    assert gains[total] == pytest.approx(change)


def test_a_pruned_lookahead_rates_sheets_far_below_the_best_by_the_table_alone() -> None:
    alone = Alone(load_table("classic", "solo"))
    good: Rows = ((5, 5, False), (5, 5, False), OPEN, OPEN)
    poor: Rows = ((9, 1, False), (9, 1, False), OPEN, OPEN)
    assert alone.value(poor, 0) < alone.value(good, 0) - 3
    pruned, full = Lookahead(alone, True, prune=3.0), Lookahead(alone, True)
    assert pruned.value(good, 0) == full.value(good, 0) != alone.value(good, 0)
    assert pruned.value(poor, 0) == alone.value(poor, 0) != full.value(poor, 0)
    assert Lookahead(alone, True, prune=3.0).value(poor, 0) == full.value(poor, 0)  # first


def test_a_final_margin_is_raised_by_the_tables_running_high_and_its_sure_outcome() -> None:
    settle = Settle(high=2.0, high_per_cross=0.5, spread=20.0, narrowing=1.0, least=8.0, sure=1.0)
    assert settle.worth(3, 10) == pytest.approx(3 + 2 + 5 + 10)  # a win: one spread up
    assert settle.worth(-3, 10) == pytest.approx(-3 + 2 + 5 - 10)  # a loss: one down
    assert settle.worth(0, 10) == pytest.approx(2 + 5)  # a tie: neither
    assert settle.worth(1, 30) == pytest.approx(1 + 2 + 15 + 8)  # the spread at its least


def test_hard_rates_a_game_it_ends_by_the_settled_margin_and_others_as_before() -> None:
    settle = Settle()
    plain, settled = (
        versus("active", penalties=0),
        Versus(*load_versus("classic", "active"), ((THEIRS, 0),), settle),
    )
    locked: Rows = ((11, 7, True), (11, 6, True), OPEN, OPEN)
    crosses = 7 + 6 + sum(r[1] for r in THEIRS)
    margin = plain.value(locked, 0)
    assert margin > 0 and settled.value(locked, 0) == pytest.approx(
        settle.worth(int(margin), crosses)
    )
    assert settled.value(locked, 0) > margin + settle.spread * settle.sure / 2
    assert settled.value(MINE, 0) == plain.value(MINE, 0)  # a game that goes on


def test_hard_settles_final_margins_in_classic_only() -> None:
    from bot.players.qwixx_player import lookahead
    from bot.rules import new_game
    from bot.rules.qwixx import QwixxGame

    game = new_game("classic", [-1, -2], 2)
    assert isinstance(game, QwixxGame)
    assert lookahead(game, -1).after.settle == SETTLE["classic"]
    assert set(SETTLE) == {"classic"}


@pytest.mark.parametrize("rules", [RowRules(), RowRules(faces=8, lock_span=2, lock_threshold=6)])
def test_the_crossing_table_holds_what_the_row_rules_allow(rules: RowRules) -> None:
    table = crossing_table(rules)
    for ascending, start, crosses in itertools.product(
        (False, True), range(rules.length + 1), range(rules.length + 2)
    ):
        row: Row = (start, crosses, False)
        expected = [
            (total, rules.cross(row, rules.index(ascending, total)))
            for total in range(2, 2 * rules.faces + 1)
        ]
        assert list(table[ascending][start][crosses]) == [e for e in expected if e[1]]
