"""The decisions a game makes without asking: standing choices, plans made ahead,
members away, time run out — each a legal move at its moment, told as automatic."""

from __future__ import annotations

from bot.players.standing import skips_nothing
from bot.records.options import Options
from bot.records.plans import Plan, Step
from bot.records.prefs import Prefs
from bot.records.seats import Seats
from bot.rules import PASS, Move
from bot.service.ahead import hard_move
from bot.service.play import Play
from tests.positions import position

SAFE = Prefs(others="safe")
BLUE_10 = Move("cross", "blue", 10)


def turn_one(**sheets: str):
    """Classic, three players, turn 1 (player 1 active): white 4 + 4, blue 2."""
    return position(
        "classic",
        [1, 2, 3],
        dice=dict(white1=4, white2=4, red=3, yellow=1, green=1, blue=2),
        sheets={int(p[1:]): v for p, v in sheets.items()},
    )


def kinds(play: Play) -> list[tuple[str, int | None]]:
    return [(e.kind, e.player) for e in play.events]


def test_standing_choices_answer_other_peoples_turns_only():
    game = turn_one(p2="yellow: 2 3 4 5 6 7", p3="red: 2")
    seats = Seats(prefs={1: SAFE, 2: SAFE, 3: Prefs(others="computer")})
    assert seats.answered(game, 0.0)
    play = Play(game)
    play.answer(seats, Options(), 0.0)
    assert play.game.decision().waiting == {1}, "only the active player is asked"
    assert [(p, m, s) for p, m, s in play.moves] == [
        (2, skips_nothing(game, 2).to_json(), "standing_safe"),
        (3, hard_move(game, 3).to_json(), "standing_hard"),
    ]
    assert [e.data["rule"] for e in play.events if e.kind == "auto"] == ["safe", "computer"]
    assert not Seats(prefs={1: SAFE}).answered(game, 0.0), "the active decides their own turn"


def test_a_plan_is_made_once_everyone_chose():
    """Player 1 passes the white sum and planned blue 6 (white 4 + blue 2); the others'
    standing choices answer, action 1 resolves, and the plan is made."""
    game = turn_one(p1="blue: 12 11 10 9 8 7")
    blue_6 = Move("cross", "blue", 6)
    foreseen = game.foresee(1, [PASS])
    assert foreseen is not None and blue_6 in foreseen.legal_moves(1)
    seats = Seats(prefs={2: SAFE, 3: SAFE}, plans={1: Plan(1, (Step("action2", blue_6),))})
    play = Play(game)
    play.apply(1, PASS, "player")
    after = play.answer(seats, Options(), 0.0)
    assert (1, blue_6.to_json(), "ahead") in play.moves
    ahead = [e for e in play.events if e.kind == "ahead"]
    assert [e.data for e in ahead] == [
        {"phase": "action2", "move": blue_6.to_json(), "applied": True, "then": "pass"}
    ]
    assert after.plans == {}, "a plan made is over"
    assert play.game.turn == 2


def locking_turn(fallback: str):
    """White 6 + 6: player 2 locks red with 12 (six reds crossed before), while player 1,
    passing the white sum, planned red 9 (white 6 + red 3); ``fallback`` is theirs."""
    game = position(
        "classic",
        [1, 2, 3],
        dice=dict(white1=6, white2=6, red=3, yellow=1, green=1, blue=1),
        sheets={1: "red: 2 3", 2: "red: 2 3 4 5 6 7"},
    )
    red_9 = Move("cross", "red", 9)
    assert red_9 in game.foresee(1, [PASS]).legal_moves(1)
    seats = Seats(
        prefs={1: Prefs(fallback=fallback), 3: SAFE},
        plans={1: Plan(1, (Step("action2", red_9),))},
    )
    play = Play(game)
    play.apply(1, PASS, "player")
    play.apply(2, Move("cross", "red", 12), "player")
    return play, play.answer(seats, Options(), 0.0), red_9


def test_a_plan_the_rules_no_longer_allow_asks():
    play, after, red_9 = locking_turn("ask")
    assert "red" in play.game.closed_rows()
    assert play.game.decision().waiting == {1} and play.game.decision().phase == "action2"
    ahead = [e.data for e in play.events if e.kind == "ahead"]
    assert ahead == [{"phase": "action2", "move": red_9.to_json(), "applied": False, "then": "ask"}]
    assert after.plans == {}
    assert not after.answered(play.game, 0.0), "asked, not answered again"


def test_a_plan_the_rules_no_longer_allow_passes_if_chosen():
    play, after, red_9 = locking_turn("pass")
    assert play.game.turn == 2 and after.plans == {}
    assert (1, PASS.to_json(), "ahead_fallback") in play.moves
    ahead = [e.data for e in play.events if e.kind == "ahead"]
    assert ahead == [
        {"phase": "action2", "move": red_9.to_json(), "applied": False, "then": "pass"}
    ]
    penalty = [e for e in play.events if e.kind == "penalty"]
    assert [e.player for e in penalty] == [1], "a pass without a cross costs the penalty"


def test_a_plan_whose_moment_never_came_is_told_in_its_turn():
    """White 6 + 6 and every coloured die 6 but red's 3: player 1's one coloured option
    is red 9, and it goes with red's lock by player 2, so action 2 passes by itself and
    the turn ends; the plan is told as not made — in turn 1, before turn 2 opens."""
    game = position(
        "classic",
        [1, 2, 3],
        dice=dict(white1=6, white2=6, red=3, yellow=6, green=6, blue=6),
        sheets={1: "red: 2 3 | yellow: 2 | green: 12 | blue: 12", 2: "red: 2 3 4 5 6 7"},
    )
    red_9 = Move("cross", "red", 9)
    foreseen = game.foresee(1, [PASS])
    assert foreseen is not None and foreseen.legal_moves(1) == [red_9, PASS]
    play = Play(game)
    play.apply(1, PASS, "player")  # (their only move: a turn's start passes it by itself)
    play.apply(2, Move("cross", "red", 12), "player")
    play.apply(3, PASS, "player")
    after = play.answer(Seats(plans={1: Plan(1, (Step("action2", red_9),))}), Options(), 0.0)
    turn = [i for i, e in enumerate(play.events) if e.kind == "turn"]
    unmet = [i for i, e in enumerate(play.events) if e.kind == "ahead"]
    assert play.game.turn == 2 and turn and unmet and unmet[0] < turn[0]
    assert play.events[unmet[0]].data["then"] == "none"
    assert after.plans == {}


def test_away_until_later():
    game = turn_one()
    away = Prefs(away_until=100.0)
    play = Play(game)
    play.answer(Seats(prefs={1: away, 2: away, 3: away}), Options(), 50.0)
    assert {s for _, _, s in play.moves} == {"away_until"}
    assert play.game.turn > 1
    back = Play(game)
    back.answer(Seats(prefs={1: away, 2: away, 3: away}), Options(), 100.0)
    assert back.moves == [], "back at 100: asked again"


def test_time_out_with_the_hard_computer():
    game = turn_one(p2="yellow: 2 3 4 5 6 7")
    seats = Seats(prefs={2: Prefs(timeout="computer")})
    play = Play(game)
    play.settle({1, 2, 3}, "expired", this_turn=True, seats=seats)
    sources = {p: s for p, _, s in play.moves}
    assert sources[2] == "timeout_hard" and sources[1] == sources[3] == "expired"
    assert [(e.player, e.data["rule"]) for e in play.events if e.kind == "auto"] == [(2, "timeout")]


def test_seats_as_stored():
    seats = Seats(
        prefs={5: Prefs(others="safe"), 6: Prefs()},
        plans={5: Plan(3, (Step("action2", BLUE_10), Step("reroll", rule="keep")))},
    )
    data = seats.to_json()
    assert "6" not in data["prefs"], "the defaults are not written"
    again = Seats.read(data)
    assert again.prefs_of(5) == Prefs(others="safe") and again.plans == seats.plans
    assert Seats.read(Seats().to_json()) == Seats()
    asked = Seats(prefs={7: Prefs().for_this_game(others="ask")})
    kept = Seats.read(asked.to_json()).prefs_of(7)
    assert kept.own == {"others"}, "a choice for this game that is the default stays chosen"


def test_away_tells_which_answered():
    """On someone else's turn a member away answers by their standing choice (only what
    skips nothing, here); on their own turn the Hard computer decides: the event says
    which, so the channel can tell it."""
    game = turn_one()
    away = Prefs(away_until=100.0, others="safe")
    play = Play(game)
    play.answer(Seats(prefs={1: away, 2: away, 3: away}), Options(), 50.0)
    choices = {
        (player, data["phase"]): data["choice"]
        for turn, kind, player, data in play.event_rows()
        if kind == "auto" and turn == 1
    }
    assert choices[2, "action1"] == choices[3, "action1"] == "safe"
    assert choices[1, "action1"] == "computer", "the active player's own turn"


def test_a_plan_its_player_was_away_for_is_told_as_not_used():
    """Player 1 passed the white sum and planned blue 6, then went away until later: the
    away rule decides action 2 (the Hard computer), and the plan is told as not used,
    for its turn — not as a moment that never came."""
    game = turn_one(p1="blue: 12 11 10 9 8 7")
    blue_6 = Move("cross", "blue", 6)
    play = Play(game)
    play.apply(1, PASS, "player")
    seats = Seats(
        prefs={1: Prefs(away_until=100.0), 2: SAFE, 3: SAFE},
        plans={1: Plan(1, (Step("action2", blue_6),))},
    )
    after = play.answer(seats, Options(), 50.0)
    assert (1, "away_until") in {(p, s) for p, _, s in play.moves}
    told = [e.data for e in play.events if e.kind == "ahead"]
    assert told == [
        {
            "phase": "action2",
            "move": blue_6.to_json(),
            "applied": False,
            "then": "none",
            "turn": 1,
            "away": True,
        }
    ]
    assert after.plans == {}
