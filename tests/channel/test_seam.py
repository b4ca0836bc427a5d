"""The publisher reads through :class:`bot.channel.source.Source` as it writes through
:class:`bot.channel.writer.Writer`: nothing of the service, and the service's
:class:`bot.service.channel_source.ChannelSource` answers every question of the source."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import pytest

from bot.channel.source import Source
from bot.service.channel_source import ChannelSource

CHANNEL = Path(__file__).resolve().parents[2] / "bot" / "channel"
SEAMED = ("publisher", "source", "debounce", "memory", "outage", "writer")
"""The channel's modules that keep to the seam (the others still take values of the
service's: seats, options, durations)."""


def imports(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found


@pytest.mark.parametrize("name", SEAMED)
def test_the_publisher_and_its_parts_import_nothing_of_the_service(name: str) -> None:
    taken = {m for m in imports(CHANNEL / f"{name}.py") if m.startswith("bot.service")}
    assert taken == set()


def questions() -> list[str]:
    return [name for name in vars(Source) if not name.startswith("_")]


def test_the_source_asks_what_the_channel_needs() -> None:
    assert {"read", "events", "ending", "language", "show", "show_later"} <= set(questions())


@pytest.mark.parametrize("name", questions())
def test_the_services_source_answers_each_question_as_asked(name: str) -> None:
    asked = inspect.signature(getattr(Source, name))
    answered = inspect.signature(getattr(ChannelSource, name))
    assert list(answered.parameters) == list(asked.parameters)
    assert inspect.iscoroutinefunction(getattr(ChannelSource, name)) == (
        inspect.iscoroutinefunction(getattr(Source, name))
    )
