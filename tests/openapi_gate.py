"""Which tests check request bodies against Discord's OpenAPI description, and what
happens where it is not found.

A test marked ``openapi`` needs the description (see ``bot.sandbox.validation``). Where
it is not found, as in a fresh clone with nothing beside it, those tests are skipped,
every other test runs against the stand-in without schema validation (its own limits
still apply), and pytest's summary says once what was skipped and how to add the file.
Setting ``$DISCORD_OPENAPI`` asks for validation: if it cannot run, the run stops at
once with the reason (``.ci/run`` sets it, so CI never runs unvalidated).
"""

from __future__ import annotations

import os

import pytest

from bot.sandbox.validation import unavailable

MARK = "openapi"
BESIDE_HINT = "../shared/discord-api-spec/openapi.json"
"""Where the tests look by default, from the checkout (``validation.BESIDE``)."""
RAW = "https://raw.githubusercontent.com/discord/discord-api-spec/main/specs/openapi.json"


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        f"{MARK}: checks request bodies against Discord's OpenAPI description "
        "(skipped where it is not found)",
    )
    reason = unavailable()
    if reason is not None and os.environ.get("DISCORD_OPENAPI"):
        raise pytest.UsageError(f"$DISCORD_OPENAPI asks for validation, but {reason}")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    reason = unavailable()
    if reason is None:
        return
    skip = pytest.mark.skip(reason=f"request bodies cannot be validated: {reason}")
    for item in items:
        if item.get_closest_marker(MARK) is not None:
            item.add_marker(skip)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    skipped = [
        report
        for report in terminalreporter.stats.get("skipped", [])
        if MARK in getattr(report, "keywords", {})
    ]
    if not skipped:
        return
    terminalreporter.section("not checked against Discord's API description", sep="-", yellow=True)
    for line in summary(len(skipped)):
        terminalreporter.write_line(line)


def summary(skipped: int) -> list[str]:
    """What a run without the description left out, and how to add it."""
    tests = "test" if skipped == 1 else "tests"
    return [
        f"{skipped} {tests} skipped: {unavailable()}.",
        "The others ran against the stand-in without checking request bodies against it "
        "(its own limits were checked).",
        "To add it, from this checkout:",
        f"  mkdir -p {BESIDE_HINT.rsplit('/', 1)[0]} && curl -fsSLo {BESIDE_HINT} {RAW}",
    ]
