"""``QWIXX_FORGET_SERVER_AFTER``: the grace period before a departed server's data goes."""

from pathlib import Path

import pytest

from bot.config import ConfigError, load_settings


def settings_with(value: str | None, tmp_path: Path) -> int:
    env = {"DISCORD_TOKEN": "abc"}
    if value is not None:
        env["QWIXX_FORGET_SERVER_AFTER"] = value
    return load_settings(env, dotenv=tmp_path / ".env").forget_server_after


@pytest.mark.parametrize(
    ("value", "seconds"),
    [
        (None, 30 * 86400),
        ("", 30 * 86400),
        ("30d", 30 * 86400),
        ("7", 7 * 86400),
        ("12h", 12 * 3600),
        ("90m", 5400),
        ("1h", 3600),
        ("3650D", 3650 * 86400),
    ],
)
def test_read_as_a_time(value: str | None, seconds: int, tmp_path: Path) -> None:
    assert settings_with(value, tmp_path) == seconds


@pytest.mark.parametrize("value", ["0", "59m", "3651d", "soon", "1d12h", "-3d", "30 days"])
def test_anything_else_stops_the_bot_naming_the_setting(value: str, tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="QWIXX_FORGET_SERVER_AFTER") as error:
        settings_with(value, tmp_path)
    assert "from 1h to 3650d" in str(error.value)


def test_documented_in_env_example() -> None:
    example = (Path(__file__).parent.parent / ".env.example").read_text()
    assert "QWIXX_FORGET_SERVER_AFTER=30d" in example
    assert settings_with("30d", Path("/nonexistent")) == 30 * 86400
