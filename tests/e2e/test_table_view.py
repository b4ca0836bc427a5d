"""Through the stand-in: the table view for anyone, alt text on every upload,
confirmations before costly moves, rematch and share."""

from __future__ import annotations

import copy
import re

from bot.i18n.words import t
from bot.render import render_table
from bot.render.compact import latest_from_moves
from bot.rules import Move
from bot.sandbox import Sandbox, SimMember
from bot.sandbox.autoplay import (
    OPEN_SHEET,
    play_round,
    play_to_end,
    seeded_policy,
    wait_for_turn,
)
from bot.sandbox.records import StoredMessage

SKIPS = re.compile(r"\(skips (\d+)\)")


async def started(
    sb: Sandbox, host: SimMember, *guests: SimMember, **options: str
) -> StoredMessage:
    lobby = (await host.slash("qwixx", "start", **options)).message
    for guest in guests:
        await guest.click(lobby, label="Join")
    await host.click(lobby, label="Start")
    return await wait_for_turn(sb)


def game_id(turn: StoredMessage) -> int:
    return int(turn.find_component(label=OPEN_SHEET)["custom_id"].split(":")[1])


async def moves_stored(sb: Sandbox, game: int) -> int:
    return len(await sb.bot.store.games.moves(game))  # type: ignore[union-attr]


def uploads(sb: Sandbox, *members: SimMember) -> list[tuple[str, str | None, bool]]:
    """(file name, description, ephemeral) of every file public or seen by ``members``."""
    seen = {m.id: m for member in members for m in member.messages()}
    seen.update({m.id: m for m in sb.messages()})
    return [(a.filename, a.description, m.ephemeral) for m in seen.values() for a in m.attachments]


async def test_a_spectator_opens_the_table_by_button_and_by_command(sb: Sandbox) -> None:
    ana, ben, dan = sb.member("Ana"), sb.member("Ben"), sb.member("Dan")
    turn = await started(sb, ana, ben)
    assert "Table" in turn.labels
    for answer in [
        (await dan.click(turn, label="Table")).message,
        (await dan.slash("qwixx", "table")).message,
    ]:
        assert answer.ephemeral and "everyone's sheet" in answer.content
        assert "▶ Ana" in answer.content and "Ben" in answer.content  # Ana's turn, marked
        [image] = answer.attachments
        assert image.filename == "table.png" and image.image().width > 0
        assert image.description and "Ana" in image.description and "Ben" in image.description
    assert all("Dan" not in m.content for m in sb.messages())  # nothing public about it


async def test_the_table_counts_this_turns_cross(sb: Sandbox) -> None:
    ana, ben = sb.member("Ana"), sb.member("Ben")
    turn = await started(sb, ana, ben)
    sheet = (await ben.click(turn, label=OPEN_SHEET)).message
    cross = next(label for label in sheet.labels if label != "Pass")
    answer = (await ben.click(sheet, label=cross)).message
    if "Yes" in answer.labels:
        await ben.click(answer, label="Yes")
    await ana.click(turn, label="Pass")  # action 1 is over: Ben's cross is on his sheet
    table = (await ana.slash("qwixx", "table")).message
    [ben_line] = [line for line in table.content.splitlines() if line.startswith("Ben")]
    assert any(f"{word} 1" in ben_line for word in ("Red", "Yellow", "Green", "Blue"))


async def test_a_costly_cross_asks_first_back_changes_nothing_yes_applies_once(sb: Sandbox) -> None:
    ana, ben = sb.member("Ana"), sb.member("Ben")
    turn = await started(sb, ana, ben)
    game = game_id(turn)
    sheet = copy.deepcopy((await ben.click(turn, label=OPEN_SHEET)).message)  # as first shown
    assert t("describe.penalties", count=0, limit=4, points=0) in sheet.content  # in words
    costly = next(
        label
        for label in sheet.labels
        if (found := SKIPS.search(label)) and int(found.group(1)) >= 3
    )
    skipped = SKIPS.search(costly).group(1)  # type: ignore[union-attr]
    before = await moves_stored(sb, game)

    asked = copy.deepcopy((await ben.click(sheet, label=costly)).message)
    assert asked.id == sheet.id  # the same ephemeral message
    assert asked.content.startswith("Cross ") and f"skip {skipped} numbers?" in asked.content
    assert asked.labels == ["Yes", "Back"] and asked.attachments == []
    assert await moves_stored(sb, game) == before

    question = copy.deepcopy(asked)  # as the client still shows it
    back = (await ben.click(asked, label="Back")).message
    assert back.content == sheet.content and back.labels == sheet.labels
    assert [a.filename for a in back.attachments] == ["sheet.png"]
    assert await moves_stored(sb, game) == before

    yes = (await ben.click(question, label="Yes")).message
    assert yes.id == sheet.id and yes.content.startswith("Crossed ")
    assert await moves_stored(sb, game) == before + 1
    await ben.click(question, label="Yes")  # a second tap on a stale copy
    assert await moves_stored(sb, game) == before + 1


async def test_leave_and_abandon_ask_and_back_keeps_the_game(sb: Sandbox) -> None:
    ana, ben, cem = sb.member("Ana"), sb.member("Ben"), sb.member("Cem")
    turn = await started(sb, ana, ben, cem)
    for member, command in ((cem, "leave"), (ana, "abandon")):
        asked = (await member.slash("qwixx", command)).message
        assert asked.ephemeral and asked.labels == ["Yes", "Back"]
        back = (await member.click(asked, label="Back")).message
        assert back.content == t("confirm.kept") and back.labels == []
    assert (await ana.slash("qwixx", "status")).message.content  # still running
    assert "Table" in turn.labels and not any(
        "left the game" in m.content or "abandoned" in m.content for m in sb.messages()
    )


async def test_every_file_of_a_game_described_and_rematch_keeps_the_options(sb: Sandbox) -> None:
    ana, ben, dan = sb.member("Ana"), sb.member("Ben"), sb.member("Dan")
    turn = await started(sb, ana, ben, variant="onboard", board="B", turn_time="2h")
    game = game_id(turn)
    await dan.click(turn, label="Table")
    await dan.click(turn, label="Board")
    await ana.slash("qwixx", "status")
    final = await play_to_end(sb, [ana, ben], seeded_policy(12))
    private = [(name, text) for name, text, ephemeral in uploads(sb, ana, ben, dan) if ephemeral]
    assert {name for name, _ in private} >= {"sheet.png", "table.png", "board.png"}
    assert all(text for _, text in private), [name for name, text in private if not text]

    assert "Rematch" in final.labels
    outcome = await sb.bot.service.keeper.read(game)  # type: ignore[union-attr]
    refused = (await dan.click(final, label="Rematch")).message  # a spectator
    assert refused.ephemeral and "Only the players of that game" in refused.content
    lobby = (await ben.click(final, label="Rematch")).message
    assert not lobby.ephemeral and "Rematch" in lobby.content
    assert f"<@{ana.id}>" in lobby.content and f"<@{ben.id}>" in lobby.content
    assert "Qwixx On Board" in lobby.content and "2h" in lobby.content
    found = await sb.bot.service.keeper.in_channel(sb.channel.id)  # type: ignore[union-attr]
    assert found.record.status == "lobby" and found.record.host_id == ana.id
    assert found.record.players == [ana.id, ben.id]  # seated again, in the same order
    assert (found.record.variant, found.record.options, found.record.turn_time) == (
        "onboard",
        outcome.record.options,
        7200,
    )


async def test_every_public_file_of_a_game_is_described(sb: Sandbox) -> None:
    ana, ben = sb.member("Ana"), sb.member("Ben")
    await started(sb, ana, ben)
    await play_to_end(sb, [ana, ben], seeded_policy(7))
    public = [(name, text) for name, text, ephemeral in uploads(sb) if not ephemeral]
    assert public and all(text for _, text in public), [n for n, text in public if not text]


async def test_share_posts_the_leaderboard_stats_and_history_publicly(sb: Sandbox) -> None:
    ana, ben, cem = sb.member("Ana"), sb.member("Ben"), sb.member("Cem")
    await started(sb, ana, ben)
    await play_to_end(sb, [ana, ben], seeded_policy(3))
    for command, options in (("leaderboard", {}), ("stats", {"user": ben}), ("history", {})):
        private = (await cem.slash("qwixx", command, **options)).message
        assert private.ephemeral and "Share" in private.labels
        shared = await cem.click(private, label="Share")
        # the click's own answer: the final message's accuracy edit may land meanwhile
        [post] = [m for m in (shared.response, *shared.followups) if m and not m.ephemeral]
        assert post.content.startswith(t("share.by", name=f"<@{cem.id}>"))
        assert "Share" not in post.labels
        assert post.attachments or post.embeds
        if command == "leaderboard":
            assert post.attachments[0].description
            assert t("leaderboard.ties_average") in post.content
        if command == "stats":
            assert post.embeds[0]["title"].endswith("Ben on this server")


async def test_qwintos_table_rings_the_numbers_written_last_turn(sb: Sandbox) -> None:
    """Qwinto's numbers are written at a turn's very end, so its table rings the last
    turn's, and says so (not "this turn's crosses")."""
    ana, ben = sb.member("Ana"), sb.member("Ben")
    turn = await started(sb, ana, ben, variant="qwinto")
    service = sb.bot.service  # type: ignore[union-attr]
    game_number, written = game_id(turn), {}
    for _ in range(12):  # turns until someone wrote a number in the one before the current
        await play_round(sb, [ana, ben], seeded_policy(4))
        outcome = await service.keeper.read(game_number)
        last = outcome.game.turn - 1
        events = await service.keeper.events(game_number, last)
        written = latest_from_moves(
            (e.player, Move("place", e.data["row"], e.data["column"]))
            for e in events
            if e.kind == "placed" and e.turn == last
        )
        if written:
            break
    assert written, "someone wrote a number"
    table = (await ana.slash("qwixx", "table")).message
    assert "ringed: the numbers written last turn" in table.content
    assert "crosses" not in table.content
    names = await service.names.of(outcome.record.guild_id, outcome.record.players)
    [image] = table.attachments
    assert image.data == render_table(outcome.game, names, written)
    assert image.data != render_table(outcome.game, names, {})
