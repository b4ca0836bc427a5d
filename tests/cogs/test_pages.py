"""A sheet's pages: deciding ahead, Qwinto's re-throw rule and next throw, the game's
standing choices — their words and components, from positions the rules build.

Every page is read as Discord receives it (``to_components``) and held to Discord's
limits; every choice ahead it offers is one the rules foresee for that moment."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import discord
import pytest

from bot.cogs.buttons import encode_move
from bot.cogs.choice_items import (
    AheadButton,
    FallbackButton,
    GameChoiceSelect,
    RethrowSelect,
    SheetButton,
    ThrowButton,
    decode_steps,
    encode_steps,
)
from bot.cogs.pages import Page, add_row, page, short_label
from bot.cogs.registry import claimed
from bot.cogs.sheets import ahead_told, moved_on
from bot.i18n import using
from bot.records.games import GameRecord
from bot.records.plans import Plan, Step
from bot.records.prefs import Prefs
from bot.records.seats import Seats
from bot.rules import PASS, Event, Game, Move
from bot.rules.qwinto import ROLL_MOVES
from bot.service.ahead import next_turn_of
from bot.service.outcome import Outcome
from tests.cogs.records import game_record
from tests.positions import position

ANA, BEN, CEM = 11, 22, 33
BUTTON, SELECT = 2, 3
RED_7 = Move("cross", "red", 7)


def record(
    game: Game,
    prefs: dict[int, Prefs] | None = None,
    plans: dict[int, Plan] | None = None,
    **options: object,
) -> GameRecord:
    seats = Seats(prefs=prefs or {}, plans=plans or {})
    return replace(
        game_record(list(game.players), status="running", variant=game.variant, **options),
        presence=seats.to_json(),
    )


def white_chosen(chosen: Move = RED_7) -> Game:
    """Classic, three players, turn 1: Ana (active) chose ``chosen`` with white 3 + 4;
    red 5, yellow 6, green 1, blue 5 — Ben and Cem still to choose."""
    return position(
        "classic",
        [ANA, BEN, CEM],
        dice=dict(white1=3, white2=4, red=5, yellow=6, green=1, blue=5),
        chosen={ANA: chosen},
    )


def rows(shown: Page) -> list[list[dict[str, Any]]]:
    assert shown.view is not None
    return [row["components"] for row in shown.view.to_components()]


def items(shown: Page) -> list[dict[str, Any]]:
    return [item for row in rows(shown) for item in row]


def labels(shown: Page) -> list[str]:
    return [i["label"] for i in items(shown) if i["type"] == BUTTON]


def ahead_steps(shown: Page) -> list[tuple[Step, ...]]:
    return [
        decode_steps(i["custom_id"].split(":")[4])
        for i in items(shown)
        if ":ahead:" in i.get("custom_id", "")
    ]


def within_discords_limits(shown: Page) -> None:
    assert shown.view is not None and len(shown.view.children) <= 25
    assert 1 <= len(rows(shown)) <= 5
    for row in rows(shown):
        kinds = [i["type"] for i in row]
        assert kinds == [SELECT] or (kinds == [BUTTON] * len(kinds) and len(kinds) <= 5)
        for item in row:
            assert len(item["custom_id"]) <= 100 and claimed(item["custom_id"])
            if item["type"] == BUTTON:
                assert 1 <= len(item["label"]) <= 80
            else:
                assert all(len(o["label"]) <= 100 for o in item["options"])
    assert len(shown.content) <= 2000


# --- the coloured die ahead ------------------------------------------------------------
def test_after_the_white_sum_the_sheet_offers_the_coloured_die_foreseen() -> None:
    game = white_chosen()
    shown = page(record(game), game, ANA)
    foreseen = game.foresee(ANA, [RED_7])
    assert foreseen is not None
    assert ahead_steps(shown) == [(Step("action2", m),) for m in foreseen.legal_moves(ANA)]
    assert "🟥 Red 8 (⚪3+🟥5)" in labels(shown) and "None" in labels(shown)
    assert shown.drawn is foreseen or shown.drawn.to_json() == foreseen.to_json()
    assert shown.content.splitlines()[:4] == [
        f"Crossed 🟥 Red 7. Waiting for <@{BEN}>, <@{CEM}>.",
        "You can change your choice until everyone has decided.",
        "**Turn 1, action 2 ahead (white + colour):** choose it now. It is made once everyone "
        "has chosen their white sum, if the rules still allow it then.",
        "If it is no longer possible then, you are asked.",
    ]
    assert labels(shown)[-2:] == ["Pass in that case", "Change my white sum"]
    within_discords_limits(shown)


def test_passing_the_white_sum_warns_that_none_costs_a_penalty() -> None:
    game = white_chosen(PASS)
    shown = page(record(game), game, ANA)
    assert "None (costs a penalty)" in labels(shown)
    assert "You passed. Waiting for" in shown.content


def test_a_choice_made_ahead_is_shown_and_can_be_changed_or_dropped() -> None:
    game = white_chosen()
    red_8 = Move("cross", "red", 8)
    plan = Plan(1, (Step("action2", red_8),))
    shown = page(record(game, {ANA: Prefs(fallback="pass")}, {ANA: plan}), game, ANA)
    assert "✓ Chosen ahead: 🟥 Red 8 (⚪3+🟥5)." in shown.content
    assert "✓ 🟥 Red 8 (⚪3+🟥5)" in labels(shown)
    assert "If it is no longer possible then, you pass." in shown.content
    fallback = [i for i in items(shown) if "fallback-" in i["custom_id"]]
    assert [(f["label"], f["custom_id"].rsplit("-", 1)[1]) for f in fallback] == [
        ("Ask me in that case", "ask")
    ]
    assert "Decide later" in labels(shown)


def test_the_white_sum_page_again_says_what_a_new_choice_drops() -> None:
    game = white_chosen()
    plan = Plan(1, (Step("action2", Move("cross", "red", 9)),))
    shown = page(record(game, plans={ANA: plan}), game, ANA, mode="first")
    assert shown.content.startswith("Your choice so far: Crossed 🟥 Red 7.\nA new choice here")
    assert not ahead_steps(shown) and "🟥 Red 7" in " ".join(labels(shown))


def test_a_choice_made_already_is_said_until_it_can_no_longer_change() -> None:
    """Ben's standing choice passed for him (or he chose on another look): his sheet says
    so above the options he may still change it to."""
    game = white_chosen()
    game = position(
        "classic", [ANA, BEN, CEM], dice=game.dice_on_table(), chosen={ANA: RED_7, BEN: PASS}
    )
    shown = page(record(game), game, BEN)
    assert shown.content.splitlines()[:3] == [
        "Your choice so far: You passed.",
        "Turn 1, action 1 (white sum 7): choose what to cross, or pass.",
        "You can change your choice until everyone has decided.",
    ]
    told = page(record(game), game, BEN, header="You passed. Waiting for <@33>.")
    assert "Your choice so far" not in told.content, "the header says it already"


def test_nothing_ahead_for_others_nor_once_the_coloured_die_is_asked() -> None:
    game = white_chosen()
    assert not ahead_steps(page(record(game), game, BEN))
    solo = position("classic", [ANA], solo=True)
    assert not ahead_steps(page(record(solo, solo=True), solo, ANA))


def onboard_after_white() -> tuple[Game, Move, Move]:
    """On Board (seed 0, three players): Ana crossed red 5 with the white sum; her
    coloured die may cross yellow 4, after which her pawn has options."""
    from bot.rules import new_game

    game = new_game("onboard", [ANA, BEN, CEM], 0)
    first, colour = Move("cross", "red", 5), Move("cross", "yellow", 4)
    game, _ = game.apply(ANA, first)
    return game, first, colour


def test_on_board_asks_the_pawn_ahead_after_the_coloured_die() -> None:
    game, first, colour = onboard_after_white()
    plan = Plan(1, (Step("action2", colour),))
    shown = page(record(game, plans={ANA: plan}), game, ANA)
    pawn_game = game.foresee(ANA, [first, colour])
    assert pawn_game is not None and pawn_game.decision().phase == "action3"
    assert ahead_steps(shown) == [
        (Step("action2", colour), Step("action3", m)) for m in pawn_game.legal_moves(ANA)
    ]
    assert "action 3 ahead (your pawn)" in shown.content
    assert "Stay" in labels(shown) and "Change my coloured die" in labels(shown)
    assert any(m.kind == "pawn" for m in shown.marked), "the board shows the pawn's fields"
    colour_again = page(record(game, plans={ANA: plan}), game, ANA, mode="colour")
    assert all(len(steps) == 1 for steps in ahead_steps(colour_again))
    within_discords_limits(shown)


# --- Qwinto ------------------------------------------------------------------------------
def qwinto(phase: str = "roll", **state: Any) -> Game:
    return position("qwinto", [ANA, BEN, CEM], phase=phase, **state)


@pytest.mark.parametrize("rule", ["ask", "keep", "unless_writable"])
def test_the_throw_carries_the_members_rethrow_rule(rule: str) -> None:
    game = qwinto()
    shown = page(record(game, {ANA: Prefs(rethrow=rule)}), game, ANA)  # type: ignore[arg-type]
    throws = [c for c in shown.view.children if isinstance(c, ThrowButton)]  # type: ignore[union-attr]
    if rule == "ask":
        assert not throws
    else:
        assert {t.rule for t in throws} == {rule} and len(throws) == len(ROLL_MOVES)
    [select] = [c for c in shown.view.children if isinstance(c, RethrowSelect)]  # type: ignore[union-attr]
    options = select.item.options
    assert [o.value for o in options if o.default] == [rule]
    assert [o.label for o in options] == [
        "Then: ask me whether to keep it",
        "Then: keep the throw",
        "Then: throw again if I cannot write it",
    ]
    within_discords_limits(shown)


def test_after_writing_the_next_throw_is_offered_ahead() -> None:
    game = qwinto("place", dice={"orange": 3, "yellow": 4}, chosen={BEN: PASS})
    turn = next_turn_of(game, BEN)
    shown = page(record(game, {BEN: Prefs(rethrow="keep")}), game, BEN)
    assert turn == 2
    assert ahead_steps(shown) == [
        (Step("roll", m), Step("reroll", rule="keep")) for m in ROLL_MOVES
    ]
    assert f"**Your next throw (turn {turn}), ahead:**" in shown.content
    assert "Change where I write" in labels(shown) and "Decide later" not in labels(shown)
    planned = Plan(turn, (Step("roll", ROLL_MOVES[0]),))
    shown = page(record(game, plans={BEN: planned}), game, BEN)
    assert "✓ Chosen ahead: Roll 🟧; then you are asked whether to keep it." in shown.content
    assert labels(shown)[0] == "✓ Roll 🟧" and "Decide later" in labels(shown)
    within_discords_limits(shown)


def test_a_decision_waiting_comes_before_the_next_throw() -> None:
    game = qwinto("place", dice={"orange": 3, "yellow": 4})
    assert not ahead_steps(page(record(game), game, BEN)), "Ben writes first"


# --- standing choices ------------------------------------------------------------------
def test_the_sheet_says_the_standing_choices_in_force_and_opens_them() -> None:
    game = white_chosen()
    prefs = {BEN: Prefs(others="computer", timeout="computer")}
    shown = page(record(game, prefs), game, BEN)
    assert (
        "⚙ On others' turns: the Hard computer chooses · If my time runs out: the Hard "
        "computer chooses"
    ) in shown.content
    assert labels(shown)[-1] == "⚙ My choices"
    choices = page(record(game, prefs), game, BEN, mode="choices")
    assert choices.drawn is None and choices.content.startswith("**Your choices in this game**")
    selects = [c for c in choices.view.children if isinstance(c, GameChoiceSelect)]  # type: ignore[union-attr]
    assert {s.name: [o.value for o in s.item.options if o.default] for s in selects} == {
        "others": ["computer"],
        "timeout": ["computer"],
    }
    assert labels(choices) == ["Back to my sheet"]
    within_discords_limits(choices)


def test_qwinto_offers_no_skips_nothing_and_games_in_no_channel_no_choices() -> None:
    game = qwinto()
    choices = page(record(game), game, BEN, mode="choices")
    others = next(c for c in choices.view.children if isinstance(c, GameChoiceSelect))  # type: ignore[union-attr]
    assert [o.value for o in others.item.options] == ["ask", "computer"]
    daily = replace(record(game, daily="2026-01-01"), channel_id=-5)  # in no channel
    plain = page(daily, game, ANA, mode="choices")
    assert "⚙" not in plain.content and not any(
        isinstance(c, SheetButton | ThrowButton)
        for c in (plain.view.children if plain.view else [])
    )


def test_the_choices_button_keeps_to_the_last_row_when_there_is_room() -> None:
    view = discord.ui.View(timeout=None)
    for n in range(4):
        view.add_item(SheetButton(1, 1, "later", f"b{n}"))
    add_row(view, SheetButton(1, 1, "see-choices", "⚙"), join=True)
    assert [row["components"][-1]["label"] for row in view.to_components()] == ["⚙"]
    full = discord.ui.View(timeout=None)
    for n in range(25):
        full.add_item(SheetButton(1, 1, "later", f"b{n}"))
    add_row(full, SheetButton(1, 1, "see-choices", "⚙"))
    assert len(full.children) == 25, "no room: left out"


# --- what became of a choice made ahead ---------------------------------------------------
def test_a_sheet_that_moves_on_says_what_became_of_the_choice_ahead() -> None:
    red_9 = Move("cross", "red", 9).to_json()
    assert ahead_told({"move": red_9, "applied": True, "then": "pass"}) == (
        "✓ Made as you chose ahead: Red 9."
    )
    assert ahead_told({"move": red_9, "applied": False, "then": "pass"}) == (
        "Your choice made ahead, Red 9, was no longer possible: you passed, as you chose."
    )
    assert ahead_told({"move": red_9, "applied": False, "then": "ask"}).endswith("choose again.")
    assert "its moment never came" in ahead_told({"move": red_9, "applied": False, "then": "none"})
    game = white_chosen()
    told = Event("ahead", ANA, {"move": red_9, "applied": False, "then": "ask"})
    outcome = Outcome(record(game), game, [told])
    assert moved_on(outcome, ANA).startswith("Your choice made ahead, Red 9")
    assert moved_on(outcome, BEN) == "Action done by everyone: your next decision."
    assert short_label(Move("keep")) == "keep the throw"
    assert short_label(ROLL_MOVES[-1]) == "Roll 🟧🟨🟪"
    with using("de"):
        assert ahead_told({"move": red_9, "applied": True}) == (
            "✓ Wie im Voraus gewählt ausgeführt: Rot 9."
        )


# --- the components' ids ---------------------------------------------------------------
@pytest.mark.parametrize(
    "steps",
    [
        (Step("action2", RED_7),),
        (Step("action2", PASS), Step("action3", Move("pawn", "blue", 4))),
        (Step("roll", ROLL_MOVES[-1]), Step("reroll", rule="unless_writable")),
    ],
)
def test_steps_survive_the_round_trip(steps: tuple[Step, ...]) -> None:
    assert decode_steps(encode_steps(steps)) == steps
    button = AheadButton(123456789, 99, steps, "x")
    assert len(button.custom_id) <= 100 and claimed(button.custom_id)


def test_the_fallback_button_and_selects_are_claimed() -> None:
    for item in (
        FallbackButton(1, 2, "pass", "x"),
        RethrowSelect(1, 2),
        GameChoiceSelect(1, 2, "others"),
        ThrowButton(1, 2, ROLL_MOVES[0], "keep", "x"),
    ):
        assert claimed(item.custom_id)
    assert encode_move(ROLL_MOVES[0]) in ThrowButton(1, 2, ROLL_MOVES[0], "keep").custom_id
