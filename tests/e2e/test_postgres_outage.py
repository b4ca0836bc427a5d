"""The real bot on PostgreSQL, against the Discord stand-in, while the database server
restarts mid-game: a click meanwhile is answered "couldn't save" and leaves nothing
behind, the bot connects again by itself, and the game goes on to its end; the timer
loop goes on after a pass the server's absence failed; a click held up past the
statement timeout is answered as not saved, and changes nothing."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass

import psycopg
import pytest

from bot.sandbox import ActionOutcome, Sandbox, SimMember
from bot.sandbox.autoplay import (
    Policy,
    play_round,
    play_to_end,
    seeded_policy,
    turn_message,
    wait_for_turn,
)
from bot.sandbox.records import StoredMessage
from bot.store import GameRecord, MoveRecord, Store, StoreError
from bot.store import postgres as pg
from tests.store.postgres_server import PostgresServer

from .conftest import UNLIMITED, make_bot

NOT_SAVED = "couldn't save"
PATIENCE = 60.0  # seconds before a hang counts as a failure (never a speed check)


async def answering(store: Store) -> float:
    """Wait until the store answers again; the seconds it took."""
    began = time.monotonic()
    while True:
        try:
            await store.games.get(1)
            return time.monotonic() - began
        except StoreError:
            assert time.monotonic() - began < PATIENCE, "the store never answered again"
            await asyncio.sleep(0.01)


async def playing(sb: Sandbox, url: str, rounds: int, tick: float = 0.5) -> Table:
    """The bot on ``url``, and Ana and Ben's classic game ``rounds`` rounds in."""
    await sb.run_bot(make_bot(url, sb, seed=7, tick=tick))
    ana, ben = sb.member("Ana"), sb.member("Ben")
    lobby = (await ana.slash("qwixx", "start", variant="classic")).message
    await ben.click(lobby, label="Join")
    await ana.click(lobby, label="Start")
    table = Table(sb, [ana, ben], seeded_policy(5))
    for _ in range(rounds):
        assert await play_round(sb, table.members, table.policy)
    return table


@dataclass
class Table:
    """A game of the members, played by ``policy``."""

    sb: Sandbox
    members: list[SimMember]
    policy: Policy

    @property
    def store(self) -> Store:
        return self.sb.bot.store  # type: ignore[union-attr, no-any-return]

    async def waited_for(self) -> tuple[StoredMessage, SimMember]:
        """The turn message once its Pass is the current decision's (an edit that only
        moves the buttons on may wait for the publisher's pause), and a member the game
        waits for: a Pass clicked there reaches the write."""
        game = (await self.sb.bot.service.keeper.read(1)).game  # type: ignore[union-attr]
        assert game is not None
        current = f"qx:1:{game.turn}:pass-{game.decision().phase}"

        def passes_now() -> StoredMessage | None:
            turn = turn_message(self.sb)
            ids = [c.get("custom_id") for c in turn.interactive()] if turn else []
            return turn if current in ids else None

        turn = await self.sb.wait_for(passes_now)
        return turn, next(m for m in self.members if m.id in game.decision().waiting)

    async def refused_then_played_on(
        self,
        clicker: SimMember,
        refused: ActionOutcome,
        before: GameRecord | None,
        moves: list[MoveRecord],
    ) -> None:
        """The ``refused`` click was answered that it was not saved, and nothing of it
        is stored (the game as ``before``, the same ``moves``); a click again is saved,
        and the game is played to its end, the stored state its replay."""
        assert refused.failed is None
        assert [m.content for m in refused.ephemeral if NOT_SAVED in m.content]
        store = self.store
        after = await store.games.get(1)
        assert after is not None and before is not None
        assert (after.version, after.state) == (before.version, before.state)
        assert await store.games.moves(1) == moves

        passed = await clicker.click(await wait_for_turn(self.sb), label="Pass")
        assert passed.failed is None
        assert not [m for m in passed.ephemeral if NOT_SAVED in m.content]
        assert len(await store.games.moves(1)) == len(moves) + 1
        final = await play_to_end(self.sb, self.members, self.policy)
        assert "final scores" in final.content
        record = await store.games.get(1)
        assert record is not None and record.status == "finished"
        service = self.sb.bot.service  # type: ignore[union-attr]
        assert (await service.keeper.replay(1)).to_json() == record.state
        assert self.sb.failures == [], self.sb.describe_failures()


async def test_a_game_goes_on_after_postgresql_restarts(postgres: PostgresServer) -> None:
    async with Sandbox(**UNLIMITED, members=["Ana", "Ben"], settle=0.02) as sb:
        table = await playing(sb, postgres.new_database(), rounds=2)
        turn, clicker = await table.waited_for()
        before, moves = await table.store.games.get(1), await table.store.games.moves(1)

        await asyncio.to_thread(postgres.halt, "fast")
        try:
            refused = await clicker.click(turn, label="Pass")
        finally:
            await asyncio.to_thread(postgres.resume)
        took = await answering(table.store)
        await table.refused_then_played_on(clicker, refused, before, moves)
        print(f"the store answered again {took:.2f} s after the server was back")


async def test_the_timers_go_on_after_a_pass_the_database_failed(
    postgres: PostgresServer, caplog: pytest.LogCaptureFixture
) -> None:
    """A timer pass that finds PostgreSQL away fails; the passes after it run again (a
    game stored meanwhile, and never published, is shown by the timer loop's catch-up)."""
    url = postgres.new_database()
    async with Sandbox(**UNLIMITED, members=["Ana"], settle=0.02) as sb:
        await sb.run_bot(make_bot(url, sb, seed=7, tick=0.05))
        service = sb.bot.service  # type: ignore[union-attr]
        await asyncio.to_thread(postgres.halt, "fast")
        try:  # until a timer pass (nothing else asks the store) has found it away
            async with asyncio.timeout(PATIENCE):
                while not [r for r in caplog.records if "a timer pass failed" in r.message]:
                    await asyncio.sleep(0.01)
        finally:
            await asyncio.to_thread(postgres.resume)
        await answering(sb.bot.store)  # type: ignore[union-attr]
        ana = sb.member("Ana").id
        lobby = await service.lobby.open(sb.guild.id, sb.guild.channel_ids[0], ana, "classic")
        await service.lobby.add_computer(lobby.id, ana)
        await service.lobby.start(lobby.id, ana)  # stored, not published: the timers show it
        await sb.wait_for_message(lambda m: bool(m.labels))  # the turn's buttons
        assert sb.failures == [], sb.describe_failures()


async def test_a_click_held_past_the_statement_timeout_is_answered_and_changes_nothing(
    postgres: PostgresServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another process keeps the game's row locked (a stuck transaction): the click's
    transaction waits on it until ``statement_timeout`` cancels it; the member is told
    the click was not saved, nothing of it is stored, and the game goes on."""
    monkeypatch.setitem(pg.LIMITS, "statement_timeout", "300ms")
    url = postgres.new_database()
    async with Sandbox(**UNLIMITED, members=["Ana", "Ben"], settle=0.02) as sb:
        table = await playing(sb, url, rounds=1)
        turn, clicker = await table.waited_for()
        before, moves = await table.store.games.get(1), await table.store.games.moves(1)

        with psycopg.connect(url) as stuck:  # a transaction that holds the game's row
            stuck.execute("SELECT id FROM games WHERE id = 1 FOR UPDATE")
            refused = await clicker.click(turn, label="Pass")
            stuck.rollback()
        await table.refused_then_played_on(clicker, refused, before, moves)
