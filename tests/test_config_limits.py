"""``QWIXX_MAX_GAMES_PER_MEMBER`` and ``QWIXX_MAX_GAMES_PER_SERVER``: how many lobbies and
running games one member, and one server, may have at once."""

from pathlib import Path

import pytest

from bot.config import ConfigError, Settings, load_settings

MEMBER, SERVER = "QWIXX_MAX_GAMES_PER_MEMBER", "QWIXX_MAX_GAMES_PER_SERVER"


def settings_with(tmp_path: Path, **values: str) -> Settings:
    return load_settings({"DISCORD_TOKEN": "abc", **values}, dotenv=tmp_path / ".env")


def test_defaults_five_per_member_fifty_per_server(tmp_path: Path) -> None:
    settings = settings_with(tmp_path)
    assert (settings.max_games_per_member, settings.max_games_per_server) == (5, 50)
    empty = settings_with(tmp_path, **{MEMBER: "", SERVER: " "})
    assert (empty.max_games_per_member, empty.max_games_per_server) == (5, 50)


@pytest.mark.parametrize(("member", "server"), [("1", "1"), ("12", "300"), ("1000", "100000")])
def test_whole_numbers_are_taken(member: str, server: str, tmp_path: Path) -> None:
    settings = settings_with(tmp_path, **{MEMBER: member, SERVER: server})
    assert (settings.max_games_per_member, settings.max_games_per_server) == (
        int(member),
        int(server),
    )


@pytest.mark.parametrize("name", [MEMBER, SERVER])
@pytest.mark.parametrize("value", ["0", "-3", "five", "2.5", "1e3", "100001", "٣"])
def test_anything_else_stops_the_bot_naming_the_setting(
    name: str, value: str, tmp_path: Path
) -> None:
    if name == MEMBER and value == "100001":
        value = "1001"
    with pytest.raises(ConfigError, match=name) as error:
        settings_with(tmp_path, **{name: value})
    assert "whole number from 1 to" in str(error.value) and repr(value)[1:-1] in str(error.value)


def test_read_from_dotenv_and_documented(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text(f"{MEMBER}=3\n{SERVER}=40\n")
    settings = load_settings({"DISCORD_TOKEN": "abc"}, dotenv=tmp_path / ".env")
    assert (settings.max_games_per_member, settings.max_games_per_server) == (3, 40)
    example = (Path(__file__).parent.parent / ".env.example").read_text()
    assert f"{MEMBER}=5" in example and f"{SERVER}=50" in example
    readme = (Path(__file__).parent.parent / "README.md").read_text()
    assert f"`{MEMBER}` | `5`" in readme and f"`{SERVER}` | `50`" in readme


def test_the_running_bot_gets_the_limits_and_the_click_throttle(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import bot.__main__ as entry
    import bot.app
    import bot.heap
    from bot.cogs.throttle import ClickBuckets
    from bot.service.limits import Limits

    made: dict[str, object] = {}

    def new_bot(database: object, **options: object) -> object:
        made.update(options)
        return object()

    async def serve(bot: object, token: str) -> None:
        return None

    monkeypatch.chdir(tmp_path)
    for name, value in {
        "DISCORD_TOKEN": "abc",
        MEMBER: "3",
        SERVER: "40",
        "QWIXX_DATABASE": str(tmp_path / "q.db"),
    }.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setattr(bot.app, "new_bot", new_bot)
    monkeypatch.setattr(entry, "serve", serve)
    monkeypatch.setattr(bot.heap, "tune_gc", lambda: None)
    monkeypatch.setattr(bot.heap, "tune_malloc", lambda: False)
    assert entry.main([]) in (0, None)
    assert made["limits"] == Limits(per_member=3, per_server=40)
    assert isinstance(made["clicks"], ClickBuckets)
