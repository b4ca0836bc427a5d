"""Sums per month and per week (``period_totals``): they always agree with the results."""

from __future__ import annotations

import random
import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.service.stats import period_start
from bot.store import Store
from bot.store.migrations import MIGRATIONS, PERIOD_TOTALS
from bot.store.stats import period_starts, summary_period
from tests.fakes import FakeClock

from .helpers import GUILD, apply_migrations, query, sqlite_only
from .test_stats_store import ANA, BEN, CEM, DAN, DAY, OTHER_GUILD, by_player, finish, table

# Thursday 2026-01-29 12:00 UTC: a Monday (Feb 2) and a month (Feb 1) begin within days.
START = datetime(2026, 1, 29, 12, tzinfo=UTC).timestamp()


def utc(*date: int) -> float:
    return datetime(*date, tzinfo=UTC).timestamp()  # type: ignore[misc]


def raw_totals(database: str | Path, since: float, variant: str | None) -> dict[int, tuple]:
    """The leaderboard figures summed straight from ``results``."""
    sql = (
        "SELECT player_id, COUNT(*), SUM(won), SUM(score), MAX(score) FROM results "
        "WHERE guild_id = ? AND counted = 1 AND finished_at >= ?"
        + (" AND variant = ?" if variant else "")
        + " GROUP BY player_id"
    )
    params = (GUILD, since, variant) if variant else (GUILD, since)
    return {r[0]: tuple(r[1:]) for r in query(database, sql, params)}


async def play_a_fortnight(store: Store, clock: FakeClock) -> None:
    """Games every few hours over two weeks, in two variants and two guilds."""
    rng = random.Random(3)
    players = [ANA, BEN, CEM, DAN]
    for _ in range(40):
        clock.tick(rng.uniform(0.1, 0.8) * DAY)
        seats = rng.sample(players, rng.randint(2, 4))
        scores = {p: rng.randint(-10, 90) for p in seats}
        await finish(
            store,
            scores,
            variant=rng.choice(["classic", "longo"]),
            counted=rng.random() < 0.9,
            guild=OTHER_GUILD if rng.random() < 0.1 else GUILD,
        )


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(START)


def test_period_starts_are_the_services_periods() -> None:
    for when in (START, utc(2026, 2, 1), utc(2026, 2, 2), utc(2025, 12, 31, 23, 59)):
        assert period_starts(when) == [
            ("month", period_start("month", when)),
            ("week", period_start("week", when)),
        ]


def test_only_the_start_of_a_month_or_week_is_served_by_the_sums() -> None:
    assert summary_period(utc(2026, 2, 1)) == "month"  # a Sunday
    assert summary_period(utc(2026, 2, 2)) == "week"  # a Monday
    assert summary_period(utc(2025, 12, 1)) in ("month", "week")  # both: the same results
    assert summary_period(utc(2026, 2, 3)) is None
    assert summary_period(utc(2026, 2, 2) + 1) is None


@pytest.mark.parametrize("variant", [None, "classic", "longo"])
async def test_period_sums_agree_with_the_results(
    store: Store, database: str | Path, clock: FakeClock, variant: str | None
) -> None:
    await play_a_fortnight(store, clock)
    starts = [
        utc(2026, 1, 1),
        utc(2026, 2, 1),
        utc(2026, 3, 1),
        utc(2026, 1, 26),
        utc(2026, 2, 2),
        utc(2026, 2, 9),
        utc(2026, 2, 16),
        utc(2026, 2, 4, 7),
    ]
    for since in starts:
        expected = raw_totals(database, since, variant)
        found = by_player(await store.stats.leaderboard(GUILD, variant=variant, since=since))
        assert found == expected, datetime.fromtimestamp(since, UTC)
    assert raw_totals(database, utc(2026, 2, 2), variant)  # the weeks were not empty


async def test_rebuilding_gives_the_same_period_sums(
    store: Store, database: str | Path, clock: FakeClock
) -> None:
    """The SQL buckets (strftime, or date_trunc on PostgreSQL) are Python's periods."""
    await play_a_fortnight(store, clock)
    sql = "SELECT * FROM period_totals ORDER BY guild_id, period, start, variant, player_id"
    kept = table(database, sql)
    await store.stats.rebuild_totals()
    assert table(database, sql) == kept
    assert {row[1] for row in kept} == {"month", "week"}


async def test_the_migration_sums_the_results_so_far(db_path: Path, clock: FakeClock) -> None:
    async with Store(db_path, clock=clock) as store:
        await play_a_fortnight(store, clock)
    query = "SELECT * FROM period_totals ORDER BY guild_id, period, start, variant, player_id"
    kept = table(db_path, query)
    with sqlite3.connect(db_path) as conn:  # back to the schema before the sums
        conn.execute("DROP TABLE period_totals")
        conn.execute("DELETE FROM schema_version WHERE version >= ?", (PERIOD_TOTALS.version,))
    upto = MIGRATIONS[: PERIOD_TOTALS.version]
    assert await apply_migrations(db_path, clock(), upto) == PERIOD_TOTALS.version
    assert table(db_path, query) == kept


@sqlite_only
@pytest.mark.parametrize("variant", ["", " AND variant = ?"])
async def test_the_period_query_reads_its_period_by_index(
    store: Store, db_path: Path, variant: str
) -> None:
    sql = (
        "SELECT player_id, SUM(games), SUM(wins), SUM(score_sum), MAX(best) FROM "
        f"period_totals WHERE guild_id = ? AND period = ? AND start >= ?{variant} "
        "GROUP BY player_id"
    )
    with sqlite3.connect(db_path) as conn:
        plan = " ".join(
            str(r[3]) for r in conn.execute(f"EXPLAIN QUERY PLAN {sql}", [1] * sql.count("?"))
        )
    assert "sqlite_autoindex_period_totals_1" in plan and "SCAN period_totals" not in plan, plan
