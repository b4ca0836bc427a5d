"""Settings errors show what was wrong without repeating secrets or pages of input."""

from pathlib import Path

import pytest

from bot.config import ConfigError, load_settings


def test_a_mistyped_token_line_is_not_repeated(tmp_path: Path) -> None:
    dotenv = tmp_path / ".env"
    dotenv.write_text("DISCORD_TOKEN: MTQ0.secret.part\n")
    with pytest.raises(ConfigError, match=r"\.env:1") as error:
        load_settings({}, dotenv=dotenv)
    assert "secret" not in str(error.value)


@pytest.mark.parametrize(
    "name", ["QWIXX_DEV_GUILD", "QWIXX_LOG_LEVEL", "QWIXX_DATABASE", "QWIXX_SHARDS"]
)
def test_long_values_are_shortened(tmp_path: Path, name: str) -> None:
    value = "mysql://" + "x" * 5000 if name == "QWIXX_DATABASE" else "x" * 5000
    with pytest.raises(ConfigError, match=name) as error:
        load_settings({"DISCORD_TOKEN": "t", name: value}, dotenv=tmp_path / ".env")
    assert len(str(error.value)) < 200
