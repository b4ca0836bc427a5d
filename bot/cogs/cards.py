"""A planned card (:class:`bot.channel.cards.Card`) as Discord's layout components: one
container in the accent of its seat, its text in text displays, its images after the
block they belong to, each in a gallery of its own at the card's width (with its alt
text), and its buttons in an action row under the container.

A message with layout components has no ``content``: its text is the text displays'.
"""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.channel.cards import Card

SEAT_COLOURS = (0x00897B, 0xC2185B, 0x8D6E63, 0x5C6BC0, 0x9E9D24)
"""The seats' accents, one a seat (none of them a row's colour, so that a card's
colour never reads as a row)."""


def accent(seat: int | None) -> int | None:
    """The accent of the card of ``seat``'s turn (None: none)."""
    return None if seat is None else SEAT_COLOURS[seat % len(SEAT_COLOURS)]


def layout(
    card: Card, files: Sequence[discord.File], buttons: discord.ui.View | None
) -> discord.ui.LayoutView:
    """``card`` as a message's components; ``files`` are uploaded with the message and
    shown by name (``attachment://``)."""
    box: discord.ui.Container[discord.ui.LayoutView] = discord.ui.Container(
        accent_colour=accent(card.accent)
    )
    for index, block in enumerate(card.blocks):
        if index and not (files and index - 1 == card.images_after):
            box.add_item(discord.ui.Separator())
        box.add_item(discord.ui.TextDisplay(block))
        if index == card.images_after:
            for file in files:  # a gallery each: side by side, a phone shows them too small
                box.add_item(discord.ui.MediaGallery(gallery_item(file)))
    view = discord.ui.LayoutView(timeout=None)
    view.add_item(box)
    if buttons is not None:
        for row in action_rows(buttons):
            view.add_item(row)
    return view


ROW_WIDTH = 5
"""An action row holds five buttons, or one select."""


def action_rows(buttons: discord.ui.View) -> list[discord.ui.ActionRow[discord.ui.LayoutView]]:
    """``buttons``' children moved into action rows, in order: a row holds five buttons
    or one select, and a child given a ``row`` of its own starts a new one."""
    rows: list[discord.ui.ActionRow[discord.ui.LayoutView]] = []
    room, last = 0, None
    for item in list(buttons.children):
        buttons.remove_item(item)
        if item.width > room or (item.row is not None and item.row != last):
            rows.append(discord.ui.ActionRow())
            room = ROW_WIDTH
        rows[-1].add_item(item)
        room, last = room - item.width, item.row
    return rows


def gallery_item(file: discord.File) -> discord.MediaGalleryItem:
    """An uploaded image in a gallery, with its alt text."""
    return discord.MediaGalleryItem(
        f"attachment://{file.filename}", description=file.description or None
    )


def in_rows(buttons: discord.ui.View) -> discord.ui.View:
    """``buttons``' children moved into a view of their own, each given the row the legacy
    view lays it out in, in that order, so that :func:`action_rows` keeps those rows: a
    view built for a message of text (a sheet's ⚙ joining its last row where there is
    room, buttons filling the first row with room) shows the same rows on a card."""
    children = list(buttons.children)
    laid_out = discord.ui.View(timeout=None)
    for index, row in enumerate(buttons.to_components()):
        for component in row["components"]:
            item = next(c for c in children if c.to_component_dict() == component)
            children.remove(item)
            buttons.remove_item(item)
            item.row = index
            laid_out.add_item(item)
    return laid_out
