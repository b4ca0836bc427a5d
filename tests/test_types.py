"""mypy on ``bot`` and ``benchmarks``, as configured in pyproject.toml ([tool.mypy]:
``strict = true`` for every module): no error anywhere, and every ``type: ignore`` names
its error and says why. mypy keeps its cache in .mypy_cache: about 5 s the first time on
two cores, well under a second after.
"""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
IGNORE = re.compile(r"#\s*type:\s*ignore(?P<codes>\[[^\]]*\])?(?P<rest>.*)$")


def test_mypy_strict_finds_no_error() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--no-pretty", "--no-color-output", "--show-error-codes"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    if result.returncode not in (0, 1) or "No module named mypy" in result.stderr:
        raise AssertionError(
            f"mypy did not run (exit {result.returncode}); it comes with "
            f"the dev extra: pip install -e '.[dev]'\n{result.stdout}{result.stderr}"
        )
    assert result.returncode == 0, "mypy (pyproject.toml [tool.mypy]) reports:\n" + result.stdout


def test_mypy_is_strict_for_the_whole_package() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]
    assert config["strict"] is True and set(config["files"]) == {"bot", "benchmarks"}
    loosened = [
        o["module"]
        for o in config.get("overrides", [])
        if set(o) - {"module", "ignore_missing_imports", "follow_imports"}
    ]
    assert not loosened, f"overrides that change checks: {loosened}"


def test_every_type_ignore_names_its_error_and_why() -> None:
    """``# type: ignore[code]  # reason`` (or the reason in a comment on the line above):
    what is silenced, and why, for each."""
    bare = []
    for folder in ("bot", "benchmarks"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            name = path.relative_to(ROOT).as_posix()
            lines = path.read_text(encoding="utf-8").splitlines()
            for number, line in enumerate(lines, 1):
                found = IGNORE.search(line)
                if found is None:
                    continue
                reason = found["rest"].lstrip().startswith("#") or (
                    number > 1 and lines[number - 2].strip().startswith("#")
                )
                if not found["codes"] or not reason:
                    bare.append(f"{name}:{number}: {line.strip()}")
    assert not bare, "a type: ignore without an error code or a reason:\n" + "\n".join(bare)
