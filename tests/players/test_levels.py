"""Every level plays legal, reproducible games of every variant; hints name legal moves."""

from __future__ import annotations

import random

import pytest

from bot.players import LEVELS, Hint, choose, hint
from bot.players.qwixx_model import ROLES, Row, RowRules, Versus, load_table, load_versus
from bot.rules import PASS, Game, Move, new_game, variant_class

VARIANTS = ("classic", "longo", "onboard", "qwinto")


def play(variant: str, seed: int, levels: list[str], solo: bool = False) -> list[Move]:
    """A whole game with one seat per level; asserts every move is legal; the moves."""
    players = [-1 - i for i in range(len(levels))]
    game: Game = (
        variant_class(variant)(players, seed, {}) if solo else new_game(variant, players, seed)
    )
    rng, made = random.Random(seed), []
    while not game.finished:
        player = min(game.decision().waiting)
        move = choose(game, player, rng, levels[-1 - player])
        assert move in game.legal_moves(player)
        made.append(move)
        game, _ = game.apply(player, move)
    return made


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("seed", range(3))
def test_every_level_plays_only_legal_moves(variant: str, seed: int) -> None:
    play(variant, seed, ["easy", "normal", "hard"])
    play(variant, seed, ["hard", "normal"])


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("level", LEVELS)
def test_one_seat_games_play_to_the_end(variant: str, level: str) -> None:
    assert play(variant, 7, [level], solo=True)


@pytest.mark.parametrize("variant", VARIANTS)
def test_same_seed_same_decisions(variant: str) -> None:
    levels = ["hard", "normal", "easy"]
    assert play(variant, 11, levels) == play(variant, 11, levels)


def test_the_default_level_is_todays_player() -> None:
    game = new_game("classic", [-1, -2], seed=5)
    assert choose(game, -1, random.Random(3)) == choose(game, -1, random.Random(3), "easy")


def test_an_unknown_level_is_refused() -> None:
    game = new_game("classic", [-1, -2], seed=5)
    with pytest.raises(ValueError, match="unknown level"):
        choose(game, -1, random.Random(3), "expert")


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_hint_names_the_legal_move_hard_makes(variant: str) -> None:
    game: Game = new_game(variant, [-1, -2], 3)
    rng = random.Random(3)
    for _ in range(60):
        if game.finished:
            break
        player = min(game.decision().waiting)
        given = hint(game, player)
        legal = game.legal_moves(player)
        assert isinstance(given, Hint) and given.move in legal and given.text
        assert {o.move for o in given.options} == set(legal)
        assert given.gain >= 0 and 0 <= given.risk <= 1
        assert given.move == hint(game, player).move
        game, _ = game.apply(player, choose(game, player, rng, "hard"))


def test_hard_avoids_a_needless_penalty() -> None:
    """The active player with a cross at hand that skips nothing does not pass it."""
    game: Game = new_game("classic", [-1, -2], 0)
    while game.decision().phase != "action2" or game.active != -1:
        player = min(game.decision().waiting)
        game, _ = game.apply(player, choose(game, player, random.Random(0), "hard"))
    options = hint(game, -1).options
    passing = next(o for o in options if o.move.kind == "pass")
    assert passing.risk in (0.0, 1.0) and options[0].value >= passing.value


@pytest.mark.parametrize(("name", "faces"), [("classic", 6), ("longo", 8)])
@pytest.mark.parametrize("role", ROLES)
def test_value_tables_load_with_the_expected_shape(name: str, faces: int, role: str) -> None:
    table = load_table(name, role)
    rules = table.rules
    assert rules == (RowRules() if faces == 6 else RowRules(8, 2, 6))
    assert len(table.bias) == rules.penalty_limit == len(table.rows)
    assert all(len(by_closed) == rules.rows_to_end for by_closed in table.rows)
    assert all(
        len(cells) == rules.length + 1 and len(cells[0]) == rules.length + 2
        for by_closed in table.rows
        for cells in by_closed
    )
    empty = ((0, 0, False),) * 4
    assert 40 < table.value(empty, 0) < 250  # an empty sheet is worth a plausible score
    advanced = ((4, 4, False),) + ((0, 0, False),) * 3
    assert table.value(advanced, 0) > table.value(advanced, 2)


@pytest.mark.parametrize("name", ["classic", "longo"])
@pytest.mark.parametrize("role", ["active", "passive"])
def test_margin_tables_rate_a_lead_above_a_deficit(name: str, role: str) -> None:
    own, rival = load_versus(name, role)
    empty: tuple[Row, ...] = ((0, 0, False),) * 4
    ahead = ((4, 4, False), *empty[1:])
    even = Versus(own, rival, ((empty, 0),))
    assert abs(even.value(empty, 0)) < 30  # empty against empty: a plausible margin
    assert even.value(ahead, 0) > even.value(empty, 0)
    assert Versus(own, rival, ((ahead, 0),)).value(empty, 0) < even.value(empty, 0)


def test_the_margin_is_exact_once_the_game_is_over() -> None:
    own, rival = load_versus("classic", "passive")
    locked: tuple[Row, ...] = ((11, 7, True), (11, 6, True), (0, 0, False), (0, 0, False))
    other: tuple[Row, ...] = ((5, 5, False), (0, 0, False), (0, 0, False), (0, 0, False))
    judge = Versus(own, rival, ((other, 1),))
    assert judge.terminal(locked, 0)
    assert judge.value(locked, 0) == 28 + 21 - (15 - 5)
    one_locked = (locked[0], (3, 3, False), *locked[2:])
    assert not judge.terminal(one_locked, 3)
    assert judge.terminal(one_locked, 4)  # the fourth penalty ends it for everyone
    assert judge.value(one_locked, 4) == 28 + 6 - 20 - (15 - 5)


def test_the_hint_speaks_of_the_margin_in_games_of_two() -> None:
    game: Game = new_game("classic", [-1, -2], 4)
    text = hint(game, -1).text
    assert " ahead expected" in text or " behind expected" in text
    solo: Game = variant_class("classic")([-1], 4, {})
    assert "points expected" in hint(solo, -1).text and "ahead" not in hint(solo, -1).text


@pytest.mark.parametrize("variant", ["classic", "longo", "onboard"])
def test_normal_plays_for_points_with_the_score_tables_in_games_of_two(variant: str) -> None:
    from bot.players.qwixx_player import TABLE_FOR, evaluator
    from bot.rules.qwixx import QwixxGame

    game = new_game(variant, [-1, -2], 8)
    assert isinstance(game, QwixxGame) and game.active == -1  # -2 throws next
    assert evaluator(game, -1, "normal") is load_table(TABLE_FOR[variant], "passive")
    assert evaluator(game, -2, "normal") is load_table(TABLE_FOR[variant], "active")


def test_easy_crosses_in_qwixx_only_what_leaves_nothing_behind_unless_a_penalty_looms() -> None:
    from tests.positions import position

    # White 3 + 3: red 6 leaves nothing behind (red 2-5 crossed), yellow 6 leaves 5.
    dice = {"white1": 3, "white2": 3, "red": 1, "yellow": 1, "green": 1, "blue": 1}
    game = position("classic", [-1, -2], dice=dice, sheets={-2: "red: 2 3 4 5 | yellow: 2 3 4"})
    assert choose(game, -2, random.Random(1), "easy") == Move("cross", "red", 6)
    game = position("classic", [-1, -2], dice=dice, sheets={-2: "red: 2 3 4 | yellow: 2 3 4"})
    assert choose(game, -2, random.Random(1), "easy") == PASS  # 5 would be left behind
    # The active player's last chance: white 3 + coloured 1 = 4 leaves 3 behind in red,
    # 2 and 3 in yellow: red 4, rather than a penalty.
    late = position("classic", [-1, -2], phase="action2", dice=dice, sheets={-1: "red: 2"})
    assert choose(late, -1, random.Random(1), "easy") == Move("cross", "red", 4)


def test_normal_gives_qwinto_columns_no_weight_until_complete() -> None:
    from bot.players.qwinto_player import NORMAL, PARAMS, column_value, params_for
    from tests.positions import position

    # Column 3: two of three fields written.
    sheet = position("qwinto", [-1, -2], sheets={-1: "orange: 3=4 | yellow: 3=5"}).sheets[-1]
    assert column_value(sheet, 3, params=NORMAL) == 0 < column_value(sheet, 3, params=PARAMS)
    assert column_value(sheet, 3, ("purple", 6), NORMAL) == 4  # complete: the pentagon
    assert params_for("normal", 2) is NORMAL and params_for("hard", 1) is PARAMS


def test_a_one_seat_on_board_pawn_in_the_finish_area_scores_the_sheet_as_it_is() -> None:
    from bot.players.qwixx_player import Turn, evaluator, sheet_of
    from tests.positions import position

    # -1's pawn stands just before the finish area (-2's on the start field).
    ahead = {-1: new_game("onboard", [-1, -2], 2).board.finish_from - 1}  # type: ignore[attr-defined]
    solo: Game = position("onboard", [-1], seed=2, solo=True, pawns=ahead)
    pair: Game = position("onboard", [-1, -2], seed=2, pawns=ahead)
    turn = Turn.of(solo, -1, evaluator(solo, -1, "hard"))  # type: ignore[arg-type]
    move = Move("pawn", "red", 1)
    assert turn.finishes(move)
    assert not Turn.of(pair, -1, evaluator(pair, -1, "hard")).finishes(move)  # type: ignore[arg-type]
    rows, _ = sheet_of(solo, turn.judge.rules, -1)  # type: ignore[arg-type]
    value, penalty = turn.end_of_turn(rows, False, move)
    board = solo.board  # type: ignore[attr-defined]
    gain = board.bonus(board.finish_from) - board.bonus(board.finish_from - 1)
    assert penalty and value == -5 + gain  # not the empty sheet's hopes


def test_a_hint_shows_the_final_margin_of_a_move_that_ends_the_game() -> None:
    """``hard`` weighs a final margin against games that go on (``Settle``); the hint
    shows the margin itself, in ``hard``'s order, and never a negative gain."""
    counts = [hints_of_a_duel(seed) for seed in range(4, 13)]
    assert sum(c[0] for c in counts)  # some move ended the game, and the ratings differed
    assert sum(c[1] for c in counts)  # once, hard chose a smaller margin to win more surely


def hints_of_a_duel(seed: int) -> tuple[int, int]:
    """Checks the hints of a classic game of ``hard`` against ``easy``; how many had a
    move rated differently for ending the game, and how many said hard's move expects
    less than the next but wins more surely."""
    from bot.players.qwixx_player import rate_moves

    game: Game = new_game("classic", [-1, -2], seed)
    rng, differed, surer = random.Random(seed), 0, 0
    while not game.finished:
        player = min(game.decision().waiting)
        if player == -1:
            weighed = rate_moves(game, -1, "hard")
            plain = {r.move: r.value for r in rate_moves(game, -1, "hard", settled=False)}
            shown = hint(game, -1)
            assert [o.move for o in shown.options] == [r.move for r in weighed]
            assert [o.value for o in shown.options] == [plain[r.move] for r in weighed]
            assert shown.gain >= 0.0
            differed += any(abs(r.value - plain[r.move]) > 1 for r in weighed)
            surer += shown.surer
            assert shown.surer == (shown.options[0].value < shown.options[1].value)
            assert ("better chance to win" in shown.text) == shown.surer
        game, _ = game.apply(player, choose(game, player, rng, "hard" if player == -1 else "easy"))
    return differed, surer
