"""Reliability: every interaction gets an answer, a disk that cannot be written loses
nothing, every variant survives Discord's faults, and a bot killed at random points
loses no acknowledged move (the small version of ``benchmarks/torture.py``)."""

from __future__ import annotations

import logging
import random
import sqlite3
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from bot.sandbox import Sandbox
from bot.sandbox.autoplay import (
    OPEN_SHEET,
    final_message,
    play_round,
    seeded_policy,
    wait_for_turn,
)
from bot.sandbox.commands import command_data
from bot.sandbox.driver import COMMAND, COMPONENT, ActionOutcome, SimMember
from bot.sandbox.faults import Fault
from bot.sandbox.records import StoredMessage
from bot.store import Store
from bot.store.sqlite import SqliteEngine

from .conftest import UNLIMITED, make_bot

REFUSED = "not one this bot can read"
BAD_COMMAND = "not one I can read"
NOT_SAVED = "couldn't save"


async def started(sb: Sandbox, variant: str = "classic") -> tuple[StoredMessage, StoredMessage]:
    """The (now closed) lobby and the first turn message of a two-player game."""
    ana, ben = sb.member("Ana"), sb.member("Ben")
    lobby = (await ana.slash("qwixx", "start", variant=variant)).message
    await ben.click(lobby, label="Join")
    await ana.click(lobby, label="Start")
    return lobby, await wait_for_turn(sb)


def store_of(sb: Sandbox) -> Store:
    return sb.bot.store  # type: ignore[union-attr]


async def click_raw(member: SimMember, message: StoredMessage, custom_id: str) -> ActionOutcome:
    """A click on ``message`` with a button it does not carry (a tampered client)."""
    data = {"custom_id": custom_id, "component_type": 2}
    return await member._act(
        COMPONENT, member.server.world.channels[message.channel_id], data, message
    )


async def slash_raw(
    member: SimMember, change: Callable[[dict[str, Any]], None], *path: str, **options: Any
) -> ActionOutcome:
    """``/path options`` as a tampered client could send it: ``change`` edits the data."""
    data = command_data(member.server.world, member.record, path, options)
    change(data)
    return await member._act(COMMAND, member.channel, data, None)


# --- an answer for everything ---------------------------------------------------------


async def test_a_component_that_is_not_on_the_clicked_message_is_answered(
    sb: Sandbox, caplog: pytest.LogCaptureFixture
) -> None:
    lobby, turn = await started(sb)
    join = f"qx:{turn.find_component(label=OPEN_SHEET)['custom_id'].split(':')[1]}:lobby:join"
    started_lobby = sb.server.world.messages[lobby.id]
    assert started_lobby.layout and not list(started_lobby.interactive())  # a card, no buttons
    with caplog.at_level(logging.WARNING):
        stale = await click_raw(sb.member("Cem"), sb.server.world.messages[lobby.id], join)
        foreign = await click_raw(sb.member("Ben"), turn, "qx:1:1:action1:cross.red.5")
    for clicked in (stale, foreign):
        assert clicked.failed is None
        assert len(clicked.ephemeral) == 1 and REFUSED in clicked.ephemeral[0].content
    assert len(await store_of(sb).games.moves(1)) == 0
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]


def set_option(value: object) -> Callable[[dict[str, Any]], None]:
    def change(data: dict[str, Any]) -> None:
        data["options"][0]["options"][0]["value"] = value

    return change


@pytest.mark.parametrize("value", ["chess", "x" * 6000, ""])
async def test_an_option_outside_its_choices_gets_a_polite_answer(
    sb: Sandbox, value: str, caplog: pytest.LogCaptureFixture
) -> None:
    ana = sb.member("Ana")
    with caplog.at_level(logging.WARNING):
        answer = await slash_raw(ana, set_option(value), "qwixx", "start", variant="classic")
    assert answer.failed is None
    assert len(answer.ephemeral) == 1 and BAD_COMMAND in answer.ephemeral[0].content
    assert len(answer.ephemeral[0].content) < 300  # the input is not quoted whole
    assert await store_of(sb).games.in_channel(sb.channel.id) is None
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]


@pytest.mark.parametrize("value", ["", "ana", None])
async def test_a_member_option_that_is_no_id_gets_a_polite_answer(
    sb: Sandbox, value: object, caplog: pytest.LogCaptureFixture
) -> None:
    """discord.py reads a member option's id before the command runs, and raises a plain
    ValueError or TypeError where the id is none: answered like any unreadable command."""
    ana, ben = sb.member("Ana"), sb.member("Ben")

    def garble(data: dict[str, Any]) -> None:
        data["options"][0]["options"][0]["value"] = value
        data.pop("resolved", None)

    with caplog.at_level(logging.WARNING):
        answer = await slash_raw(ana, garble, "qwixx", "stats", user=ben.record)
    assert answer.failed is None
    assert len(answer.ephemeral) == 1 and BAD_COMMAND in answer.ephemeral[0].content
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]


async def test_an_unknown_command_gets_a_polite_answer(sb: Sandbox) -> None:
    def rename(data: dict[str, Any]) -> None:
        data["options"][0]["name"] = "teleport"

    answer = await slash_raw(sb.member("Ana"), rename, "qwixx", "status")
    assert answer.failed is None and BAD_COMMAND in answer.ephemeral[0].content


async def test_an_unexpected_error_in_a_command_gets_a_polite_answer(
    sb: Sandbox, caplog: pytest.LogCaptureFixture
) -> None:
    rules = sb.bot.tree.get_command("qwixx").get_command("rules")  # type: ignore[union-attr]

    async def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("surprise")

    rules._callback = broken  # type: ignore[union-attr]
    with caplog.at_level(logging.ERROR, logger="bot"):
        answer = await sb.member("Ana").slash("qwixx", "rules")
    assert answer.failed is None and "went wrong on our side" in answer.ephemeral[0].content
    assert any("surprise" in str(r.exc_info) for r in caplog.records)  # logged for operators


# --- a disk that cannot be written -----------------------------------------------------


async def read_only(store: Store) -> Callable[[], Awaitable[None]]:
    assert isinstance(store.engine, SqliteEngine)
    db = store.engine._writer()  # the connection every write goes through
    await db.execute("PRAGMA query_only = ON")

    async def undo() -> None:
        await db.execute("PRAGMA query_only = OFF")

    return undo


async def disk_full(store: Store) -> Callable[[], Awaitable[None]]:
    """Every move fails half-way: after the game row and the move, before its events."""
    import bot.store.changes as module

    append = module.append_events

    async def failing(*args: Any) -> None:
        raise sqlite3.OperationalError("database or disk is full")

    module.append_events = failing  # type: ignore[assignment]

    async def undo() -> None:
        module.append_events = append

    return undo


@pytest.mark.parametrize("fault", [read_only, disk_full])
async def test_a_click_that_cannot_be_saved_is_refused_and_nothing_is_half_written(
    sb: Sandbox, fault: Callable[[Store], Awaitable[Callable[[], Awaitable[None]]]]
) -> None:
    _, turn = await started(sb)
    store, ben = store_of(sb), sb.member("Ben")
    before = await store.games.get(1)
    undo = await fault(store)
    try:
        refused = await ben.click(turn, label="Pass")
    finally:
        await undo()
    assert refused.failed is None
    assert [m.content for m in refused.ephemeral if NOT_SAVED in m.content]
    after = await store.games.get(1)
    assert after is not None and before is not None
    assert (after.version, after.state) == (before.version, before.state)
    assert await store.games.moves(1) == []
    passed = await ben.click(turn, label="Pass")  # the bot runs on, the disk is back
    assert passed.failed is None and not [m for m in passed.ephemeral if NOT_SAVED in m.content]
    assert len(await store.games.moves(1)) == 1
    service = sb.bot.service  # type: ignore[union-attr]
    assert (await service.keeper.replay(1)).to_json() == (await store.games.get(1)).state  # type: ignore[union-attr]


# --- Discord's faults ------------------------------------------------------------------


class RandomFaults:
    """About ``rate`` of REST calls answer 429 (with Discord's Via header) or 500.

    Interaction callbacks are spared: a failed callback is a failed interaction on
    Discord's side too, which no bot can mend.
    """

    def __init__(self, sb: Sandbox, seed: int, rate: float) -> None:
        self.rng = random.Random(seed)
        self.rate = rate
        self.injected: list[int] = []
        self._queued = sb.server.rest.faults.take
        sb.server.rest.faults.take = self.take  # type: ignore[method-assign]

    def take(self, method: str, template: str, path: str) -> Fault | None:
        queued = self._queued(method, template, path)
        if queued or template.endswith("/callback") or self.rng.random() >= self.rate:
            return queued
        self.injected.append(self.rng.choice((429, 429, 429, 500)))  # a 500 costs 1 s
        return Fault(self.injected[-1], method, template, 0, retry_after=0.05)


async def nothing_lost(sb: Sandbox, game_id: int) -> None:
    """The stored game is its replay, finished, and the channel shows its last version."""
    bot = sb.bot
    assert bot is not None
    record = await store_of(sb).games.get(game_id)
    assert record is not None and record.status == "finished"
    assert (await bot.service.keeper.replay(game_id)).to_json() == record.state  # type: ignore[attr-defined]
    await bot.publisher.drain()  # type: ignore[attr-defined]
    await bot.publisher.catch_up()  # type: ignore[attr-defined]
    assert await store_of(sb).games.lagging() == []


@pytest.mark.parametrize("variant", ["classic", "longo", "onboard", "qwinto"])
async def test_a_whole_game_survives_failing_calls_and_gateway_drops(
    database: Path, variant: str
) -> None:
    async with Sandbox(**UNLIMITED, members=["Ana", "Ben"], settle=0.02) as sb:
        await sb.run_bot(make_bot(database, sb, seed=7, tick=0.5))
        members = [sb.member("Ana"), sb.member("Ben")]
        faults = RandomFaults(sb, seed=len(variant), rate=0.1)
        await started(sb, variant)
        policy, drops = seeded_policy(3), 0
        for rounds in range(1, 400):
            if not await play_round(sb, members, policy):
                break
            if rounds % 5 == 0:  # the gateway drops now and then; the bot resumes
                drops += 1
                await sb.server.gateway.drop()
                await sb.reconnected(resumes=drops)
        assert final_message(sb) is not None, sb.describe_failures()
        assert {429, 500} <= set(faults.injected) and drops > 0
        # The review's accuracies come in the final message's last edit, worked out after
        # the game: on a busy machine, after the channel has otherwise caught up.
        await sb.wait_for(lambda: "🎯" in getattr(final_message(sb), "content", ""))
        await nothing_lost(sb, 1)
        assert sb.failures == [], sb.describe_failures()


# --- kills -----------------------------------------------------------------------------


async def test_a_bot_killed_at_random_points_loses_no_acknowledged_move(tmp_path: Path) -> None:
    """The small version of ``python -m benchmarks.torture``: a few SIGKILLs (in the
    migrations, at start-up, then at random points), restarts on the same database."""
    from benchmarks.torture import run

    figures = await run(kills=4, games=1, seed=3, folder=tmp_path)
    assert sum(figures.kills.values()) == 4 and figures.kills["migrate"] == 1
    assert figures.acknowledged and figures.finished >= 1
    assert figures.lost == 0 and figures.twice == 0
    assert figures.other_failures == []
