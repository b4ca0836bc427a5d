"""The images the bot sends, drawn off the event loop: Pillow work must not stall the
gateway. Each file carries its image in words (Discord's alt text)."""

from __future__ import annotations

import asyncio
import io
from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from typing import Any

import discord

from bot.i18n.words import t
from bot.render import (
    render_board,
    render_card,
    render_dice,
    render_scoreboard,
    render_sheet,
    render_table,
)
from bot.render.describe import (
    board_alt,
    card_alt,
    dice_alt,
    fit,
    scoreboard_alt,
    sheet_alt,
    table_alt,
)
from bot.render.tally import tally
from bot.rules import Game, Move


async def png_file(
    render: Callable[..., bytes], *args: Any, name: str, description: str | None = None
) -> discord.File:
    """``render(*args)`` drawn on a worker thread, as a file named ``name``."""
    data = await asyncio.to_thread(render, *args)
    return discord.File(io.BytesIO(data), filename=name, description=description)


DICE_KEPT = 64  # throws whose picture is kept: a game's turn card is edited at each decision


async def dice_files(game: Game) -> list[discord.File]:
    """The dice on the table now (none between Qwinto's turns)."""
    dice = game.dice_on_table()
    if not dice:
        return []
    data = await asyncio.to_thread(dice_picture, tuple(dice.items()))
    return [discord.File(io.BytesIO(data), filename="dice.png", description=dice_alt(dice))]


@lru_cache(maxsize=DICE_KEPT)
def dice_picture(throw: tuple[tuple[str, int], ...]) -> bytes:
    """The picture of a throw, drawn once while its card is edited decision by decision
    (an edit sends a card whole, its image with it)."""
    return render_dice(dict(throw))


async def board_file(
    game: Game, names: Mapping[int, str], highlight: Sequence[Any] = ()
) -> discord.File:
    """On Board's track with every pawn (``highlight``: the fields a pawn may move to)."""
    return await png_file(
        render_board,
        game,
        names,
        list(highlight),
        name="board.png",
        description=board_alt(game, names),
    )


async def scoreboard_file(game: Game, names: Mapping[int, str]) -> discord.File:
    """Every player's sheet and score."""
    return await png_file(
        render_scoreboard,
        game,
        names,
        name="scoreboard.png",
        description=scoreboard_alt(game, names),
    )


async def sheet_file(
    game: Game,
    player: int,
    name: str,
    moves: Sequence[Move],
    filename: str = "sheet.png",
    text: str | None = None,
) -> discord.File:
    """``player``'s sheet under ``name`` (``moves``: the options it marks; ``text``: the
    sheet in words when the caller has it already, for the image's description)."""
    return await png_file(
        render_sheet,
        game,
        player,
        name,
        list(moves),
        name=filename,
        description=fit(text) if text is not None else sheet_alt(game, player, name),
    )


async def table_file(
    game: Game, names: Mapping[int, str], latest: Mapping[int, set[tuple[str, int]]]
) -> discord.File:
    """Everyone's sheet at a glance (``latest``: the cells just filled, ringed)."""
    return await png_file(
        render_table, game, names, latest, name="table.png", description=table_alt(game, names)
    )


async def card_file(game: Game, player: int) -> discord.File:
    """``player``'s daily share card: their crosses, without the numbers."""
    marks, title = tally(game, player), t("image.daily_card", title=game.title)
    return await png_file(
        render_card, marks, title, name="daily-card.png", description=card_alt(marks, title)
    )
