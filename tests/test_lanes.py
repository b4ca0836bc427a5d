"""The fast lane keeps out exactly the long tests (:mod:`tests.lanes`)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from tests.lanes import TESTS, lanes


def item(where: str, fixtures: tuple[str, ...] = (), **params: Any) -> Any:
    callspec = SimpleNamespace(params=params) if params else None
    return SimpleNamespace(path=TESTS / where, fixturenames=fixtures, callspec=callspec)


@pytest.mark.parametrize(
    ("test", "expected"),
    [
        (item("e2e/test_channel.py"), ["e2e"]),
        (item("e2e/test_postgres_outage.py"), ["e2e", "postgres"]),
        (item("fuzz/test_discord_fuzz.py"), ["e2e"]),
        (item("truth/test_stand_in_truth.py"), ["e2e"]),
        (item("store/test_store_games.py", ("database",), database="postgresql"), ["postgres"]),
        (item("store/test_store_games.py", ("database",), database="sqlite"), []),
        (item("test_cli_refusals.py", ("postgres",)), ["postgres"]),
        (item("store/test_postgres_limits.py"), ["postgres"]),
        (item("test_package.py"), ["packaging"]),
        (item("test_readme.py"), ["packaging"]),
        (item("truth/test_channel_truth.py"), []),
        (item("rules/test_classic_rules.py"), []),
        (item("cogs/test_story.py"), []),
    ],
)
def test_each_test_is_in_the_lanes_its_place_and_needs_say(test: Any, expected: list[str]) -> None:
    assert lanes(test) == expected


def test_every_lane_is_a_registered_mark() -> None:
    import tomllib

    config = tomllib.loads((TESTS.parent / "pyproject.toml").read_text(encoding="utf-8"))
    marks = {line.split(":")[0] for line in config["tool"]["pytest"]["ini_options"]["markers"]}
    assert {"slow", "e2e", "postgres", "packaging"} <= marks
