"""bot.tournament is pure like bot.rules: it imports only the standard library's pure
modules and the rules, so it has no Discord, no I/O, no clock and no global random."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "bot" / "tournament"
ALLOWED = {
    "__future__",
    "collections.abc",
    "dataclasses",
    "fractions",
    "functools",
    "hashlib",
    "itertools",
    "math",
    "re",
    "typing",
    "bot.rules",
}


def imports(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and not node.level:
            found.add(node.module or "")
    return found


def test_the_package_imports_only_pure_modules_and_the_rules() -> None:
    modules = sorted(PACKAGE.glob("*.py"))
    assert len(modules) >= 5
    found = {f"{path.name}: {name}" for path in modules for name in imports(path) - ALLOWED}
    assert found == set()


def test_the_check_sees_a_forbidden_import(tmp_path: Path) -> None:
    sneaky = tmp_path / "sneaky.py"
    sneaky.write_text("import time\ndef f():\n    from random import random\n")
    assert imports(sneaky) - ALLOWED == {"time", "random"}
