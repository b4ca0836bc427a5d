"""The adapter tells the channel of a change, and a channel that refuses the bot's
writes becomes the member's polite answer: the change is stored all the same."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any, cast

import pytest

from bot.channel.writer import Refused
from bot.cogs.adapter import Adapter
from bot.service.errors import ServiceError
from bot.service.outcome import Outcome
from tests.cogs.records import game_record


class RefusingPublisher:
    """A publisher whose channel lacks a permission."""

    def opened(self, outcome: Outcome) -> bool:
        return False

    async def publish(self, outcome: Outcome, seen: Collection[int] = ()) -> None:
        raise Refused("Missing Permissions")


class Sheets:
    async def told_ahead(self, outcome: Outcome, seen: Collection[int]) -> None:
        raise AssertionError("not reached once the channel refused")


async def test_a_refused_channel_is_answered_as_cannot_post_now() -> None:
    adapter = Adapter(
        cast(Any, None), cast(Any, RefusingPublisher()), cast(Any, None), cast(Any, Sheets())
    )
    outcome = Outcome(game_record([7, 8], status="running"), None)
    with pytest.raises(ServiceError) as refused:
        await adapter.changed(outcome)
    assert refused.value.key == "error.cannot_post_now"
    assert isinstance(refused.value.__cause__, Refused)
