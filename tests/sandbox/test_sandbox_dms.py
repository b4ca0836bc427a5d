"""Direct messages: the bot's DM channel with a member, its messages, closed DMs,
clicks and commands in the DM, and how a transcript shows them."""

from pathlib import Path

import discord
import pytest
from discord.http import Route

from bot.sandbox import Sandbox
from bot.sandbox.commands import NotOffered
from bot.sandbox.demo import ImageSaver, Transcript
from bot.sandbox.gateway import DIRECT_MESSAGES_INTENT

from .demo_bot import Counter, DemoBot, png_file
from .spec import dispatched, schema_problems

DMS = "/users/@me/channels"
MESSAGES = "/channels/{channel_id}/messages"


def counter_view(n: int = 1) -> discord.ui.View:
    return discord.ui.View(timeout=None).add_item(Counter(n))


async def user_of(bot: DemoBot, sb: Sandbox, name: str) -> discord.User:
    """The member as the bot fetches them (``GET /users/{user_id}``)."""
    return await bot.fetch_user(sb.member(name).id)


@pytest.mark.openapi
async def test_the_dm_channel_is_the_same_every_time(sb: Sandbox, bot: DemoBot) -> None:
    ana = sb.member("Ana")

    first = await bot.http.start_private_message(ana.id)
    again = await bot.http.start_private_message(ana.id)

    assert first == again and first["type"] == 1
    assert [user["id"] for user in first["recipients"]] == [str(ana.id)]
    assert ana.dm_channel is not None and first["id"] == str(ana.dm_channel.id)
    assert sb.member("Ben").dm_channel is None
    assert schema_problems("PrivateChannelResponse", first) == []
    assert sb.failures == []


async def test_a_dm_is_posted_edited_and_deleted_as_channel_messages_are(
    sb: Sandbox, bot: DemoBot
) -> None:
    ana, ben = sb.member("Ana"), sb.member("Ben")
    user = await user_of(bot, sb, "Ana")

    sent = await user.send("your turn", file=png_file("sheet.png"), view=counter_view())
    [shown] = ana.direct_messages()
    assert shown.id == sent.id and shown.guild_id is None
    assert shown.labels == ["Count 1"] and shown.attachments[0].image().format == "PNG"
    await sent.edit(content="Turn 2", attachments=[png_file("turn2.png")], view=counter_view(2))
    assert (shown.content, shown.labels) == ("Turn 2", ["Count 2"])
    assert [a.filename for a in shown.attachments] == ["turn2.png"] and shown.edited_timestamp
    fetched = await sent.channel.fetch_message(sent.id)
    assert fetched.content == "Turn 2"

    # Only Ana sees her DM: not Ben, not the guild's channels.
    assert shown not in ben.messages() and shown not in ana.messages()
    assert ben.messages(ana.dm_channel) == [] and sb.messages() == []
    await sent.delete()
    assert ana.direct_messages() == []
    assert sb.failures == []


async def test_the_gateway_tells_the_bot_of_its_dms_with_the_direct_messages_intent(
    sb: Sandbox, bot: DemoBot
) -> None:
    user = await user_of(bot, sb, "Ana")
    sent = await user.send("hello")
    [created] = [e for e in dispatched(sb, "MESSAGE_CREATE") if e["id"] == str(sent.id)]

    assert "guild_id" not in created and created["channel_id"] == str(sent.channel.id)
    [session] = sb.server.gateway.live
    session.intents &= ~DIRECT_MESSAGES_INTENT  # a bot that did not ask for DM events
    await sent.edit(content="hello again")
    assert not [e for e in dispatched(sb, "MESSAGE_UPDATE") if e["id"] == str(sent.id)]


async def test_closed_dms_answer_50007_and_are_declined_not_failed(
    sb: Sandbox, bot: DemoBot
) -> None:
    ana = sb.member("Ana", accepts_dms=False)
    user = await user_of(bot, sb, "Ana")

    with pytest.raises(discord.Forbidden) as refused:
        await user.send("your turn")

    assert refused.value.status == 403 and refused.value.code == 50007
    assert refused.value.text == "Cannot send messages to this user"
    assert ana.dm_channel is not None and ana.direct_messages() == []  # the channel opens
    assert sb.failures == []  # no bot can know beforehand
    [declined] = sb.declined
    assert declined.kind == "dm_closed" and declined.endpoint == f"POST {MESSAGES}"
    ana.accepts_dms = True
    await user.send("now it arrives")
    assert [m.content for m in ana.direct_messages()] == ["now it arrives"]


async def test_clicking_a_dm_button_is_an_interaction_from_the_bots_dm(
    sb: Sandbox, bot: DemoBot
) -> None:
    ana = sb.member("Ana")
    seen: list[discord.Interaction] = []

    async def on_interaction(interaction: discord.Interaction) -> None:
        seen.append(interaction)

    bot.add_listener(on_interaction)
    sent = await (await user_of(bot, sb, "Ana")).send("your sheet", view=counter_view())
    [message] = ana.direct_messages()

    clicked = await ana.click(message, label="Count 1")

    assert clicked.message.content == "count is 1" and clicked.message.ephemeral
    assert clicked.message.channel_id == sent.channel.id
    payload = dispatched(sb, "INTERACTION_CREATE")[-1]
    assert not {"guild_id", "guild", "member", "guild_locale"} & set(payload)
    assert payload["user"]["id"] == str(ana.id) and payload["context"] == 1
    assert payload["channel"]["type"] == 1 and payload["channel_id"] == str(sent.channel.id)
    assert payload["authorizing_integration_owners"] == {"0": "0"}
    assert payload["app_permissions"] == "442368" and payload["entitlements"] == []
    assert payload["attachment_size_limit"] == 10 * 1024 * 1024
    assert payload["message"]["id"] == str(sent.id) and "guild_id" not in payload["message"]
    [interaction] = seen  # discord.py read it as an interaction in a DM
    assert interaction.guild is None and isinstance(interaction.channel, discord.DMChannel)
    assert interaction.user.id == ana.id and interaction.context.dm_channel
    assert interaction.app_permissions.value == 442368
    assert sb.failures == []


async def test_only_the_member_of_a_dm_can_click_in_it(sb: Sandbox, bot: DemoBot) -> None:
    await (await user_of(bot, sb, "Ana")).send("your sheet", view=counter_view())
    [message] = sb.member("Ana").direct_messages()

    with pytest.raises(PermissionError):
        await sb.member("Ben").click(message, label="Count 1")


async def test_slash_commands_run_in_the_dm_where_they_are_declared(
    sb: Sandbox, bot: DemoBot
) -> None:
    ana = sb.member("Ana")
    dm = ana.open_dm()  # Ana opens the bot's DM herself

    answer = await ana.slash("demo", "start", variant="classic", in_channel=dm)

    assert answer.message.content == "Started classic x3" and not answer.message.ephemeral
    assert answer.message in ana.direct_messages() and ana.dm_channel == dm
    payload = dispatched(sb, "INTERACTION_CREATE")[-1]
    assert payload["context"] == 1 and payload["authorizing_integration_owners"] == {"0": "0"}
    with pytest.raises(NotOffered, match=r"declares contexts \[0\].*DM with the bot"):
        await ana.slash("admin", "reset", in_channel=dm)  # a command of servers only
    assert sb.failures == []


async def test_bot_posts_where_it_cannot_are_refused(sb: Sandbox, bot: DemoBot) -> None:
    ana, ben = sb.member("Ana"), sb.member("Ben")
    theirs = sb.dm_between(ana, ben)  # a DM between two people: not the bot's
    dm = ana.open_dm()

    with pytest.raises(discord.Forbidden) as missing:
        await bot.http.request(
            Route("POST", MESSAGES, channel_id=theirs.id), json={"content": "hi"}
        )
    with pytest.raises(discord.HTTPException) as no_thread:
        await bot.http.request(
            Route("POST", "/channels/{channel_id}/threads", channel_id=dm.id),
            json={"name": "thread", "type": 11},
        )

    assert missing.value.code == 50001 and no_thread.value.code == 50024
    assert [f.kind for f in sb.failures] == ["forbidden", "bad_request"]


async def test_a_dm_needs_a_known_recipient(sb: Sandbox, bot: DemoBot) -> None:
    with pytest.raises(discord.HTTPException) as nobody:
        await bot.http.request(Route("POST", DMS), json={"recipient_id": "42"})
    with pytest.raises(discord.HTTPException) as missing:
        await bot.http.request(Route("POST", DMS), json={})
    with pytest.raises(discord.NotFound) as unknown:
        await bot.fetch_user(42)

    assert (nobody.value.status, nobody.value.code) == (400, 50033)
    assert (missing.value.status, missing.value.code) == (400, 50035)
    assert unknown.value.code == 10013
    assert [f.kind for f in sb.failures] == ["bad_request", "schema", "not_found"]


async def test_a_transcript_shows_a_dm_as_one(sb: Sandbox, bot: DemoBot, tmp_path: Path) -> None:
    ana = sb.member("Ana")
    lines: list[str] = []
    names = {ana.id: "Ana", sb.member("Ben").id: "Ben"}
    transcript = Transcript(sb, names, lines.append, ImageSaver(sb, tmp_path))
    sent = await (await user_of(bot, sb, "Ana")).send(f"<@{ana.id}>, your turn")

    transcript.catch_up()
    transcript.catch_up()  # shown once
    await sent.edit(content="Ana moved")
    transcript.dms_after()

    assert lines == [
        "",
        "┌ Sandbox Bot · direct message to Ana",
        "│ @Ana, your turn",
        "",
        "===== Direct messages after the game =====",
        "",
        "┌ Sandbox Bot · direct message to Ana · edited",
        "│ Ana moved",
    ]
