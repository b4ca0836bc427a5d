"""The real bot keeps a game going through Discord's rate limits, errors and reconnects."""

from __future__ import annotations

from bot.sandbox import Sandbox
from bot.sandbox.autoplay import OPEN_SHEET, play_round, play_to_end, seeded_policy, wait_for_turn


async def test_a_game_survives_rate_limits_server_errors_and_a_dropped_gateway(sb: Sandbox) -> None:
    ana, ben = sb.member("Ana"), sb.member("Ben")
    lobby = (await ana.slash("qwixx", "start", variant="classic")).message
    await ben.click(lobby, label="Join")
    sb.server.inject(
        429, method="POST", route="/channels/{channel_id}/messages", retry_after=0.05
    )  # the first turn message is rate limited
    await ana.click(lobby, label="Start")
    turn = await wait_for_turn(sb)
    assert "**Turn 1**" in turn.content

    policy = seeded_policy(11)
    await play_round(sb, [ana, ben], policy)
    sb.server.inject(500, method="PATCH", route="/channels/{channel_id}/messages/{message_id}")
    sb.server.inject(
        500,
        method="PATCH",  # the turn message, edited through a click's token
        route="/webhooks/{webhook_id}/{webhook_token}/messages/@original",
    )
    await play_round(sb, [ana, ben], policy)

    await sb.server.gateway.drop()
    await sb.reconnected(resumes=1)
    sheet = await ben.click(await wait_for_turn(sb), label=OPEN_SHEET)
    assert sheet.message.ephemeral and not sheet.failed

    final = await play_to_end(sb, [ana, ben], policy)
    assert "final scores" in final.content
    statuses = [call.status for call in sb.server.calls]
    assert 429 in statuses and 500 in statuses
