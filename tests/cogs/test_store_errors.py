"""A click the store could not save is answered, and says what the member may do."""

from __future__ import annotations

from typing import Any

import pytest

from bot.cogs.answers import answers_errors
from bot.i18n import LOCALES, using
from bot.i18n.words import t
from bot.records.errors import CommitUnknown, StoreError


class Answering:
    """What :func:`answers_errors` needs of a group of handlers."""

    def __init__(self) -> None:
        self.told: list[str] = []

    async def language(self, guild_id: int) -> str:
        return "en-US"

    async def tell(self, interaction: Any, text: str) -> None:
        self.told.append(text)


class Interaction:
    id, guild_id = 7, 1

    def __init__(self, locale: str) -> None:
        self.locale = locale


def failing(error: Exception) -> Any:
    @answers_errors
    async def handler(self: Answering, interaction: Any) -> None:
        raise error

    return handler


@pytest.mark.parametrize("locale", LOCALES)
async def test_an_unknown_commit_says_the_move_may_have_counted(locale: str) -> None:
    table = Answering()
    await failing(CommitUnknown("lost"))(table, Interaction(locale))
    await failing(StoreError("disk full"))(table, Interaction(locale))
    with using(locale):
        assert table.told == [t("error.store_unknown"), t("error.store")]
    assert table.told[0] != table.told[1]
