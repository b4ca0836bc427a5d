"""A click that updates its message is answered in one request when the answer is ready
in time, and deferred first otherwise, so that Discord's 3 seconds hold either way."""

from __future__ import annotations

import asyncio
from typing import Any, cast

import discord

from bot.cogs.answers import PrivateAnswers, Reply


class Response:
    """The interaction's response, as discord.py's: done once anything answered."""

    def __init__(self, calls: list[str], deferred: asyncio.Event) -> None:
        self.calls, self.deferred, self.done = calls, deferred, False

    def is_done(self) -> bool:
        return self.done

    async def defer(self) -> None:
        self.calls.append("defer")
        await asyncio.sleep(0)  # a request under way: not done until it returns
        self.done = True
        self.deferred.set()

    async def edit_message(self, **fields: Any) -> None:
        assert not self.done, "a second acknowledgement"
        self.calls.append(f"update {fields['content']}")
        self.done = True

    async def send_message(self, text: str, *, ephemeral: bool = False) -> None:
        assert not self.done, "a second acknowledgement"
        self.calls.append(f"respond {text}")
        self.done = True


class Interaction:
    def __init__(self) -> None:
        self.calls: list[str] = []
        self.deferred = asyncio.Event()
        self.response = Response(self.calls, self.deferred)
        self.followup = self
        self.message: object = None  # the clicked message as discord.py has it: none known

    async def edit_original_response(self, **fields: Any) -> None:
        assert self.response.done, "an edit before the acknowledgement"
        self.calls.append(f"edit {fields['content']}")

    async def send(self, text: str, *, ephemeral: bool = False) -> None:
        assert self.response.done, "a follow-up before the acknowledgement"
        self.calls.append(f"follow up {text}")


def of(interaction: Interaction) -> discord.Interaction:
    return cast(discord.Interaction, interaction)


async def test_an_answer_ready_in_time_is_the_one_request() -> None:
    interaction = Interaction()
    async with Reply(of(interaction), in_time=3600) as reply:
        await reply.edit(content="sheet")
        await reply.edit(content="moved on")  # later edits go through the token
    assert interaction.calls == ["update sheet", "edit moved on"]


async def test_a_slow_answer_is_deferred_first_then_edited_in() -> None:
    interaction = Interaction()
    async with Reply(of(interaction), in_time=0) as reply:
        # the work outlasts the time allowed (the wait is only a guard against a hang)
        await asyncio.wait_for(interaction.deferred.wait(), 30)
        await reply.edit(content="sheet")
    assert interaction.calls == ["defer", "edit sheet"]


async def test_an_answer_while_the_deferral_is_under_way_waits_for_it() -> None:
    interaction = Interaction()
    async with Reply(of(interaction), in_time=0) as reply:
        while not interaction.calls:  # the deferral's request has left, not returned
            await asyncio.sleep(0)
        assert not interaction.response.done
        await reply.edit(content="sheet")
    assert interaction.calls == ["defer", "edit sheet"]


async def test_a_refusal_after_the_block_follows_what_was_sent() -> None:
    """The block is left with an error: a refusal is the response itself if nothing was
    sent, a follow-up once the deferral went out (never a second acknowledgement)."""
    answers = PrivateAnswers()
    for in_time, expected in ((3600, ["respond no"]), (0, ["defer", "follow up no"])):
        interaction = Interaction()
        try:
            async with Reply(of(interaction), in_time=in_time):
                while in_time == 0 and not interaction.calls:
                    await asyncio.sleep(0)
                raise LookupError("refused")
        except LookupError:
            await answers.tell(of(interaction), "no")
        assert interaction.calls == expected
