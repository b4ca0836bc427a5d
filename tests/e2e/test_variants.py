"""Qwixx Longo and Qwinto played whole through the Discord layer."""

from __future__ import annotations

import re

from bot.sandbox import Sandbox, SimMember
from bot.sandbox.autoplay import Choice, edits_of, play_to_end, seeded_policy, wait_for_turn
from bot.sandbox.records import StoredMessage


async def start(sb: Sandbox, variant: str, members: list[SimMember]) -> None:
    lobby = (await members[0].slash("qwixx", "start", variant=variant)).message
    for member in members[1:]:
        await member.click(lobby, label="Join")
    await members[0].click(lobby, label="Start")
    await wait_for_turn(sb)


def recording(seed: int, seen: list[str]):
    """The seeded policy, noting every option it was offered."""
    policy = seeded_policy(seed)

    def choose(member: SimMember, offered: list[Choice], sheet: StoredMessage) -> Choice:
        seen.extend(c.text for c in offered)
        return policy(member, offered, sheet)

    return choose


async def test_a_whole_longo_game_with_lucky_options(sb: Sandbox) -> None:
    members = [sb.member(n) for n in ("Ana", "Ben", "Cem")]
    await start(sb, "longo", members)
    seen: list[str] = []
    final = await play_to_end(sb, members, recording(2, seen))
    assert "Qwixx Longo** — final scores" in final.content
    assert any(text.startswith("🍀 Lucky") for text in seen)
    assert (
        max(int(t.split()[2]) for t in seen if t[:1] in "🟥🟨" and t.split()[2].isdigit()) <= 16
    )  # labels read "🟥 Red 9"
    assert final.attachments[0].image().size[0] > 400


async def test_a_whole_qwinto_game(sb: Sandbox) -> None:
    members = [sb.member(n) for n in ("Ana", "Ben", "Cem")]
    await start(sb, "qwinto", members)
    first = await wait_for_turn(sb)
    assert "chooses which dice to roll" in first.content and "Pass" not in first.labels
    seen: list[str] = []
    final = await play_to_end(sb, members, recording(4, seen))
    assert "Qwinto** — final scores" in final.content
    assert any(t.startswith("Roll ") for t in seen)
    assert any(t.startswith(("Keep ", "Re-roll ")) for t in seen)
    fields = [t for t in seen if re.fullmatch(r"(🟧 Orange|🟨 Yellow|🟪 Purple) [1-9]/9", t)]
    assert len(set(fields)) > 20  # a field is one button: row and place
    assert any(
        t.startswith("Write ") and "in another field… 🟧 Orange field " in t for t in seen
    )  # the select of the fields without a button (three dice)
    throws = [c for c in sb.server.calls if "dice.png" in c.files]
    assert len(throws) > 5  # each throw was shown with its dice while its turn was open
    assert not any(m.attachments for m in sb.messages()[:-1])  # finished turns: words only


async def test_a_whole_on_board_game_shows_the_board_when_a_pawn_moved(sb: Sandbox) -> None:
    members = [sb.member(n) for n in ("Ana", "Ben", "Cem")]
    lobby = (await members[0].slash("qwixx", "start", variant="onboard", board="B")).message
    for member in members[1:]:
        await member.click(lobby, label="Join")
    await members[0].click(lobby, label="Start")
    first = await wait_for_turn(sb)
    assert [a.filename for a in first.attachments] == ["dice.png"]
    board = await members[1].click(first, label="Board")  # on request, for anyone
    assert board.message.ephemeral and board.message.attachments[0].filename == "board.png"
    seen: list[str] = []
    final = await play_to_end(sb, members, recording(6, seen))
    assert "Qwixx On Board** — final scores" in final.content
    assert any(t.startswith("♟ ") and "bonus" in t for t in seen)  # action-3 moves
    assert "Stay" in seen
    moved = [m for m in sb.messages() if "♟" in m.content]
    posts = [c for c in sb.server.calls if c.endpoint == "POST /channels/{channel_id}/messages"]
    boards = [
        c
        for c in posts + [c for m in sb.messages() for c in edits_of(sb, m)]
        if "board.png" in c.files
    ]
    assert boards  # the open turn showed the board after a pawn moved
    assert moved and not any(m.attachments for m in sb.messages()[:-1])  # words only after


async def test_the_board_option_is_only_for_on_board(sb: Sandbox) -> None:
    refused = await sb.member("Ana").slash("qwixx", "start", variant="classic", board="B")
    assert refused.message.ephemeral
    assert "only for Qwixx On Board" in refused.message.content
