"""Members' data in the store: what is kept about a person, forgetting them, and a
server's rows deleted after the bot left it (on SQLite and PostgreSQL)."""

from __future__ import annotations

from typing import Any

import pytest

from bot.records.daily import Attempt
from bot.records.errors import StillPlaying
from bot.store import Store
from bot.store.engine import Tx
from bot.store.privacy import ANONYMOUS_CEILING, ANONYMOUS_FLOOR, is_anonymous, replaced
from bot.store.records import dump_json
from bot.tournament import TournamentSettings
from tests.fakes import FakeClock

from .helpers import every_row

GUILD, OTHER_GUILD = 900_000_000_000_000_001, 900_000_000_000_000_002
ANA, BEN = 700_000_000_000_000_011, 700_000_000_000_000_022


def holding(rows: dict[str, list[tuple[Any, ...]]], needle: object) -> dict[str, list[Any]]:
    text = str(needle)
    found = {
        table: [r for r in table_rows if any(text in str(v) for v in r)]
        for table, table_rows in rows.items()
    }
    return {table: hits for table, hits in found.items() if hits}


async def seed_rows(
    store: Store,
    guild: int,
    players: list[int],
    status: str = "finished",
    away: list[int] | None = None,
) -> int:
    """A game of ``players`` on ``guild`` written straight into every table that keeps
    something of them (its state, log, events, results, totals, ratings, names)."""
    state = {"players": players, "sheets": {str(p): {"crossed": {"red": [2, 3]}} for p in players}}

    async def work(tx: Tx) -> int:
        rows = await tx.fetch(
            "INSERT INTO games (guild_id, channel_id, host_id, variant, options, seed, players, "
            "state, status, version, created_at, updated_at, finished_at, presence, shown, "
            "shown_version) VALUES (?, ?, ?, 'classic', ?, 7, ?, ?, ?, 3, 1, 2, 3, ?, ?, 3) "
            "RETURNING id",
            (
                guild,
                guild + 5,
                players[0],
                dump_json({"rules": {}, "levels": {"-1": "easy"}}),
                dump_json(players),
                dump_json(state),
                status,
                dump_json({"away": away or [], "streak": {str(p): 1 for p in players}}),
                dump_json({"mentioned": players, "text": f"<@{players[0]}>"}),
            ),
        )
        game = int(rows[0][0])
        await tx.executemany(
            "INSERT INTO moves (game_id, seq, player_id, move, created_at) "
            'VALUES (?, ?, ?, \'{"kind":"pass"}\', 1)',
            [(game, i + 1, p) for i, p in enumerate(players)],
        )
        await tx.executemany(
            "INSERT INTO game_events (game_id, seq, turn, kind, player, data) "
            "VALUES (?, ?, 1, 'scores', ?, ?)",
            [(game, i + 1, p, dump_json({"totals": {str(p): 4}})) for i, p in enumerate(players)],
        )
        if status == "finished":
            await tx.execute(
                "INSERT INTO matches (game_id, guild_id, channel_id, variant, "
                "started_at, finished_at, turns, players, counted) "
                "VALUES (?, ?, 1, 'classic', 1, 3, 1, ?, 1)",
                (game, guild, len(players)),
            )
            await tx.executemany(
                "INSERT INTO results (game_id, player_id, guild_id, variant, seat, score, rank, "
                "won, counted, finished_at) VALUES (?, ?, ?, 'classic', ?, ?, ?, ?, 1, 3)",
                [(game, p, guild, i, 10 - i, i + 1, int(i == 0)) for i, p in enumerate(players)],
            )
            await tx.executemany(
                "INSERT INTO player_totals (guild_id, player_id, variant, games, wins, score_sum, "
                "best) VALUES (?, ?, 'classic', 1, 0, 9, 9) ON CONFLICT DO NOTHING",
                [(guild, p) for p in players],
            )
            await tx.executemany(
                "INSERT INTO ratings (guild_id, variant, player_id, mu, sigma, games) "
                "VALUES (?, 'classic', ?, 25, 8, 1) ON CONFLICT DO NOTHING",
                [(guild, p) for p in players],
            )
            await tx.execute(
                "INSERT INTO rated_games (game_id, guild_id, variant, finished_at) "
                "VALUES (?, ?, 'classic', 3)",
                (game, guild),
            )
            await tx.executemany(
                "INSERT INTO rating_changes (game_id, player_id, mu_before, sigma_before, "
                "games_before, mu, sigma) VALUES (?, ?, 25, 8, 0, 26, 7)",
                [(game, p) for p in players],
            )
        return game

    game = await store.engine.transact(work)
    for player in players:
        await store.names.remember(guild, player, f"Name{player % 1000}")
    return game


def test_anonymous_ids_are_neither_people_nor_computers() -> None:
    assert 0 < ANONYMOUS_FLOOR < ANONYMOUS_CEILING == 1 << 22  # a snowflake of 2015-01-01 00:00
    assert is_anonymous(ANONYMOUS_FLOOR + 1) and not is_anonymous(ANA) and not is_anonymous(-1)


def test_replaced_reaches_keys_lists_and_mentions_only() -> None:
    value = {
        "players": [ANA, BEN],
        str(ANA): {"n": ANA},
        "text": f"<@{ANA}> and <@{BEN}1>",
        "flag": True,
        "score": 11,
    }
    assert replaced(value, ANA, 5) == {
        "players": [5, BEN],
        "5": {"n": 5},
        "text": f"<@5> and <@{BEN}1>",
        "flag": True,
        "score": 11,
    }


async def test_personal_data_per_server(store: Store) -> None:
    await seed_rows(store, GUILD, [ANA, BEN])
    await seed_rows(store, OTHER_GUILD, [BEN, ANA], status="abandoned")
    data = await store.privacy.personal_data(ANA)
    assert [d.guild_id for d in data] == [GUILD, OTHER_GUILD]
    assert (data[0].name, data[0].games, data[0].results, data[0].counted) == ("Name11", 1, 1, 1)
    assert data[0].ratings == (("classic", 1),) and data[0].variants == 1
    assert (data[1].games, data[1].results, data[1].ratings) == (1, 0, ())
    assert await store.privacy.personal_data(12345) == []


async def test_forget_leaves_no_trace_and_the_others_whole(store: Store) -> None:
    await seed_rows(store, GUILD, [ANA, BEN])
    await seed_rows(store, OTHER_GUILD, [BEN, ANA], status="running", away=[ANA])
    before = await every_row(store)
    bens = await store.stats.player_totals(GUILD, BEN)
    done = await store.privacy.forget(ANA)
    assert is_anonymous(done.anonymous_id) and done.names == 2 and done.games == 2
    after = await every_row(store)
    assert holding(after, ANA) == {}
    assert holding(after, "Name11") == {}
    # Ben's rows are where they were, and as many rows as before carry someone.
    assert holding(after, BEN).keys() == holding(before, BEN).keys()
    counted = {"player_names", "anonymous_ids"}
    assert {t: len(r) for t, r in after.items() if t not in counted} == {
        t: len(r) for t, r in before.items() if t not in counted
    }
    assert await store.stats.player_totals(GUILD, BEN) == bens
    totals = await store.stats.player_totals(GUILD, done.anonymous_id)
    assert totals["classic"].games == 1
    # The running game (Ana was away from it) moved on a version, its channel with it.
    record = (await store.games.running(OTHER_GUILD))[0]
    assert (record.version, record.shown_version) == (4, 4)
    # A second person forgotten gets another id.
    cem = 700_000_000_000_000_033
    await seed_rows(store, GUILD, [cem])
    again = await store.privacy.forget(cem)
    assert again.anonymous_id == done.anonymous_id + 1
    assert holding(await every_row(store), cem) == {}


async def test_forget_refuses_a_person_still_playing(store: Store) -> None:
    finished = await seed_rows(store, GUILD, [ANA, BEN])
    running = await seed_rows(store, OTHER_GUILD, [BEN, ANA], status="running")
    lobby = await seed_rows(store, GUILD + 7, [ANA], status="lobby")
    before = await every_row(store)
    with pytest.raises(StillPlaying) as refused:
        await store.privacy.forget(ANA)
    assert {game for _, _, game in refused.value.games} == {running, lobby}
    assert finished not in {game for _, _, game in refused.value.games}
    assert await every_row(store) == before


async def test_a_departed_server_goes_after_its_grace_and_only_it(
    store: Store, clock: FakeClock
) -> None:
    await seed_rows(store, GUILD, [ANA, BEN])
    await seed_rows(store, OTHER_GUILD, [BEN, ANA])
    await store.settings.set_language(GUILD, "de")
    kept = {
        t: [r for r in rows if str(OTHER_GUILD) in str(r) or t == "schema_version"]
        for t, rows in (await every_row(store)).items()
    }
    await store.privacy.mark_departed(GUILD, 100.0)
    await store.privacy.mark_departed(GUILD, 500.0)  # the first mark stays
    assert await store.privacy.departed(before=100.0) == []
    assert await store.privacy.departed(before=101.0) == [GUILD]
    assert await store.privacy.delete_departed(GUILD, before=100.0) is None
    deleted = await store.privacy.delete_departed(GUILD, before=101.0)
    assert deleted is not None and deleted["games"] == 1 and deleted["moves"] == 2
    rows = await every_row(store)
    assert holding(rows, GUILD) == {}
    assert {
        t: [r for r in rows_ if str(OTHER_GUILD) in str(r) or t == "schema_version"]
        for t, rows_ in rows.items()
    } == kept
    assert rows["moves"] and rows["rating_changes"]  # the other server's logs stayed


async def test_coming_back_clears_the_mark(store: Store) -> None:
    await seed_rows(store, GUILD, [ANA])
    await store.privacy.mark_departed(GUILD, 100.0)
    assert await store.privacy.unmark(GUILD) is True
    assert await store.privacy.unmark(GUILD) is False
    assert await store.privacy.delete_departed(GUILD, before=10_000.0) is None
    assert (await store.privacy.personal_data(ANA))[0].games == 1


async def test_personal_data_counts_accuracies_and_daily_challenges(store: Store) -> None:
    game_id = await seed_rows(store, GUILD, [ANA, BEN])
    record = await store.games.get(game_id)
    assert record is not None
    await store.reviews.add(record, [(ANA, 0.8, 10), (BEN, 0.6, 9)], False, 4.0)
    daily = await store.games.create(GUILD, -9, ANA, "classic", {"daily": "2026-11-27"}, 3)
    await store.daily.add_attempt(
        Attempt("2026-11-27", "classic", ANA, GUILD, GUILD + 5, daily.id, None, None)
    )
    [data] = await store.privacy.personal_data(ANA)
    assert (data.accuracies, data.daily) == (1, 1)
    [bens] = await store.privacy.personal_data(BEN)
    assert (bens.accuracies, bens.daily) == (1, 0)


async def test_personal_data_names_a_tournament_signed_up_for_or_organised(store: Store) -> None:
    """A member who has only signed up for a tournament (no game yet) is not told that
    nothing is kept; the organiser's tournament is named too."""
    record = await store.tournaments.create(GUILD, 77, BEN, TournamentSettings("Cup"), 1, 1.0, None)
    await store.tournaments.join(record, ANA, 2.0)
    [ana] = await store.privacy.personal_data(ANA)
    assert (ana.guild_id, ana.tournaments, ana.organised, ana.games) == (GUILD, 1, 0, 0)
    [ben] = await store.privacy.personal_data(BEN)
    assert (ben.tournaments, ben.organised) == (0, 1)
    await store.privacy.forget(ANA)
    assert await store.privacy.personal_data(ANA) == []
