"""The compact state the rules keep up to date move by move is the state worked out
afresh from the sheet: a Qwixx sheet's ``allow`` mask, a Qwinto sheet's remembered place
moves, a Qwixx game's remembered options of the active player."""

from __future__ import annotations

import json
import random

import pytest

from bot.rules import Game, game_from_json, new_game
from bot.rules.qwinto import PLACE, QwintoGame, QwintoSheet
from bot.rules.qwixx import QwixxGame


def positions(variant: str, seeds: range, players: tuple[int, ...] = (1, 2, 3)) -> list[Game]:
    found: list[Game] = []
    for seed in seeds:
        rng = random.Random(seed)
        game = new_game(variant, players, seed)
        found.append(game)
        while not game.finished:
            player = rng.choice(sorted(game.decision().waiting))
            game, _ = game.apply(player, rng.choice(game.legal_moves(player)))
            found.append(game)
    return found


@pytest.mark.parametrize("variant", ["classic", "longo", "onboard"])
def test_a_sheets_mask_is_the_one_its_crosses_give(variant: str) -> None:
    for game in positions(variant, range(6)):
        assert isinstance(game, QwixxGame)
        for sheet in game.sheets.values():
            assert sheet.allow == game.rules.allow(sheet)
            assert sheet.marks == game.rules.marks(sheet)


@pytest.mark.parametrize("variant", ["classic", "longo", "onboard"])
def test_the_active_players_options_are_those_of_a_loaded_game(variant: str) -> None:
    for game in positions(variant, range(4)):
        loaded = game_from_json(json.loads(json.dumps(game.to_json())))
        for player in game.players:
            assert game.legal_moves(player) == loaded.legal_moves(player)


def test_a_qwinto_sheet_remembers_exactly_its_free_fields() -> None:
    for game in positions("qwinto", range(6)):
        assert isinstance(game, QwintoGame)
        if game.phase != PLACE:
            continue
        total = sum(game.dice.values())
        for sheet in game.sheets.values():
            fresh = QwintoSheet({r: dict(f) for r, f in sheet.fields.items()}, sheet.failed)
            assert sheet.place_options(game.rolled, total) == fresh.place_options(
                game.rolled, total
            )
