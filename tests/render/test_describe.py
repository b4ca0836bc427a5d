"""The images in words: text versions of sheets and the table, and alt text."""

from __future__ import annotations

import ast
import inspect

import discord
import pytest

from bot.i18n import LOCALES, using
from bot.render import describe
from bot.render.describe import (
    ALT_TEXT,
    board_alt,
    dice_alt,
    fit,
    leaderboard_alt,
    row_word,
    scoreboard_alt,
    sheet_alt,
    sheet_text,
    table_alt,
    table_text,
)
from bot.render.leaderboard import BoardRow, BoardTable
from bot.rules import new_game
from tests.positions import reposition

from .helpers import classic, longo, qwinto, with_fields, with_state

NAMES = {1: "Ana", 2: "Mehmet", 3: "Zofia"}


def test_the_module_stays_pure() -> None:
    tree = ast.parse(inspect.getsource(describe))
    imported = {
        alias.name.split(".")[0]
        for node in ast.walk(tree)
        if isinstance(node, ast.Import | ast.ImportFrom)
        for alias in (
            [*node.names] if isinstance(node, ast.Import) else [ast.alias(node.module or "")]
        )
    }
    assert "discord" not in imported and "PIL" not in imported


def test_rows_are_named_in_words() -> None:
    assert [row_word(r) for r in ("red", "yellow", "green", "blue", "orange", "purple")] == [
        "Red",
        "Yellow",
        "Green",
        "Blue",
        "Orange",
        "Purple",
    ]


def test_a_classic_sheet_in_words() -> None:
    game = with_state(
        classic(),
        crossed={"red": [2, 3, 5], "blue": [12, 11, 10, 9, 8, 2]},
        closed=("blue",),
        penalties=2,
    )
    lines = sheet_text(game, 1, "Ana").splitlines()
    assert lines == [
        "Ana's sheet, Qwixx:",
        "Red: 2, 3, 5 · 6 points",
        "Yellow: nothing crossed · 0 points",
        "Green: nothing crossed · 0 points",
        "Blue: 12, 11, 10, 9, 8, 2 · lock crossed · row closed · 28 points",
        "Penalties: 2 of 4 (−10)",
        f"Total: {game.scores()[1].total}",
    ]
    assert game.scores()[1].total == 24


def test_a_longo_sheet_names_the_lucky_numbers() -> None:
    game = longo(lucky={1: (6, 11)})
    assert "Lucky numbers: 6 and 11" in sheet_text(game, 1, "Ana").splitlines()


def test_an_onboard_sheet_names_the_pawn() -> None:
    game = new_game("onboard", [1, 2], 1)
    assert "Pawn on the start field" in sheet_text(game, 1, "Ana")
    game = reposition(game, pawns={1: 3})
    field = game.board.fields[2]  # type: ignore[attr-defined]
    assert f"Pawn on field 3 ({row_word(field.colour)} {field.number})" in sheet_text(
        game, 1, "Ana"
    )


def test_a_qwinto_sheet_in_words() -> None:
    game = with_fields(qwinto(), fields={"orange": {2: 3, 4: 9}}, failed=1)
    lines = sheet_text(game, 1, "Ana").splitlines()
    assert lines[1] == "Orange: 3 – 9 – – – – – – · 2 of 9 fields · 2 points"
    assert lines[2].startswith("Yellow: – – – – – – – – – · 0 of 9 fields")
    assert "Failed throws: 1 of 4 (−5)" in lines
    assert lines[-1] == f"Total: {game.scores()[1].total}".replace("-", "−")


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("variant", ["classic", "longo", "onboard", "qwinto"])
def test_a_sheet_in_words_reads_the_same_through_discords_markdown(
    variant: str, locale: str
) -> None:
    """The sheet in words stands in a message's text, where Discord reads markdown: none
    of its own characters may turn into formatting (``_ _`` would be empty italics)."""
    game = new_game(variant, [1, 2], 5)
    for _ in range(12):
        player = sorted(game.decision().waiting)[0]
        game, _events = game.apply(player, game.legal_moves(player)[-1])
    with using(locale):
        text = sheet_text(game, 1, "Ana")
    assert discord.utils.escape_markdown(text) == text


def test_the_table_in_words_marks_the_active_player() -> None:
    game = with_state(classic(3), 2, crossed={"green": [12, 11]}, penalties=1)
    lines = table_text(game, NAMES).splitlines()
    assert len(lines) == 3
    assert lines[0].startswith("▶ Ana: 0 points")
    assert lines[1] == (
        "Mehmet: −2 points · penalties 1 · locks none · crosses Red 0, Yellow 0, Green 2, Blue 0"
    )
    qwinto_lines = table_text(qwinto(2), NAMES).splitlines()
    assert qwinto_lines[1] == (
        "Mehmet: 0 points · failed throws 0 · numbers Orange 0, Yellow 0, Purple 0"
    )


def test_alt_texts_say_what_each_image_shows() -> None:
    game = classic(3)
    assert table_alt(game, NAMES).startswith("Qwixx table, turn 1, Ana to play:")
    assert sheet_alt(game, 2, "Mehmet").startswith("Mehmet's sheet, Qwixx:")
    dice = {"white1": 3, "white2": 5, "red": 2}
    assert dice_alt(dice) == "Dice: White 3, White 5, Red 2 (white dice together 8)"
    board = new_game("onboard", [1, 2], 1)
    assert board_alt(board, NAMES).splitlines()[1] == "Ana: Pawn on the start field"
    ended = with_state(game, 2, crossed={"red": [2, 3]})
    lines = scoreboard_alt(ended, NAMES).splitlines()
    assert lines[0] == "Qwixx, final scores:"
    assert lines[1] == ("1. Mehmet 3 (Red 3, Yellow 0, Green 0, Blue 0, bonus 0, penalties 0)")


def test_the_leaderboard_alt_text_reads_the_image_table() -> None:
    table = BoardTable(
        "All games — this month",
        "ranked by wins",
        "#",
        "player",
        ("Games", "Wins"),
        (BoardRow("1", "Ana", ("4", "3")),),
        "rule",
    )
    assert leaderboard_alt(table) == (
        "All games — this month (ranked by wins)\n1. Ana: Games 4, Wins 3\nrule"
    )


def test_alt_text_stays_within_discords_limit() -> None:
    names = {p: "A very long display name " * 4 for p in range(1, 6)}
    game = classic(5)
    for text in (
        table_alt(game, names),
        scoreboard_alt(game, names),
        sheet_alt(game, 1, names[1] * 20),
    ):
        assert len(text) <= ALT_TEXT
    assert fit("x" * 2000).endswith("…") and len(fit("x" * 2000)) == ALT_TEXT
    assert fit("short") == "short"
