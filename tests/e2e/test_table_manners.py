"""Everything around a game: lobby rules, refusals, commands, several channels, restarts."""

from __future__ import annotations

import copy
from pathlib import Path

from bot.sandbox import Sandbox, SimMember
from bot.sandbox.autoplay import (
    OPEN_SHEET,
    play_to_end,
    seeded_policy,
    turn_message,
    wait_for_turn,
)

from .conftest import UNLIMITED, make_bot

MANAGE_CHANNELS = 1 << 4


def names(sb: Sandbox, *who: str) -> list[SimMember]:
    return [sb.member(n) for n in who]


async def lobby_of(host: SimMember, variant: str = "classic", channel=None):
    return (await host.slash("qwixx", "start", variant=variant, in_channel=channel)).message


async def started(sb: Sandbox, host: SimMember, *guests: SimMember, channel=None):
    lobby = await lobby_of(host, channel=channel)
    for guest in guests:
        await guest.click(lobby, label="Join")
    await host.click(lobby, label="Start")
    return await wait_for_turn(sb, channel)


async def test_lobby_buttons_update_the_lobby(sb: Sandbox) -> None:
    ana, ben, cem = names(sb, "Ana", "Ben", "Cem")
    lobby = await lobby_of(ana)
    assert lobby.labels == ["Join", "Leave", "Add computer player", "Start", "Cancel"]
    assert lobby.find_component(label="Start").get("disabled") is True
    joined = (await ben.click(lobby, label="Join")).message
    assert f"<@{ben.id}>" in joined.content and "(2/5)" in joined.content
    assert not joined.find_component(label="Start").get("disabled")
    left = (await ben.click(joined, label="Leave")).message
    assert f"<@{ben.id}>" not in left.content and "(1/5)" in left.content
    rejoined = (await cem.click(left, label="Join")).message
    refused = await cem.click(rejoined, label="Start")
    assert "Only the host" in refused.ephemeral[0].content
    cancelled = (await ana.click(rejoined, label="Cancel")).message
    assert "cancelled" in cancelled.content and cancelled.labels == []
    again = await lobby_of(ben)  # the channel is free again
    assert "lobby" in again.content


async def test_refusals_are_polite_and_private(sb: Sandbox) -> None:
    ana, ben, cem, dan = names(sb, "Ana", "Ben", "Cem", "Dan")
    lobby = await lobby_of(ana)
    twice = await ana.click(lobby, label="Join")
    assert "already in this game" in twice.ephemeral[0].content
    busy = await ben.slash("qwixx", "start", variant="classic")
    assert busy.message.ephemeral and "already has a game" in busy.message.content
    await ben.click(lobby, label="Join")
    lobby_before_start = copy.deepcopy(lobby)  # as a client still shows it
    await ana.click(lobby, label="Start")
    late = await cem.click(lobby_before_start, label="Join")
    assert "already started" in late.ephemeral[0].content
    turn = await wait_for_turn(sb)
    stranger = await dan.click(turn, label=OPEN_SHEET)
    assert stranger.message.ephemeral and "not in this game" in stranger.message.content
    stranger_pass = await dan.click(turn, label="Pass")
    assert "not in this game" in stranger_pass.message.content
    assert all(f"<@{dan.id}>" not in m.content for m in sb.messages() if not m.ephemeral)


async def test_a_click_from_an_old_turn_changes_nothing(sb: Sandbox) -> None:
    ana, ben = names(sb, "Ana", "Ben")
    first = await started(sb, ana, ben)
    sheet = (await ben.click(first, label=OPEN_SHEET)).message
    first, sheet = copy.deepcopy(first), copy.deepcopy(sheet)  # as a client still shows them
    await play_to_turn(sb, [ana, ben], 2)
    stale = await ben.click(sheet, label=sheet.labels[0])
    assert "belongs to turn 1" in stale.ephemeral[-1].content
    old_open = await ben.click(first, label=OPEN_SHEET)
    assert "belongs to turn 1" in old_open.message.content


async def play_to_turn(sb: Sandbox, members: list[SimMember], turn: int) -> None:
    for _ in range(20):
        message = await wait_for_turn(sb)
        if f"**Turn {turn}**" in message.content:
            return
        for member in members:
            await member.click(await wait_for_turn(sb), label="Pass")
    raise AssertionError(f"turn {turn} never came")


async def test_public_pass_and_the_action2_call(sb: Sandbox) -> None:
    ana, ben = names(sb, "Ana", "Ben")
    turn = await started(sb, ana, ben)
    assert f"<@{ana.id}>" in turn.content and "White sum" in turn.content
    passed = await ben.click(turn, label="Pass")
    assert passed.message.ephemeral and "You passed" in passed.message.content
    refreshed = await sb.wait_for(
        lambda: (m := turn_message(sb)) and f"✅ Decided: <@{ben.id}>" in m.content and m
    )
    await ana.click(refreshed, label="Pass")
    call = await sb.wait_for_message(
        lambda m: "now add a white die" in m.content or "**Turn 2**" in m.content
    )
    assert not call.ephemeral


async def test_sheet_status_and_rules_commands(sb: Sandbox) -> None:
    ana, ben = names(sb, "Ana", "Ben")
    none = await ana.slash("qwixx", "status")
    assert "no game in this channel" in none.message.content
    await started(sb, ana, ben)
    sheet = await ben.slash("qwixx", "sheet")
    assert sheet.message.ephemeral and sheet.message.attachments
    assert "Pass" in sheet.message.labels
    status = await ben.slash("qwixx", "status")
    assert status.message.ephemeral and "Turn 1" in status.message.content
    assert status.message.attachments[0].image().size[0] > 100
    rules = await ben.slash("qwixx", "rules", variant="longo")
    assert rules.message.ephemeral and "Lucky numbers" in rules.message.content
    classic = await ben.slash("qwixx", "rules")
    assert "Decisions of this bot" in classic.message.content
    assert "deadline" in classic.message.content and len(classic.message.content) <= 2000


async def test_abandon_needs_the_host_or_manage_channels(sb: Sandbox) -> None:
    ana, ben, cem = names(sb, "Ana", "Ben", "Cem")
    mod = sb.member("Mod", permissions=MANAGE_CHANNELS)
    turn = copy.deepcopy(await started(sb, ana, ben))  # as a client still shows it
    denied = await cem.slash("qwixx", "abandon")
    assert denied.message.ephemeral and "Only the host" in denied.message.content
    asked = await mod.slash("qwixx", "abandon")
    assert asked.message.ephemeral and "Abandon this game" in asked.message.content
    done = await mod.click(asked.message, label="Yes")
    assert any("abandoned" in m.content for m in done.public)
    assert await sb.wait_for(lambda: turn_message(sb) is None)  # the buttons are gone
    after = await ben.click(turn, label=OPEN_SHEET)
    assert "over" in after.message.content
    assert "lobby" in (await ben.slash("qwixx", "start")).message.content


async def test_two_games_in_two_channels_at_once(sb: Sandbox) -> None:
    ana, ben, cem, dan = names(sb, "Ana", "Ben", "Cem", "Dan")
    games = sb.channel_named("games")
    await started(sb, ana, ben, channel=sb.channel)
    await started(sb, cem, dan, channel=games)
    general_final, games_final = None, None
    for _ in range(200):
        if general_final is None:
            general_final = await step(sb, [ana, ben], sb.channel)
        if games_final is None:
            games_final = await step(sb, [cem, dan], games)
        if general_final and games_final:
            break
    assert general_final is not None and games_final is not None
    assert f"<@{ana.id}>" in general_final and f"<@{cem.id}>" not in general_final
    assert f"<@{cem.id}>" in games_final and f"<@{ana.id}>" not in games_final


async def step(sb: Sandbox, members: list[SimMember], channel) -> str | None:
    from bot.sandbox.autoplay import final_message, play_round

    await play_round(sb, members, seeded_policy(3), channel)
    final = final_message(sb, channel)
    return final.content if final else None


async def test_a_lobby_survives_a_restart(sb: Sandbox, database: Path) -> None:
    ana, ben, cem = names(sb, "Ana", "Ben", "Cem")
    lobby = await lobby_of(ana)
    await ben.click(lobby, label="Join")
    await sb.stop_bot()
    await sb.run_bot(make_bot(database, sb))
    joined = (await cem.click(lobby, label="Join")).message
    assert "(3/5)" in joined.content
    await ana.click(joined, label="Start")
    final = await play_to_end(sb, [ana, ben, cem], seeded_policy(5))
    assert "final scores" in final.content


async def test_no_game_where_the_bot_cannot_post(sb: Sandbox) -> None:
    from bot.sandbox.permissions import Perm

    member = sb.server.world.members[(sb.guild.id, sb.server.world.bot.id)]
    member.permissions &= ~int(Perm.ATTACH_FILES)
    refused = await sb.member("Ana").slash("qwixx", "start", variant="classic")
    assert refused.message.ephemeral and "Attach Files" in refused.message.content
    assert turn_message(sb) is None and "lobby" not in refused.message.content


async def test_a_move_is_kept_when_the_channel_refuses_the_bot(database: Path) -> None:
    from bot.sandbox.permissions import Perm

    async with Sandbox(**UNLIMITED, members=["Ana", "Ben"], settle=0.02) as sb:
        await sb.run_bot(make_bot(database, sb))
        ana, ben = names(sb, "Ana", "Ben")
        turn = await started(sb, ana, ben)
        await ben.click(turn, label="Pass")
        await ana.click(turn, label="Pass")
        call = await sb.wait_for(
            lambda: (m := turn_message(sb)) and "now add a white die" in m.content and m
        )
        bot_member = sb.server.world.members[(sb.guild.id, sb.server.world.bot.id)]
        bot_member.permissions &= ~int(Perm.SEND_MESSAGES)  # a moderator changed the channel
        await ana.click(call, label="Pass")  # action 2: the turn ends, a post is due
        await sb.wait_for(
            lambda: any("Your move is saved" in m.content for m in ana.ephemeral_messages())
        )
        assert [f.kind for f in sb.failures] == ["forbidden"]  # Discord's 403, as expected
        sb.server.world.failures.clear()
        store = sb.bot.service.store  # type: ignore[attr-defined]
        assert [m.player_id for m in await store.games.moves(1)] == [ben.id, ana.id, ana.id]
        bot_member.permissions |= int(Perm.SEND_MESSAGES)  # and changed it back
        await sb.bot.timers.tick()  # type: ignore[attr-defined]
        turn2 = await sb.wait_for(lambda: turn_message(sb))
        assert "**Turn 2**" in turn2.content
        await sb.bot.timers.tick()  # type: ignore[attr-defined]  # nothing more to catch up
        assert len([m for m in sb.messages() if "**Turn 2**" in m.content]) == 1
