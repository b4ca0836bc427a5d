"""The images' words in every language: points in the plural the number wants, and the
dice's sum that matters (the white dice in the Qwixx games, the thrown dice in Qwinto)."""

from __future__ import annotations

import pytest

from bot.i18n import LOCALES, using
from bot.render.describe import dice_alt, sheet_alt, sheet_text, table_alt, table_text

from .helpers import classic, qwinto, with_fields, with_state

NAMES = {1: "Ana", 2: "Mehmet"}
ONE_POINT = {
    "en-US": "1 point",
    "de": "1 Punkt",
    "fr": "1 point",
    "pl": "1 punkt",
    "pt-BR": "1 ponto",
    "tr": "1 puan",
}
THREE_POINTS = {
    "en-US": "3 points",
    "de": "3 Punkte",
    "fr": "3 points",
    "pl": "3 punkty",
    "pt-BR": "3 pontos",
    "tr": "3 puan",
}
FIVE_BELOW = {
    "en-US": "−5 points",
    "de": "−5 Punkte",
    "fr": "−5 points",
    "pl": "−5 punktów",
    "pt-BR": "−5 pontos",
    "tr": "−5 puan",
}


def test_every_language_is_checked() -> None:
    assert set(ONE_POINT) == set(LOCALES) == set(THREE_POINTS) == set(FIVE_BELOW)


@pytest.mark.parametrize("locale", LOCALES)
def test_a_rows_points_take_the_numbers_plural(locale: str) -> None:
    game = with_state(classic(), crossed={"red": [2], "yellow": [2, 3]})
    with using(locale):
        lines = sheet_text(game, 1, "Ana").splitlines()
        alt = sheet_alt(game, 1, "Ana").splitlines()
    assert lines[1].endswith(" " + ONE_POINT[locale]), lines[1]  # red: one cross
    assert lines[2].endswith(" " + THREE_POINTS[locale]), lines[2]  # yellow: two
    assert alt[1] == lines[1]


@pytest.mark.parametrize("locale", LOCALES)
def test_a_qwinto_rows_points_take_the_numbers_plural(locale: str) -> None:
    game = with_fields(qwinto(), fields={"orange": {2: 3}})
    with using(locale):
        line = sheet_text(game, 1, "Ana").splitlines()[1]
    assert line.endswith(" " + ONE_POINT[locale]), line


@pytest.mark.parametrize("locale", LOCALES)
def test_the_tables_totals_take_the_numbers_plural(locale: str) -> None:
    game = with_state(classic(2), 1, crossed={"red": [2]})
    game = with_state(game, 2, penalties=1)
    with using(locale):
        lines = table_text(game, NAMES).splitlines()
        alt = table_alt(game, NAMES)
    assert f"Ana{' :' if locale == 'fr' else ':'} {ONE_POINT[locale]} · " in lines[0], lines[0]
    assert f"Mehmet{' :' if locale == 'fr' else ':'} {FIVE_BELOW[locale]} · " in lines[1]
    assert lines[1] in alt


WHITE_DICE = {"white1": 6, "white2": 5, "red": 4, "yellow": 3, "green": 2, "blue": 3}


@pytest.mark.parametrize("locale", LOCALES)
def test_the_dice_say_the_white_dices_sum_in_the_qwixx_games(locale: str) -> None:
    with using(locale):
        text = dice_alt(WHITE_DICE)
    assert text.endswith(" 11)"), text  # 6 + 5
    assert "23" not in text  # all six dice together mean nothing


@pytest.mark.parametrize("locale", LOCALES)
def test_the_dice_say_the_thrown_dices_total_in_qwinto(locale: str) -> None:
    with using(locale):
        text = dice_alt({"orange": 3, "yellow": 4, "purple": 5})
    assert text.endswith(" 12)"), text
