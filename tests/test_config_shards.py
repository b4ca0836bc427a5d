"""QWIXX_SHARDS and PostgreSQL URLs in QWIXX_DATABASE."""

from pathlib import Path

import pytest

from bot.config import ConfigError, Settings, load_settings
from bot.shards import ShardError, ShardPlan, shard_of

GUILD = 1_100_000_000_000_000_000  # a real-sized snowflake


def settings(tmp_path: Path, **env: str) -> Settings:
    return load_settings({"DISCORD_TOKEN": "t", **env}, dotenv=tmp_path / ".env")


@pytest.mark.parametrize(
    ("text", "ids", "count"),
    [
        ("3/4", (3,), 4),
        ("0-1/4", (0, 1), 4),
        ("0,2/4", (0, 2), 4),
        ("2,0/4", (0, 2), 4),
        (" 0-2 , 5 / 8 ", (0, 1, 2, 5), 8),
        ("0/1", (0,), 1),
    ],
)
def test_shard_lists_and_ranges_are_read(text: str, ids: tuple[int, ...], count: int) -> None:
    plan = ShardPlan.parse(text)
    assert (plan.ids, plan.count) == (ids, count)
    assert ShardPlan.parse(str(plan)) == plan


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("0-1", "IDS/COUNT"),
        ("4/4", "0 to 3"),
        ("5/4", "0 to 3 for 4 shards, got 5"),
        ("7-9/4", "0 to 3 for 4 shards, got 7"),
        ("1,99999999999999/4", "0 to 3 for 4 shards, got 99999999999999"),
        ("0-9/4", "0 to 3"),
        ("1/0", "count must be"),
        ("a/4", "not a shard id"),
        ("0-/4", "not a shard id"),
        ("3-1/4", "backwards"),
        ("0,0/4", "twice"),
        ("0-2,1/4", "twice"),
        ("/4", "not a shard id"),
        ("0/four", "IDS/COUNT"),
        ("0-99999999999999/4", "0 to 3"),
        ("0-99999999999999/99999999999999", "count must be"),
        ("0/４", "IDS/COUNT"),
        ("²/4", "not a shard id"),
    ],
)
def test_bad_shard_settings_say_what_is_wrong(tmp_path: Path, text: str, why: str) -> None:
    with pytest.raises(ShardError, match=why):
        ShardPlan.parse(text)
    with pytest.raises(ConfigError, match=f'QWIXX_SHARDS ".*": .*{why}'):
        settings(tmp_path, QWIXX_SHARDS=text)


def test_a_plan_owns_the_guilds_discord_sends_to_its_shards() -> None:
    guilds = [GUILD + (n << 22) for n in range(8)]
    assert [shard_of(g, 4) for g in guilds] == [(shard_of(GUILD, 4) + n) % 4 for n in range(8)]
    plans = [ShardPlan.parse(text) for text in ("0/4", "1-2/4", "3/4")]
    for guild in guilds:  # every guild has exactly one owner
        assert [p.owns(guild) for p in plans].count(True) == 1
    assert ShardPlan.parse("0-3/4").owns(guilds[5])


def test_without_shards_one_process_runs_all(tmp_path: Path) -> None:
    assert settings(tmp_path).shards is None
    assert settings(tmp_path, QWIXX_SHARDS="").shards is None
    assert settings(tmp_path, QWIXX_SHARDS="1/2").shards == ShardPlan((1,), 2)


@pytest.mark.parametrize(
    "url", ["postgresql://qwixx:pw@db.example/qwixx", "postgres://localhost/qwixx?sslmode=require"]
)
def test_postgresql_urls_are_passed_through(tmp_path: Path, url: str) -> None:
    assert settings(tmp_path, QWIXX_DATABASE=url).database == url


def test_sqlite_stays_a_path(tmp_path: Path) -> None:
    assert settings(tmp_path, QWIXX_DATABASE="sqlite:///x/q.db").database == Path("x/q.db")
    absolute = f"sqlite:///{tmp_path}/q.db"  # four slashes: tmp_path starts with one
    assert settings(tmp_path, QWIXX_DATABASE=absolute).database == tmp_path / "q.db"
    assert settings(tmp_path, QWIXX_DATABASE="q.db").database == Path("q.db")


def test_an_unknown_database_url_does_not_repeat_its_password(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"QWIXX_DATABASE.*mysql") as error:
        settings(tmp_path, QWIXX_DATABASE="mysql://root:hunter2@db/q")
    assert "hunter2" not in str(error.value)
