"""The ids of the table view's, confirmations', rematch's and share's buttons: read back
as written, forged ones refused."""

from __future__ import annotations

import re
from typing import Any

import discord
import pytest

from bot.cogs.answers import MESSAGE_LIMIT, with_text
from bot.cogs.buttons import (
    AskButton,
    BadComponent,
    MoveButton,
    RematchButton,
    ShareButton,
    share_args_valid,
)
from bot.cogs.registry import DYNAMIC_ITEMS, Unclaimed
from bot.i18n.words import t
from bot.rules import Move

ITEMS = DYNAMIC_ITEMS


def readers(custom_id: str) -> list[type]:
    return [cls for cls in ITEMS if cls.__discord_ui_compiled_template__.fullmatch(custom_id)]


@pytest.mark.parametrize(
    "item",
    [
        MoveButton(5, 2, "action1", Move("cross", "red", 9), step="yes"),
        MoveButton(5, 2, "action1", Move("cross", "red", 9), step="back"),
        AskButton("leave", "yes"),
        AskButton("abandon", "back"),
        RematchButton(5),
        ShareButton("leaderboard", "all.week.rate"),
        ShareButton("stats", "42"),
        ShareButton("history", "0"),
    ],
)
def test_new_buttons_are_read_by_their_own_class(item: Any) -> None:
    assert set(readers(item.custom_id)) == {type(item), Unclaimed}
    assert len(item.custom_id) <= 100


async def test_a_confirming_move_button_keeps_its_move_and_step() -> None:
    written = MoveButton(7, 3, "action2", Move("cross", "green", 4), step="yes")
    match = MoveButton.__discord_ui_compiled_template__.fullmatch(written.custom_id)
    assert match is not None
    read = await MoveButton.from_custom_id(None, written.item, match)  # type: ignore[arg-type]
    assert isinstance(read, MoveButton)
    assert (read.game, read.turn, read.phase, read.move, read.step) == (
        7,
        3,
        "action2",
        Move("cross", "green", 4),
        "yes",
    )
    assert readers("qx:7:3:action2:cross.green.4:maybe") == [Unclaimed]


@pytest.mark.parametrize(
    ("what", "args", "ok"),
    [
        ("leaderboard", "classic.all.wins", True),
        ("leaderboard", "all.month.best", True),
        ("leaderboard", "chess.all.wins", False),
        ("leaderboard", "all.year.wins", False),
        ("leaderboard", "all.all", False),
        ("stats", "123", True),
        ("stats", "1" * 20, False),
        ("history", "x", False),
    ],
)
def test_share_ids_carry_only_known_views(what: str, args: str, ok: bool) -> None:
    assert share_args_valid(what, args) is ok


async def test_a_forged_share_id_becomes_a_refusal() -> None:
    custom_id = "qx:share:leaderboard:chess.all.wins"
    match = ShareButton.__discord_ui_compiled_template__.fullmatch(custom_id)
    assert match is not None
    item = discord.ui.Button[Any](label="Share", custom_id=custom_id)
    read = await ShareButton.from_custom_id(None, item, match)  # type: ignore[arg-type]
    assert isinstance(read, BadComponent)


def test_a_sheet_in_words_is_cut_to_fit_one_message() -> None:
    short = with_text("Turn 3", "Red: 2, 3")
    assert short == "Turn 3\nRed: 2, 3"
    long = with_text("Turn 3", "x" * 3000)
    assert len(long) == MESSAGE_LIMIT and long.endswith("…")


def test_a_busy_channel_suggests_a_thread() -> None:
    assert re.search(r"thread:true", t("error.channel_busy"))
