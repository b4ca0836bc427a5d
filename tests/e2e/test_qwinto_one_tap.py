"""Qwinto through the Discord stand-in: a player writes the sum with one click."""

from __future__ import annotations

import re

from bot.cogs.buttons import decode_move
from bot.sandbox import Sandbox, SimMember
from bot.sandbox.autoplay import OPEN_SHEET, turn_message, wait_for_turn
from bot.sandbox.records import StoredMessage

FIELD = re.compile(r"(🟧 Orange|🟨 Yellow|🟪 Purple) [1-9]/9")


async def sheet_of(sb: Sandbox, member: SimMember) -> StoredMessage:
    return (await member.click(await wait_for_turn(sb), label=OPEN_SHEET)).message


async def thrown(sb: Sandbox) -> tuple[SimMember, SimMember, int]:
    """A two-player game whose active player threw all three dice and kept them:
    (active, other, game id)."""
    ana, ben = sb.member("Ana"), sb.member("Ben")
    lobby = (await ana.slash("qwixx", "start", variant="qwinto")).message
    await ben.click(lobby, label="Join")
    await ana.click(lobby, label="Start")
    turn = await wait_for_turn(sb)
    game = int(turn.find_component(label=OPEN_SHEET)["custom_id"].split(":")[1])
    sheets = {m: await sheet_of(sb, m) for m in (ana, ben)}
    active = next(m for m, sheet in sheets.items() if "Roll 🟧🟨🟪" in sheet.labels)
    other = ben if active is ana else ana
    rolled = (await active.click(sheets[active], label="Roll 🟧🟨🟪")).message
    keep = next(label for label in rolled.labels if label.startswith("Keep "))
    await active.click(rolled, label=keep)
    await sb.wait_for(
        lambda: (
            (m := turn_message(sb)) is not None
            and "Keep" not in m.content
            and m.attachments
            and m.attachments[0].filename == "dice.png"
        )
    )
    return active, other, game


async def test_a_qwinto_player_writes_with_a_single_click(sb: Sandbox) -> None:
    _, other, game = await thrown(sb)
    store = sb.bot.store  # type: ignore[union-attr]
    before = len(await store.games.moves(game))
    sheet = await sheet_of(sb, other)
    fields = [label for label in sheet.labels if FIELD.fullmatch(label)]
    assert len(fields) == 15  # an empty sheet, three dice: five fields of each row as buttons
    assert "Pass" in sheet.labels
    rows = [c for c in sheet.components if c["type"] == 1]  # the card's choices, under it
    assert sheet.layout and [c["type"] for c in sheet.components] == [17, *[1] * len(rows)]
    assert all(len(row["components"]) <= 5 for row in rows) and len(rows) <= 5
    chosen = fields[len(fields) // 2]
    button = sheet.find_component(label=chosen)
    done = await other.click(sheet, label=chosen)  # the one click
    assert done.failed is None
    assert done.message.id == sheet.id  # the same message, updated
    assert f"Wrote the sum in {chosen}." in done.message.content  # the very field
    again = await other.click(done.message, label="Change where I write")
    assert again.message.find_component(label=chosen)["style"] == 3  # shown as chosen
    moves = await store.games.moves(game)
    assert len(moves) == before + 1
    assert moves[-1].player_id == other.id
    assert moves[-1].move == decode_move(button["custom_id"].split(":")[4]).to_json()
    assert moves[-1].move["kind"] == "place"


async def test_a_field_button_of_a_turn_that_is_over_is_refused_politely(sb: Sandbox) -> None:
    active, other, game = await thrown(sb)
    sheet = await sheet_of(sb, other)
    kept = await sheet_of(sb, other)  # a second look at the sheet, left as it is
    chosen = next(label for label in sheet.labels if FIELD.fullmatch(label))
    await other.click(sheet, label=chosen)
    mine = await sheet_of(sb, active)
    await active.click(mine, label="Pass")  # both have chosen: the turn is over
    await sb.wait_for(lambda: (m := turn_message(sb)) is not None and "**Turn 2**" in m.content)
    store = sb.bot.store  # type: ignore[union-attr]
    before = len(await store.games.moves(game))
    again = await other.click(kept, label=chosen)
    assert again.failed is None
    assert any("belongs to turn 1" in m.content for m in again.ephemeral)
    assert len(await store.games.moves(game)) == before
