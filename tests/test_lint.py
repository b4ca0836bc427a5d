"""The code base stays ruff clean and ruff formatted, checked as docs/development.md says:
``ruff check`` and ``ruff format --check`` from the repository's root, with the ruff the
dev extra pins (pyproject.toml's ``[tool.ruff]`` says which files and which rules)."""

import re
import subprocess
import sys
import tomllib
from importlib.metadata import version
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CHECKS = (["ruff", "check"], ["ruff", "format", "--check"])
"""What docs/development.md tells a developer to run, from the root."""


def ruff(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "ruff", *args], cwd=ROOT, capture_output=True, text=True
    )


def test_ruff_reports_nothing() -> None:
    result = ruff("check")
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_format_changes_nothing() -> None:
    """One style: the code is as ``ruff format`` writes it (run it before committing)."""
    result = ruff("format", "--check")
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_looks_at_the_python_of_the_project_only() -> None:
    listed = ruff("check", "--show-files").stdout.split()
    python = [
        str(path)
        for folder in ("bot", "tests", "benchmarks")
        for path in (ROOT / folder).rglob("*.py")
    ]
    assert sorted(listed) == sorted(python)


def test_the_docs_name_the_checks_and_the_dev_extra_pins_the_ruff_installed() -> None:
    text = " ".join((ROOT / "docs" / "development.md").read_text(encoding="utf-8").split())
    for check in CHECKS:
        assert f"`.venv/bin/{' '.join(check)}`" in text
    extra = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    pins = [r for r in extra["project"]["optional-dependencies"]["dev"] if r.startswith("ruff")]
    assert [re.sub(r"\s", "", pin) for pin in pins] == [f"ruff=={version('ruff')}"]
