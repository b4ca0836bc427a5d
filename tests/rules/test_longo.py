"""Qwixx Longo (RULES.md §2): eight-sided dice, rows of 15, lock span 2, lucky numbers."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from bot.rules import PASS, Move, RuleError, game_from_json, new_game, replay
from bot.rules.longo import LUCKY_RANGE, LongoGame, deal_lucky_numbers
from tests.positions import position, reposition

ANA, BEN = 1, 2


def longo(
    *, lucky: tuple[int, int] | None = None, sheet: dict[str, Any] | None = None, **dice: int
) -> LongoGame:
    """Action 1 of turn 1 with these dice (white 3 + 3, colours 1 unless given), ANA's
    lucky numbers and ``sheet`` (see :mod:`tests.positions`) where given."""
    game = position(
        "longo",
        [ANA, BEN],
        seed=5,
        phase="action1",
        chosen={},
        dice={"white1": 3, "white2": 3, "red": 1, "yellow": 1, "green": 1, "blue": 1, **dice},
        lucky={ANA: lucky} if lucky else None,
        sheets={ANA: sheet} if sheet else None,
    )
    assert isinstance(game, LongoGame)
    return game


def lucky(row: str, number: int) -> Move:
    return Move("lucky", row, number)


def test_dice_have_eight_faces_and_rows_fifteen_numbers() -> None:
    game = longo()
    assert game.rules.numbers("red") == list(range(2, 17))
    assert game.rules.numbers("green") == list(range(16, 1, -1))
    seen = {v for seed in range(60) for v in new_game("longo", [1, 2], seed).dice.values()}
    assert seen == set(range(1, 9))


def test_rulebook_lucky_six_with_an_empty_green_row_crosses_green_16() -> None:
    game = longo(white1=2, white2=4, lucky=(6, 11), sheet={"red": [2], "yellow": [3], "blue": [15]})
    assert game.lucky_moves(ANA) == [lucky("green", 16)]
    assert lucky("green", 16) in game.legal_moves(ANA)
    game, _ = game.apply(ANA, lucky("green", 16))
    game, events = game.apply(BEN, PASS)
    assert game.sheets[ANA].crossed["green"] == [16]
    assert any(e.kind == "crossed" and e.data["via"] == "lucky" for e in events)


def test_lucky_option_only_when_the_white_sum_is_a_lucky_number() -> None:
    game = longo(white1=3, white2=4, lucky=(6, 11))
    assert not any(m.kind == "lucky" for m in game.legal_moves(ANA))
    game = longo(white1=5, white2=6, lucky=(6, 11))
    assert any(m.kind == "lucky" for m in game.legal_moves(ANA))


def test_lucky_ties_let_the_player_choose_among_the_emptiest_rows() -> None:
    game = longo(sheet={"red": [2, 3], "yellow": [4], "green": [14], "blue": [16]})
    assert game.lucky_moves(ANA) == [lucky("yellow", 5), lucky("green", 13), lucky("blue", 15)]


def test_lucky_takes_the_next_number_without_skipping() -> None:
    game = longo(
        sheet={
            "red": [2, 3, 9],
            "yellow": [2, 3, 4, 5],
            "green": [16, 15, 14],
            "blue": [16, 15, 14, 13],
        }
    )
    assert game.lucky_moves(ANA) == [lucky("red", 10), lucky("green", 13)]


def test_no_lucky_option_when_no_row_qualifies() -> None:
    game = longo(
        white1=3,
        white2=3,
        lucky=(6, 9),
        sheet={
            "red": [2, 3, 4, 5, 14],
            "yellow": [2, 3, 4, 5, 14],
            "green": [16, 15, 14, 13, 4],
            "blue": [16, 15, 14, 13, 4],
        },
    )
    assert game.lucky_moves(ANA) == []
    assert not any(m.kind == "lucky" for m in game.legal_moves(ANA))


def test_a_lucky_cross_may_lock_a_row() -> None:
    game = longo(
        white1=3,
        white2=3,
        lucky=(6, 9),
        sheet={
            "red": [2, 3, 4, 5, 6, 14],
            "yellow": list(range(2, 10)),
            "green": list(range(16, 8, -1)),
            "blue": list(range(16, 8, -1)),
        },
    )
    assert game.lucky_moves(ANA) == [lucky("red", 15)]
    game, _ = game.apply(ANA, lucky("red", 15))
    game, events = game.apply(BEN, PASS)
    assert "red" in game.closed and game.sheets[ANA].locks == ["red"]
    assert any(e.kind == "die_removed" and e.data["row"] == "red" for e in events)


@pytest.mark.parametrize("last", [15, 16])
def test_either_of_the_last_two_numbers_locks_after_six_crosses(last: int) -> None:
    game = longo(white1=8, white2=last - 8, sheet={"red": [2, 3, 4, 5, 6, 7]})
    assert Move("cross", "red", last) in game.legal_moves(ANA)
    game, _ = game.apply(ANA, Move("cross", "red", last))
    game, _ = game.apply(BEN, PASS)
    assert game.sheets[ANA].crosses("red") == 8  # six, the locking number and the lock
    assert "red" in game.closed


@pytest.mark.parametrize("last", [15, 16])
def test_five_crosses_are_not_enough_to_lock(last: int) -> None:
    game = longo(white1=8, white2=last - 8, sheet={"red": [2, 3, 4, 5, 6]})
    assert Move("cross", "red", last) not in game.legal_moves(ANA)
    with pytest.raises(RuleError):
        game.apply(ANA, Move("cross", "red", last))


def test_15_and_16_are_never_both_crossed() -> None:
    game = longo(white1=8, white2=7, sheet={"red": [2, 3, 4, 5, 6, 7]})
    game, _ = game.apply(ANA, Move("cross", "red", 15))
    game, _ = game.apply(BEN, PASS)
    assert game.legal_moves(ANA) == [PASS] or all(m.row != "red" for m in game.legal_moves(ANA))
    assert 16 not in game.sheets[ANA].crossed["red"]
    assert game._can_cross(game.sheets[ANA], "red", 16) is False


def test_rulebook_example_emel_scores_87() -> None:
    game = longo(
        sheet={
            "red": [2, 3, 4, 5],
            "yellow": [2, 3, 4],
            "green": list(range(16, 7, -1)),
            "blue": list(range(16, 8, -1)),
            "penalties": 2,
        }
    )
    score = game.scores()[ANA]
    assert score.rows == {"red": 10, "yellow": 6, "green": 45, "blue": 36}
    assert score.total == 87


def test_a_full_row_scores_120() -> None:
    # 2-15 and the lock: the row is closed, and its die gone.
    game = reposition(longo(), sheets={ANA: {"red": list(range(2, 16))}}, closed=["red"])
    assert game.sheets[ANA].locks == ["red"]
    assert game.scores()[ANA].rows["red"] == 120


def test_lucky_numbers_are_dealt_from_the_seed_distinct_and_unshared() -> None:
    for seed in range(100):
        pairs = deal_lucky_numbers(seed, 5)
        assert len(set(pairs)) == 5
        assert all(a != b and a in LUCKY_RANGE and b in LUCKY_RANGE for a, b in pairs)
        assert deal_lucky_numbers(seed, 5) == pairs
    assert len({tuple(deal_lucky_numbers(s, 3)) for s in range(20)}) > 1
    game = new_game("longo", [ANA, BEN], seed=9)
    assert isinstance(game, LongoGame)
    assert [game.lucky[ANA], game.lucky[BEN]] == deal_lucky_numbers(9, 2)


def test_random_longo_games_end_round_trip_and_replay() -> None:
    for seed in range(30):
        rng = random.Random(seed)
        game = new_game("longo", [ANA, BEN, 3], seed)
        log = []
        while not game.finished:
            player = min(game.decision().waiting)
            move = rng.choice(game.legal_moves(player))
            game, _ = game.apply(player, move)
            log.append((player, move))
            assert (
                game_from_json(json.loads(json.dumps(game.to_json()))).to_json() == game.to_json()
            )
            for sheet in game.sheets.values():
                for row in ("red", "yellow"):
                    assert not {15, 16} <= set(sheet.crossed[row])
        assert replay("longo", [ANA, BEN, 3], seed, {}, log).to_json() == game.to_json()
