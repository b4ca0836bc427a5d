"""``tests/openapi_gate.py`` in a pytest run of its own: with Discord's OpenAPI
description, without it, and with ``$DISCORD_OPENAPI`` naming a file that is not there."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.openapi_gate import RAW

ROOT = Path(__file__).resolve().parent.parent
CONFTEST = """
from pathlib import Path

import bot.sandbox.validation

bot.sandbox.validation.BESIDE = Path({beside!r})  # where a checkout looks by default

from tests.openapi_gate import (  # noqa: E402, F401
    pytest_collection_modifyitems, pytest_configure, pytest_terminal_summary)
"""
TESTS = """
import pytest

@pytest.mark.openapi
def test_against_the_description():
    pass

@pytest.mark.openapi
def test_against_it_too():
    pass

def test_without_it():
    pass
"""
HEADING = "not checked against Discord's API description"


def run_suite(folder: Path, beside: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """pytest on three tests, two marked ``openapi``, with the description looked for
    at ``beside`` unless ``$DISCORD_OPENAPI`` is given."""
    (folder / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")
    (folder / "conftest.py").write_text(CONFTEST.format(beside=str(beside)), encoding="utf-8")
    (folder / "test_marked.py").write_text(TESTS, encoding="utf-8")
    environment = {k: v for k, v in os.environ.items() if k != "DISCORD_OPENAPI"}
    environment.update(PYTHONPATH=str(ROOT), **env)
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", str(folder)],
        cwd=folder,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_without_the_description_its_tests_are_skipped_and_the_summary_says_so_once(
    tmp_path: Path,
) -> None:
    absent = tmp_path / "shared" / "openapi.json"

    done = run_suite(tmp_path, absent)

    assert done.returncode == 0, done.stdout + done.stderr
    assert "1 passed, 2 skipped" in done.stdout
    assert done.stdout.count(HEADING) == 1
    section = done.stdout.split(HEADING, 1)[1].splitlines()[1:5]
    assert section[0].startswith(
        f"2 tests skipped: Discord's OpenAPI description is not at {absent} (set $DISCORD_OPENAPI"
    )
    assert "its own limits were checked" in section[1]
    assert section[3] == (
        f"  mkdir -p ../shared/discord-api-spec && curl -fsSLo "
        f"../shared/discord-api-spec/openapi.json {RAW}"
    )


def test_with_the_description_every_test_runs_and_nothing_is_said(tmp_path: Path) -> None:
    beside = tmp_path / "openapi.json"
    beside.write_text('{"paths": {}}', encoding="utf-8")

    done = run_suite(tmp_path, beside)

    assert done.returncode == 0, done.stdout + done.stderr
    assert "3 passed" in done.stdout and "skipped" not in done.stdout
    assert HEADING not in done.stdout


def test_a_description_asked_for_and_missing_stops_the_run_in_one_line(tmp_path: Path) -> None:
    missing = tmp_path / "elsewhere.json"

    done = run_suite(tmp_path, tmp_path / "absent.json", DISCORD_OPENAPI=str(missing))

    assert done.returncode == 4  # pytest's usage error: nothing ran
    assert done.stderr.strip() == (
        f"ERROR: $DISCORD_OPENAPI asks for validation, but Discord's OpenAPI description is "
        f"not at {missing} (set $DISCORD_OPENAPI to an openapi.json from "
        f"https://github.com/discord/discord-api-spec)"
    )
    assert "passed" not in done.stdout
