"""mypy on ``bot`` and ``benchmarks``, as configured in pyproject.toml ([tool.mypy]:
strict for the rules, the store, the service and the channel's projection of the store;
unannotated functions checked too everywhere else).

Most of the code checks clean and must stay so (``CLEAN``). The packages listed in
``BUDGET`` still have errors: each may have at most its budget, and the budget only
goes down — when a package has fewer errors than its budget, lower the budget to the
count (the test says so). mypy keeps its cache in .mypy_cache: about 5 s the first
time on two cores, well under a second after.
"""

from __future__ import annotations

import re
import subprocess
import sys
import warnings
from collections import Counter
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Errors allowed per package, as counted by the mypy of the dev extra; only ever lowered.
BUDGET: dict[str, int] = {}

# Everything else that mypy checks has no error: these, and any module added to bot/.
CLEAN = (
    "bot.channel",
    "bot.cogs",
    "bot.rules",
    "bot.service",
    "bot.store",
    "bot.sandbox",
    "bot.i18n",
    "bot.players",
    "bot.config",
    "bot.__main__",
    "bot.shards",
    "bot.text",
    "bot.__init__",
    "bot.app",
    "bot.messages",
    "bot.render",
    "bot.tournament",
    "bot.cli",
    "bot.upkeep",
    "bot.progress",
    "benchmarks",
)

ERROR = re.compile(r"^(?P<path>[^:\s]+\.py):(?P<line>\d+): error: (?P<text>.*)$")
IGNORE = re.compile(r"#\s*type:\s*ignore(?P<codes>\[[^\]]*\])?(?P<rest>.*)$")


@cache
def mypy() -> tuple[str, list[tuple[str, str]]]:
    """mypy's whole output, and its errors as (package, line of output)."""
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--no-pretty",
            "--no-color-output",
            "--show-error-codes",
            "--no-error-summary",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    if result.returncode not in (0, 1) or "No module named mypy" in result.stderr:
        raise AssertionError(
            f"mypy did not run (exit {result.returncode}); it comes with "
            f"the dev extra: pip install -e '.[dev]'\n"
            f"{result.stdout}{result.stderr}"
        )
    errors = [
        (package_of(found["path"]), line)
        for line in result.stdout.splitlines()
        if (found := ERROR.match(line))
    ]
    return result.stdout, errors


def package_of(path: str) -> str:
    """bot/channel/story.py -> bot.channel; bot/app.py -> bot.app; benchmarks/x.py -> benchmarks."""
    parts = Path(path).with_suffix("").parts
    if parts[0] == "bot":
        return ".".join(parts[:2])
    return parts[0]


def test_mypy_finds_no_error_outside_the_packages_with_a_budget() -> None:
    _, errors = mypy()
    found = [line for package, line in errors if package not in BUDGET]
    assert not found, "mypy (settings in pyproject.toml [tool.mypy]) reports:\n" + "\n".join(found)


def test_each_package_keeps_within_its_error_budget() -> None:
    _, errors = mypy()
    counts = Counter(package for package, _ in errors)
    over = {p: n for p, n in counts.items() if p in BUDGET and n > BUDGET[p]}
    assert not over, (
        "more mypy errors than the budget allows (tests/test_types.py BUDGET): "
        + ", ".join(f"{p}: {n} > {BUDGET[p]}" for p, n in sorted(over.items()))
        + "\n"
        + "\n".join(line for p, line in errors if p in over)
    )
    under = {p: counts[p] for p in BUDGET if counts[p] < BUDGET[p]}
    if under:
        warnings.warn(
            "fewer mypy errors than budgeted, lower BUDGET in tests/test_types.py "
            "to " + ", ".join(f'"{p}": {n}' for p, n in sorted(under.items())),
            stacklevel=1,
        )


def test_the_clean_packages_are_the_ones_without_a_budget() -> None:
    assert not set(CLEAN) & set(BUDGET)
    modules = {
        package_of(p.relative_to(ROOT).as_posix())
        for folder in ("bot", "benchmarks")
        for p in (ROOT / folder).rglob("*.py")
    }
    assert modules <= set(CLEAN) | set(BUDGET), sorted(modules - set(CLEAN) - set(BUDGET))


def test_every_type_ignore_in_the_clean_packages_names_its_error_and_why() -> None:
    """``# type: ignore[code]  # reason`` (or the reason in a comment on the line above):
    what is silenced, and why, for each."""
    bare = []
    for folder in ("bot", "benchmarks"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            name = path.relative_to(ROOT).as_posix()
            if package_of(name) in BUDGET:
                continue
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
