"""Lobbies as people read them: commands they can click in their own language, and a
rematch that brings the whole table back."""

from __future__ import annotations

from pathlib import Path

from bot.app import QwixxBot
from bot.sandbox import GuildSpec, Sandbox
from bot.sandbox.autoplay import play_to_end, seeded_policy, wait_for_turn

from .conftest import UNLIMITED, make_bot


async def test_a_german_lobby_cites_its_rules_command_as_a_mention(database: Path) -> None:
    guild = GuildSpec(channels=("general",), locale="de")
    async with Sandbox(**UNLIMITED, guilds=[guild], settle=0.02) as sb:
        await sb.run_bot(make_bot(database, sb))
        [command] = [c for c in sb.server.world.commands[sb.guild.id] if c["name"] == "qwixx"]
        ana = sb.member("Ana", locale="de")
        lobby = (await ana.slash("qwixx", "start", variant="longo")).message
        assert f"</qwixx rules:{command['id']}> `variante:longo`" in lobby.content
        assert "`/qwixx rules" not in lobby.content


async def test_rematch_seats_the_same_people_and_computers_with_the_same_host(
    database: Path,
) -> None:
    async with Sandbox(**UNLIMITED, members=["Ana", "Ben"], settle=0.02) as sb:
        await sb.run_bot(make_bot(database, sb))
        ana, ben = sb.member("Ana"), sb.member("Ben")
        lobby = (await ana.slash("qwixx", "start", variant="classic")).message
        await ben.click(lobby, label="Join")
        lobby = (await ana.click(lobby, label="Add computer player")).message
        lobby = (await ana.click(lobby, label="Add computer player")).message
        bot: QwixxBot = sb.bot  # type: ignore[assignment]
        await bot.service.lobby.set_level(1, ana.id, -2, "hard")
        await ana.click(lobby, label="Start")
        await wait_for_turn(sb)
        final = await play_to_end(sb, [ana, ben], seeded_policy(3))
        clicked = await ben.click(final, label="Rematch")
        again = clicked.message
        assert again.content.startswith(f"🔁 Rematch! <@{ana.id}>, <@{ben.id}>: ")
        [posted] = [c for c in sb.server.calls if clicked.interaction.token in c.path]
        body = posted.body["data"]
        assert again.layout and not body.get("content"), "a card: its text in text displays"
        [container, *_] = again.components
        assert container["components"][0]["content"] == again.content.splitlines()[0]
        # a text display's mentions ping as content's do, as allowed_mentions lets them:
        # the people of the game before, but not whoever clicked
        assert [int(u) for u in body["allowed_mentions"]["users"]] == [ana.id]
        assert not body["allowed_mentions"].get("roles") and "everyone" not in str(body)
        assert "🤖 Computer 1 (Easy)" in again.content
        assert "🤖 Computer 2 (Hard)" in again.content
        assert f"host: <@{ana.id}>" in again.content
        found = await bot.service.keeper.in_channel(sb.channel.id)
        old = (await bot.service.keeper.read(1)).record
        assert found.record.players == old.players == [ana.id, ben.id, -1, -2]
        assert found.record.host_id == ana.id
        assert found.record.options["levels"] == old.options["levels"]
