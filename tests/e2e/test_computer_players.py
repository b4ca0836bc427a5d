"""Computer seats: added in the lobby, deciding at once, never waited for or ranked in stats."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.sandbox import Sandbox
from bot.sandbox.autoplay import play_to_end, seeded_policy, wait_for_turn
from bot.store import Store


@pytest.mark.parametrize("variant", ["classic", "qwinto"])
async def test_one_person_plays_a_whole_game_against_computers(
    sb: Sandbox, database: Path, variant: str
) -> None:
    ana, ben = sb.member("Ana"), sb.member("Ben")
    lobby = (await ana.slash("qwixx", "start", variant=variant)).message
    refused = await ben.click(lobby, label="Add computer player")
    assert "Only the host" in refused.ephemeral[0].content
    for _ in range(2):
        lobby = (await ana.click(lobby, label="Add computer player")).message
    assert "🤖 Computer 1" in lobby.content and "🤖 Computer 2" in lobby.content
    await ana.click(lobby, label="Start")
    turn = await wait_for_turn(sb)
    assert "<@-" not in turn.content  # computers are named, never mentioned
    final = await play_to_end(sb, [ana], seeded_policy(9))
    assert "final scores" in final.content and "🤖 Computer" in final.content
    store = await Store.open(database)
    try:
        sources = {m.source for m in await store.games.moves(1) if m.player_id < 0}
        history = await store.stats.history(sb.guild.id)
    finally:
        await store.close()
    assert sources == {"computer"}
    assert [line.player_id for game in history for line in game.lines] == [ana.id]
