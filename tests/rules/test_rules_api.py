"""The public API of bot.rules: new_game, apply, errors, JSON, replay, ranking, dice."""

from __future__ import annotations

import dataclasses
import json

import pytest

from bot.rules import (
    PASS,
    VARIANTS,
    Decision,
    Event,
    Game,
    Move,
    RuleError,
    Score,
    Standing,
    game_from_json,
    new_game,
    replay,
)
from bot.rules.qwixx import QwixxGame
from tests.positions import reposition

from .helpers import ALL_DICE, cross, first, make_game, play, roll, set_row, with_dice


def snapshot(game: Game) -> dict:
    return json.loads(json.dumps(game.to_json()))


# ---------------------------------------------------------------------------
# new_game
# ---------------------------------------------------------------------------


def test_variants_registry_knows_classic() -> None:
    assert VARIANTS["classic"] is QwixxGame


@pytest.mark.parametrize("players", [(1, 2), (1, 2, 3), (1, 2, 3, 4), (1, 2, 3, 4, 5)])
def test_new_game_accepts_two_to_five_players(players: tuple[int, ...]) -> None:
    game = new_game("classic", players, seed=7)
    assert isinstance(game, QwixxGame)
    assert game.players == players
    assert game.seed == 7
    assert game.turn == 1
    assert not game.finished
    assert game.end_reason is None
    assert set(game.sheets) == set(players)
    assert game.closed == []


@pytest.mark.parametrize("players", [(), (1,), (1, 2, 3, 4, 5, 6)])
def test_new_game_rejects_a_wrong_player_count(players: tuple[int, ...]) -> None:
    with pytest.raises(RuleError, match="2-5 players"):
        new_game("classic", players, seed=1)


def test_new_game_rejects_a_player_taking_two_seats() -> None:
    with pytest.raises(RuleError, match="one seat"):
        new_game("classic", (1, 2, 1), seed=1)


def test_new_game_rejects_an_unknown_variant_by_name() -> None:
    with pytest.raises(RuleError, match=r"unknown variant 'quixx'.*classic"):
        new_game("quixx", (1, 2), seed=1)


def test_new_game_keeps_options() -> None:
    options = {"deadline": 3600}
    game = new_game("classic", (1, 2), seed=1, options=options)
    assert game.options == {"deadline": 3600}
    options["deadline"] = 0
    assert game.options == {"deadline": 3600}
    assert new_game("classic", (1, 2), seed=1).options == {}


def test_rule_error_is_a_value_error() -> None:
    assert issubclass(RuleError, ValueError)


# ---------------------------------------------------------------------------
# apply and its errors
# ---------------------------------------------------------------------------


def test_apply_returns_a_new_game_and_events() -> None:
    game = with_dice(make_game((1, 2)), white1=3, white2=4, red=2)
    after, events = game.apply(1, cross("red", 7))
    assert after is not game
    assert events == []
    after, events = after.apply(2, PASS)
    assert all(isinstance(e, Event) for e in events)
    assert [(e.kind, e.player) for e in events] == [("crossed", 1), ("passed", 2)]
    assert events[0].data == {"row": "red", "number": 7, "phase": "action1", "via": "cross"}


def test_apply_never_mutates_the_original_game() -> None:
    game = with_dice(make_game((1, 2)), white1=6, white2=6, red=6)
    game = set_row(game, 1, "red", first("red", 5))
    before = snapshot(game)
    after, _ = game.apply(1, cross("red", 12))
    assert snapshot(game) == before
    after2, _ = after.apply(2, PASS)
    assert snapshot(after) != snapshot(after2)
    assert game.sheets[1].locks == []
    assert game.closed == []
    assert after2.closed == ["red"]


@pytest.mark.parametrize(
    "move",
    [
        cross("red", 8),  # not the white sum
        cross("purple", 7),  # no such row
        Move("cross", "red"),  # no number
        Move("jump", "red", 7),  # no such move kind
        Move("cross", "red", 7, ("white1", "red")),  # dice do not belong to a classic cross
    ],
)
def test_illegal_moves_raise_rule_error(move: Move) -> None:
    game = with_dice(make_game((1, 2)), white1=3, white2=4)
    with pytest.raises(RuleError, match="not a legal move"):
        game.apply(1, move)


def test_a_non_player_cannot_move() -> None:
    game = make_game((1, 2))
    with pytest.raises(RuleError, match="player 99 is not in this game"):
        game.apply(99, PASS)
    assert game.legal_moves(99) == []


def test_moves_after_the_end_raise() -> None:
    game = with_dice(make_game((1, 2)), white1=2, white2=5, red=3)
    game = reposition(game, sheets={1: "penalties: 3"})
    game, _ = play(game, (1, PASS), (2, PASS), (1, PASS))
    assert game.finished
    for player in (1, 2):
        assert game.legal_moves(player) == []
        with pytest.raises(RuleError, match="the game is over"):
            game.apply(player, PASS)
    assert game.decision() == Decision("finished", 1, None, frozenset())


def test_decision_is_immutable_data() -> None:
    decision = make_game((1, 2)).decision()
    assert decision == Decision("action1", 1, 1, frozenset({1, 2}))
    with pytest.raises(dataclasses.FrozenInstanceError):
        decision.phase = "action2"  # type: ignore[misc]


# ---------------------------------------------------------------------------
# Scores and ranking
# ---------------------------------------------------------------------------


def test_scores_cover_every_player() -> None:
    game = make_game((5, 6, 7))
    scores = game.scores()
    assert set(scores) == {5, 6, 7}
    assert scores[6] == Score(6, {"red": 0, "yellow": 0, "green": 0, "blue": 0}, 0, 0, 0, 0)


def _with_totals(totals: dict[int, int]) -> QwixxGame:
    """A game whose players score exactly ``totals`` (from yellow crosses and penalties)."""
    game = make_game(tuple(totals))
    for player, total in totals.items():
        # 10 crosses = 55 points; take penalties to reach lower totals.
        crosses = next(
            n
            for n in range(11)
            if n * (n + 1) // 2 >= total and (n * (n + 1) // 2 - total) % 5 == 0
        )
        penalties = (crosses * (crosses + 1) // 2 - total) // 5
        game = reposition(
            game, sheets={player: {"yellow": first("yellow", crosses), "penalties": penalties}}
        )
    assert {p: s.total for p, s in game.scores().items()} == totals
    assert isinstance(game, QwixxGame)
    return game


def test_ranking_orders_by_total() -> None:
    game = _with_totals({1: 10, 2: 21, 3: -5})
    assert game.ranking() == [Standing(1, 2, 21), Standing(2, 1, 10), Standing(3, 3, -5)]


def test_ranking_ties_share_a_rank_and_skip_the_next() -> None:
    game = _with_totals({1: 6, 2: 10, 3: 10})
    ranking = game.ranking()
    assert [s.rank for s in ranking] == [1, 1, 3]
    assert {(s.rank, s.player, s.total) for s in ranking} == {(1, 2, 10), (1, 3, 10), (3, 1, 6)}


def test_ranking_ties_below_the_top() -> None:
    game = _with_totals({1: 15, 2: 3, 3: 3, 4: 1})
    assert [(s.rank, s.total) for s in game.ranking()] == [(1, 15), (2, 3), (2, 3), (4, 1)]


def test_ranking_all_tied() -> None:
    assert [s.rank for s in make_game((1, 2, 3, 4, 5)).ranking()] == [1, 1, 1, 1, 1]


# ---------------------------------------------------------------------------
# JSON and replay
# ---------------------------------------------------------------------------


def test_move_json_round_trip() -> None:
    for move in (PASS, cross("green", 9), Move("cross", "red", 7, ("white2", "red"))):
        data = json.loads(json.dumps(move.to_json()))
        assert Move.from_json(data) == move
    assert PASS.to_json() == {"kind": "pass"}
    assert cross("blue", 3).to_json() == {"kind": "cross", "row": "blue", "number": 3}


def test_to_json_is_json_and_names_the_variant() -> None:
    data = snapshot(make_game((1, 2), seed=99))
    assert data["variant"] == "classic"
    assert data["players"] == [1, 2]
    assert data["seed"] == 99
    assert data["turn"] == 1
    assert data["end_reason"] is None


def test_json_round_trip_keeps_pending_action1_choices() -> None:
    game = with_dice(make_game((1, 2, 3)), white1=3, white2=4, red=5)
    game, _ = play(game, (2, cross("red", 7)))
    restored = game_from_json(snapshot(game))
    assert isinstance(restored, QwixxGame)
    assert restored.to_json() == game.to_json()
    assert restored.chosen == {2: cross("red", 7)}
    assert restored.decision() == game.decision()
    # The restored game goes on exactly like the original.
    steps = ((1, PASS), (3, cross("blue", 7)), (1, cross("red", 8)))
    a, events_a = play(game, *steps)
    b, events_b = play(restored, *steps)
    assert a.to_json() == b.to_json()
    assert events_a == events_b
    assert b.sheets[2].crossed["red"] == [7]


def test_json_round_trip_of_a_finished_game() -> None:
    game = with_dice(make_game((1, 2)), white1=2, white2=5, red=3)
    game = reposition(game, sheets={2: "penalties: 1", 1: "penalties: 3"})
    game, _ = play(game, (1, PASS), (2, PASS), (1, PASS))
    restored = game_from_json(snapshot(game))
    assert restored.finished
    assert restored.end_reason == "penalties"
    assert restored.ranking() == game.ranking()
    assert restored.to_json() == game.to_json()


def test_game_from_json_rejects_an_unknown_variant() -> None:
    data = snapshot(make_game((1, 2)))
    data["variant"] = "yahtzee"
    with pytest.raises(RuleError, match="yahtzee"):
        game_from_json(data)


def test_replay_reproduces_a_played_game() -> None:
    game = new_game("classic", (4, 8), seed=2024)
    log: list[tuple[int, Move]] = []
    for _ in range(30):
        if game.finished:
            break
        for player in sorted(game.decision().waiting):
            move = game.legal_moves(player)[0]  # always the leftmost cross, else pass
            log.append((player, move))
            game, _ = game.apply(player, move)
            if game.finished:
                break
    assert len(log) > 10
    again = replay("classic", (4, 8), 2024, None, log)
    assert again.to_json() == game.to_json()
    assert again.turn == game.turn > 1


def test_replay_with_an_illegal_logged_move_raises() -> None:
    with pytest.raises(RuleError):
        replay("classic", (1, 2), 1, None, [(1, cross("red", 13))])


# ---------------------------------------------------------------------------
# Dice
# ---------------------------------------------------------------------------


def test_the_first_roll_uses_all_six_dice() -> None:
    game = make_game(seed=5)
    assert set(game.dice) == set(ALL_DICE)
    assert game.dice == roll(5, 1)
    assert game.dice_in_play() == list(ALL_DICE)


def test_same_seed_same_dice() -> None:
    for seed in (0, 1, 42, 2**63 - 1):
        a = new_game("classic", (1, 2), seed)
        b = new_game("classic", (1, 2), seed)
        assert a.dice == b.dice
        assert a.to_json() == b.to_json()


def test_different_seeds_roll_different_dice() -> None:
    rolls = {tuple(new_game("classic", (1, 2), seed).dice.values()) for seed in range(20)}
    assert len(rolls) >= 18


def test_dice_values_are_one_to_six() -> None:
    seen: set[int] = set()
    for seed in range(200):
        dice = new_game("classic", (1, 2), seed).dice
        assert all(1 <= v <= 6 for v in dice.values())
        seen |= set(dice.values())
    assert seen == {1, 2, 3, 4, 5, 6}


def test_white_sum_is_the_sum_of_the_white_dice() -> None:
    game = with_dice(make_game(), white1=2, white2=6, red=5)
    assert game.white_sum == 8


def test_the_fallback_move_is_a_pass_where_the_rules_allow_one() -> None:
    from bot.rules import new_game

    for variant in ("classic", "longo", "onboard"):
        game = new_game(variant, [1, 2], seed=3)
        assert game.fallback_move(2) == PASS


def test_qwinto_fallback_throws_everything_keeps_it_and_writes_nothing() -> None:
    from bot.rules import new_game

    game = new_game("qwinto", [1, 2], seed=3)
    assert game.fallback_move(1) == Move("roll", dice=("orange", "yellow", "purple"))
    game, _ = game.apply(1, game.fallback_move(1))
    assert game.fallback_move(1) == Move("keep")
    game, _ = game.apply(1, game.fallback_move(1))
    assert game.decision().phase in ("place", "roll")
    if game.decision().phase == "place":
        assert game.fallback_move(1) == PASS
