"""Results recorded with a game's end, and the statistics reads (store level)."""

from __future__ import annotations

import sqlite3
from dataclasses import replace
from pathlib import Path

import pytest

from bot.records.errors import StoreError, VersionConflict
from bot.records.games import GameRecord, GameResults, PlayerResult
from bot.records.stats import Totals
from bot.store import Store
from bot.store.engine import Tx
from tests.fakes import FakeClock

from .helpers import CHANNEL, GUILD, make_lobby, play, query, sqlite_only

ANA, BEN, CEM, DAN = 11, 22, 33, 44
OTHER_GUILD = 999
DAY = 86_400.0


def lines(scores: dict[int, int]) -> tuple[PlayerResult, ...]:
    """Result lines with competition ranks (1, 2, 2, 4) in seat order."""
    totals = list(scores.values())
    return tuple(
        PlayerResult(
            player,
            seat,
            score,
            1 + sum(1 for s in totals if s > score),
            all(s <= score for s in totals),
        )
        for seat, (player, score) in enumerate(scores.items())
    )


async def running(
    store: Store,
    players: list[int],
    *,
    guild: int = GUILD,
    channel: int = CHANNEL,
    variant: str = "classic",
) -> GameRecord:
    lobby = await make_lobby(store, channel, guild_id=guild, host_id=players[0], variant=variant)
    lobby = await store.games.set_players(lobby.id, lobby.version, players)
    return await store.games.start(lobby.id, lobby.version, {"turn": 1})


async def finish(
    store: Store,
    scores: dict[int, int],
    *,
    guild: int = GUILD,
    channel: int = CHANNEL,
    variant: str = "classic",
    counted: bool = True,
    turns: int = 9,
) -> GameRecord:
    game = await running(store, list(scores), guild=guild, channel=channel, variant=variant)
    results = GameResults(turns, lines(scores), counted)
    return await play(
        store,
        game,
        next(iter(scores)),
        {"kind": "pass"},
        {"turn": turns, "over": True},
        "finished",
        results=results,
    )


def by_player(totals: list[Totals]) -> dict[int, tuple[int, int, int, int]]:
    return {t.player_id: (t.games, t.wins, t.score_sum, t.best) for t in totals}


def table(database: str | Path, sql: str) -> list[tuple]:
    return query(database, sql)


async def test_results_are_written_with_the_games_end(
    store: Store, database: str | Path, clock: FakeClock
) -> None:
    started = clock.now  # the lobby opens
    game = await running(store, [ANA, BEN, CEM])
    clock.tick(600)
    results = GameResults(14, lines({ANA: 40, BEN: 55, CEM: 40}))
    record = await play(store, game, ANA, {"kind": "pass"}, {}, "finished", results=results)
    assert record.status == "finished" and record.finished_at == clock.now
    assert table(
        database,
        "SELECT game_id, guild_id, channel_id, variant, started_at, "
        "finished_at, turns, players, counted FROM matches",
    ) == [(record.id, GUILD, CHANNEL, "classic", started, clock.now, 14, 3, 1)]
    rows = table(
        database, "SELECT player_id, seat, score, rank, won, finished_at FROM results ORDER BY seat"
    )
    assert rows == [
        (ANA, 0, 40, 2, 0, clock.now),
        (BEN, 1, 55, 1, 1, clock.now),
        (CEM, 2, 40, 2, 0, clock.now),
    ]


async def test_a_refused_end_writes_no_results(store: Store, database: str | Path) -> None:
    game = await running(store, [ANA, BEN])
    results = GameResults(5, lines({ANA: 10, BEN: 20}))
    with pytest.raises(VersionConflict):
        await play(
            store, replace(game, version=game.version + 1), ANA, {}, {}, "finished", results=results
        )
    with pytest.raises(ValueError):
        await play(store, game, ANA, {}, {}, "running", results=results)
    with pytest.raises(ValueError):  # results of other players: the whole end is rolled back
        await play(
            store,
            game,
            ANA,
            {},
            {},
            "finished",
            results=GameResults(5, lines({ANA: 10, CEM: 20})),
        )
    assert (await store.games.get(game.id)).status == "running"  # type: ignore[union-attr]
    assert table(database, "SELECT COUNT(*) FROM matches") == [(0,)]
    assert table(database, "SELECT COUNT(*) FROM results") == [(0,)]
    assert table(database, "SELECT COUNT(*) FROM moves") == [(0,)]


async def test_a_failing_insert_rolls_back_the_end(store: Store, database: str | Path) -> None:
    game = await running(store, [ANA, BEN])
    broken = GameResults(-1, lines({ANA: 10, BEN: 20}))  # violates CHECK (turns >= 0)
    with pytest.raises(StoreError):
        await play(store, game, ANA, {}, {}, "finished", results=broken)
    assert (await store.games.get(game.id)).status == "running"  # type: ignore[union-attr]
    assert table(database, "SELECT COUNT(*) FROM moves") == [(0,)]


async def test_all_time_totals(store: Store) -> None:
    await finish(store, {ANA: 50, BEN: 30})
    await finish(store, {ANA: 20, BEN: 20, CEM: 70}, variant="longo")
    await finish(store, {BEN: 60, ANA: 60})
    totals = by_player(await store.stats.leaderboard(GUILD))
    assert totals == {ANA: (3, 2, 130, 60), BEN: (3, 1, 110, 60), CEM: (1, 1, 70, 70)}
    longo = by_player(await store.stats.leaderboard(GUILD, variant="longo"))
    assert longo == {ANA: (1, 0, 20, 20), BEN: (1, 0, 20, 20), CEM: (1, 1, 70, 70)}
    assert by_player(await store.stats.leaderboard(GUILD, since=0.0)) == totals
    assert by_player(await store.stats.leaderboard(GUILD, variant="longo", since=0.0)) == longo


async def test_periods_use_the_lower_bound(store: Store, clock: FakeClock) -> None:
    await finish(store, {ANA: 10, BEN: 5})
    clock.tick(10 * DAY)
    since = clock.now
    await finish(store, {ANA: 1, BEN: 50})
    clock.tick(DAY)
    await finish(store, {ANA: 3, BEN: 4}, variant="longo")
    assert by_player(await store.stats.leaderboard(GUILD, since=since)) == {
        ANA: (2, 0, 4, 3),
        BEN: (2, 2, 54, 50),
    }
    assert by_player(await store.stats.leaderboard(GUILD, since=since + 1)) == {
        ANA: (1, 0, 3, 3),
        BEN: (1, 1, 4, 4),
    }
    assert by_player(await store.stats.leaderboard(GUILD, since=since, variant="classic")) == {
        ANA: (1, 0, 1, 1),
        BEN: (1, 1, 50, 50),
    }
    assert await store.stats.leaderboard(GUILD, since=clock.now + 1) == []


async def test_uncounted_games_stay_in_history_only(store: Store) -> None:
    counted = await finish(store, {ANA: 10, BEN: 5})
    uncounted = await finish(store, {ANA: 99, BEN: 0}, counted=False)
    assert by_player(await store.stats.leaderboard(GUILD)) == {
        ANA: (1, 1, 10, 10),
        BEN: (1, 0, 5, 5),
    }
    assert by_player(await store.stats.leaderboard(GUILD, since=0.0)) == {
        ANA: (1, 1, 10, 10),
        BEN: (1, 0, 5, 5),
    }
    assert [r.score for r in await store.stats.recent_scores(GUILD, ANA)] == [10]
    history = await store.stats.history(GUILD)
    assert [(g.game_id, g.counted) for g in history] == [(uncounted.id, False), (counted.id, True)]


async def test_abandoned_games_are_not_recorded(store: Store) -> None:
    game = await running(store, [ANA, BEN])
    await store.games.abandon(game.id, game.version)
    await finish(store, {ANA: 10, BEN: 5})
    assert by_player(await store.stats.leaderboard(GUILD)) == {
        ANA: (1, 1, 10, 10),
        BEN: (1, 0, 5, 5),
    }
    assert [g.game_id for g in await store.stats.history(GUILD)] != [game.id]
    assert len(await store.stats.history(GUILD)) == 1


async def test_guilds_never_see_each_other(store: Store) -> None:
    ours = await finish(store, {ANA: 10, BEN: 5})
    theirs = await finish(store, {ANA: 70, CEM: 80}, guild=OTHER_GUILD, channel=CHANNEL + 1)
    assert by_player(await store.stats.leaderboard(GUILD)) == {
        ANA: (1, 1, 10, 10),
        BEN: (1, 0, 5, 5),
    }
    assert by_player(await store.stats.leaderboard(OTHER_GUILD, since=0.0)) == {
        ANA: (1, 0, 70, 70),
        CEM: (1, 1, 80, 80),
    }
    assert set(await store.stats.player_totals(GUILD, ANA)) == {"classic"}
    assert (await store.stats.player_totals(GUILD, ANA))["classic"].best == 10
    assert [r.score for r in await store.stats.recent_scores(OTHER_GUILD, ANA)] == [70]
    assert [g.game_id for g in await store.stats.history(GUILD)] == [ours.id]
    assert [g.game_id for g in await store.stats.history(GUILD, player_id=ANA)] == [ours.id]
    assert [g.game_id for g in await store.stats.history(OTHER_GUILD, player_id=ANA)] == [theirs.id]
    assert await store.stats.history(OTHER_GUILD, player_id=BEN) == []


async def test_recent_scores_per_variant(store: Store, clock: FakeClock) -> None:
    for k in range(7):
        clock.tick()
        await finish(store, {ANA: k, BEN: 100}, variant="classic" if k % 2 else "longo")
    recent = await store.stats.recent_scores(GUILD, ANA, per_variant=2)
    assert [(r.variant, r.score) for r in recent] == [
        ("longo", 6),
        ("classic", 5),
        ("longo", 4),
        ("classic", 3),
    ]
    totals = await store.stats.player_totals(GUILD, ANA)
    assert {v: (t.games, t.wins, t.best) for v, t in totals.items()} == {
        "classic": (3, 0, 5),
        "longo": (4, 0, 6),
    }


async def test_history_newest_first_with_ranked_lines(store: Store, clock: FakeClock) -> None:
    games = []
    for k in range(12):
        clock.tick(60)
        games.append(await finish(store, {ANA: k, BEN: 5, CEM: 5}, turns=k + 1))
    history = await store.stats.history(GUILD, limit=10)
    assert [g.game_id for g in history] == [g.id for g in reversed(games)][:10]
    newest = history[0]
    assert newest.turns == 12 and newest.variant == "classic" and newest.channel_id == CHANNEL
    assert [(line.player_id, line.score, line.rank, line.won) for line in newest.lines] == [
        (ANA, 11, 1, True),
        (BEN, 5, 2, False),
        (CEM, 5, 2, False),
    ]
    oldest_shown = history[-1]
    assert [(line.player_id, line.rank) for line in oldest_shown.lines] == [
        (BEN, 1),
        (CEM, 1),
        (ANA, 3),
    ]
    assert [g.game_id for g in await store.stats.history(GUILD, player_id=DAN)] == []


async def test_history_names_the_tournament_and_round_of_a_table(store: Store) -> None:
    casual = await finish(store, {ANA: 10, BEN: 5})
    table = await finish(store, {ANA: 30, BEN: 20}, channel=CHANNEL + 1)

    async def seated(tx: Tx) -> None:
        await tx.execute(
            "INSERT INTO tournaments (id, guild_id, channel_id, host_id, name, settings, seed, "
            "status, created_at, updated_at) VALUES (4, ?, ?, ?, 'Spring Cup', '{}', 1, "
            "'running', 1, 1)",
            (GUILD, CHANNEL, ANA),
        )
        await tx.execute(
            "INSERT INTO tournament_tables (tournament_id, guild_id, round, number, players, "
            "game_id) VALUES (4, ?, 2, 1, '[]', ?)",
            (GUILD, table.id),
        )

    await store.engine.transact(seated)
    marks = {g.game_id: (g.tournament, g.round) for g in await store.stats.history(GUILD)}
    assert marks == {table.id: ("Spring Cup", 2), casual.id: (None, None)}
    lines = [g.lines for g in await store.stats.history(GUILD, player_id=BEN)]
    assert [len(found) for found in lines] == [2, 2]  # the joins add no line


async def test_rebuilding_totals_gives_the_same_figures(store: Store) -> None:
    await finish(store, {ANA: 50, BEN: 30})
    await finish(store, {ANA: 20, BEN: 20, CEM: 70}, variant="longo")
    await finish(store, {ANA: 1, BEN: 2}, counted=False)
    before = by_player(await store.stats.leaderboard(GUILD))
    await store.stats.rebuild_totals()
    assert by_player(await store.stats.leaderboard(GUILD)) == before


@pytest.mark.parametrize(
    ("sql", "index"),
    [
        (
            "SELECT player_id, COUNT(*), SUM(won), SUM(score), MAX(score) FROM results "
            "WHERE guild_id = ? AND finished_at >= ? AND counted = 1 GROUP BY player_id",
            "results_period",
        ),
        (
            "SELECT player_id, COUNT(*), SUM(won), SUM(score), MAX(score) FROM results "
            "WHERE guild_id = ? AND finished_at >= ? AND counted = 1 AND variant = ? "
            "GROUP BY player_id",
            "results_period",
        ),
        (
            "SELECT game_id FROM results WHERE guild_id = ? AND player_id = ? "
            "ORDER BY finished_at DESC, game_id DESC LIMIT ?",
            "results_player",
        ),
        (
            "SELECT game_id FROM matches WHERE guild_id = ? "
            "ORDER BY finished_at DESC, game_id DESC LIMIT ?",
            "matches_guild_time",
        ),
        (
            "SELECT player_id, SUM(games) FROM player_totals WHERE guild_id = ? GROUP BY player_id",
            "sqlite_autoindex_player_totals_1",
        ),
    ],
)
@sqlite_only
async def test_queries_use_their_indexes(store: Store, db_path: Path, sql: str, index: str) -> None:
    with sqlite3.connect(db_path) as conn:
        plan = " ".join(
            str(r[3]) for r in conn.execute(f"EXPLAIN QUERY PLAN {sql}", [1] * sql.count("?"))
        )
    assert index in plan and "SCAN" not in plan.replace("SCAN (", ""), plan


# -- reviews (schema version 12) -------------------------------------------------------


async def test_a_review_is_kept_once_and_read_back(store: Store) -> None:
    record = await finish(store, {ANA: 30, BEN: 10})
    assert await store.reviews.of(record.id) is None
    assert [g.id for g in await store.reviews.unreviewed()] == [record.id]
    assert await store.reviews.add(record, [(ANA, 0.8, 12), (BEN, 0.5, 9)], False, 5.0)
    assert not await store.reviews.add(record, [(ANA, 0.1, 12)], False, 6.0)  # once
    assert await store.reviews.of(record.id) == {ANA: 0.8, BEN: 0.5}
    assert await store.reviews.unreviewed() == []
    nobody = await finish(store, {CEM: 3}, channel=CHANNEL + 1)
    assert await store.reviews.add(nobody, [], False, 7.0)  # reviewed, nothing to rate
    assert await store.reviews.of(nobody.id) == {}


async def test_unreviewed_games_come_newest_first_and_page_by_id(store: Store) -> None:
    ids = [(await finish(store, {ANA: k}, channel=CHANNEL + k)).id for k in range(4)]
    assert [g.id for g in await store.reviews.unreviewed(2)] == ids[:1:-1]
    assert [g.id for g in await store.reviews.unreviewed(2, before=ids[2])] == ids[1::-1]
    await running(store, [BEN], channel=CHANNEL + 9)  # not finished: never listed
    assert len(await store.reviews.unreviewed()) == 4


async def test_average_accuracy_per_variant_leaves_out_hints_and_other_servers(
    store: Store, clock: FakeClock
) -> None:
    for k, (variant, accuracy, hints) in enumerate(
        [
            ("classic", 0.9, False),
            ("classic", 0.7, False),
            ("classic", 0.1, True),
            ("qwinto", 0.6, False),
        ]
    ):
        record = await finish(store, {ANA: k, BEN: 0}, channel=CHANNEL + k, variant=variant)
        await store.reviews.add(record, [(ANA, accuracy, 20), (BEN, 0.2, 20)], hints, 1.0)
        clock.tick(DAY)
    elsewhere = await finish(store, {ANA: 1}, guild=OTHER_GUILD, channel=CHANNEL + 9)
    await store.reviews.add(elsewhere, [(ANA, 0.0, 5)], False, 1.0)
    found = await store.reviews.averages(GUILD, ANA)
    assert set(found) == {"classic", "qwinto"}
    assert found["classic"].accuracy == pytest.approx(0.8) and found["classic"].games == 2
    assert found["qwinto"].accuracy == pytest.approx(0.6) and found["qwinto"].games == 1
    recent = await store.reviews.averages(GUILD, ANA, since=clock.now - 1.5 * DAY)
    assert set(recent) == {"qwinto"}  # a period: the games finished since
    assert (await store.reviews.averages(OTHER_GUILD, ANA))["classic"].accuracy == 0.0


async def test_a_review_moves_the_game_on_only_when_its_channel_waits_for_it(store: Store) -> None:
    shown = await finish(store, {ANA: 3, BEN: 1})
    await store.games.set_shown(shown, None, {"ended": True})  # an old game
    shown = await store.games.get(shown.id)  # type: ignore[assignment]
    await store.reviews.add(shown, [(ANA, 0.5, 3)], False, 1.0)
    after = await store.games.get(shown.id)
    assert after is not None and after.version == shown.version  # its channel left alone

    due = await finish(store, {ANA: 3, BEN: 1}, channel=CHANNEL + 1)
    await store.games.set_shown(due, None, {"ended": True, "review": "due"})
    await store.reviews.add(due, [(ANA, 0.5, 3)], False, 1.0)
    after = await store.games.get(due.id)
    assert after is not None and after.version == due.version + 1
    assert after.shown_version < after.version  # the catch-up edits the final message

    unseen = await finish(store, {ANA: 3, BEN: 1}, channel=CHANNEL + 2)  # end not shown
    await store.reviews.add(unseen, [(BEN, 0.5, 3)], False, 1.0)
    after = await store.games.get(unseen.id)
    assert after is not None and after.shown_version < after.version


async def test_forgetting_a_member_and_deleting_a_server_reach_the_accuracies(store: Store) -> None:
    record = await finish(store, {ANA: 3, BEN: 1})
    await store.reviews.add(record, [(ANA, 0.5, 3), (BEN, 0.75, 4)], False, 1.0)
    done = await store.privacy.forget(ANA)
    assert done.rows["accuracies"] == 1
    assert await store.reviews.of(record.id) == {BEN: 0.75}  # hers deleted, his kept
    assert await store.reviews.averages(GUILD, ANA) == {}
    await store.privacy.mark_departed(GUILD, 1.0)
    deleted = await store.privacy.delete_departed(GUILD, before=2.0)
    assert deleted is not None and deleted["accuracies"] == 1  # his
    assert deleted["reviewed_games"] == 1
    assert await store.reviews.averages(GUILD, BEN) == {}


async def test_a_persons_ratings_per_variant(store: Store) -> None:
    assert await store.ratings.of_player(GUILD, ANA) == {}
