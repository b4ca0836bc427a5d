"""Message builders: what players read, from game states built with the rules API."""

from __future__ import annotations

from bot.cogs import views
from bot.rules import PASS, Move, new_game

ANA, BEN, CEM = 11, 22, 33


def test_option_labels_show_dice_skips_and_stay() -> None:
    game = new_game("classic", [ANA, BEN], seed=2)
    game.dice = {"white1": 4, "white2": 1, "red": 2, "yellow": 3, "green": 6, "blue": 6}
    assert views.option_label(game, ANA, Move("cross", "red", 5)) == "🟥 5 (skips 3)"
    assert views.option_label(game, ANA, PASS) == "Pass"
    game.phase = "action2"
    assert views.option_label(game, ANA, Move("cross", "blue", 10)) == "🟦 10 (⚪4+🟦6) (skips 2)"
    onboard = new_game("onboard", [ANA, BEN], seed=2)
    onboard.phase = "action3"
    assert views.option_label(onboard, ANA, PASS) == "Stay"


def test_the_end_names_winners_and_their_count_of_wins() -> None:
    game = new_game("classic", [ANA, BEN], seed=3)
    text = views.end_content(game, (), {ANA: 3, BEN: 1})
    assert "share the win" in text  # nobody scored yet: a tie
    assert f"<@{ANA}>'s 3rd win on this server." in text
    assert f"<@{BEN}>'s 1st win on this server." in text


def test_qwinto_fields_are_named_by_place_and_neighbours() -> None:
    game = new_game("qwinto", [ANA, BEN], seed=4)
    game.sheets[ANA].fields["orange"].update({2: 3, 9: 12})  # type: ignore[attr-defined]
    label = views.field_label(game, ANA, Move("place", "orange", 7))
    assert label == "🟧 field 5 of 9 — between 3 and 12 (pentagon)"
    assert views.field_label(game, ANA, Move("place", "yellow", 1)) == \
        "🟨 field 1 of 9 — empty row"
