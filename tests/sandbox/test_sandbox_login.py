"""Logging in, syncing commands and the gateway handshake through the stand-in."""

import discord
import pytest

from bot.sandbox import Sandbox

from .demo_bot import DemoBot


async def test_login_and_command_sync(sb: Sandbox, bot: DemoBot) -> None:
    endpoints = sb.server.endpoints()
    assert endpoints[:3] == [
        "GET /users/@me",
        "GET /oauth2/applications/@me",
        "PUT /applications/{application_id}/commands",
    ]
    names = [c["name"] for c in sb.server.world.commands[None]]
    assert names == ["demo", "admin"]
    assert bot.user is not None and bot.user.id == sb.server.world.bot.id
    assert bot.get_guild(sb.guild.id) is not None
    assert bot.get_channel(sb.channel.id) is not None
    assert sb.failures == []


async def test_guild_commands_are_synced_and_used(sb: Sandbox, bot: DemoBot) -> None:
    guild = discord.Object(sb.guild.id)
    bot.tree.copy_global_to(guild=guild)
    await bot.tree.sync(guild=guild)

    outcome = await sb.member("Ana").slash("demo", "secret")

    guild_commands = sb.server.world.commands[sb.guild.id]
    assert [c["name"] for c in guild_commands] == ["demo", "admin"]
    assert outcome.interaction.data["guild_id"] == str(sb.guild.id)
    assert outcome.message.content == "only you"
    assert "PUT /applications/{application_id}/guilds/{guild_id}/commands" in sb.server.endpoints()


async def test_run_bot_reports_a_crash_during_startup(sb: Sandbox) -> None:
    class Broken(DemoBot):
        async def setup_hook(self) -> None:
            raise RuntimeError("setup failed")

    with pytest.raises(RuntimeError, match="setup failed"):
        await sb.run_bot(Broken())

    await sb.run_bot(DemoBot())
    assert sb.bot is not None and sb.bot.is_ready()
