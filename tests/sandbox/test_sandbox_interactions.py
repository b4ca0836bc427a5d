"""Slash commands, buttons, selects, visibility and attachments through the stand-in."""

import pytest

from bot.sandbox import Perm, Sandbox

from .demo_bot import DemoBot


async def test_slash_command_with_subcommand_and_choice(sb: Sandbox, bot: DemoBot) -> None:
    outcome = await sb.member("Ana").slash("demo", "start", variant="longo", rounds=5)

    assert outcome.message.content == "Started longo x5"
    assert not outcome.message.ephemeral
    assert outcome.message.labels == ["Count 1"]
    assert sb.failures == []


async def test_wrong_names_fail_loudly(sb: Sandbox, bot: DemoBot) -> None:
    ana = sb.member("Ana")
    with pytest.raises(LookupError, match="not registered"):
        await ana.slash("nope")
    with pytest.raises(LookupError, match="no subcommand"):
        await ana.slash("demo", "stop")
    with pytest.raises(ValueError, match="not a choice"):
        await ana.slash("demo", "start", variant="turbo")
    with pytest.raises(ValueError, match="missing required"):
        await ana.slash("demo", "start")


async def test_dynamic_button_click_answers_ephemerally(sb: Sandbox, bot: DemoBot) -> None:
    ana, ben = sb.member("Ana"), sb.member("Ben")
    start = await ana.slash("demo", "start", variant="classic")

    clicked = await ben.click(start.message, label="Count 1")

    assert clicked.message.content == "count is 1"
    assert clicked.message.ephemeral
    again = await ben.click(clicked.message, custom_id="demo:count:2")
    assert again.message.content == "count is 2"
    assert sb.failures == []


async def test_ephemeral_messages_are_seen_only_by_their_user(sb: Sandbox, bot: DemoBot) -> None:
    ana, ben = sb.member("Ana"), sb.member("Ben")
    secret = (await ana.slash("demo", "secret")).message

    assert secret.ephemeral and secret.content == "only you"
    assert secret in ana.messages()
    assert secret not in ben.messages()
    assert secret not in sb.messages()
    assert ana.ephemeral_messages() == [secret]


async def test_clicking_someone_elses_ephemeral_message_is_impossible(
    sb: Sandbox,
    bot: DemoBot,
) -> None:
    ana, ben = sb.member("Ana"), sb.member("Ben")
    start = await ana.slash("demo", "start", variant="classic")
    mine = (await ana.click(start.message, label="Count 1")).message

    with pytest.raises(PermissionError):
        await ben.click(mine, label="Count 2")


async def test_deferred_followup_with_png_attachment(sb: Sandbox, bot: DemoBot) -> None:
    outcome = await sb.member("Ana").slash("demo", "picture")

    message = outcome.message
    assert message.content == "here" and not message.loading
    assert [a.filename for a in message.attachments] == ["dot.png"]
    image = message.attachments[0].image()
    assert image.format == "PNG" and image.size == (8, 6)
    assert sb.failures == []


async def test_ephemeral_reply_with_file_is_multipart(sb: Sandbox, bot: DemoBot) -> None:
    ana, ben = sb.member("Ana"), sb.member("Ben")
    card = (await ana.slash("demo", "card")).message

    assert card.ephemeral and card.attachments[0].image().format == "PNG"
    assert card not in ben.messages()
    callback = next(c for c in sb.server.calls if c.route.endswith("/callback"))
    assert callback.files == ["card.png"] and callback.body["data"]["flags"] == 64


async def test_edit_original_replaces_content_and_adds_file(sb: Sandbox, bot: DemoBot) -> None:
    outcome = await sb.member("Ana").slash("demo", "edit")

    assert outcome.message.content == "final"
    assert outcome.message.attachments[0].image().size == (8, 6)
    edit = "PATCH /webhooks/{webhook_id}/{webhook_token}/messages/@original"
    assert edit in sb.server.endpoints()


async def test_channel_message_with_bot_token_and_followup(sb: Sandbox, bot: DemoBot) -> None:
    ana, ben = sb.member("Ana"), sb.member("Ben")
    outcome = await ana.slash("demo", "announce")

    assert [m.content for m in outcome.ephemeral] == ["announcing", "done"]
    board = await sb.wait_for_message(lambda m: m.content == "Hello channel")
    assert board in ben.messages() and board.attachments[0].filename == "board.png"
    assert "POST /channels/{channel_id}/messages" in sb.server.endpoints()
    assert sb.failures == []


async def test_select_menu_updates_its_message(sb: Sandbox, bot: DemoBot) -> None:
    ana = sb.member("Ana")
    menu = (await ana.slash("demo", "pick")).message

    with pytest.raises(ValueError, match="not options"):
        await ana.select(menu, ["x"], placeholder="Pick a colour")
    picked = await ana.select(menu, ["g"], placeholder="Pick a colour")

    assert picked.message.id == menu.id
    assert menu.content == "picked g" and menu.components == []
    assert sb.failures == []


async def test_thread_creation_and_message_in_thread(sb: Sandbox, bot: DemoBot) -> None:
    outcome = await sb.member("Ana").slash("demo", "thread")

    thread = sb.channel_named("game-1")
    assert thread.is_thread and thread.parent_id == sb.channel.id
    assert [m.content for m in sb.messages(thread)] == ["in the thread"]
    assert outcome.message.content == f"thread {thread.id}"
    assert sb.failures == []


async def test_default_member_permissions_gate_commands(sb: Sandbox, bot: DemoBot) -> None:
    mod = sb.member("Mo", permissions=Perm.MANAGE_CHANNELS)

    with pytest.raises(PermissionError):
        await sb.member("Ana").slash("admin", "reset")
    outcome = await mod.slash("admin", "reset")

    assert outcome.message.content == "reset by mod=True"
