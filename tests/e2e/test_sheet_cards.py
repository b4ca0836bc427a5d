"""Through the stand-in: a player's sheet answer and the table view are cards (the
sheet's sentences, its image under them with its alt text, its choices in action rows
under the card), moved on and paged through as cards; a sheet posted as text before
cards is answered as text. The stand-in checks every body against Discord's limits and
its API description (the fixture fails on any it refused)."""

from __future__ import annotations

from typing import Any

from bot.sandbox import Sandbox, SimMember
from bot.sandbox.autoplay import OPEN_SHEET, wait_for_turn
from bot.sandbox.records import EPHEMERAL, StoredMessage

CONTAINER, ROW, TEXT, GALLERY = 17, 1, 10, 12
CHOICES, TO_SHEET = "⚙ My choices", "Back to my sheet"


async def started(sb: Sandbox, host: SimMember, *guests: SimMember) -> StoredMessage:
    lobby = (await host.slash("qwixx", "start", variant="classic")).message
    for guest in guests:
        await guest.click(lobby, label="Join")
    await host.click(lobby, label="Start")
    return await wait_for_turn(sb)


def shape(message: StoredMessage) -> list[int]:
    """The types of a message's top-level components."""
    return [c["type"] for c in message.components]


def inside(message: StoredMessage) -> list[int]:
    """The types of what a card's container holds."""
    return [c["type"] for c in message.components[0]["components"]]


def is_sheet_card(message: StoredMessage) -> bool:
    """A private card: the container first, its choices in action rows under it."""
    kinds = shape(message)
    return (
        message.ephemeral
        and message.layout
        and kinds[0] == CONTAINER
        and kinds[1:] == [ROW] * (len(kinds) - 1)
    )


async def test_a_players_sheet_is_a_card_from_opening_to_choosing(sb: Sandbox) -> None:
    ana, ben = sb.member("Ana"), sb.member("Ben")
    turn = await started(sb, ana, ben)
    sheet = (await ben.click(turn, label=OPEN_SHEET)).message
    assert is_sheet_card(sheet) and not sheet.content.startswith("\n")
    assert inside(sheet)[-1] == GALLERY, "the sheet's image under its words"
    [image] = sheet.attachments
    assert image.filename == "sheet.png" and image.image().width > 0
    [item] = sheet.components[0]["components"][-1]["items"]
    assert item["media"]["url"] == "attachment://sheet.png"
    assert item["description"] == image.description
    assert image.description and image.description.startswith("Ben's sheet, Qwixx")
    assert "Turn 1, action 1" in sheet.content and "Ben's sheet, Qwixx:" in sheet.content
    assert "Pass" in sheet.labels and CHOICES in sheet.labels

    cross = next(label for label in sheet.labels if label not in ("Pass", CHOICES))
    answer = (await ben.click(sheet, label=cross)).message
    if "Yes" in answer.labels:  # a costly cross is asked about first, on the card
        assert answer.layout and answer.labels == ["Yes", "Back"]
        assert "numbers?" in answer.content
        answer = (await ben.click(answer, label="Yes")).message
    assert answer.id == sheet.id and is_sheet_card(answer)
    assert answer.content.splitlines()[0].startswith("Crossed ")
    assert "Waiting for <@" in answer.content.splitlines()[0]
    by_command = (await ana.slash("qwixx", "sheet")).message  # the command's own answer
    assert is_sheet_card(by_command) and "Ana's sheet, Qwixx:" in by_command.content
    assert inside(by_command)[-1] == GALLERY and "Pass" in by_command.labels


async def test_paging_through_the_choices_keeps_the_card(sb: Sandbox) -> None:
    ana, ben = sb.member("Ana"), sb.member("Ben")
    turn = await started(sb, ana, ben)
    sheet = (await ben.click(turn, label=OPEN_SHEET)).message
    choices = (await ben.click(sheet, label=CHOICES)).message
    assert choices.id == sheet.id and is_sheet_card(choices)
    assert inside(choices) == [TEXT] and choices.attachments == []
    assert "Your choices in this game" in choices.content
    menus = [c for c in choices.interactive() if c["type"] == 3]
    assert len(menus) == 2 and choices.labels == [TO_SHEET]
    picked = menus[1]["options"][-1]["value"]
    saved = (await ben.select(choices, [picked], custom_id=menus[1]["custom_id"])).message
    assert is_sheet_card(saved) and saved.content.startswith("Saved: in force")
    back = (await ben.click(saved, label=TO_SHEET)).message
    assert is_sheet_card(back) and inside(back)[-1] == GALLERY
    assert [a.filename for a in back.attachments] == ["sheet.png"]
    assert "Turn 1, action 1" in back.content


async def test_the_table_view_is_a_card_by_button_and_by_command(sb: Sandbox) -> None:
    ana, ben, dan = sb.member("Ana"), sb.member("Ben"), sb.member("Dan")
    turn = await started(sb, ana, ben)
    for table in [
        (await dan.click(turn, label="Table")).message,
        (await dan.slash("qwixx", "table")).message,
    ]:
        assert table.ephemeral and table.layout and shape(table) == [CONTAINER]
        assert inside(table) == [TEXT, GALLERY, TEXT], "its title, the sheets, the summary"
        title, summary = (c["content"] for c in table.components[0]["components"][::2])
        assert title.startswith("**Qwixx**, turn 1: everyone's sheet")
        assert [line.split(":")[0] for line in summary.splitlines()] == ["▶ Ana", "Ben"]
        [image] = table.attachments
        assert image.filename == "table.png" and image.image().width > 0
        [item] = table.components[0]["components"][1]["items"]
        assert item["description"] == image.description and "Ana" in (image.description or "")


async def test_a_sheet_posted_as_text_before_cards_is_answered_as_text(sb: Sandbox) -> None:
    """A sheet a player opened before the update is a message of text: a click on it
    edits it as text (Discord refuses a card's components on it), and a new look at the
    sheet is a card."""
    ana, ben = sb.member("Ana"), sb.member("Ben")
    turn = await started(sb, ana, ben)
    card = (await ben.click(turn, label=OPEN_SHEET)).message
    rows: list[dict[str, Any]] = [
        {key: value for key, value in row.items() if key != "id"}
        for row in card.components
        if row["type"] == ROW
    ]
    old = await sb.server.messages.create(
        card.channel_id,
        {"content": card.content, "components": rows, "flags": EPHEMERAL},
        [],
        visible_to=ben.id,
    )
    assert not old.layout and old.labels == card.labels
    choices = (await ben.click(old, label=CHOICES)).message
    assert choices.id == old.id and not choices.layout and shape(choices) == [ROW] * 3
    assert choices.content.startswith("**Your choices in this game**")
    back = (await ben.click(choices, label=TO_SHEET)).message
    assert not back.layout and "Turn 1, action 1" in back.content
    assert "Ben's sheet, Qwixx:" in back.content, "the sheet in words under the text"
    assert [a.filename for a in back.attachments] == ["sheet.png"]
    cross = next(label for label in back.labels if label not in ("Pass", CHOICES))
    answer = (await ben.click(back, label=cross)).message
    if "Yes" in answer.labels:  # the question, as text too
        assert not answer.layout and "numbers?" in answer.content
        answer = (await ben.click(answer, label="Yes")).message
    assert not answer.layout and answer.content.startswith("Crossed ")
    again = (await ben.click(turn, label=OPEN_SHEET)).message
    assert again.id not in (old.id, card.id) and is_sheet_card(again)
