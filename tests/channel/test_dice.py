"""How a line writes a die: the bot's emoji of its face where it has one, else the
colour's square and the figure; the channel's plan writes with the faces it is given."""

from __future__ import annotations

from dataclasses import replace

from bot.channel import story
from bot.channel.dice import TEXT, dice_text, die_text, face_key, showing
from bot.channel.plan import Channel, Post, Shown, plan
from bot.i18n import using
from bot.records.games import StoredEvent
from bot.rules import new_game
from tests.cogs.records import game_record

ANA, BEN = 11, 22
FACES = {
    "white4": "<:qx_white4_1a2b:104>",
    "white2": "<:qx_white2_1a2b:102>",
    "red6": "<:qx_red6_1a2b:206>",
    "orange3": "<:qx_orange3_1a2b:303>",
    "yellow5": "<:qx_yellow5_1a2b:405>",
}


def test_a_die_is_its_emoji_where_the_bot_has_one_else_text() -> None:
    assert die_text("red", 6, FACES) == "<:qx_red6_1a2b:206>"
    assert die_text("red", 5, FACES) == "🟥5"  # no emoji of that face
    assert die_text("red", 6) == die_text("red", 6, TEXT) == "🟥6"
    assert die_text("white1", 4, FACES) == die_text("white2", 4, FACES) == "<:qx_white4_1a2b:104>"
    assert face_key("white2", 8) == "white8" and face_key("purple", 1) == "purple1"


def test_dice_are_written_with_the_faces_shown_and_only_within() -> None:
    dice = {"white1": 4, "white2": 2, "red": 6}
    assert dice_text(dice) == "⚪4 ⚪2 🟥6"
    with showing(FACES):
        assert dice_text(dice) == "<:qx_white4_1a2b:104> <:qx_white2_1a2b:102> <:qx_red6_1a2b:206>"
        with showing(TEXT):
            assert dice_text(dice) == "⚪4 ⚪2 🟥6"
    assert dice_text(dice) == "⚪4 ⚪2 🟥6"


def test_a_turns_roll_and_qwintos_throws_show_the_dice_as_emojis() -> None:
    roll = {"turn": 3, "dice": {"white1": 4, "white2": 2, "red": 6}}
    qwixx = new_game("classic", [ANA, BEN], seed=1)
    throws = [
        StoredEvent(1, 3, "turn", ANA, {"turn": 3}),
        StoredEvent(
            2, 3, "rolled", ANA, {"dice": {"orange": 3, "yellow": 5}, "total": 8, "attempt": 0}
        ),
    ]
    with using("en-US"), showing(FACES):
        told = story.finished_turn(qwixx, 3, [StoredEvent(1, 3, "turn", ANA, roll)])
        thrown = story.finished_turn(new_game("qwinto", [ANA, BEN], seed=1), 3, throws)
    assert told.splitlines()[1] == (
        "🎲 <:qx_white4_1a2b:104> <:qx_white2_1a2b:102> <:qx_red6_1a2b:206> · white sum **6**"
    )
    assert thrown.splitlines()[1] == (
        f"🎲 <@{ANA}> rolled <:qx_orange3_1a2b:303> <:qx_yellow5_1a2b:405> = 8"
    )


def test_the_plan_writes_the_dice_with_the_faces_it_is_given() -> None:
    game = new_game("classic", [ANA, BEN], seed=1)
    dice = game.dice_on_table()
    faces = {
        face_key(die, face): f"<:qx_{face_key(die, face)}_1a2b:{n}>"
        for n, (die, face) in enumerate(dice.items())
    }
    record = replace(game_record([ANA, BEN], status="running", version=2), state=game.to_json())
    events = {1: [StoredEvent(1, 1, "turn", ANA, {"turn": 1, "dice": dice})]}
    with using("en-US"):
        as_text, _ = plan(Channel(record, game, Shown(), events))
        as_emojis, _ = plan(Channel(record, game, Shown(), events, faces=faces))
        again, _ = plan(Channel(record, game, Shown(), events, faces=faces))
    text, emojis = (next(s for s in steps if isinstance(s, Post)) for steps in (as_text, as_emojis))
    assert "⚪" in text.content and "<:" not in text.content
    assert all(markup in emojis.content for markup in faces.values())
    assert "⚪" not in emojis.content
    assert again == as_emojis  # the same channel, the same writes
    assert "<:" not in dice_text(dice)  # the plan's faces stay within the plan
