"""What a practice game's message tells of the turns since the member's last decision:
the turn they were asked in whole, each turn nobody was asked in as a line, the game's
last turn whole, and, when all would not fit, the dice as text, then the oldest left out."""

from __future__ import annotations

import random

from bot.cogs.practice import told_turns
from bot.players import choose
from bot.rules import Game, Move
from bot.service.games import GameService
from tests.service.helpers import play
from tests.truth.emojis import application_emojis

ANA = 101


async def test_long_stories_show_the_dice_as_text_then_leave_the_oldest_turns_out(
    service: GameService,
) -> None:
    begun = await service.practice.begin(ANA, "classic", computers=3, level="easy")
    rng = random.Random(5)

    def member(game: Game, player: int) -> Move:
        return choose(game, player, rng, "easy")

    await play(service, begun.record.id, member)
    ended = (await service.keeper.read(begun.record.id)).game
    assert ended is not None and ended.finished
    events = await service.keeper.events(begun.record.id, 1)
    faces, _ = application_emojis()

    whole = told_turns(ended, events, 1, faces, room=1_000_000)
    assert len(whole) == ended.turn and "<:qx_" in whole[0]  # the dice as emojis
    assert whole[0].startswith("**Turn 1** · <@101> was active\n")  # asked: whole
    assert whole[1].startswith("**Turn 2** · 🤖 Computer 1 was active — ")  # a line
    assert whole[-1].count("\n") >= 2  # the last turn: whole

    room = len("\n".join(whole)) - 1
    plain = told_turns(ended, events, 1, faces, room=room)
    assert len(plain) == ended.turn and not any("<:qx_" in turn for turn in plain)

    short = told_turns(ended, events, 1, faces, room=600)
    left = ended.turn - len(short) + 1
    assert short[0] == f"… {left} turns before these left out: the message is full."
    assert short[-1] == plain[-1] and len("\n".join(short[1:])) <= 600
