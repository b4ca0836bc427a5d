"""The solo form: one seat, created only on request, played to the end like any game."""

from __future__ import annotations

import pytest

from bot.rules import VARIANTS, RuleError, game_from_json, new_game, replay


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_one_seat_needs_the_solo_form(variant: str) -> None:
    with pytest.raises(RuleError):
        new_game(variant, [7], seed=1)
    with pytest.raises(RuleError):
        new_game(variant, [7, 8], seed=1, solo=True)
    with pytest.raises(RuleError):
        new_game(variant, [], seed=1, solo=True)


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_a_solo_game_is_played_to_the_end_by_its_one_player(variant: str) -> None:
    game = new_game(variant, [7], seed=42, solo=True)
    moves = []
    for _ in range(5_000):
        if game.finished:
            break
        assert game.decision().waiting == {7}
        assert game.active == 7  # the one player is active every turn
        move = game.legal_moves(7)[-1]
        moves.append((7, move))
        game, _ = game.apply(7, move)
    assert game.finished
    assert [s.player for s in game.ranking()] == [7]
    again = replay(variant, [7], 42, {}, moves, solo=True)
    assert again.to_json() == game.to_json()
    assert game_from_json(game.to_json()).to_json() == game.to_json()


def test_the_solo_form_changes_nothing_for_several_players() -> None:
    assert (
        new_game("classic", [1, 2], seed=3).to_json()
        == new_game("classic", [1, 2], seed=3, solo=False).to_json()
    )
