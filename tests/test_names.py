"""Each class in ``bot`` has a name of its own: a reader who meets ``Standing`` or
``Settings`` knows which thing it is without looking at the import line."""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "bot"


def classes_named_twice(package: Path) -> dict[str, list[str]]:
    """Every class name defined more than once under ``package`` (at any depth, nested
    classes too), with where each definition stands (``path:line``)."""
    found: defaultdict[str, list[str]] = defaultdict(list)
    for path in sorted(package.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                found[node.name].append(f"{path.relative_to(package).as_posix()}:{node.lineno}")
    return {name: places for name, places in found.items() if len(places) > 1}


def test_no_two_classes_in_bot_share_a_name() -> None:
    assert classes_named_twice(PACKAGE) == {}


def test_a_name_used_twice_is_found_with_both_places(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    (tmp_path / "a.py").write_text("class Post:\n    pass\n\n\nclass Alone:\n    pass\n")
    (tmp_path / "sub" / "b.py").write_text("def f():\n    class Post:\n        pass\n")
    assert classes_named_twice(tmp_path) == {"Post": ["a.py:1", "sub/b.py:2"]}
