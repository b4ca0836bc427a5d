"""User-installed apps: commands that declare where they work, used in a server that
never added the bot, in group DMs and DMs between people, with Discord's limits there."""

from collections.abc import AsyncIterator

import discord
import pytest
from discord.http import Route

from bot.sandbox import GuildSpec, Perm, Sandbox
from bot.sandbox.commands import NotOffered
from bot.sandbox.permissions import RESPONSE_PERMISSIONS

from .demo_bot import AnywhereBot
from .spec import dispatched, schema_problems

MESSAGES = "/channels/{channel_id}/messages"


@pytest.fixture
async def sb() -> AsyncIterator[Sandbox]:
    """Ana, Ben and Cem in a server with the bot; Elsewhere never added it."""
    guilds = [GuildSpec(), GuildSpec("Elsewhere", bot=False)]
    async with Sandbox(guilds=guilds, members=["Ana", "Ben", "Cem"]) as sandbox:
        yield sandbox


@pytest.fixture
async def bot(sb: Sandbox) -> AnywhereBot:
    anywhere = AnywhereBot()
    await sb.run_bot(anywhere)
    return anywhere


def last_interaction(sb: Sandbox) -> dict:
    return dispatched(sb, "INTERACTION_CREATE")[-1]


def webhook(sb: Sandbox, bot: AnywhereBot, method: str, tail: str = "") -> Route:
    """A request on the token of the bot's last interaction, as discord.py's webhook makes it."""
    assert bot.last_interaction is not None
    return Route(
        method,
        "/webhooks/{application_id}/{token}" + tail,
        application_id=sb.server.world.application_id,
        token=bot.last_interaction.token,
    )


def command(sb: Sandbox, name: str) -> dict:
    return next(c for c in sb.server.world.commands[None] if c["name"] == name)


@pytest.mark.openapi
async def test_synced_commands_keep_their_contexts_and_installation_types(
    sb: Sandbox, bot: AnywhereBot
) -> None:
    solo, demo, admin = command(sb, "solo"), command(sb, "demo"), command(sb, "admin")

    assert (solo["contexts"], solo["integration_types"]) == ([0, 1, 2], [0, 1])
    assert admin["contexts"] == [0]
    # Undeclared: every context, and the installation types the app supports.
    assert (demo["contexts"], demo["integration_types"]) == (None, [0, 1])
    assert schema_problems("ApplicationCommandResponse", solo) == []


@pytest.mark.openapi
@pytest.mark.parametrize(
    ("field", "value"),
    [("contexts", [3]), ("contexts", []), ("integration_types", [2]), ("contexts", [0, 0])],
)
async def test_contexts_discord_does_not_know_are_refused_at_sync(
    sb: Sandbox, bot: AnywhereBot, field: str, value: list[int]
) -> None:
    body = [{"name": "odd", "description": "an odd command", field: value}]
    route = Route("PUT", "/applications/{app_id}/commands", app_id=sb.server.world.application_id)

    with pytest.raises(discord.HTTPException) as refused:
        await bot.http.request(route, json=body)

    assert refused.value.status == 400 and refused.value.code == 50035
    assert [f.kind for f in sb.failures] == ["schema"]
    assert [c["name"] for c in sb.server.world.commands[None]] == ["demo", "admin", "solo"]


async def test_a_user_install_answers_in_a_server_without_the_bot(
    sb: Sandbox, bot: AnywhereBot
) -> None:
    elsewhere = sb.guilds[1]
    ana = sb.member("Ana")
    ana.install_app()
    away, dan = sb.join(ana, elsewhere), sb.member("Dan", guild=elsewhere)

    answer = await away.slash("solo", "play")

    assert answer.message.content == "solo for ana" and not answer.message.ephemeral
    assert answer.message in dan.messages() and answer.message.guild_id == elsewhere.id
    payload = last_interaction(sb)
    assert payload["guild_id"] == str(elsewhere.id) and payload["context"] == 0
    assert payload["member"]["user"]["id"] == str(ana.id)
    assert payload["authorizing_integration_owners"] == {"1": str(ana.id)}
    allowed = int(payload["app_permissions"])  # what a response may use, nothing more
    assert allowed and allowed & ~int(RESPONSE_PERMISSIONS) == 0
    assert bot.get_guild(elsewhere.id) is None  # no GUILD_CREATE, no messages heard
    assert not [e for e in dispatched(sb, "MESSAGE_CREATE") if e["id"] == str(answer.message.id)]
    interaction = bot.last_interaction
    assert interaction is not None and interaction.guild_id == elsewhere.id
    assert interaction.is_user_integration() and not interaction.is_guild_integration()
    assert not interaction.app_permissions.send_messages
    clicked = await dan.click(answer.message, label="Count 1")  # someone else's click
    assert clicked.message.content == "count is 1"
    assert last_interaction(sb)["authorizing_integration_owners"] == {"1": str(ana.id)}
    assert sb.failures == []


async def test_the_bot_cannot_post_in_a_server_without_it(sb: Sandbox, bot: AnywhereBot) -> None:
    ana = sb.member("Ana")
    ana.install_app()
    away = sb.join(ana, sb.guilds[1])

    answer = await away.slash("solo", "post")
    said = await sb.wait_for(
        lambda: [m.content for m in away.ephemeral_messages() if m is not answer.message]
    )

    assert answer.message.content == "posting"  # the interaction's own answers work
    assert said == ["could not post (50001)"]
    [error] = bot.errors
    assert isinstance(error, discord.Forbidden) and error.code == 50001
    [failure] = sb.failures
    assert failure.kind == "forbidden" and failure.endpoint == f"POST {MESSAGES}"
    assert "a server without the bot" in failure.detail
    assert sb.messages(away.channel) == []


async def test_without_use_external_apps_a_user_install_answers_privately(
    sb: Sandbox, bot: AnywhereBot
) -> None:
    ana = sb.member("Ana")
    ana.install_app()
    away = sb.join(ana, sb.guilds[1])
    away.record.permissions &= ~int(Perm.USE_EXTERNAL_APPS)  # Elsewhere took it away

    answer = await away.slash("solo", "play")

    assert answer.message.content == "solo for ana" and answer.message.ephemeral
    assert sb.messages(away.channel) == [] and sb.failures == []


async def test_commands_are_offered_only_where_an_installation_reaches(
    sb: Sandbox, bot: AnywhereBot
) -> None:
    ana, ben = sb.member("Ana"), sb.member("Ben")
    away = sb.join(ana, sb.guilds[1])
    group = sb.group_dm(ana, ben)

    with pytest.raises(NotOffered, match="none of its installation types"):
        await away.slash("solo", "play")  # not installed: nothing reaches Elsewhere
    with pytest.raises(NotOffered, match="none of its installation types"):
        await ana.slash("solo", "play", in_channel=group)
    ana.install_app()
    with pytest.raises(NotOffered, match=r"declares contexts \[0\]"):
        await ana.slash("admin", "reset", in_channel=group)
    with pytest.raises(NotOffered, match="none of its installation types"):
        await ben.slash("solo", "play", in_channel=group)  # Ben has not installed it
    with pytest.raises(PermissionError, match="not a member of Elsewhere"):
        await ben.slash("solo", "play", in_channel=away.channel)
    assert (await away.slash("solo", "play")).message.content == "solo for ana"
    ana.uninstall_app()
    with pytest.raises(NotOffered):
        await away.slash("solo", "play")
    assert sb.failures == []


async def test_a_group_dm_is_the_private_channel_context(sb: Sandbox, bot: AnywhereBot) -> None:
    ana, ben, cem = sb.member("Ana"), sb.member("Ben"), sb.member("Cem")
    ana.install_app()
    group = sb.group_dm(ana, ben, name="Friday")

    answer = await ana.slash("solo", "play", in_channel=group)

    assert answer.message in ben.messages(group) and not cem.messages(group)
    assert answer.message not in sb.messages() and answer.message not in ben.messages()
    payload = last_interaction(sb)
    assert payload["context"] == 2 and payload["user"]["id"] == str(ana.id)
    assert "member" not in payload and "guild_id" not in payload
    assert payload["authorizing_integration_owners"] == {"1": str(ana.id)}
    assert payload["app_permissions"] == str(
        int(Perm.ATTACH_FILES | Perm.EMBED_LINKS | Perm.MENTION_EVERYONE)
    )
    channel = payload["channel"]
    assert (channel["type"], channel["name"], channel["owner_id"]) == (3, "Friday", str(ana.id))
    assert {u["id"] for u in channel["recipients"]} == {str(ana.id), str(ben.id)}
    interaction = bot.last_interaction
    assert interaction is not None and isinstance(interaction.channel, discord.GroupChannel)
    assert interaction.context.private_channel and interaction.guild is None
    assert not [e for e in dispatched(sb, "MESSAGE_CREATE") if e["channel_id"] == str(group.id)]
    assert sb.failures == []


@pytest.mark.openapi
async def test_payloads_of_private_channels_follow_discords_schemas(
    sb: Sandbox, bot: AnywhereBot
) -> None:
    ana, ben = sb.member("Ana"), sb.member("Ben")
    ana.install_app()

    await ana.slash("solo", "play", in_channel=sb.dm_between(ana, ben))
    between = last_interaction(sb)
    answer = await ana.slash("solo", "play", in_channel=sb.group_dm(ana, ben, name="Friday"))
    group = last_interaction(sb)["channel"]
    fetched = await bot.http.request(webhook(sb, bot, "GET", "/messages/@original"))
    clicked = await ben.click(answer.message, label="Count 1")

    assert between["context"] == 2 and between["channel"]["type"] == 1
    assert schema_problems("PrivateChannelResponse", between["channel"]) == []
    assert schema_problems("PrivateGroupChannelResponse", group) == []
    metadata = fetched["interaction_metadata"]
    assert schema_problems("ApplicationCommandInteractionMetadataResponse", metadata) == []
    assert metadata["authorizing_integration_owners"] == {"1": str(ana.id)}
    assert clicked.message.content == "count is 1"
    [click] = [i for i in sb.server.world.interactions.values() if i.type == 3]
    assert click.owners == {"1": str(ana.id)} and click.user_id == ben.id  # Ana's install


async def test_a_user_install_only_interaction_has_five_follow_ups(
    sb: Sandbox, bot: AnywhereBot
) -> None:
    ana, ben = sb.member("Ana"), sb.member("Ben")
    ana.install_app()

    answer = await ana.slash("solo", "many", count=6, in_channel=sb.group_dm(ana, ben))
    await sb.wait_for(lambda: bot.errors)

    assert [m.content for m in answer.followups] == [f"follow-up {n}" for n in range(1, 6)]
    [error] = bot.errors
    assert isinstance(error, discord.HTTPException) and error.code == 40094
    assert [f.kind for f in sb.failures] == ["followup_limit"]
    sb.failures.clear()
    bot.errors.clear()
    # Where the bot is (a guild install), there is no such limit.
    served = await ana.slash("solo", "many", count=6)
    assert len(served.followups) == 6 and bot.errors == [] and sb.failures == []


async def test_a_follow_up_after_15_minutes_is_refused_in_a_dm_too(
    sb: Sandbox, bot: AnywhereBot
) -> None:
    ana = sb.member("Ana")
    await ana.slash("solo", "play", in_channel=ana.open_dm())
    interaction = bot.last_interaction
    assert interaction is not None
    sb.server.clock.advance(15 * 60 + 1)

    with pytest.raises(discord.HTTPException) as expired:
        await interaction.followup.send("too late")

    assert expired.value.status == 401 and expired.value.code == 50027
    assert [f.kind for f in sb.failures] == ["token_expired"]


async def test_the_app_advertises_the_installation_types_it_supports(
    sb: Sandbox, bot: AnywhereBot
) -> None:
    info = await bot.application_info()
    assert info.guild_integration_config is not None
    assert info.user_integration_config is not None

    sb.server.world.install_types = {0}  # an app installable to servers only
    with pytest.raises(PermissionError, match="user installs"):
        sb.member("Ana").install_app()
    info = await bot.application_info()
    assert info.user_integration_config is None


async def test_a_follow_up_keeps_only_the_flags_a_response_may_set(
    sb: Sandbox, bot: AnywhereBot
) -> None:
    ana = sb.member("Ana")
    await ana.slash("solo", "play")
    loading, crossposted = 1 << 7, 1 << 1

    sent = await bot.http.request(
        webhook(sb, bot, "POST"),
        json={"content": "quiet", "flags": 64 | loading | crossposted},
        params={"wait": "true"},
    )

    message = sb.server.world.messages[int(sent["id"])]
    assert message.flags == 64 and message.ephemeral and not message.loading
    assert message in ana.ephemeral_messages() and sb.failures == []


async def test_the_bot_reaches_a_dm_only_through_a_server_or_the_users_install(
    sb: Sandbox, bot: AnywhereBot
) -> None:
    dan = sb.member("Dan", guild=sb.guilds[1])  # in no server of the bot's
    dm = await bot.create_dm(discord.Object(dan.id))

    with pytest.raises(discord.Forbidden) as refused:
        await dm.send("hello")
    with pytest.raises(NotOffered):
        await dan.slash("solo", "play", in_channel=dan.open_dm())  # nothing reaches it

    assert refused.value.code == 50278 and sb.failures == []
    assert [d.kind for d in sb.declined] == ["no_mutual_guild"]
    dan.install_app()
    await dm.send("hello")
    answer = await dan.slash("solo", "play", in_channel=dan.open_dm())
    assert [m.content for m in dan.direct_messages()] == ["hello", "solo for dan"]
    assert answer.interaction.owners == {"1": str(dan.id)}  # no guild install reaches him
    assert sb.failures == []
