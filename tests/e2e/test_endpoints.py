"""Every REST endpoint the bot calls, each request checked against Discord's OpenAPI
description where it is found (``tests/openapi_gate.py``)."""

from __future__ import annotations

from bot.app import QwixxBot
from bot.sandbox import Sandbox
from bot.sandbox.autoplay import OPEN_SHEET, play_to_end, seeded_policy, wait_for_turn

# The whole surface of Discord's HTTP API the bot uses; a new call must be added
# here on purpose (and so gets validated and reviewed).
ENDPOINTS = {
    "GET /users/@me",
    "GET /oauth2/applications/@me",
    "PUT /applications/{application_id}/guilds/{guild_id}/commands",
    "POST /interactions/{interaction_id}/{interaction_token}/callback",
    "PATCH /webhooks/{webhook_id}/{webhook_token}/messages/@original",
    "POST /webhooks/{webhook_id}/{webhook_token}",
    "POST /channels/{channel_id}/messages",
    "PATCH /channels/{channel_id}/messages/{message_id}",
    "POST /channels/{channel_id}/threads",
    "POST /users/@me/channels",  # the bot's direct messages with a member, opened once
    # the dice's emojis, at start (DELETE too when their art changes: test_dice_emojis.py)
    "GET /applications/{application_id}/emojis",
    "POST /applications/{application_id}/emojis",
}


async def test_the_bot_calls_only_known_endpoints_with_valid_bodies(sb: Sandbox) -> None:
    ana, ben, dan = sb.member("Ana"), sb.member("Ben"), sb.member("Dan")
    assert isinstance(sb.bot, QwixxBot)
    await sb.bot.service.members.change(ana.id, dm=True)  # her decisions come as letters
    lobby = (await ana.slash("qwixx", "start", variant="classic")).message
    await ben.click(lobby, label="Join")
    await ben.click(lobby, label="Join")  # a refusal: a follow-up after a deferred update
    await ana.click(lobby, label="Start")
    turn = await wait_for_turn(sb)
    await dan.click(turn, label=OPEN_SHEET)
    await ben.click(turn, label="Pass")
    for command, options in (
        ("sheet", {}),
        ("status", {}),
        ("rules", {}),
        ("mygames", {}),
        ("settings", {}),
        ("leaderboard", {}),
        ("stats", {}),
        ("history", {}),
    ):
        await ana.slash("qwixx", command, **options)
    await play_to_end(sb, [ana, ben], seeded_policy(8))
    history = (await ana.slash("qwixx", "history")).message
    await ana.click(history, label=history.labels[0])
    lobby = (await ana.slash("qwixx", "start", variant="longo")).message
    await ben.click(lobby, label="Join")
    await ben.slash("qwixx", "leave")  # out of a lobby at once: its message is edited
    await ana.slash(
        "qwixx", "start", variant="qwinto", thread=True, in_channel=sb.channel_named("games")
    )
    await sb.wait_for(lambda: any(c.is_thread for c in sb.server.world.channels.values()))
    assert sb.failures == [], sb.describe_failures()
    used = set(sb.server.endpoints())
    assert used == ENDPOINTS, f"new: {used - ENDPOINTS}, unused: {ENDPOINTS - used}"
    assert all(call.status is not None and call.status < 400 for call in sb.server.calls)
