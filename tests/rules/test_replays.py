"""Games recorded by the rules as they were (``data/replays.json``, written by
:mod:`tests.rules.record_replays`) replay exactly: every variant, solo and up to five
players, every dice version, both On Board boards.

Each recorded game is played again from its seed and its moves. At every step the
game's JSON, its decision, every player's legal moves, the scores and the step's
events must be what was recorded (folded into one digest), and the JSON must load back
into the same game; the events, the final JSON, the scores and the ranking are also
compared in full. This is what keeps stored games and their replays as they are while
the rules' insides change.
"""

from __future__ import annotations

import hashlib
import json
from functools import cache
from typing import Any

import pytest

from bot.rules import Move, game_from_json, new_game, replay

from .record_replays import DATA, canonical, events_json, scores_json, state_digest


@cache
def recorded() -> list[dict[str, Any]]:
    games: list[dict[str, Any]] = json.loads(DATA.read_text())
    return games


def name(case: dict[str, Any]) -> str:
    kind = "solo" if case["solo"] else f"{len(case['players'])}p"
    return f"{case['variant']}-{kind}-seed{case['seed']}-v{case['dice_version']}"


@pytest.mark.parametrize("index", range(len(recorded())), ids=[name(c) for c in recorded()])
def test_a_recorded_game_replays_exactly(index: int) -> None:
    case = recorded()[index]
    game = new_game(
        case["variant"],
        case["players"],
        case["seed"],
        case["options"],
        case["solo"],
        case["dice_version"],
    )
    digest = hashlib.sha256()
    state_digest(game, [], digest)
    for step, ((player, move), expected) in enumerate(
        zip(case["moves"], case["events"], strict=True)
    ):
        assert not game.finished, step
        game, events = game.apply(player, Move.from_json(move))
        assert events_json(events) == json.loads(canonical(expected)), step
        state_digest(game, events, digest)
        data = json.loads(canonical(game.to_json()))
        assert canonical(game_from_json(data).to_json()) == canonical(data), step
    assert game.finished
    assert json.loads(canonical(game.to_json())) == case["final"]
    assert json.loads(canonical(scores_json(game))) == case["scores"]
    assert [[s.rank, s.player, s.total] for s in game.ranking()] == case["ranking"]
    assert digest.hexdigest() == case["digest"]


@pytest.mark.parametrize("index", range(len(recorded())), ids=[name(c) for c in recorded()])
def test_replay_and_the_stored_json_give_the_recorded_end(index: int) -> None:
    case = recorded()[index]
    moves = [(player, Move.from_json(move)) for player, move in case["moves"]]
    game = replay(
        case["variant"],
        case["players"],
        case["seed"],
        case["options"],
        moves,
        case["solo"],
        case["dice_version"],
    )
    assert json.loads(canonical(game.to_json())) == case["final"]
    stored = game_from_json(case["final"])
    assert json.loads(canonical(scores_json(stored))) == case["scores"]
    assert [[s.rank, s.player, s.total] for s in stored.ranking()] == case["ranking"]


def test_the_recorded_games_cover_every_variant_and_form() -> None:
    cases = recorded()
    assert {c["variant"] for c in cases} == {"classic", "longo", "onboard", "qwinto"}
    for variant in ("classic", "longo", "onboard", "qwinto"):
        forms = {(c["solo"], len(c["players"])) for c in cases if c["variant"] == variant}
        assert (True, 1) in forms and len(forms) >= 3, variant
    assert {c["options"].get("board") for c in cases if c["variant"] == "onboard"} == {"A", "B"}
    assert {c["dice_version"] for c in cases} == {1, 2, 3, 4}
    after_a_lock = {
        c["variant"]
        for c in cases
        if c["dice_version"] == 4
        and any(
            0 < len(e[2].get("dice", ())) < 6
            for step in c["events"]
            for e in step
            if e[0] == "turn"
        )
    }
    assert after_a_lock == {"classic", "longo", "onboard"}  # version 4 past a closed row
