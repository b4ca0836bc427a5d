"""The docs in step with the bot: the README's commands table and the player's guide
name every registered ``/qwixx`` command, the guide with its options in order (required
ones bare, the others in brackets) and the README with those its rows list; the guide's
tournament options table gives each option of ``/qwixx tournament create`` with its
values and default as registered; and docs/privacy.md tells every kind of data
``/qwixx privacy`` reports and every table of the store that keeps a person."""

from __future__ import annotations

import itertools
import re
import typing
from pathlib import Path

from discord import app_commands

from bot.cogs.privacy import server_lines
from bot.cogs.qwixx import QwixxCog
from bot.i18n import using
from bot.records.members import ServerData
from bot.store import Store
from bot.store.privacy import _KEPT_APART, _PEOPLE, schema

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
PLAYING = ROOT / "docs" / "playing.md"
PRIVACY = ROOT / "docs" / "privacy.md"
CODE = re.compile(r"`([^`]+)`")
OPTIONS = re.compile(r"\boptions ((?:`\w+`(?:, )?)+)")

REPORTED = {  # what a line of /qwixx privacy reports -> how docs/privacy.md tells it
    "name": "your display name",
    "games": "as the seat you took in each game",
    "results": "your results",
    "ratings": "your **ratings**",
    "accuracies": "your accuracy",
    "daily": "your daily challenges",
    "tournaments": "the tournaments you signed up for",
    "organised": "the tournaments you organised",
}
KEEPING = {  # a table of the store with a person in it -> how docs/privacy.md tells it
    "accuracies": "your accuracy",
    "daily_attempts": "your daily challenges",
    "game_events": "what happened in it",
    "game_seats": "the games you sit in",
    "member_prefs": "your preferences",
    "games": "as the seat you took in each game",
    "moves": "its move log",
    "period_totals": "the sums made of them",
    "player_names": "your display name",
    "player_totals": "the sums made of them",
    "rating_changes": "with their change after each rated game",
    "ratings": "your **ratings**",
    "results": "your results",
    "tournament_entrants": "your sign-up (when you joined), whether you checked in",
    "tournaments": "you as their organiser",
}


def registered() -> dict[str, list[app_commands.Parameter]]:
    """Every ``/qwixx`` command (``"tournament create"``) with its options, in order."""
    group = QwixxCog(None).__cog_app_commands_group__  # type: ignore[arg-type]
    assert group is not None
    return {
        command.qualified_name.removeprefix(f"{group.name} "): list(command.parameters)
        for command in group.walk_commands()
        if isinstance(command, app_commands.Command)
    }


def section(path: Path, heading: str) -> str:
    """The text under ``## heading`` of ``path``, up to the next such heading."""
    text = path.read_text(encoding="utf-8")
    found = re.search(rf"^## {re.escape(heading)}\n(.*?)(?=^## |\Z)", text, re.M | re.S)
    assert found is not None, f"{path.name} has no section {heading!r}"
    return found[1]


def rows(text: str) -> list[list[str]]:
    """The cells of the first table in ``text``, its header and rule left out."""
    lines = text.splitlines()
    start = next(k for k, line in enumerate(lines) if line.startswith("|"))
    table = itertools.takewhile(lambda line: line.startswith("|"), lines[start:])
    return [[cell.strip() for cell in line.strip("|").split(" | ")] for line in table][2:]


def without_options(code: str) -> list[str]:
    """``/qwixx rules [variant]`` -> ``["rules"]``: a command's words as written."""
    return re.sub(r"\s*\[[^\]]*\]", "", code).split()[1:]


def readme_rows() -> dict[str, str]:
    """Each command the README's table names (``/qwixx a b`` · ``c``: ``a b`` and
    ``a c``) -> the description of its row."""
    named = {}
    for cells in rows(section(README, "Commands")):
        first, *others = CODE.findall(cells[0])
        words = without_options(first)
        named[" ".join(words)] = cells[1]
        for other in others:
            named[" ".join([*words[:-1], other])] = cells[1]
    return named


def guide_rows() -> dict[str, list[tuple[str, bool]]]:
    """Each command of the player's guide's table -> its options as written, each with
    whether it is required (bare) rather than optional (in brackets)."""
    commands = registered()
    found = {}
    for cells in rows(section(PLAYING, "Commands")):
        words = CODE.findall(cells[0])[0].split()[1:]
        cut = max(k for k in range(len(words) + 1) if " ".join(words[:k]) in commands)
        options = [(w.strip("[]"), not w.startswith("[")) for w in words[cut:]]
        found[" ".join(words[:cut])] = options
    return found


def test_the_readme_names_every_command() -> None:
    assert sorted(readme_rows()) == sorted(registered())


def test_a_readme_row_lists_its_commands_options_in_full() -> None:
    commands = registered()
    listed = {
        name: CODE.findall(found[1])
        for name, text in readme_rows().items()
        if (found := OPTIONS.search(text))
    }
    assert "tournament create" in listed and "start" in listed
    for name, options in listed.items():
        assert options == [p.name for p in commands[name]], name


def test_the_guide_gives_every_command_with_its_options_in_order() -> None:
    expected = {
        name: [(p.name, p.required) for p in parameters]
        for name, parameters in registered().items()
    }
    assert guide_rows() == expected


def test_the_guide_tells_every_option_of_a_tournament_with_its_values_and_default() -> None:
    [create] = [p for name, p in registered().items() if name == "tournament create"]
    table = rows(section(PLAYING, "Tournaments"))
    assert [CODE.findall(option)[0] for option, *_ in table] == [p.name for p in create]
    for (_, values, default, does), parameter in zip(table, create, strict=True):
        assert does, parameter.name
        if parameter.min_value is not None:
            assert f"{parameter.min_value} to {parameter.max_value}" in values, parameter.name
        assert all(choice.name in values for choice in parameter.choices), parameter.name
        if parameter.required:
            assert default == "required", parameter.name
        elif parameter.default is not None:
            assert f"`{str(parameter.default).lower()}`" in default, parameter.name


def told_privacy() -> str:
    """What docs/privacy.md lists as kept: its list of kinds of data, on one line."""
    text = PRIVACY.read_text(encoding="utf-8")
    kept = text[text.index("only what the games need:") : text.index("Nothing else")]
    return " ".join(kept.split())


def test_privacy_md_tells_every_kind_of_data_the_privacy_command_reports() -> None:
    """A field of the report's that makes a line of its own when set alone must be in
    :data:`REPORTED`, and its words in docs/privacy.md's list."""
    samples: dict[object, object] = {int: 2, str: "Ana", float: 1.7e9, tuple: (("classic", 3),)}
    reported = set()
    with using("en-US"):
        bare = server_lines(ServerData(1), "Alpha")
        for name, hint in list(typing.get_type_hints(ServerData).items())[1:]:
            kinds = [typing.get_origin(k) or k for k in (typing.get_args(hint) or (hint,))]
            value = next(samples[k] for k in kinds if k in samples)
            if len(server_lines(ServerData(1, **{name: value}), "Alpha")) > len(bare):
                reported.add(name)
    assert sorted(reported) == sorted(REPORTED)
    kept = told_privacy()
    assert [words for words in REPORTED.values() if words not in kept] == []


async def test_privacy_md_tells_every_table_that_keeps_a_person(tmp_path: Path) -> None:
    """A table with a column of people (as forget-me finds them) must be in
    :data:`KEEPING`, and its words in docs/privacy.md's list: a table added later that
    keeps people is told, or this fails."""
    async with Store(tmp_path / "qwixx.db") as store:
        tables = await store.engine.transact(lambda tx: schema(tx, False))
    keeping = {
        table
        for table, columns in tables.items()
        if table not in _KEPT_APART
        and any(kind == "int" and _PEOPLE.fullmatch(name) for name, kind in columns)
    }
    assert sorted(keeping) == sorted(KEEPING)
    kept = told_privacy()
    assert [words for words in KEEPING.values() if words not in kept] == []


def test_the_table_readers_find_what_is_there() -> None:
    text = "intro\n| a | b |\n| --- | --- |\n| `x` · `y` | one |\n| `z [w]` | two |\nafter"
    assert rows(text) == [["`x` · `y`", "one"], ["`z [w]`", "two"]]
    assert without_options("/qwixx rules [variant]") == ["rules"]
    assert without_options("/qwixx tournament create name [rounds]") == [
        "tournament",
        "create",
        "name",
    ]
