"""The turn message, told from stored events and the live game."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from bot.channel import story
from bot.cogs.views import field_button_label
from bot.i18n import LOCALES, using
from bot.records.games import StoredEvent
from bot.rules import PASS, Move, new_game
from bot.rules.onboard import OnBoardGame
from tests.positions import position

ANA, BEN, CEM = 11, 22, 33


def stored(*events: tuple[str, int | None, dict[str, Any]], turn: int = 1) -> list[StoredEvent]:
    return [
        StoredEvent(seq, turn, kind, player, data)
        for seq, (kind, player, data) in enumerate(events, 1)
    ]


def test_a_finished_turn_keeps_roll_actions_locks_and_scores_in_order() -> None:
    told = stored(
        (
            "turn",
            BEN,
            {
                "turn": 7,
                "dice": {"white1": 4, "white2": 4, "red": 2, "yellow": 6, "green": 1, "blue": 5},
            },
        ),
        ("passed", ANA, {"phase": "action1", "had_move": True}),
        ("crossed", BEN, {"row": "yellow", "number": 8, "phase": "action1", "via": "cross"}),
        ("crossed", CEM, {"row": "red", "number": 8, "phase": "action1", "via": "cross"}),
        ("crossed", BEN, {"row": "blue", "number": 10, "phase": "action2", "via": "cross"}),
        ("locked", BEN, {"row": "blue"}),
        ("die_removed", None, {"row": "blue"}),
        ("scores", None, {"totals": {str(ANA): 28, str(BEN): 41, str(CEM): 33}}),
        turn=7,
    )
    game = new_game("classic", [BEN, CEM, ANA], seed=1)  # BEN is active in turn 7
    text = story.finished_turn(game, 7, told)
    assert text.splitlines() == [
        f"**Turn 7** · <@{BEN}> was active",
        "🎲 ⚪4 ⚪4 🟥2 🟨6 🟩1 🟦5 · white sum **8**",
        f"Action 1: <@{ANA}> passed · <@{BEN}> crossed 🟨 Yellow 8 · <@{CEM}> crossed 🟥 Red 8",
        f"Action 2: <@{BEN}> crossed 🟦 Blue 10",
        f"🔒 <@{BEN}> locked **blue** — the blue die leaves the game",
        f"Scores: <@{BEN}>: 41 · <@{CEM}>: 33 · <@{ANA}>: 28",
    ]
    assert "Decide" not in text and "Deciding" not in text


def test_a_pass_is_told_as_a_choice_only_where_something_else_was_open() -> None:
    """Action 1: ANA could have crossed and passed; CEM had nothing to cross (the rules
    passed for him); action 2: BEN, active, had nothing to cross either."""
    told = stored(
        ("passed", ANA, {"phase": "action1", "had_move": True}),
        ("crossed", BEN, {"row": "red", "number": 6, "phase": "action1", "via": "cross"}),
        ("passed", CEM, {"phase": "action1"}),
        ("passed", BEN, {"phase": "action2"}),
    )
    assert story.story(told) == [
        f"Action 1: <@{ANA}> passed · <@{BEN}> crossed 🟥 Red 6 · <@{CEM}> had nothing to cross",
        f"Action 2: <@{BEN}> had nothing to cross",
    ]


def test_an_action_1_nobody_could_cross_in_is_told_once() -> None:
    """Classic, three people, turn 13: nobody could cross the white sum 6; the turn read
    "@Ana passed · @Ben passed · @Cem passed" though nobody had chosen anything."""
    dice = {"white1": 1, "white2": 5, "red": 2, "yellow": 3, "green": 4, "blue": 6}
    told = stored(
        ("turn", ANA, {"turn": 13, "dice": dice}),
        ("passed", ANA, {"phase": "action1"}),
        ("passed", BEN, {"phase": "action1"}),
        ("passed", CEM, {"phase": "action1"}),
        ("crossed", ANA, {"row": "blue", "number": 7, "phase": "action2", "via": "cross"}),
        turn=13,
    )
    assert story.story(told) == [
        "🎲 ⚪1 ⚪5 🟥2 🟨3 🟩4 🟦6 · white sum **6**",
        "Action 1: nobody could cross 6",
        f"Action 2: <@{ANA}> crossed 🟦 Blue 7",
    ]
    one_chose = [told[0], replace(told[1], data={"phase": "action1", "had_move": True}), *told[2:]]
    assert story.story(one_chose)[1] == (
        f"Action 1: <@{ANA}> passed · <@{BEN}> had nothing to cross · <@{CEM}> had nothing to cross"
    )


def test_qwinto_speaks_of_writing_and_keeps_every_throw() -> None:
    """The number written and its field, counted as its button counts it (yellow's
    column 4 is its 4th field, column 7 its 6th: the blank field is not one)."""
    told = stored(
        ("turn", ANA, {"turn": 9}),
        ("rolled", ANA, {"dice": {"orange": 3, "yellow": 5}, "total": 8, "attempt": 0}),
        ("rolled", ANA, {"dice": {"orange": 6, "yellow": 5}, "total": 11, "attempt": 1}),
        ("placed", BEN, {"row": "yellow", "column": 4, "number": 11}),
        ("placed", CEM, {"row": "yellow", "column": 7, "number": 11}),
        ("passed", ANA, {"phase": "place", "total": 11, "had_move": True}),
        ("failed_throw", ANA, {"count": 1, "limit": 4}),
        turn=9,
    )
    game = new_game("qwinto", [ANA, BEN, CEM], seed=1)
    lines = story.finished_turn(game, 9, told).splitlines()
    assert lines[1:] == [
        f"🎲 <@{ANA}> rolled 🟧3 🟨5 = 8",
        f"🎲 <@{ANA}> re-rolled 🟧6 🟨5 = 11",
        f"Written: <@{BEN}> wrote 11 in 🟨 Yellow, field 4 of 9 · "
        f"<@{CEM}> wrote 11 in 🟨 Yellow, field 6 of 9 · <@{ANA}> wrote nothing",
        f"❌ <@{ANA}> crosses a failed throw (1/4)",
    ]
    assert field_button_label(Move("place", "yellow", 7)) == "🟨 Yellow 6/9"  # the same field
    assert not any("crossed" in line for line in lines)
    # a throw and its re-roll read alike: the verb, the dice, their total
    assert [line.split()[3:] for line in lines[1:3]] == [
        ["🟧3", "🟨5", "=", "8"],
        ["🟧6", "🟨5", "=", "11"],
    ]


def test_each_lock_carries_its_own_die() -> None:
    """Two rows locked in one action: each die leaves the game on its own lock's line; a
    row two players lock together loses its die once, on the last of those lines."""
    told = stored(
        ("crossed", ANA, {"row": "green", "number": 2, "phase": "action1", "via": "cross"}),
        ("locked", ANA, {"row": "green"}),
        ("crossed", BEN, {"row": "blue", "number": 2, "phase": "action1", "via": "cross"}),
        ("locked", BEN, {"row": "blue"}),
        ("crossed", CEM, {"row": "blue", "number": 2, "phase": "action1", "via": "cross"}),
        ("locked", CEM, {"row": "blue"}),
        ("die_removed", None, {"row": "green"}),
        ("die_removed", None, {"row": "blue"}),
    )
    assert story.story(told)[1:] == [
        f"🔒 <@{ANA}> locked **green** — the green die leaves the game",
        f"🔒 <@{BEN}> locked **blue**",
        f"🔒 <@{CEM}> locked **blue** — the blue die leaves the game",
    ]


def pawn(steps: int, to: int, crosses: bool, number: int = 7, bonus: int = 9) -> list[StoredEvent]:
    return stored(
        (
            "pawn_moved",
            ANA,
            {
                "from": to - steps,
                "to": to,
                "steps": steps,
                "row": "red",
                "number": number,
                "bonus": bonus,
                "crosses": crosses,
            },
        )
    )


def test_pawn_steps_are_counted_in_words() -> None:
    assert "moved 1 field →" in story.story(pawn(1, 5, True))[0]
    assert "moved 3 fields →" in story.story(pawn(3, 5, True))[0]


def test_a_pawns_landing_names_its_field_and_whether_it_crossed() -> None:
    """Two fields may both be Red 7: the field's number tells them apart, as on the board;
    landing on a number crossed before crosses nothing new."""
    new = story.story(pawn(3, 14, True))[0]
    old = story.story(pawn(4, 22, False, bonus=12))[0]
    assert new == f"♟ <@{ANA}> moved 3 fields → field 14: 🟥 Red 7 (new cross, bonus 9)"
    assert old == f"♟ <@{ANA}> moved 4 fields → field 22: 🟥 Red 7 (already crossed, bonus 12)"


def test_staying_is_told() -> None:
    """On Board's action 3: the active player stays (a pass), and the story says so."""
    told = stored(
        ("passed", ANA, {"phase": "action2"}),
        ("passed", ANA, {"phase": "action3", "had_move": True}),
        ("penalty", ANA, {"count": 1, "limit": 4}),
    )
    assert story.story(told, "onboard") == [
        f"Action 2: <@{ANA}> had nothing to cross",
        f"♟ <@{ANA}> stayed: their pawn did not move",
        f"❌ <@{ANA}> takes a penalty (1/4)",
    ]


def test_an_open_turn_asks_whom_and_says_who_has_nothing_to_decide() -> None:
    # as if CEM had nothing to cross this turn:
    game = position("classic", [ANA, BEN, CEM], seed=1, chosen={CEM: PASS})
    text = story.live_turn(game, [], 1_700_000_000.9)
    assert f"**Turn 1** · 🎲 <@{ANA}> is active" in text
    assert "⏳ Decide <t:1700000000:R>." in text
    assert "Scores:" in text
    assert text.count("⏳") == 1, "one hourglass: the deadline's"
    status = story.status_line(game)
    if game.legal_moves(CEM) == [PASS]:
        assert f"Nothing to decide: <@{CEM}>" in status
    assert f"🤔 Deciding: <@{ANA}>, <@{BEN}>" in status
    assert "Decide <t:" not in story.live_turn(game, [], None)


def test_the_final_round_names_who_still_plays() -> None:
    # CEM reached the finish in turn 3: ANA and BEN play turns 4 and 5, the last ones
    game = position(
        "onboard", [ANA, BEN, CEM], seed=1, turn=4, pawns={CEM: 40}, final_turn=5, finish_by=CEM
    )
    assert isinstance(game, OnBoardGame)
    assert f"Final round: <@{ANA}>, <@{BEN}> still play" in story.live_turn(game, [], None)


def test_turns_nobody_was_asked_in_are_told_in_one_line_that_says_why() -> None:
    game = new_game("classic", [ANA, BEN, -1], seed=1)  # BEN is active in turn 2
    told = stored(
        ("turn", BEN, {"turn": 2}),
        ("passed", ANA, {"phase": "action1"}),
        ("penalty", BEN, {"count": 1, "limit": 4}),
        turn=2,
    )
    assert story.played_out(game, 2, told) == (
        f"**Turn 2** · <@{BEN}> was active — nobody had a move: ❌ <@{BEN}> takes a penalty (1/4)"
    )
    computer = stored(
        ("turn", BEN, {"turn": 2}),
        ("crossed", -1, {"row": "red", "number": 6, "phase": "action1"}),
        turn=2,
    )
    assert "— only the computers had a move: " in story.played_out(game, 2, computer)
    stand_in = stored(
        ("turn", BEN, {"turn": 2}),
        ("crossed", ANA, {"row": "red", "number": 6, "phase": "action1"}),
        turn=2,
    )
    assert f"(<@{ANA}> away)" in story.played_out(game, 2, stand_in)


def test_a_person_away_later_is_not_why_an_earlier_turn_was_played_out() -> None:
    """The live message tells the turns before it again at each edit: a person who went
    away since, and had nothing to do in them, does not become their reason."""
    game = new_game("classic", [ANA, BEN, -1], seed=1)
    while game.turn < 3:
        game, _ = game.apply(min(game.decision().waiting), PASS)
    events = {
        2: stored(
            ("turn", BEN, {"turn": 2}),
            ("crossed", -1, {"row": "red", "number": 6, "phase": "action1"}),
            turn=2,
        ),
        3: stored(("turn", -1, {"turn": 3}), turn=3),
    }
    text = story.turn_message(game, events, 2, 3, None, away={ANA})
    assert text.startswith(f"**Turn 2** · <@{BEN}> was active — only the computers had a move: ")


def test_a_computer_that_passed_with_a_move_is_not_nobody() -> None:
    """A computer could have crossed and passed: the turn says only the computers had a
    move, and that it passed; a pass the rules made for someone with nothing to cross is
    not told."""
    game = new_game("classic", [ANA, BEN, -1], seed=1)
    told = stored(
        ("turn", BEN, {"turn": 2}),
        ("passed", ANA, {"phase": "action1"}),
        ("passed", BEN, {"phase": "action1"}),
        ("passed", -1, {"phase": "action1", "had_move": True}),
        ("penalty", BEN, {"count": 1, "limit": 4}),
        turn=2,
    )
    line = story.played_out(game, 2, told)
    assert line.startswith(
        f"**Turn 2** · <@{BEN}> was active — only the computers had a "
        "move: Action 1: 🤖 Computer 1 passed · "
    )
    assert f"<@{ANA}> passed" not in line and f"<@{BEN}> passed" not in line
    away = stored(
        ("turn", BEN, {"turn": 2}), ("passed", ANA, {"phase": "action1", "had_move": True}), turn=2
    )
    assert f"nobody was asked (<@{ANA}> away)" in story.played_out(game, 2, away)


def test_a_turn_played_out_later_tells_its_own_scores_when_they_changed() -> None:
    game = new_game("classic", [ANA, BEN, CEM], seed=1)
    totals = {"totals": {str(ANA): 12, str(BEN): 0, str(CEM): 16}}
    penalty = stored(
        ("turn", BEN, {"turn": 14}),
        ("penalty", BEN, {"count": 3, "limit": 4}),
        ("scores", None, totals),
        turn=14,
    )
    assert story.played_out(game, 14, penalty).endswith(
        f"❌ <@{BEN}> takes a penalty (3/4) · Scores: <@{CEM}>: 16 · <@{ANA}>: 12 · <@{BEN}>: 0"
    )
    quiet = stored(
        ("turn", BEN, {"turn": 14}),
        ("passed", ANA, {"phase": "action1"}),
        ("scores", None, totals),
        turn=14,
    )
    assert "Scores:" not in story.played_out(game, 14, quiet)


def test_many_unshown_turns_say_why_they_are_summed_up() -> None:
    """After an outage the summary says the channel could not be updated; a run the
    computers played out in one go says so instead. Its scores are those at the end of
    its last turn."""
    game = new_game("classic", [ANA, -1, -2], seed=1)
    events = {
        turn: stored(
            ("turn", game.players[(turn - 1) % 3], {"turn": turn}),
            ("crossed", -1, {"row": "red", "number": turn, "phase": "action1"}),
            ("scores", None, {"totals": {str(ANA): -turn, "-1": turn, "-2": 0}}),
            turn=turn,
        )
        for turn in range(11, 23)
    }
    run = story.summary_lines(game, events, list(events))
    assert run[0] == "**Turns 11–22** were played out in one go — only the computers had a move:"
    assert run[-1] == f"Scores: 🤖 Computer 1: 22 · 🤖 Computer 2: 0 · <@{ANA}>: −22"
    outage = story.summary_lines(game, events, list(events), outage=True)
    assert outage[0] == "**Turns 11–22** were played while the channel could not be updated:"


def test_a_turn_message_is_one_text_from_post_to_finish() -> None:
    """The turns a message opens with stay on it while the turn is edited and finished."""
    game = new_game("classic", [ANA, BEN], seed=1)
    while game.turn < 3:  # play two turns by passing
        player = min(game.decision().waiting)
        game, _ = game.apply(player, PASS)
    events = {
        1: stored(("turn", ANA, {"turn": 1}), ("penalty", ANA, {"count": 1, "limit": 4})),
        2: stored(("turn", BEN, {"turn": 2}), turn=2),
        3: stored(("turn", ANA, {}), turn=3),
    }
    live = story.turn_message(game, events, 1, 3, 1_700_000_000)
    assert live.startswith("**Turn 1** · ") and "\n**Turn 2** · " in live
    assert "**Turn 3** · 🎲" in live and "<t:1700000000:R>" in live
    later = {**events, 3: [*events[3], *stored(("penalty", ANA, {"count": 2, "limit": 4}), turn=3)]}
    edited = story.turn_message(game, later, 1, 3, 1_700_000_000)
    assert edited.splitlines()[:2] == live.splitlines()[:2]
    assert "(2/4)" in edited


def test_turns_that_would_crowd_a_message_go_to_messages_of_their_own() -> None:
    lines = [
        f"**Turn {n}** · <@{ANA}> was active — nobody had a move: " + "x" * 80 for n in range(1, 30)
    ]
    apart = story.overflow(lines)
    assert 0 < apart < len(lines)
    assert len("\n".join(lines[apart:])) <= story.PREFACE_ROOM
    assert len("\n".join(lines[apart - 1 :])) > story.PREFACE_ROOM
    chunks = story.chunks(lines[:apart])
    assert all(len(chunk) <= story.LIMIT for chunk in chunks)
    assert "\n".join(chunks).splitlines() == lines[:apart]
    assert story.overflow(lines[-2:]) == 0


def test_deciders_are_only_players_with_a_real_choice() -> None:
    game = new_game("qwinto", [ANA, BEN], seed=3)
    assert story.deciders(game) == [ANA]  # only the active player rolls
    game, _ = game.apply(ANA, next(m for m in game.legal_moves(ANA) if m.kind == "roll"))
    assert ANA in story.deciders(game)
    assert all(game.legal_moves(p) not in ([PASS], []) for p in story.deciders(game))
    assert Move("keep") in game.legal_moves(ANA) or game.decision().phase == "place"


def test_a_long_preface_is_summed_up_to_fit_a_message() -> None:
    preface = [
        f"**Turn {n}** (<@{ANA}> active): nobody could decide anything — " + "x" * 80
        for n in range(1, 60)
    ]
    text = story.fit(preface, "**Turn 60** · the body")
    assert len(text) <= 2000 and text.endswith("**Turn 60** · the body")
    assert "earlier turns" in text.splitlines()[0] and "**Turn 59**" in text


def test_qwinto_sheets_speak_of_writing_not_crossing() -> None:
    from bot.cogs import views

    game = new_game("qwinto", [ANA, BEN], seed=3)
    text = views.sheet_content(game, ANA)
    assert "cross" not in text and "roll" in text
    game, _ = game.apply(ANA, next(m for m in game.legal_moves(ANA) if m.kind == "roll"))
    game, _ = game.apply(ANA, Move("keep"))
    text = views.sheet_content(game, BEN)
    assert "cross" not in text.lower()


def test_a_player_the_game_passed_for_is_offered_nothing() -> None:
    from bot.cogs import views

    # White 2 + 3: BEN is past 5 in every row, ANA in every row but red; the rules pass
    # BEN, who has nothing to cross
    game = position(
        "classic",
        [ANA, BEN],
        seed=1,
        dice={"white1": 2, "white2": 3, "red": 1, "yellow": 1, "green": 1, "blue": 1},
        sheets={
            ANA: "yellow: 6 | green: 4 | blue: 4",
            BEN: "red: 6 | yellow: 6 | green: 4 | blue: 4",
        },
        chosen={BEN: PASS},
    )
    assert game.legal_moves(BEN) == [PASS]
    assert views.options_of(game, BEN) == []
    assert "nothing for you to decide" in views.sheet_content(game, BEN)
    assert views.options_of(game, ANA) == [Move("cross", "red", 5), PASS]


def test_nowhere_to_write_is_told_apart_from_writing_nothing() -> None:
    """Qwinto: a pass with no field open to the sum; once for everyone when nobody had
    one."""
    roll = ("rolled", ANA, {"dice": {"purple": 6}, "total": 6, "attempt": 0})
    told = stored(
        roll,
        ("passed", ANA, {"phase": "place", "total": 6}),
        ("passed", BEN, {"phase": "place", "total": 6, "had_move": True}),
    )
    assert story.story(told, "qwinto")[1] == (
        f"Written: <@{ANA}> had nowhere to write 6 · <@{BEN}> wrote nothing"
    )
    nobody = stored(
        roll,
        ("passed", ANA, {"phase": "place", "total": 6}),
        ("passed", BEN, {"phase": "place", "total": 6}),
    )
    assert story.story(nobody, "qwinto")[1] == "Nobody could write 6"


# --- decisions made without asking ------------------------------------------------
Told = tuple[str, int | None, dict[str, Any]]
"""An event as :func:`stored` takes it."""


def auto(player: int, rule: str, phase: str = "action1", **more: Any) -> Told:
    """A decision ``rule`` made for ``player``."""
    return ("auto", player, {"rule": rule, "phase": phase, **more})


def ahead(player: int, phase: str, move: dict[str, Any] | None, **more: Any) -> Told:
    """``player``'s step chosen ahead meeting its moment (made, unless ``more`` says)."""
    data = {"phase": phase, "applied": True, "then": "pass", **more}
    return ("ahead", player, {**data, **({"move": move} if move else {})})


def unmet_pawn(player: int, row: str, steps: int) -> Told:
    """On Board's pawn chosen ahead (``steps`` onto a ``row`` field), its moment never come."""
    move = {"kind": "pawn", "row": row, "number": steps}
    return ahead(player, "action3", move, applied=False, then="none", turn=1)


RED_9 = {"kind": "cross", "row": "red", "number": 9}
DAN = 44


def test_each_decision_a_rule_made_carries_its_rule_on_its_own_item() -> None:
    """Action 1's choices are secret until everyone chose: the rule's event comes first,
    the cross or pass when the action is played out, and the item carries the mark."""
    told = stored(
        auto(BEN, "safe"),
        auto(CEM, "computer"),
        auto(DAN, "away", choice="safe"),
        ("crossed", ANA, {"row": "red", "number": 8, "phase": "action1", "via": "cross"}),
        ("crossed", BEN, {"row": "red", "number": 8, "phase": "action1", "via": "cross"}),
        ("passed", CEM, {"phase": "action1", "had_move": True}),
        ("crossed", DAN, {"row": "yellow", "number": 8, "phase": "action1", "via": "cross"}),
        auto(ANA, "timeout", "action2"),
        ("passed", ANA, {"phase": "action2", "had_move": True}),
    )
    assert story.story(told) == [
        f"Action 1: <@{ANA}> crossed 🟥 Red 8"
        f" · <@{BEN}> crossed 🟥 Red 8 (standing choice: only what skips nothing)"
        f" · <@{CEM}> passed (standing choice: the Hard computer)"
        f" · <@{DAN}> crossed 🟨 Yellow 8 (away: only what skips nothing)",
        f"Action 2: <@{ANA}> passed (time ran out: the Hard computer)",
    ]
    away = stored(
        auto(BEN, "away", "action2", choice="computer"),
        ("passed", BEN, {"phase": "action2", "had_move": True}),
    )
    assert story.story(away) == [f"Action 2: <@{BEN}> passed (away: the Hard computer)"]


def test_a_choice_made_ahead_is_marked_and_one_that_could_not_be_made_says_why() -> None:
    made = stored(
        ahead(ANA, "action2", RED_9),
        ("crossed", ANA, {"row": "red", "number": 9, "phase": "action2", "via": "cross"}),
    )
    assert story.story(made) == [f"Action 2: <@{ANA}> crossed 🟥 Red 9 (chosen ahead)"]
    locked = stored(
        ("crossed", BEN, {"row": "red", "number": 12, "phase": "action1", "via": "cross"}),
        ("locked", BEN, {"row": "red"}),
        ahead(ANA, "action2", RED_9, applied=False),
        ("passed", ANA, {"phase": "action2", "had_move": True}),
    )
    assert story.story(locked)[-1] == (
        f"Action 2: <@{ANA}> passed (chosen ahead: 🟥 Red 9 — impossible once 🟥 Red was"
        " locked, so a pass, as they chose)"
    )
    unexplained = stored(
        ahead(ANA, "action2", RED_9, applied=False),
        ("passed", ANA, {"phase": "action2", "had_move": True}),
    )
    assert story.story(unexplained) == [
        f"Action 2: <@{ANA}> passed (chosen ahead: 🟥 Red 9 — no longer possible, so a pass,"
        " as they chose)"
    ]


def test_a_choice_ahead_asked_again_or_never_made_has_a_line_of_its_own() -> None:
    told = stored(
        ("crossed", BEN, {"row": "red", "number": 12, "phase": "action1", "via": "cross"}),
        ("locked", BEN, {"row": "red"}),
        ahead(ANA, "action2", RED_9, applied=False, then="ask"),
        ("crossed", ANA, {"row": "blue", "number": 10, "phase": "action2", "via": "cross"}),
        unmet_pawn(ANA, "green", 3),
        ahead(BEN, "action2", {"kind": "pass"}, applied=False, then="none", turn=1, away=True),
        ahead(
            CEM,
            "roll",
            {"kind": "roll", "dice": ["orange", "purple"]},
            applied=False,
            then="none",
            turn=4,
        ),
        ahead(CEM, "reroll", None, rule="unless_writable", applied=False, then="none", turn=4),
    )
    assert story.story(told)[2:] == [
        f"↩️ <@{ANA}> chose ahead: 🟥 Red 9 — impossible once 🟥 Red was locked, so they were asked",
        f"Action 2: <@{ANA}> crossed 🟦 Blue 10",
        f"⏭️ <@{ANA}> chose ahead: ♟ 3 fields onto 🟩 Green — its moment never came",
        f"⏭️ <@{BEN}> chose ahead: a pass — not used, as they were away",
        f"⏭️ <@{CEM}> chose ahead for turn 4: a throw of 🟧 🟪 — the game ended before it",
        f"⏭️ <@{CEM}> chose ahead for turn 4: throw again if they could not write it — the"
        " game ended before it",
    ]


def test_qwinto_throws_and_rethrows_by_a_rule_are_marked_and_a_kept_throw_told() -> None:
    rolled = {"dice": {"orange": 3, "yellow": 4}, "total": 7}
    told = stored(
        ahead(ANA, "roll", {"kind": "roll", "dice": ["orange", "yellow"]}),
        ("rolled", ANA, {**rolled, "attempt": 0}),
        ahead(ANA, "reroll", {"kind": "reroll"}, rule="unless_writable"),
        ("rolled", ANA, {**rolled, "attempt": 1}),
        auto(BEN, "computer", "place"),
        ("placed", BEN, {"row": "orange", "column": 4, "number": 7}),
    )
    lines = story.story(told, "qwinto")
    assert lines[:2] == [
        f"🎲 <@{ANA}> rolled 🟧3 🟨4 = 7 (chosen ahead)",
        f"🎲 <@{ANA}> re-rolled 🟧3 🟨4 = 7 (chosen ahead: throw again if they could not write it)",
    ]
    assert lines[2].endswith("(standing choice: the Hard computer)")
    plain = stored(
        ("rolled", ANA, {**rolled, "attempt": 0}),
        ahead(ANA, "reroll", {"kind": "keep"}, rule="keep"),
    )
    assert story.story(plain, "qwinto")[1] == f"🎲 <@{ANA}> kept the throw (chosen ahead)"
    kept = stored(
        ("rolled", ANA, {**rolled, "attempt": 0}),
        auto(ANA, "timeout", "reroll"),
    )
    assert story.story(kept, "qwinto")[1] == (
        f"🎲 <@{ANA}> kept the throw (time ran out: the Hard computer)"
    )


def test_the_pawn_moved_or_kept_by_a_rule_is_marked() -> None:
    moved = [
        *stored(ahead(ANA, "action3", {"kind": "pawn", "row": "red", "number": 3})),
        *pawn(3, 7, True),
    ]
    assert story.story(moved, "onboard")[-1].endswith("(new cross, bonus 9) (chosen ahead)")
    stayed = stored(
        auto(ANA, "away", "action3", choice="computer"), ("passed", ANA, {"phase": "action3"})
    )
    assert story.story(stayed, "onboard") == [
        f"♟ <@{ANA}> stayed: their pawn did not move (away: the Hard computer)"
    ]


def test_time_run_out_with_the_hard_computers_move_is_not_told_as_nothing() -> None:
    some = stored(("expired", None, {"players": [ANA, BEN], "hard": [BEN]}))
    assert story.story(some) == [f"⏰ Time ran out for <@{ANA}>: nothing crossed this time."]
    every = stored(("expired", None, {"players": [BEN], "hard": [BEN]}))
    assert story.story(every) == []


def test_a_turn_decided_by_choices_made_beforehand_says_so() -> None:
    game = new_game("classic", [ANA, BEN, -1], seed=1)  # BEN is active in turn 2
    chosen = stored(
        ("turn", BEN, {"turn": 2}),
        auto(ANA, "safe"),
        ("crossed", ANA, {"row": "red", "number": 6, "phase": "action1", "via": "cross"}),
        ahead(BEN, "action2", RED_9),
        ("crossed", BEN, {"row": "red", "number": 9, "phase": "action2", "via": "cross"}),
        turn=2,
    )
    assert "— nobody was asked (choices made beforehand decided): " in story.played_out(
        game, 2, chosen
    )
    timed_out = stored(
        ("turn", BEN, {"turn": 2}),
        auto(ANA, "timeout"),
        ("crossed", ANA, {"row": "red", "number": 6, "phase": "action1", "via": "cross"}),
        turn=2,
    )
    assert f"nobody was asked (<@{ANA}> away)" in story.played_out(game, 2, timed_out)


def test_the_live_turn_says_whom_it_waits_for_and_since_when() -> None:
    game = position("classic", [ANA, BEN, CEM], seed=1, chosen={CEM: PASS})
    text = story.live_turn(game, [], 1_700_086_400.5, (), 1_700_000_000.5)
    waiting = [p for p in (ANA, BEN, CEM) if p in story.deciders(game)]
    names = ", ".join(f"<@{p}>" for p in waiting)
    assert text.splitlines()[-1] == (
        f"⏳ Waiting for {names} — asked <t:1700000000:R>, decide <t:1700086400:R>."
    )
    assert text.count("⏳") == 1 and "Deciding" not in text, "named once, on the ⏳ line"
    assert "✅ Decided" in text or game.legal_moves(CEM) == [PASS]
    open_ended = story.live_turn(game, [], None, (), 1_700_000_000)
    assert open_ended.splitlines()[-1] == f"⏳ Waiting for {names} — asked <t:1700000000:R>."


def test_a_live_turn_and_its_finished_message_tell_the_same_marks() -> None:
    game = new_game("classic", [ANA, BEN], seed=1)
    told = stored(
        ("turn", ANA, {"turn": 1, "dice": game.dice_on_table()}),
        auto(BEN, "safe"),
        ("passed", ANA, {"phase": "action1", "had_move": True}),
        ("passed", BEN, {"phase": "action1", "had_move": True}),
    )
    live = story.turn_message(game, {1: told}, 1, 1, 1_700_086_400, opened=1_700_000_000)
    finished = story.finished_turn(game, 1, told)
    mark = f"<@{BEN}> passed (standing choice: only what skips nothing)"
    assert mark in live and mark in finished


def test_five_people_decided_by_rules_fit_beside_the_preface_in_every_language() -> None:
    """The longest turn of decisions made without asking (five people, every decision
    marked, a plan that met a lock, one whose moment never came) leaves its message room
    for the turns told before it, in every language."""
    people = [1234567890123456780 + n for n in range(1, 6)]
    active = people[0]
    game = new_game("classic", people, seed=1)
    marks = [("safe", {}), ("computer", {}), ("away", {"choice": "safe"}), ("timeout", {})]
    told = stored(
        ("turn", active, {"turn": 1, "dice": game.dice_on_table()}),
        *[auto(p, rule, **more) for p, (rule, more) in zip(people[1:], marks, strict=True)],
        ("crossed", active, {"row": "green", "number": 12, "phase": "action1", "via": "cross"}),
        *[
            ("crossed", p, {"row": "red", "number": 12, "phase": "action1", "via": "cross"})
            for p in people[1:]
        ],
        ("locked", people[1], {"row": "red"}),
        ("die_removed", None, {"row": "red"}),
        ahead(active, "action2", RED_9, applied=False),
        ("passed", active, {"phase": "action2", "had_move": True}),
        ("penalty", active, {"count": 3, "limit": 4}),
        unmet_pawn(active, "yellow", 4),
        ("scores", None, {"totals": {str(p): -100 for p in people}}),
    )
    for locale in LOCALES:
        with using(locale):
            body = story.finished_turn(game, 1, told)
            assert len(body) + 1 <= story.LIMIT - story.PREFACE_ROOM, (locale, len(body))


def test_a_turn_is_decided_by_hand_unless_a_rule_made_each_decision_of_a_person() -> None:
    """Qwinto: a throw tapped by hand, then kept by the re-throw rule chosen with it —
    somebody was asked, so the turn is never told as one nobody was asked in."""
    kept = ("ahead", BEN, {"phase": "reroll", "applied": True, "then": "keep", "rule": "keep"})
    rolled = ("rolled", BEN, {"attempt": 0, "dice": {"yellow": 5}})
    by_rule = ("ahead", BEN, {"phase": "roll", "applied": True, "then": "keep"})
    assert story.decided_by_hand(stored(rolled, kept))
    assert not story.decided_by_hand(stored(by_rule, rolled, kept))
    computer = ("rolled", -1, {"attempt": 0, "dice": {"yellow": 5}})
    assert not story.decided_by_hand(stored(computer))
    assert story.decided_by_hand(stored(("passed", ANA, {"phase": "action1", "had_move": True})))
    assert not story.decided_by_hand(stored(("passed", ANA, {"phase": "action1"})))


def test_the_decisions_of_a_seat_away_are_not_by_hand() -> None:
    passed = ("passed", ANA, {"phase": "action1", "had_move": True})
    assert story.decided_by_hand(stored(passed)) and not story.decided_by_hand(
        stored(passed), {ANA}
    )


def test_a_placement_is_of_the_place_phase_and_a_rule_of_its_own() -> None:
    """Qwinto's placements do not name their phase: a rule's mark on one still finds it."""
    [placed] = stored(("placed", ANA, {"row": "red", "column": 2, "number": 5}))
    [ruled] = stored(("auto", ANA, {"rule": "computer", "phase": "place"}))
    assert story.decided_in(placed) == story.decided_in(ruled) == "place"
    assert not story.decided_by_hand(
        stored(
            ("auto", ANA, {"rule": "computer", "phase": "place"}),
            ("placed", ANA, {"row": "red", "column": 2, "number": 5}),
        )
    )
