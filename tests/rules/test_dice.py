"""The dice derivations: stored games keep version 1, 2 or 3, new games roll version 4
(version 3's deals, and each die's own face whatever else is in play).

``data/v1_games.json`` holds four games recorded before version 2 existed: their seed,
move log, the JSON after 20 moves and the final JSON, exactly as the service stored them.
"""

from __future__ import annotations

import itertools
import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from bot.rules import (
    DICE_VERSION,
    PASS,
    VARIANTS,
    Move,
    RuleError,
    dice_version_of,
    game_from_json,
    new_game,
    replay,
)
from bot.rules.dice import DICE_V1, DICE_V2, DICE_V3, DICE_V4, deal, hashed_faces, throw
from tests.positions import reposition

from .helpers import ALL_DICE, derived, lucky_pairs

RECORDED: dict[str, Any] = json.loads(
    (Path(__file__).parent / "data" / "v1_games.json").read_text()
)
PLAYERS = {"classic": [1, 2], "longo": [1, 2], "onboard": [1, 2], "qwinto": [1, 2]}
QWINTO = ("orange", "yellow", "purple")


def dump(data: dict[str, Any]) -> str:
    return json.dumps(data, sort_keys=True)


def moves_of(record: dict[str, Any]) -> list[tuple[int, Move]]:
    return [(player, Move.from_json(move)) for player, move in record["moves"]]


# --- version 1: every game stored so far -----------------------------------
def test_version_1_draws_the_values_it_always_drew() -> None:
    # Written down with the derivation as it was before version 2 existed.
    assert [tuple(throw(DICE_V1, ALL_DICE, 6, 9, "turn", t).values()) for t in range(1, 6)] == [
        (3, 4, 5, 1, 6, 2),
        (4, 2, 2, 6, 3, 3),
        (2, 5, 4, 1, 1, 3),
        (2, 5, 6, 1, 4, 6),
        (4, 6, 3, 4, 5, 2),
    ]
    assert [tuple(throw(DICE_V1, ALL_DICE, 8, 9, "turn", t).values()) for t in range(1, 4)] == [
        (6, 7, 1, 3, 6, 4),
        (8, 3, 3, 5, 6, 4),
        (4, 7, 1, 1, 5, 8),
    ]
    assert [
        tuple(throw(DICE_V1, QWINTO, 6, 9, "turn", t, a).values()) for t in (1, 2) for a in (0, 1)
    ] == [(4, 5, 6), (6, 3, 6), (3, 2, 6), (4, 2, 1)]


@pytest.mark.parametrize("variant", sorted(RECORDED))
def test_a_stored_game_plays_on_exactly_as_before(variant: str) -> None:
    record = RECORDED[variant]
    game = game_from_json(record["middle"])
    assert game.dice_version == DICE_V1 == dice_version_of(record["middle"])
    assert dump(game.to_json()) == dump(record["middle"])  # no field added
    for player, move in moves_of(record)[20:]:
        game, _ = game.apply(player, move)
    assert dump(game.to_json()) == dump(record["final"])


@pytest.mark.parametrize("variant", sorted(RECORDED))
def test_a_stored_game_replays_from_its_log_exactly_as_before(variant: str) -> None:
    record = RECORDED[variant]
    game = replay(
        variant,
        record["players"],
        record["seed"],
        None,
        moves_of(record),
        dice_version=dice_version_of(record["final"]),
    )
    assert dump(game.to_json()) == dump(record["final"])


@pytest.mark.parametrize("variant", sorted(RECORDED))
def test_the_same_log_with_new_dice_is_another_game(variant: str) -> None:
    record = RECORDED[variant]
    with pytest.raises(RuleError):  # the moves no longer fit the dice
        replay(variant, record["players"], record["seed"], None, moves_of(record))


# --- versions 2 to 4: new games --------------------------------------------
@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_a_new_game_rolls_version_4_and_keeps_it_through_json(variant: str) -> None:
    game = new_game(variant, PLAYERS[variant], 31)
    assert DICE_VERSION == DICE_V4 == game.dice_version
    data = json.loads(json.dumps(game.to_json()))
    assert data["dice_version"] == DICE_V4
    again = game_from_json(data)
    assert again.dice_version == DICE_V4
    assert dump(again.to_json()) == dump(game.to_json())


@pytest.mark.parametrize("version", [DICE_V2, DICE_V3, DICE_V4])
def test_a_game_of_version_2_3_or_4_keeps_its_version_through_json(version: int) -> None:
    game = new_game("longo", [1, 2], 31, dice_version=version)
    again = game_from_json(json.loads(json.dumps(game.to_json())))
    assert again.dice_version == version and again.lucky == game.lucky


@pytest.mark.parametrize("version", [DICE_V2, DICE_V3, DICE_V4])
def test_versions_2_to_4_throw_the_same_dice_while_every_die_is_in_play(version: int) -> None:
    for seed in range(50):
        assert new_game("classic", [1, 2], seed, dice_version=version).dice == derived(
            ALL_DICE, 6, seed, "turn", 1
        )
        assert new_game("longo", [1, 2], seed, dice_version=version).dice == derived(
            ALL_DICE, 8, seed, "turn", 1
        )


@pytest.mark.parametrize("version", [DICE_V3, DICE_V4])
@pytest.mark.parametrize("players", [1, 2, 3, 5])
def test_versions_3_and_4_deal_the_lucky_numbers_the_hash_documents(
    players: int, version: int
) -> None:
    for seed in range(200):
        game = new_game(
            "longo", list(range(1, players + 1)), seed, solo=players == 1, dice_version=version
        )
        assert list(game.lucky.values()) == lucky_pairs(seed, players, version=3)


@pytest.mark.parametrize("version", [DICE_V1, DICE_V2])
def test_versions_1_and_2_deal_the_lucky_numbers_they_always_dealt(version: int) -> None:
    for seed in range(200):
        game = new_game("longo", [1, 2, 3], seed, dice_version=version)
        assert list(game.lucky.values()) == lucky_pairs(seed, 3, version=version)
    # Written down with version 2 as it was before version 3 existed.
    assert new_game("longo", [1, 2], 9, dice_version=version).lucky == {1: (5, 13), 2: (10, 12)}


def test_version_3_lucky_pairs_are_uniform() -> None:
    pairs = [tuple(deal(DICE_V3, range(36), 3, seed, "lucky")) for seed in range(7_200)]
    for place in range(3):  # each sheet's pair: 36 equally likely
        counts: Counter[int] = Counter(p[place] + 1 for p in pairs)
        assert chi_square(counts, 36) < 66.619  # p = 0.001, 35 degrees of freedom
    assert all(len(set(p)) == 3 for p in pairs)  # no two sheets share a pair


def test_a_deal_longer_than_one_hash_takes_further_blocks() -> None:
    dealt = deal(DICE_V3, range(200), 150, 1, "lucky")
    assert len(set(dealt)) == 150 and set(dealt) <= set(range(200))
    assert deal(DICE_V3, range(200), 150, 1, "lucky") == dealt  # deterministic
    with pytest.raises(ValueError, match="cannot deal 3 of 2"):
        deal(DICE_V3, "ab", 3, 1, "lucky")
    with pytest.raises(ValueError, match="unknown dice version"):
        deal(5, "ab", 1, 1, "lucky")


@pytest.mark.parametrize("version", [DICE_V2, DICE_V3])
def test_a_game_of_version_2_or_3_rolls_what_version_2_documents(version: int) -> None:
    assert new_game("classic", [1, 2], 77, dice_version=version).dice == derived(
        ALL_DICE, 6, 77, "turn", 1
    )
    assert new_game("longo", [1, 2], 77, dice_version=version).dice == derived(
        ALL_DICE, 8, 77, "turn", 1
    )
    game = new_game("qwinto", [1, 2], 77, dice_version=version)
    game, _ = game.apply(1, Move("roll", dice=("orange", "purple")))
    assert game.dice == derived(("orange", "purple"), 6, 77, "turn", 1, 0)
    game, _ = game.apply(1, Move("reroll"))
    assert game.dice == derived(("orange", "purple"), 6, 77, "turn", 1, 1)
    # The faces go in order to the dice thrown: purple shows the second face here.
    assert game.dice["purple"] == derived(QWINTO, 6, 77, "turn", 1, 1)["yellow"]


def test_a_new_game_rolls_what_version_4_documents() -> None:
    assert new_game("classic", [1, 2], 77).dice == derived(
        ALL_DICE, 6, 77, "turn", 1, version=4, among=ALL_DICE
    )
    assert new_game("longo", [1, 2], 77).dice == derived(
        ALL_DICE, 8, 77, "turn", 1, version=4, among=ALL_DICE
    )
    game = new_game("qwinto", [1, 2], 77)
    game, _ = game.apply(1, Move("roll", dice=("orange", "purple")))
    assert game.dice == derived(("orange", "purple"), 6, 77, "turn", 1, 0, version=4, among=QWINTO)
    game, _ = game.apply(1, Move("reroll"))
    assert game.dice == derived(("orange", "purple"), 6, 77, "turn", 1, 1, version=4, among=QWINTO)
    assert game.dice["purple"] == derived(QWINTO, 6, 77, "turn", 1, 1)["purple"]


def thrown_after(
    variant: str, seed: int, turn: int, closed: list[str], version: int = DICE_V4
) -> dict[str, int]:
    """The dice a solo game of ``version`` throws at ``turn`` with the rows ``closed``."""
    game = reposition(
        new_game(variant, [1], seed, solo=True, dice_version=version),
        turn=turn - 1,
        phase="action2",
        closed=closed,
    )
    while game.turn < turn:  # the turn before passes to its end (one penalty)
        game, _ = game.apply(1, PASS)
    return game.dice


@pytest.mark.parametrize("variant", ["classic", "longo", "onboard"])
def test_version_4_gives_each_die_its_own_face_whatever_rows_are_closed(variant: str) -> None:
    faces = 8 if variant == "longo" else 6
    for seed in range(30):
        for turn in (2, 9):
            seen: dict[str, set[int]] = {}
            for closed in ([], ["red"], ["yellow"], ["green"], ["blue"]):
                dice = thrown_after(variant, seed, turn, closed)
                in_play = [die for die in ALL_DICE if die not in closed]
                assert dice == derived(
                    in_play, faces, seed, "turn", turn, version=4, among=ALL_DICE
                )
                for die, face in dice.items():
                    seen.setdefault(die, set()).add(face)
            assert all(len(found) == 1 for found in seen.values()), (seed, turn, seen)


def test_version_3_shifted_the_faces_once_a_row_closed() -> None:
    # What version 4 mends: one seed, one turn, and yellow shows red's face once red
    # is closed (the same games stored with version 3 keep doing so).
    shifted = [
        seed
        for seed in range(30)
        if thrown_after("classic", seed, 2, ["red"], DICE_V3)
        != {
            die: face
            for die, face in thrown_after("classic", seed, 2, [], DICE_V3).items()
            if die != "red"
        }
    ]
    assert len(shifted) > 20
    for seed in shifted:
        assert (
            thrown_after("classic", seed, 2, ["red"], DICE_V3)["yellow"]
            == thrown_after("classic", seed, 2, [], DICE_V3)["red"]
        )


QWINTO_THROWS = [dice for size in (1, 2, 3) for dice in itertools.combinations(QWINTO, size)]


def test_version_4_gives_each_qwinto_die_its_own_face_whichever_are_thrown() -> None:
    for seed in range(40):
        seen: dict[tuple[str, int], set[int]] = {}
        for dice in QWINTO_THROWS:
            game, _ = new_game("qwinto", [1, 2], seed).apply(1, Move("roll", dice=dice))
            rolled, _ = game.apply(1, Move("reroll"))  # a new throw of the same dice
            for attempt, thrown in ((0, game.dice), (1, rolled.dice)):
                assert thrown == derived(dice, 6, seed, "turn", 1, attempt, version=4, among=QWINTO)
                for die, face in thrown.items():
                    seen.setdefault((die, attempt), set()).add(face)
        assert all(len(found) == 1 for found in seen.values()), (seed, seen)
        assert len(seen) == 6


def test_a_replay_of_a_new_game_rolls_as_the_game_did() -> None:
    game = new_game("classic", [1, 2], 5)
    moves = []
    while not game.finished and len(moves) < 30:
        player = min(game.decision().waiting)
        move = game.legal_moves(player)[0]
        moves.append((player, move))
        game, _ = game.apply(player, move)
    assert dump(replay("classic", [1, 2], 5, None, moves).to_json()) == dump(game.to_json())


@pytest.mark.parametrize("version", [0, 5, "2"])
def test_an_unknown_version_is_refused(version: Any) -> None:
    data = new_game("classic", [1, 2], 5).to_json()
    data["dice_version"] = version
    with pytest.raises(RuleError):
        game_from_json(data)
    if isinstance(version, int):
        with pytest.raises(RuleError):
            new_game("classic", [1, 2], 5, dice_version=version)


# Chi-square critical values at p = 0.001 for 5 and 7 degrees of freedom.
CRITICAL = {6: 20.515, 8: 24.322}


@pytest.mark.parametrize("faces", [6, 8])
def test_version_2_faces_are_uniform(faces: int) -> None:
    turns = 20_000
    counts: Counter[int] = Counter()
    by_die: dict[str, Counter[int]] = {d: Counter() for d in ALL_DICE}
    for turn in range(1, turns + 1):
        for die, face in throw(DICE_V2, ALL_DICE, faces, 123_456, "turn", turn).items():
            counts[face] += 1
            by_die[die][face] += 1
    assert set(counts) == set(range(1, faces + 1))
    assert chi_square(counts, faces) < CRITICAL[faces]
    for die in ALL_DICE:  # each die on its own too: no position is biased
        assert chi_square(by_die[die], faces) < CRITICAL[faces], die


@pytest.mark.parametrize("faces", [6, 8])
def test_version_4_faces_are_uniform_for_every_die_whatever_is_in_play(faces: int) -> None:
    turns = 20_000
    by_die: dict[str, Counter[int]] = {d: Counter() for d in ALL_DICE}
    for turn in range(1, turns + 1):
        closed = ALL_DICE[2 + turn % 5 : 3 + turn % 5]  # no row, or one of the four
        in_play = [die for die in ALL_DICE if die not in closed]
        for die, face in throw(
            DICE_V4, in_play, faces, 654_321, "turn", turn, among=ALL_DICE
        ).items():
            by_die[die][face] += 1
    for die in ALL_DICE:
        assert set(by_die[die]) == set(range(1, faces + 1)), die
        assert chi_square(by_die[die], faces) < CRITICAL[faces], die


def chi_square(counts: Counter[int], faces: int) -> float:
    expected = sum(counts.values()) / faces
    return sum((counts[face] - expected) ** 2 / expected for face in range(1, faces + 1))


def test_more_faces_than_one_block_holds_come_from_further_blocks() -> None:
    # 129 faces reject almost half of the bytes: 60 faces need a second block of 64.
    first = hashed_faces("1:turn:1", 60, 129)
    assert len(first) == 60 and all(1 <= f <= 129 for f in first)
    assert hashed_faces("1:turn:1", 60, 129) == first  # deterministic
    assert hashed_faces("1:turn:1", 20, 129) == first[:20]  # a prefix of the same stream
