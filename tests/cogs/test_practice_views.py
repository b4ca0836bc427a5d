"""What the lobby, a hint and the history say of levels, practice, hints and stand-ins."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.cogs import views
from bot.cogs.buttons import LevelSelect, LobbyButton, TurnButton
from bot.cogs.stats_words import history_line
from bot.players import Hint, Option, hint
from bot.records.games import GameRecord
from bot.records.stats import HistoryGame, HistoryLine
from bot.rules import PASS, Move, new_game
from tests.cogs.records import game_record
from tests.positions import position

ANA, BEN = 11, 22


def lobby(players: list[int], **options: object) -> GameRecord:
    return game_record(players, host=ANA, **options)


def buttons(view: object) -> dict[str, bool]:
    return {
        item.action: item.item.disabled
        for item in view.children  # type: ignore[attr-defined]
        if isinstance(item, LobbyButton)
    }


def test_the_lobby_names_each_computers_level_and_offers_every_level_of_each() -> None:
    record = lobby([ANA, -1, -2], levels={"-1": "hard"}, hints=True)
    content = views.lobby_content(record)
    assert "🤖 Computer 1 (Hard)" in content and "🤖 Computer 2 (Easy)" in content
    assert "do not count for the leaderboard" in content
    [select] = [i for i in views.lobby_view(record).children if isinstance(i, LevelSelect)]
    assert sorted(select.allowed) == sorted(
        f"{seat}.{level}" for seat in (-1, -2) for level in ("easy", "normal", "hard")
    )
    assert not any(isinstance(i, LevelSelect) for i in views.lobby_view(lobby([ANA])).children)


def test_a_solo_lobby_starts_alone_and_takes_nobody_else() -> None:
    solo = lobby([ANA], solo=True)
    assert "(1/1)" in views.lobby_content(solo) and "Solo practice" in views.lobby_content(solo)
    assert buttons(views.lobby_view(solo)) == {
        "join": True,
        "leave": False,
        "computer": True,
        "start": False,
        "cancel": False,
    }
    assert buttons(views.lobby_view(lobby([ANA])))["start"]  # two needed otherwise


def test_sheets_of_a_hinted_game_carry_the_hint_button_and_every_option() -> None:
    game = new_game("classic", [ANA, BEN], seed=2)
    record = replace(lobby([ANA, BEN], hints=True), status="running")
    view = views.sheet_view(record, game, ANA)
    assert view is not None
    hint_buttons = [i for i in view.children if isinstance(i, TurnButton)]
    assert [b.action for b in hint_buttons] == ["hint"]
    assert len(view.children) == 1 + len(game.legal_moves(ANA))
    plain = views.sheet_view(replace(record, options={"rules": {}}), game, ANA)
    assert plain is not None and not any(isinstance(i, TurnButton) for i in plain.children)


def test_a_hint_says_the_move_its_gain_and_a_risk_in_two_lines_at_most() -> None:
    game = position(
        "classic",
        [ANA, BEN],
        seed=2,
        dice={"white1": 4, "white2": 1, "red": 2, "yellow": 3, "green": 6, "blue": 6},
    )
    cross = Move("cross", "red", 5)
    safe = Hint(cross, (Option(cross, 41.4, 0.0), Option(PASS, 39.2, 0.0)), "")
    assert (
        views.hint_content(game, ANA, safe)
        == "💡 **🟥 Red 5 (skips 3)**: about 41 points ahead of the best opponent expected by "
        "the end of the game, 2.2 more than Pass."
    )  # hard plays for its lead in a duel
    behind = Hint(cross, (Option(cross, -6.6, 0.0),), "")
    assert (
        views.hint_content(game, ANA, behind) == "💡 **🟥 Red 5 (skips 3)**: about 7 "
        "points behind the best opponent expected by the end of the game."
    )
    surer = Hint(PASS, (Option(PASS, -29.6, 0.0), Option(cross, -12.0, 0.0)), "")
    assert (
        views.hint_content(game, ANA, surer) == "💡 **Pass**: about 30 points behind "
        "the best opponent expected by the end of the game, a better chance to win than "
        "🟥 Red 5 (skips 3)."
    )  # hard plays on rather than end the game 12 behind
    risky = Hint(PASS, (Option(PASS, 30.0, 0.25), Option(cross, 20.0, 1.0)), "")
    assert (
        views.hint_content(game, ANA, risky).splitlines()[1]
        == "⚠️ 25% chance that this turn ends with a penalty."
    )
    solo = position("classic", [ANA], seed=2, solo=True, dice=game.dice_on_table())
    other = Hint(PASS, (Option(PASS, -0.4, 0.0), Option(cross, -3.0, 1.0)), "")
    assert views.hint_content(solo, ANA, other).splitlines() == [
        "💡 **Pass**: about 0 points expected by the end of the game, 2.6 more than "
        "🟥 Red 5 (skips 3).",
        "⚠️ 🟥 Red 5 (skips 3) would risk a penalty (100%).",
    ]
    alone = Hint(PASS, (Option(PASS, 12.0, 0.0),), "")
    assert (
        views.hint_content(solo, ANA, alone)
        == "💡 **Pass**: about 12 points expected by the end of the game."
    )


def test_the_history_marks_practice_hints_and_seats_a_computer_played() -> None:
    lines = (HistoryLine(ANA, 40, 1, True), HistoryLine(BEN, 30, 2, False, stand_in=True))
    game = HistoryGame(7, 2, "classic", 0.0, 60.0, 20, True, lines)
    text = history_line(1, game)
    assert f"<@{BEN}> 30 🤖" in text and "(not counted)" not in text
    assert history_line(1, replace(game, counted=False, hints=True)).endswith("(with hints)")
    assert history_line(1, replace(game, counted=False, practice=True)).endswith("(solo practice)")
    assert history_line(1, replace(game, counted=False)).endswith("(not counted)")


@pytest.mark.parametrize("variant", ["classic", "longo", "onboard", "qwinto"])
def test_hints_of_every_variant_name_an_offered_option(variant: str) -> None:
    """Along a game played by its hints: each hint names the label of a legal move."""
    game = new_game(variant, [ANA, BEN], seed=8)
    for _ in range(12):
        player = min(game.decision().waiting)
        found = hint(game, player)
        text = views.hint_content(game, player, found)
        labels = {views.option_label(game, player, m) for m in game.legal_moves(player)}
        assert text.startswith(f"💡 **{views.option_label(game, player, found.move)}**")
        assert views.option_label(game, player, found.move) in labels
        assert 1 <= len(text.splitlines()) <= 2
        game, _ = game.apply(player, found.move)
        if game.finished:
            break


def test_a_solo_lobby_does_not_speak_of_a_number_of_players_to_start() -> None:
    assert "Start needs" not in views.lobby_content(lobby([ANA], solo=True))
