"""Pruning the logs of old games: what goes, what stays, on both backends."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from bot.render import render_scoreboard
from bot.service.games import GameService
from bot.service.stats import StatsService
from bot.store import Store
from tests.fakes import FakeClock
from tests.service.helpers import play_randomly

from .helpers import query, sqlite_only

GUILD = 7
ANA, BEN, CEM = 11, 22, 33
DAY = 86_400.0
OLD = 1_780_000_000.0  # the old games end here; the recent ones 60 days later


@dataclass
class Server:
    """A server's games on one database, and which of them a prune may touch."""

    store: Store
    service: GameService
    stats: StatsService
    clock: FakeClock
    old: list[int] = field(default_factory=list)  # ended before the date, shown whole
    kept: list[int] = field(default_factory=list)  # everything else


async def finished(server: Server, channel: int, seed: int, shown: bool = True) -> int:
    service = server.service
    lobby = await service.lobby.open(GUILD, channel, ANA, "classic")
    await service.lobby.join(lobby.id, BEN)
    if channel % 2:
        await service.lobby.join(lobby.id, CEM)
    await service.lobby.start(lobby.id, ANA)
    await play_randomly(service, lobby.id, random.Random(seed))
    record = (await service.keeper.read(lobby.id)).record
    assert record.status == "finished"
    if shown:  # as the publisher leaves it once the channel shows the end
        await server.store.games.set_shown(record, None, {})
    await server.stats.backfill()  # rated, as the end's post has it
    return record.id


async def abandoned(server: Server, channel: int) -> int:
    lobby = await server.service.lobby.open(GUILD, channel, ANA, "classic")
    await server.service.lobby.join(lobby.id, BEN)
    await server.service.lobby.start(lobby.id, ANA)
    record = (await server.service.turns.abandon(channel, ANA, can_manage=False)).record
    await server.store.games.set_shown(record, None, {})
    return record.id


@pytest.fixture
async def server(database: str | Path) -> Any:
    clock = FakeClock(OLD)
    seeds = iter(range(1, 1_000))
    store = await Store.open(database, clock=clock)
    here = Server(
        store,
        GameService(store, seeds=lambda: next(seeds), clock=clock),
        StatsService(store, clock=clock),
        clock,
    )
    here.old += [await finished(here, 1, 1), await finished(here, 2, 2), await abandoned(here, 3)]
    here.kept.append(await finished(here, 4, 4, shown=False))  # its channel lags: kept
    clock.now = OLD + 60 * DAY
    here.kept += [await finished(here, 5, 5), await finished(here, 6, 6)]
    running = await here.service.lobby.open(GUILD, 7, ANA, "classic")
    await here.service.lobby.join(running.id, BEN)
    await here.service.lobby.start(running.id, ANA)
    await play_randomly_for(here.service, running.id, 20)
    lobby = await here.service.lobby.open(GUILD, 8, BEN, "classic")
    here.kept += [running.id, lobby.id]
    yield here
    await store.close()


async def play_randomly_for(service: GameService, game_id: int, clicks: int) -> None:
    rng = random.Random(9)
    for _ in range(clicks):
        game = (await service.keeper.read(game_id)).game
        assert game is not None and not game.finished
        player = sorted(game.decision().waiting)[0]
        await service.turns.move(
            game_id, player, game.turn, game.decision().phase, rng.choice(game.legal_moves(player))
        )


def logs(database: str | Path, games: list[int]) -> dict[int, tuple[int, int]]:
    """Moves and events per game, straight from the database."""
    counted = {}
    for game in games:
        moves = query(database, "SELECT COUNT(*) FROM moves WHERE game_id = ?", (game,))
        events = query(database, "SELECT COUNT(*) FROM game_events WHERE game_id = ?", (game,))
        counted[game] = (int(moves[0][0]), int(events[0][0]))
    return counted


async def answers(server: Server) -> tuple[Any, ...]:
    """What the leaderboard, stats and history commands read, and the kept tables."""
    stats, store = server.stats, server.store
    boards = [
        await stats.leaderboard(GUILD, ANA, variant=variant, period=period, sort=sort)
        for variant in (None, "classic")
        for period in ("all", "month", "week")
        for sort in ("wins", "rate", "average", "best")
    ]
    players = [await stats.player(GUILD, p) for p in (ANA, BEN, CEM)]
    history = [await stats.history(GUILD), *[await stats.history(GUILD, p) for p in (ANA, CEM)]]
    games = sorted(server.old + server.kept)
    rows = [await store.games.get(g) for g in games]
    ratings = await store.ratings.of_variant(GUILD, "classic")
    changes = [await store.ratings.changes(g) for g in games]
    return boards, players, history, rows, ratings, changes


async def test_a_dry_run_counts_and_changes_nothing(server: Server, database: str | Path) -> None:
    everything = server.old + server.kept
    before, shown = logs(database, everything), await answers(server)
    report = await server.store.maintenance.prune(OLD + 30 * DAY, dry_run=True)
    assert report.dry_run
    assert (report.games, report.moves, report.events) == (
        len(server.old),
        sum(before[g][0] for g in server.old),
        sum(before[g][1] for g in server.old),
    )
    assert report.moves > 20 and report.events > 20
    assert logs(database, everything) == before
    assert await answers(server) == shown


async def test_a_prune_removes_exactly_the_old_games_logs(
    server: Server, database: str | Path
) -> None:
    everything = server.old + server.kept
    before, shown = logs(database, everything), await answers(server)
    report = await server.store.maintenance.prune(OLD + 30 * DAY, batch=2)  # two transactions
    assert not report.dry_run
    assert (report.games, report.moves, report.events) == (
        len(server.old),
        sum(before[g][0] for g in server.old),
        sum(before[g][1] for g in server.old),
    )
    after = logs(database, everything)
    assert all(after[g] == (0, 0) for g in server.old)
    assert all(after[g] == before[g] for g in server.kept)
    assert await answers(server) == shown  # leaderboards, stats, history, rows, ratings
    again = await server.store.maintenance.prune(OLD + 30 * DAY)  # nothing left to do
    assert (again.games, again.moves, again.events) == (0, 0, 0)
    # The running game plays on.
    running = server.kept[-2]
    await play_randomly(server.service, running, random.Random(3))
    assert (await server.service.keeper.read(running)).record.status == "finished"


async def test_a_pruned_games_final_sheets_still_render(server: Server) -> None:
    await server.store.maintenance.prune(OLD + 30 * DAY)
    for game_id in server.old[:2]:
        final = await server.stats.final_game(GUILD, game_id)
        assert final is not None and final.game.finished
        assert render_scoreboard(final.game, final.names).startswith(b"\x89PNG")
    listed = {line.game_id for line in await server.stats.history(GUILD)}
    assert set(server.old[:2]) <= listed


async def test_a_date_before_every_game_removes_nothing(
    server: Server, database: str | Path
) -> None:
    before = logs(database, server.old + server.kept)
    report = await server.store.maintenance.prune(OLD - DAY)
    assert (report.games, report.moves, report.events) == (0, 0, 0)
    assert logs(database, server.old + server.kept) == before


@sqlite_only
async def test_sqlite_says_how_much_space_it_freed(server: Server) -> None:
    counted = await server.store.maintenance.count_prunable(OLD + 30 * DAY)
    assert counted.free_bytes is not None
    report = await server.store.maintenance.prune(OLD + 30 * DAY)
    assert report.freed_bytes is not None and report.free_bytes is not None
    assert report.freed_bytes > 0 and report.free_bytes >= report.freed_bytes
