"""The transcript as a page (``bot/sandbox/page.py``): a card and a text message as
Discord draws them, saying what the text transcript says; what members and the bot
wrote escaped; Discord's markdown; buttons in their styles, disabled where they are."""

from __future__ import annotations

from pathlib import Path

import discord

from bot.sandbox import Sandbox
from bot.sandbox.demo import ImageSaver, Transcript
from bot.sandbox.page import TranscriptPage
from bot.sandbox.seen import Container, Control, Picture, Rule, Seen, Text

from .demo_bot import DemoBot, png_file
from .page_text import page_text

NAME = "<b>Ana</b>"


def button(label: str, style: discord.ButtonStyle, disabled: bool = False) -> discord.ui.Button:
    return discord.ui.Button(label=label, style=style, disabled=disabled, custom_id=label)


def card(ana: int) -> discord.ui.LayoutView:
    """A card as the bot lays one out: text, a rule, an image with alt text, buttons."""
    box: discord.ui.Container[discord.ui.LayoutView] = discord.ui.Container(accent_colour=0x00897B)
    box.add_item(discord.ui.TextDisplay(f"**Turn 1** · <@{ana}> is active\n> *quoted* `<i>`"))
    box.add_item(discord.ui.Separator())
    box.add_item(
        discord.ui.MediaGallery(
            discord.MediaGalleryItem("attachment://dice.png", description=f"Dice of <@{ana}>")
        )
    )
    view = discord.ui.LayoutView(timeout=None)
    view.add_item(box)
    row: discord.ui.ActionRow[discord.ui.LayoutView] = discord.ui.ActionRow()
    row.add_item(button("Open <my> sheet", discord.ButtonStyle.primary))
    row.add_item(button("Pass", discord.ButtonStyle.secondary))
    row.add_item(button("Start", discord.ButtonStyle.success, disabled=True))
    row.add_item(button("Cancel", discord.ButtonStyle.danger))
    menu: discord.ui.ActionRow[discord.ui.LayoutView] = discord.ui.ActionRow()
    menu.add_item(
        discord.ui.Select(
            custom_id="level", placeholder="Level", options=[discord.SelectOption(label="Easy")]
        )
    )
    view.add_item(row)
    view.add_item(menu)
    return view


async def test_the_page_says_what_the_text_says_escaped(
    sb: Sandbox, bot: DemoBot, tmp_path: Path
) -> None:
    ana = sb.member("Ana")
    channel = bot.get_channel(sb.channel.id)
    assert isinstance(channel, discord.TextChannel)
    sent = await channel.send(view=card(ana.id), file=png_file("dice.png"))
    await sent.edit(view=card(ana.id))
    await channel.send(f"<@{ana.id}> wrote <script>alert(1)</script>", file=png_file())
    lines: list[str] = []
    images = ImageSaver(sb, tmp_path / "images")
    page = TranscriptPage("a page", images.emojis)
    transcript = Transcript(sb, {ana.id: NAME}, lines.append, images, page)
    transcript.say(f"<@{ana.id}> presses Pass")
    transcript.channel_after()
    page.write(tmp_path / "transcript.html")

    html = (tmp_path / "transcript.html").read_text(encoding="utf-8")
    read = page_text(tmp_path / "transcript.html")
    assert read.lines == lines
    assert "<b>" not in html and "<script>" not in html and "<my>" not in html
    assert "@&lt;b&gt;Ana&lt;/b&gt; is active" in html and f"@{NAME} is active" in "\n".join(lines)
    assert 'alt="Dice of @&lt;b&gt;Ana&lt;/b&gt;"' in html
    assert "<strong>Turn 1</strong>" in html
    assert "<blockquote><em>quoted</em> <code>&lt;i&gt;</code></blockquote>" in html
    assert read.buttons == [
        ("Open <my> sheet", False),
        ("Pass", False),
        ("Start", True),
        ("Cancel", False),
    ]
    for style in ("primary", "secondary", "success", "danger"):
        assert f'<button class="{style}"' in html
    assert '<button class="success" disabled>Start</button>' in html
    assert '<div class="select" role="listbox"' in html and ">Level<" in html
    assert '<span class="edited">(edited)</span>' in html
    assert read.sources and all(
        s.is_file() and s.parent == tmp_path / "images" for s in read.sources
    )
    assert 'src="images/001-dice.png"' in html  # relative to the page


def seen(**changes: object) -> Seen:
    fields: dict[str, object] = {
        "author": "Qwixx Bot",
        "place": None,
        "number": None,
        "edited": False,
        "command": None,
        "only": None,
        "parts": (),
        "rows": (),
    }
    return Seen(**{**fields, **changes})  # type: ignore[arg-type]


def drawn(message: Seen, emojis: dict[str, Path] | None = None) -> str:
    page = TranscriptPage("t", emojis)
    page.message(message)
    return page.html(Path("/out"))


def test_an_answer_only_one_sees_is_marked_with_the_command_it_answers() -> None:
    html = drawn(seen(only=NAME, command=(NAME, "qwixx sheet"), parts=(Text("Your sheet"),)))
    assert '<article class="message ephemeral">' in html
    assert "👁 Only you can see this · &lt;b&gt;Ana&lt;/b&gt;" in html
    assert "&lt;b&gt;Ana&lt;/b&gt; used <strong>/qwixx sheet</strong>" in html


def test_discords_markdown_each_line_and_within_it() -> None:
    text = "**bold** *it* _also_ __under__ ~~gone~~ `**kept**`\nsecond\n> quoted\n-# small"
    html = drawn(seen(parts=(Text(text),)))
    assert (
        '<div class="text"><strong>bold</strong> <em>it</em> <em>also</em> <u>under</u> '
        "<s>gone</s> <code>**kept**</code><br>second<blockquote>quoted</blockquote>"
        '<span class="small">small</span></div>'
    ) in html
    assert "snake_case_name" in drawn(seen(parts=(Text("snake_case_name"),)))  # no italics


def test_a_custom_emoji_is_its_image_and_an_unknown_one_its_name() -> None:
    emojis = {"qx_red6_1a2b": Path("/out/emoji-qx_red6_1a2b.png")}
    html = drawn(seen(parts=(Text(":qx_red6_1a2b: :other: 10:30"),)), emojis)
    assert (
        '<img class="emoji" src="emoji-qx_red6_1a2b.png" alt=":qx_red6_1a2b:" '
        'title=":qx_red6_1a2b:"> :other: 10:30'
    ) in html


def test_a_card_without_accent_and_a_picture_without_alt_text() -> None:
    picture = Picture("sheet.png", Path("/out/002-sheet.png"), None, True)
    html = drawn(seen(parts=(Container(None, (Text("a"), Rule(), picture)),)))
    assert '<section class="card"><div class="text">a</div><hr>' in html
    assert '<img src="002-sheet.png" alt="" title=""' in html


def test_a_disabled_menu_is_dimmed() -> None:
    html = drawn(seen(rows=((Control("Level", True, 2, True),),)))
    assert '<div class="select disabled" role="listbox" aria-disabled="True">' in html
