"""Settings: defaults, .env fallback and errors that name the setting."""

from pathlib import Path

import pytest

from bot.config import ConfigError, load_settings


def test_defaults_need_only_the_token(tmp_path: Path) -> None:
    settings = load_settings({"DISCORD_TOKEN": "abc"}, dotenv=tmp_path / ".env")
    assert settings.token == "abc"
    assert settings.database == Path("qwixx.db")
    assert settings.dev_guild is None
    assert settings.log_level == "INFO"


def test_dotenv_is_read_and_the_environment_wins(tmp_path: Path) -> None:
    dotenv = tmp_path / ".env"
    dotenv.write_text(
        "# comment\nDISCORD_TOKEN='from-file'\nQWIXX_DEV_GUILD=42\n\n"
        "QWIXX_DATABASE=sqlite:///data/q.db\n"
    )
    settings = load_settings({"QWIXX_LOG_LEVEL": "debug"}, dotenv=dotenv)
    assert settings.token == "from-file"
    assert settings.dev_guild == 42
    assert settings.database == Path("data/q.db")
    assert settings.log_level == "DEBUG"
    assert load_settings({"DISCORD_TOKEN": "env"}, dotenv=dotenv).token == "env"


@pytest.mark.parametrize(
    ("env", "named"),
    [
        ({}, "DISCORD_TOKEN"),
        ({"DISCORD_TOKEN": "x", "QWIXX_DEV_GUILD": "my-server"}, "QWIXX_DEV_GUILD"),
        ({"DISCORD_TOKEN": "x", "QWIXX_LOG_LEVEL": "LOUD"}, "QWIXX_LOG_LEVEL"),
        ({"DISCORD_TOKEN": "x", "QWIXX_DATABASE": "mysql://db/q"}, "QWIXX_DATABASE"),
    ],
)
def test_mistakes_name_the_setting(tmp_path: Path, env: dict[str, str], named: str) -> None:
    with pytest.raises(ConfigError, match=named):
        load_settings(env, dotenv=tmp_path / ".env")


def test_export_lines_and_a_byte_order_mark_are_read(tmp_path: Path) -> None:
    dotenv = tmp_path / ".env"
    dotenv.write_text("\ufeffexport DISCORD_TOKEN=from-file\nexport QWIXX_LOG_LEVEL=debug\n")
    settings = load_settings({}, dotenv=dotenv)
    assert (settings.token, settings.log_level) == ("from-file", "DEBUG")


def test_an_empty_log_level_is_the_default(tmp_path: Path) -> None:
    assert (
        load_settings(
            {"DISCORD_TOKEN": "x", "QWIXX_LOG_LEVEL": " "}, dotenv=tmp_path / ".env"
        ).log_level
        == "INFO"
    )


def test_a_near_miss_is_refused_only_when_its_setting_is_missing(tmp_path: Path) -> None:
    env = {"DISCORD_TOKEN": "x", "DISCORD_BOT_TOKEN": "another bot's"}
    assert load_settings(env, dotenv=tmp_path / ".env").token == "x"
    with pytest.raises(
        ConfigError, match="DISCORD_BOT_TOKEN is not a setting; did you mean DISCORD_TOKEN"
    ):
        load_settings({"DISCORD_BOT_TOKEN": "x"}, dotenv=tmp_path / ".env")
    assert (
        load_settings({**env, "QWIXX_GOLDEN": "1", "PATH": "/bin"}, dotenv=tmp_path / ".env").token
        == "x"
    )  # unrelated names pass


def test_a_malformed_dotenv_line_names_file_and_line(tmp_path: Path) -> None:
    dotenv = tmp_path / ".env"
    dotenv.write_text("DISCORD_TOKEN=x\nthis is not a setting\n")
    with pytest.raises(ConfigError, match=r"\.env:2"):
        load_settings({}, dotenv=dotenv)


def test_main_reports_a_missing_token(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from bot.__main__ import main

    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    assert main([]) == 2
    assert "DISCORD_TOKEN is not set" in capsys.readouterr().err


def test_main_explains_a_refused_token(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import discord

    from bot import __main__ as cli
    from bot.__main__ import main

    async def refuse(bot: discord.Client, token: str) -> None:
        raise discord.LoginFailure("Improper token has been passed.")

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", "not-a-token")
    monkeypatch.setattr(cli, "serve", refuse)
    assert main([]) == 2
    err = capsys.readouterr().err
    assert "Discord refused DISCORD_TOKEN" in err and "not-a-token" not in err


@pytest.mark.parametrize(
    ("line", "token"),
    [
        ("DISCORD_TOKEN=abc.def # the bot's token", "abc.def"),
        ("DISCORD_TOKEN=abc.def\t# tab, then a comment", "abc.def"),
        ('DISCORD_TOKEN="abc.def"  # quoted, then a comment', "abc.def"),
        ("DISCORD_TOKEN='abc#def'", "abc#def"),
        ("DISCORD_TOKEN=abc#def", "abc#def"),
        ("DISCORD_TOKEN='abc\"def'", 'abc"def'),
        ("export DISCORD_TOKEN = 'abc.def' ", "abc.def"),
    ],
)
def test_dotenv_values_are_read_as_hosts_write_them(tmp_path: Path, line: str, token: str) -> None:
    dotenv = tmp_path / ".env"
    dotenv.write_text(f"{line}\nQWIXX_LOG_LEVEL=debug   # chatty\n")
    settings = load_settings({}, dotenv=dotenv)
    assert (settings.token, settings.log_level) == (token, "DEBUG")


@pytest.mark.parametrize(
    ("line", "says"),
    [
        (
            'DISCORD_TOKEN="abc.secret',
            '.env:1: the value of DISCORD_TOKEN opens a quote (") and does not close it',
        ),
        (
            "DISCORD_TOKEN='abc.secret\"",
            ".env:1: the value of DISCORD_TOKEN opens a quote (') and does not close it",
        ),
        (
            'DISCORD_TOKEN="abc.secret" more',
            ".env:1: the value of DISCORD_TOKEN goes on after its closing quote; put a # "
            "before a comment",
        ),
        (
            "DISCORD_TOKEN=abc secret",
            "DISCORD_TOKEN has a space in it, and a bot token has none: copy it again from "
            "the developer portal (Bot → Reset Token)",
        ),
        (
            'DISCORD_TOKEN="abc secret"',
            "DISCORD_TOKEN has a space in it, and a bot token has none: copy it again from "
            "the developer portal (Bot → Reset Token)",
        ),
    ],
)
def test_a_dotenv_value_that_cannot_be_a_token_is_refused_unshown(
    tmp_path: Path, line: str, says: str
) -> None:
    dotenv = tmp_path / ".env"
    dotenv.write_text(line + "\n")
    with pytest.raises(ConfigError) as error:
        load_settings({}, dotenv=dotenv)
    assert str(error.value) == says.replace(".env:", f"{dotenv}:")
    assert "secret" not in str(error.value)


def test_a_token_with_a_space_from_the_environment_is_refused_unshown(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="DISCORD_TOKEN has a space in it") as error:
        load_settings({"DISCORD_TOKEN": "abc secret"}, dotenv=tmp_path / ".env")
    assert "secret" not in str(error.value)
