"""Whole classic games through the stand-in: every command and click via the gateway."""

from __future__ import annotations

import json
import re
from pathlib import Path

from PIL import Image

from bot.sandbox import Sandbox, SimMember
from bot.sandbox.autoplay import (
    play_round,
    play_to_end,
    seeded_policy,
    turn_message,
    wait_for_turn,
)
from bot.store import Store

from .conftest import UNLIMITED, make_bot


async def open_game(sb: Sandbox, host: SimMember, *guests: SimMember, variant: str = "classic"):
    lobby = (await host.slash("qwixx", "start", variant=variant)).message
    for guest in guests:
        await guest.click(lobby, label="Join")
    await host.click(lobby, label="Start")
    await wait_for_turn(sb)  # the first turn is posted just after the click's answer
    return lobby


async def stored_state(database: Path) -> dict:
    """The first game's outcome, with player ids replaced by seats (ids differ per run)."""
    store = await Store.open(database)
    try:
        game = await store.games.get(1)
        assert game is not None and game.state is not None
        moves = [(m.player_id, m.move) for m in await store.games.moves(1)]
    finally:
        await store.close()
    text = json.dumps({"status": game.status, "state": game.state, "moves": moves})
    for seat, player in enumerate(game.players):
        text = re.sub(rf'"?\b{player}\b"?', f'"seat{seat}"', text)
    return json.loads(text)


async def test_a_full_classic_game_with_three_members(sb: Sandbox, database: Path) -> None:
    ana, ben, cem = (sb.member(n) for n in ("Ana", "Ben", "Cem"))
    lobby = await open_game(sb, ana, ben, cem)
    assert "started with" in lobby.content or "started with" in sb.messages()[0].content
    first_turn = await wait_for_turn(sb)
    assert "**Turn 1**" in first_turn.content
    assert first_turn.attachments[0].image().size[0] > 100  # the dice image
    final = await play_to_end(sb, [ana, ben, cem], seeded_policy(1))
    assert "final scores" in final.content and "🏆" in final.content
    assert "1st win on this server" in final.content
    assert final.content.count(" · rating ") == 3  # each person's rating and its change
    # everyone's first rated game: the winner up from 1500, provisional
    assert re.search(r"<@\d+> — −?\d+ · rating 1[5-9]\d\d\? \(\+\d+\)", final.content)
    board = final.attachments[0].image()
    assert isinstance(board, Image.Image) and board.size[0] > 400
    state = await stored_state(database)
    assert state["status"] == "finished" and state["state"]["end_reason"] in (
        "rows_locked",
        "penalties",
    )
    assert turn_message(sb) is None  # no live buttons left on finished turns


async def test_restart_mid_game_gives_the_same_result(database: Path, tmp_path: Path) -> None:
    async def play(db: Path, restart_after: int | None) -> tuple[str, dict]:
        async with Sandbox(**UNLIMITED, members=["Ana", "Ben", "Cem"], settle=0.02) as sb:
            await sb.run_bot(make_bot(db, sb))
            members = [sb.member(n) for n in ("Ana", "Ben", "Cem")]
            await open_game(sb, *members)
            policy = seeded_policy(7)
            if restart_after is not None:
                for _ in range(restart_after):
                    await play_round(sb, members, policy)
                await sb.stop_bot()
                await sb.run_bot(make_bot(db, sb))  # a fresh process on the same database
            final = await play_to_end(sb, members, policy)
            assert sb.failures == [], sb.describe_failures()
        return final.content, await stored_state(db)

    interrupted = await play(database, restart_after=4)
    straight = await play(tmp_path / "straight.db", restart_after=None)
    # Who clicks first within a simultaneous action may differ with timing; what was
    # decided, and so the game, may not.
    assert interrupted[1]["state"] == straight[1]["state"]
    assert sorted(map(str, interrupted[1]["moves"])) == sorted(map(str, straight[1]["moves"]))
    assert interrupted[1]["status"] == "finished"
