"""Discord's limits, rejected requests and injected faults, as the stand-in reports them."""

import asyncio

import discord
import pytest
from discord.http import Route

from bot.sandbox import Sandbox

from .demo_bot import DemoBot

CALLBACK = "/interactions/{interaction_id}/{interaction_token}/callback"
MESSAGES = "/channels/{channel_id}/messages"


def kinds(sb: Sandbox) -> list[str]:
    return [failure.kind for failure in sb.failures]


async def test_interaction_not_acknowledged_in_time_fails(sb: Sandbox, bot: DemoBot) -> None:
    pending = asyncio.create_task(sb.member("Ana").slash("demo", "slow"))
    await asyncio.wait_for(bot.started.wait(), 2)
    sb.server.clock.advance(3.5)
    bot.release.set()

    outcome = await pending
    await sb.wait_for(lambda: bot.errors)

    assert outcome.failed == "This interaction failed"
    assert isinstance(bot.errors[0], discord.NotFound) and bot.errors[0].code == 10062
    assert kinds(sb) == ["interaction_failed", "late_callback"]


async def test_unknown_endpoint_is_404_and_recorded(sb: Sandbox, bot: DemoBot) -> None:
    with pytest.raises(discord.NotFound):
        await bot.http.request(Route("GET", "/sandbox/nowhere"))

    assert kinds(sb) == ["unknown_endpoint"]
    assert sb.failures[0].endpoint == "GET /sandbox/nowhere"
    assert sb.failures[0].detail.endswith("unknown endpoint")


@pytest.mark.openapi
async def test_an_endpoint_of_discord_missing_from_the_stand_in_is_named(
    sb: Sandbox, bot: DemoBot
) -> None:
    with pytest.raises(discord.NotFound):
        await bot.http.request(Route("GET", "/guilds/{guild_id}/roles", guild_id=sb.guild.id))

    assert kinds(sb) == ["unknown_endpoint"]
    assert sb.failures[0].endpoint == "GET /guilds/{guild_id}/roles"
    assert "not in the stand-in" in sb.failures[0].detail


async def test_429_with_retry_after_is_retried(sb: Sandbox, bot: DemoBot) -> None:
    sb.server.inject(429, method="POST", route=CALLBACK, retry_after=0.05)

    outcome = await sb.member("Ana").slash("demo", "secret")

    assert outcome.message.content == "only you"
    assert [c.status for c in sb.server.calls if c.route == CALLBACK] == [429, 200]
    assert sb.failures == []


async def test_500_on_bot_token_request_is_retried(sb: Sandbox, bot: DemoBot) -> None:
    sb.server.inject(500, method="POST", route=MESSAGES)
    channel = bot.get_channel(sb.channel.id)
    assert isinstance(channel, discord.TextChannel)

    sent = await channel.send("after a hiccup")

    assert [c.status for c in sb.server.calls if c.route == MESSAGES] == [500, 200]
    assert sb.messages()[-1].id == sent.id


@pytest.mark.openapi
async def test_openapi_violation_is_rejected_and_recorded(sb: Sandbox, bot: DemoBot) -> None:
    route = Route("POST", MESSAGES, channel_id=sb.channel.id)
    with pytest.raises(discord.HTTPException) as caught:
        await bot.http.request(route, json={"content": "hi", "embeds": [{"title": 5}]})

    assert caught.value.status == 400 and caught.value.code == 50035
    assert "embeds.0.title" in caught.value.text
    [failure] = sb.failures
    assert failure.kind == "schema" and failure.endpoint == f"POST {MESSAGES}"
    assert failure.detail.startswith("embeds/0/title")


async def test_message_limits_answer_invalid_form_body(sb: Sandbox, bot: DemoBot) -> None:
    channel = bot.get_channel(sb.channel.id)
    assert isinstance(channel, discord.TextChannel)
    row = [
        {"type": 1, "components": [{"type": 2, "style": 1, "label": "b", "custom_id": f"c{i}"}]}
        for i in range(6)
    ]

    with pytest.raises(discord.HTTPException) as too_long:
        await channel.send("x" * 2001)
    with pytest.raises(discord.HTTPException) as too_many_rows:
        await bot.http.request(
            Route("POST", MESSAGES, channel_id=channel.id),
            json={"content": "rows", "components": row},
        )

    assert "In content: Must be 2000 or fewer in length." in too_long.value.text
    assert "In components: Must be 5 or fewer in length." in too_many_rows.value.text
    assert kinds(sb) == ["limit", "limit"]
    assert sb.messages() == []


async def test_interaction_token_expires_after_15_minutes(sb: Sandbox, bot: DemoBot) -> None:
    await sb.member("Ana").slash("demo", "secret")
    interaction = bot.last_interaction
    assert interaction is not None
    sb.server.clock.advance(15 * 60 + 1)

    with pytest.raises(discord.HTTPException) as caught:
        await interaction.edit_original_response(content="too late")

    assert caught.value.status == 401 and caught.value.code == 50027
    assert kinds(sb) == ["token_expired"]


async def test_gateway_drop_resumes_and_replays_missed_events(sb: Sandbox, bot: DemoBot) -> None:
    gateway = sb.server.gateway
    gateway.hold_resumes()
    await gateway.drop()
    await sb.wait_for(lambda: not gateway.connected)
    pending = asyncio.create_task(sb.member("Ana").slash("demo", "secret"))
    await sb.wait_for(lambda: sb.server.world.interactions)

    gateway.release_resumes()
    outcome = await pending

    assert outcome.message.content == "only you"
    assert (gateway.identifies, gateway.resumes, gateway.replayed) == (1, 1, 1)
    assert sb.failures == []


async def test_reconnect_opcode_makes_the_client_resume(sb: Sandbox, bot: DemoBot) -> None:
    await sb.server.gateway.request_reconnect()
    await sb.reconnected(resumes=1)

    outcome = await sb.member("Ana").slash("demo", "start", variant="classic")

    assert outcome.message.content == "Started classic x3"
    assert sb.server.gateway.identifies == 1


async def test_fresh_bot_routes_clicks_on_old_messages(sb: Sandbox, bot: DemoBot) -> None:
    start = await sb.member("Ana").slash("demo", "start", variant="classic")
    await sb.stop_bot()

    await sb.run_bot(DemoBot())
    clicked = await sb.member("Ben").click(start.message, label="Count 1")

    assert clicked.message.content == "count is 1"
    assert sb.server.gateway.identifies == 2
    assert sb.failures == []
