"""The import graph of ``bot``: no module imports itself back through others.

The graph is read from the source (every ``import`` of a module, wherever it stands:
at the top, under ``TYPE_CHECKING`` or inside a function), so a circle hidden by a
late import still counts. Packages listed in :data:`STRICT` must have none; circles
found elsewhere must be listed in :data:`KNOWN` (which is to shrink, never grow), and
one listed there that has gone must be struck off. Each module of the strict packages
also imports on its own, first, in a fresh interpreter.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "bot"
STRICT = ("bot.store", "bot.service", "bot.channel", "bot.cogs", "bot.render", "bot.tournament")
"""Packages whose modules take part in no circle at all."""
KNOWN: frozenset[frozenset[str]] = frozenset()
"""Circles elsewhere in ``bot``, each the set of its modules, left for later."""


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@cache
def modules() -> dict[str, Path]:
    return {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def imported(name: str, path: Path) -> set[str]:
    """The modules of ``bot`` that ``name`` imports by name (a package's own
    submodules only when named: importing one runs its package first, but that is
    no circle)."""
    known, found = modules(), set()
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - node.level + 1]
                base = ".".join([*anchor, *([base] if base else [])])
            targets = [
                f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base
                for alias in node.names
            ]
        else:
            continue
        for target in targets:
            while target and target not in known:  # ``import bot.x.y`` names bot.x.y
                target = target.rpartition(".")[0]
            if target and target != name:
                found.add(target)
    return found


def circles() -> list[frozenset[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    graph = {name: imported(name, path) for name, path in modules().items()}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[frozenset[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for target in sorted(graph[node]):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(frozenset(component))

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def strict(component: frozenset[str]) -> bool:
    return any(m == p or m.startswith(p + ".") for m in component for p in STRICT)


def describe(component: frozenset[str]) -> str:
    return " <-> ".join(sorted(component))


def test_the_graph_sees_a_circle(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The reader itself: a late import inside a function is an edge too."""
    known = {"bot.a": tmp_path / "a.py", "bot.b": tmp_path / "b.py"}
    known["bot.a"].write_text("from bot import b\n")
    known["bot.b"].write_text("def late():\n    from .a import thing\n")
    monkeypatch.setattr(sys.modules[__name__], "modules", lambda: known)
    assert imported("bot.b", known["bot.b"]) == {"bot.a"}
    assert circles() == [frozenset(known)]


def test_the_store_and_the_service_have_no_import_circle() -> None:
    found = [describe(c) for c in circles() if strict(c)]
    assert found == []


def test_circles_elsewhere_are_the_known_ones() -> None:
    """A new circle fails; one of :data:`KNOWN` that has gone must be struck off."""
    found = {c for c in circles() if not strict(c)}
    assert sorted(map(describe, found - KNOWN)) == []
    assert sorted(map(describe, KNOWN - found)) == []


def strict_modules() -> Iterator[str]:
    for name in modules():
        if strict(frozenset([name])):
            yield name


@pytest.mark.slow  # an interpreter for each module: a long check, the whole suite runs it
def test_each_module_of_the_store_and_the_service_imports_first() -> None:
    """Whichever module a process imports first, it imports: no order of imports is
    needed to break a circle."""
    script = (
        "import subprocess, sys\n"
        "failed = [n for n in sys.argv[1:] if subprocess.run("
        "[sys.executable, '-c', 'import ' + n], capture_output=True).returncode]\n"
        "print(' '.join(failed))\n"
    )
    names = list(strict_modules())
    assert len(names) > 10
    done = subprocess.run(
        [sys.executable, "-c", script, *names],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    assert done.stdout.split() == []


def test_the_discord_side_takes_games_and_errors_from_the_service() -> None:
    """The adapter, the channel and the client import nothing of the store: its types
    and errors come through :mod:`bot.service.types`, its per-game lock through the
    service."""
    side = {
        name: path
        for name, path in modules().items()
        if name == "bot.app" or name.startswith(("bot.cogs", "bot.channel"))
    }
    found = sorted(
        f"{name} imports {target}"
        for name, path in side.items()
        for target in imported(name, path)
        if target.startswith("bot.store")
    )
    assert found == []
    reaching = sorted(
        name
        for name, path in side.items()
        if ".store.game_lock" in path.read_text(encoding="utf-8")
    )
    assert reaching == []
