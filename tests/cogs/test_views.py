"""Message builders: what players read, from game states built with the rules API."""

from __future__ import annotations

from bot.cogs import views
from bot.rules import PASS, Event, Move, new_game
from bot.rules.onboard import OnBoardGame

ANA, BEN, CEM = 11, 22, 33


def test_the_final_round_names_who_still_plays() -> None:
    game = new_game("onboard", [ANA, BEN, CEM], seed=1)
    assert isinstance(game, OnBoardGame)
    game.final_turn = game.turn + 1  # ANA reached the finish on the turn before
    text = views.turn_content(game)
    assert f"Final round: <@{ANA}>, <@{BEN}> still play" in text


def test_a_deadline_is_a_discord_timestamp() -> None:
    game = new_game("classic", [ANA, BEN], seed=1)
    assert "⏳ Decide <t:1700000000:R>." in views.turn_content(game, (), 1_700_000_000.9)
    assert "Decide" not in views.turn_content(game)


def test_turns_played_out_without_a_click_are_told_once() -> None:
    events = [Event("crossed", ANA, {"row": "red", "number": 5, "via": "cross"}),
              Event("turn", BEN, {"turn": 2}), Event("passed", ANA), Event("passed", BEN),
              Event("penalty", BEN, {"count": 1, "limit": 4}),
              Event("turn", ANA, {"turn": 3}), Event("passed", BEN)]
    segments = views.turn_segments(events)
    assert views.describe(segments[0][1]) == [f"<@{ANA}> crossed 🟥 5"]
    lines = views.played_out(segments, finished=False)
    assert lines == [f"**Turn 2** (<@{BEN}> active) — nobody could cross anything: "
                     f"❌ <@{BEN}> takes a penalty (1/4)"]


def test_locks_and_dice_leaving_read_as_one_line() -> None:
    events = [Event("locked", ANA, {"row": "red"}), Event("die_removed", None, {"row": "red"})]
    assert views.describe(events) == [f"🔒 <@{ANA}> locked **red** — the red die leaves the game"]


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
