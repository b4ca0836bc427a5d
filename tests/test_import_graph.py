"""The import graph of ``bot``: no module imports itself back through others, and the
Discord side keeps to its side of the house.

The graph is read from the source (every ``import`` of a module, wherever it stands:
at the top, under ``TYPE_CHECKING`` or inside a function), so a circle hidden by a
late import still counts. Packages listed in :data:`STRICT` must have none; circles
found elsewhere must be listed in :data:`KNOWN` (which is to shrink, never grow), and
one listed there that has gone must be struck off. Each module of the strict packages
also imports on its own, first, in a fresh interpreter.

The boundary (:data:`BOUNDARY`): the channel (``bot.channel``) and the Discord adapter
(``bot.cogs``) take nothing from the store, neither by importing ``bot.store`` nor by
importing a name of the store's through another module (what a name *is* counts, not
where it was imported from), nor by reaching a ``.store`` attribute; and the channel
takes nothing from the service or the adapter: it reads a game through its ``Source``
and what it shows is made of values below both (``bot.records``, ``bot.rules``).
"""

from __future__ import annotations

import ast
import importlib
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
BOUNDARY = {"bot.channel": ("bot.store", "bot.service", "bot.cogs"), "bot.cogs": ("bot.store",)}
"""What each side may not take from: its own modules, from those packages."""


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


def within(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def named_imports(path: Path) -> Iterator[tuple[str, str]]:
    """``(module, name)`` of every ``from module import name`` in ``path`` (absolute)."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for alias in node.names:
                yield node.module, alias.name


def origin(module: str, name: str) -> str:
    """The module that defines what ``from module import name`` gives (a module itself
    for a submodule; ``module`` for a value that says nothing of where it came from)."""
    found = getattr(importlib.import_module(module), name, None)
    if found is None:
        return f"{module}.{name}"
    if isinstance(found, type(sys)):
        return found.__name__
    return str(getattr(found, "__module__", None) or module)


def crossings(side: dict[str, Path]) -> list[str]:
    """What each module of ``side`` takes across :data:`BOUNDARY`."""
    found = []
    for name, path in side.items():
        banned = next(b for p, b in BOUNDARY.items() if within(name, p))
        for target in imported(name, path):
            if any(within(target, b) for b in banned):
                found.append(f"{name} imports {target}")
        for module, item in named_imports(path):
            source = origin(module, item)
            if not any(within(module, b) for b in banned) and any(
                within(source, b) for b in banned
            ):
                found.append(f"{name} imports {item} (of {source}) from {module}")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and node.attr == "store":
                found.append(f"{name} line {node.lineno} reaches .store")
    return sorted(found)


def discord_side() -> dict[str, Path]:
    return {
        name: path
        for name, path in modules().items()
        if any(within(name, package) for package in BOUNDARY)
    }


def test_the_boundary_is_kept() -> None:
    """The channel and the adapter take nothing from the store, and the channel nothing
    from the service or the adapter (see the module)."""
    side = discord_side()
    assert len(side) > 20
    assert crossings(side) == []


def test_the_boundary_sees_each_way_across(tmp_path: Path) -> None:
    """The reader itself: a direct import, a name of the store's imported through
    another module, a reached ``.store`` and a channel module importing the adapter
    are each found."""
    (tmp_path / "relay.py").write_text("from bot.store.store import Store\n")
    channel = tmp_path / "channel.py"
    channel.write_text(
        "from bot.store import open_store\n"
        "from relay import Store\n"
        "from bot.cogs.answers import answer\n"
        "from bot.service.play import Seats\n"
        "def reach(service):\n"
        "    return service.store\n"
    )
    adapter = tmp_path / "adapter.py"
    adapter.write_text("from bot.channel.plan import plan\nfrom relay import Store\n")
    sys.path.insert(0, str(tmp_path))
    try:
        found = crossings({"bot.channel.probe": channel, "bot.cogs.probe": adapter})
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("relay", None)
    assert found == [
        "bot.channel.probe imports Store (of bot.store.store) from relay",
        "bot.channel.probe imports bot.cogs.answers",
        "bot.channel.probe imports bot.service.play",
        "bot.channel.probe imports bot.store",
        "bot.channel.probe line 6 reaches .store",
        "bot.cogs.probe imports Store (of bot.store.store) from relay",
    ]
