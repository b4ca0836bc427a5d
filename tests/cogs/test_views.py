"""Message builders: what players read, from game states built with the rules API."""

from __future__ import annotations

from bot.channel import texts
from bot.cogs import views
from bot.i18n import using
from bot.rules import PASS, Move, new_game
from tests.positions import position, reposition

ANA, BEN, CEM = 11, 22, 33


def test_option_labels_show_dice_skips_and_stay() -> None:
    game = position(
        "classic",
        [ANA, BEN],
        seed=2,
        dice={"white1": 4, "white2": 1, "red": 2, "yellow": 3, "green": 6, "blue": 6},
    )
    assert views.option_label(game, ANA, Move("cross", "red", 5)) == "🟥 Red 5 (skips 3)"
    assert views.option_label(game, ANA, PASS) == "Pass"
    game = reposition(game, phase="action2")
    assert (
        views.option_label(game, ANA, Move("cross", "blue", 10)) == "🟦 Blue 10 (⚪4+🟦6) (skips 2)"
    )
    onboard = position("onboard", [ANA, BEN], seed=2, phase="action3")
    assert views.option_label(onboard, ANA, PASS) == "Stay"


def test_labels_name_rows_in_words_and_stay_within_discords_limit() -> None:
    for variant in ("classic", "longo", "onboard"):
        game = new_game(variant, [ANA, BEN], seed=5)
        labels = [views.option_label(game, p, m) for p in game.players for m in game.legal_moves(p)]
        assert labels and all(len(label) <= views.LABEL_LIMIT for label in labels)
        assert any(
            word in label
            for label in labels
            for word in ("Red", "Yellow", "Green", "Blue", "Pass", "Roll")
        )


def test_only_a_cross_skipping_three_or_more_asks_first() -> None:
    game = position(
        "classic",
        [ANA, BEN],
        seed=2,
        dice={"white1": 4, "white2": 1, "red": 2, "yellow": 3, "green": 6, "blue": 6},
    )
    assert views.costly(game, ANA, Move("cross", "red", 5))  # skips 2, 3, 4
    assert views.costly(game, ANA, Move("cross", "green", 9))  # skips 12, 11, 10
    assert not views.costly(game, ANA, Move("cross", "green", 10))  # skips 12, 11
    assert not views.costly(game, ANA, PASS)
    assert (
        views.confirm_content(game, ANA, Move("cross", "red", 5))
        == "Cross Red 5 and skip 3 numbers?"
    )


def test_the_end_names_winners_and_their_count_of_wins() -> None:
    game = new_game("classic", [ANA, BEN], seed=3)
    text = texts.end_content(game, (), {ANA: 3, BEN: 1})
    assert "share the win" in text  # nobody scored yet: a tie
    assert f"<@{ANA}>'s 3rd win on this server." in text
    assert f"<@{BEN}>'s 1st win on this server." in text


def test_the_end_shows_each_rated_persons_rating_and_its_change() -> None:
    game = new_game("classic", [ANA, BEN, -1], seed=3)
    text = texts.end_content(game, (), {}, None, {ANA: ("1624", 23), BEN: ("1412?", -88)})
    assert f"<@{ANA}> — 0 · rating 1624 (+23)" in text
    assert f"<@{BEN}> — 0 · rating 1412? (−88)" in text  # as read: provisional
    assert "rating" not in text.split("\n")[3]  # the computer's line has none
    assert "(±0)" in texts.end_content(game, (), {}, None, {ANA: ("1500?", 0)})
    with using("de"):
        assert "Spielstärke 1624 (+23)" in texts.end_content(
            game, (), {}, None, {ANA: ("1624", 23)}
        )


def test_qwinto_fields_are_named_by_place_and_neighbours() -> None:
    game = position("qwinto", [ANA, BEN], seed=4, sheets={ANA: "orange: 2=3 9=12"})
    label = views.field_label(game, ANA, Move("place", "orange", 7))
    assert label == "🟧 Orange field 5 of 9 — between 3 and 12 (pentagon)"
    assert (
        views.field_label(game, ANA, Move("place", "yellow", 1))
        == "🟨 Yellow field 1 of 9 — empty row"
    )
