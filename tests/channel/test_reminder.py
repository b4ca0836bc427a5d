"""A reminder as the plan words it and notes it (the deadlines decide when it is due)."""

from __future__ import annotations

from bot.channel.plan import Shown, reminded, reminder
from bot.i18n import using
from bot.rules import new_game
from tests.cogs.records import game_record

RECORD = game_record([7, 8], status="running")


def test_a_reminder_mentions_those_still_deciding_with_the_deadline_and_the_turn() -> None:
    with using("en-US"):
        post = reminder(RECORD, {"players": [8], "deadline": 2_000_000_000})
    assert post is not None and post.pinged == (8,) and post.nonce is None
    assert "<@8>" in post.content and "<@7>" not in post.content
    assert "<t:2000000000:R>" in post.content
    assert "/channels/1/2/3" in post.content


def test_nobody_to_remind_posts_nothing() -> None:
    with using("en-US"):
        assert reminder(RECORD, {"players": [], "deadline": 2_000_000_000}) is None


def test_a_sent_reminder_calls_them_in_this_turn_and_is_noted_for_deletion() -> None:
    game = new_game("classic", players=[7, 8], seed=1, options={})
    with using("en-US"):
        post = reminder(RECORD, {"players": [8], "deadline": 2_000_000_000})
    assert post is not None
    shown = reminded(Shown(turn=game.turn, pinged=[7]), game, 42, post)
    assert shown.pinged == [7, 8]
    assert shown.notes == [[42, [8], game.decision().phase]]
    elsewhere = reminded(Shown(turn=game.turn + 1), game, 43, post)
    assert elsewhere.pinged == [] and elsewhere.notes == [[43, [8], game.decision().phase]]
