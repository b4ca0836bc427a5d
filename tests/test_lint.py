"""The code base stays ruff clean (ruff comes with the dev extra; rules in pyproject.toml)."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_ruff_reports_nothing() -> None:
    result = subprocess.run([sys.executable, "-m", "ruff", "check", "bot", "tests", "benchmarks"],
                            cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
