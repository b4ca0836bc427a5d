"""The bot's edges with its libraries: the private parts it relies on, and the lock file.

``INTERNALS`` is the one list of every private (or undocumented) part of a library
that the bot uses outside :mod:`bot.cogs.discord_private`, the one module of ``bot``
that touches discord.py's (which names the versions they were checked on;
``tests/cogs/test_discord_private.py`` checks each). For each part listed, a test checks
that the installed version still has it, in the shape the bot uses it, so that an
upgrade that removes or changes it fails here, naming the library, the part and where
the bot uses it, rather than in a game. A library on this list has an upper bound in
pyproject.toml; once these tests pass on a newer version, the bound may be raised.
Scans of the code's syntax keep it so: a new use of a library's private part in
``bot/`` or ``benchmarks/`` is added to the list, and in ``bot/`` discord.py's private
names and undocumented modules are touched in that module alone.

``requirements.lock`` pins the runtime dependencies for deployments (the Dockerfile
installs from it). It is written by this module, from what the virtual environment
has installed::

    .venv/bin/python -m tests.test_dependencies > requirements.lock
"""

from __future__ import annotations

import ast
import inspect
import platform
import random
import re
import sys
import tomllib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from importlib import metadata
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parent.parent
LOCK = ROOT / "requirements.lock"
SCANNED = ("bot", "benchmarks")


# --- the checks: each raises (AssertionError, AttributeError, ...) if the part is gone
# or has another shape than the one the bot uses.


def _os_exit() -> None:
    import os

    assert callable(os._exit), "os._exit is gone"


def _argparse_actions() -> None:
    import argparse

    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--seed", required=True)
    (action,) = parser._actions
    assert action.option_strings == ["--seed"] and action.required, f"the action is {action!r}"


def _exponential_backoff() -> None:
    import discord
    import discord.client

    assert vars(discord.client)["ExponentialBackoff"] is discord.backoff.ExponentialBackoff
    assert "ExponentialBackoff()" in inspect.getsource(discord.Client.connect)
    assert isinstance(discord.backoff.ExponentialBackoff().delay(), float)


def _randbelow() -> None:
    rng, same = random.Random(5), random.Random(5)
    assert [1 + rng._randbelow(6) for _ in range(50)] == [same.randint(1, 6) for _ in range(50)]


def _c_make_encoder() -> None:
    # c_make_encoder is not in typeshed's json.encoder
    from json.encoder import (  # type: ignore[attr-defined]
        JSONEncoder,
        c_make_encoder,
        encode_basestring,
    )

    assert c_make_encoder is not None, "json has no C encoder"
    encoder = JSONEncoder(separators=(",", ":"))
    encode = c_make_encoder(
        None, encoder.default, encode_basestring, None, ":", ",", False, False, False
    )
    assert "".join(encode({"a": [1, 2]}, 0)) == '{"a":[1,2]}'


@dataclass(frozen=True)
class Internal:
    library: str  # the distribution, as pip names it ("Python" for the standard library)
    part: str  # what the bot uses
    pattern: str  # a regular expression that finds the use in the source
    used_in: tuple[str, ...]  # the files that use it
    why: str
    check: Callable[[], None]

    def version(self) -> str:
        if self.library == "Python":
            return platform.python_version()
        return metadata.version(self.library)


INTERNALS: tuple[Internal, ...] = (
    Internal(
        "Python",
        "os._exit (documented; private only by its name)",
        r"\._exit\b",
        ("bot/__main__.py",),
        "a stop that hangs past its deadline still ends the process",
        _os_exit,
    ),
    Internal(
        "Python",
        "argparse.ArgumentParser._actions",
        r"\._actions\b",
        ("bot/cli.py",),
        "a command's option written before the command is told where it belongs",
        _argparse_actions,
    ),
    Internal(
        "discord.py",
        "discord.client.ExponentialBackoff (undocumented)",
        r"\bExponentialBackoff\b",
        ("benchmarks/outage.py",),
        "the outage benchmark reconnects at once rather than after discord.py's waits",
        _exponential_backoff,
    ),
    Internal(
        "Python",
        "random.Random._randbelow",
        r"\b_randbelow\b",
        ("bot/rules/dice.py",),
        "dice: the very numbers of randint(1, faces), at half the cost",
        _randbelow,
    ),
    Internal(
        "Python",
        "json.encoder.c_make_encoder",
        r"\bc_make_encoder\b",
        ("bot/store/records.py",),
        "the C JSON encoder made once, not on every json.dumps",
        _c_make_encoder,
    ),
)


@pytest.mark.parametrize("internal", INTERNALS, ids=lambda i: f"{i.library}:{i.part}")
def test_the_installed_library_has_the_private_part_the_bot_uses(internal: Internal) -> None:
    try:
        internal.check()
    except Exception as failed:
        pytest.fail(
            f"{internal.library} {internal.version()} no longer has "
            f"{internal.part} as the bot uses it ({type(failed).__name__}: {failed}).\n"
            f"Used in {', '.join(internal.used_in)}: {internal.why}.\n"
            "Adapt that code, or keep the upper bound in pyproject.toml below this "
            "version."
        )


# --- every private part used is on the list


def _sources() -> Iterator[tuple[str, str]]:
    for folder in SCANNED:
        for path in sorted((ROOT / folder).rglob("*.py")):
            yield path.relative_to(ROOT).as_posix(), path.read_text(encoding="utf-8")


def _code(text: str) -> Iterator[tuple[int, str]]:
    for number, line in enumerate(text.splitlines(), 1):
        code = line.split("#", 1)[0]
        if code.strip():
            yield number, code


# Dunder names of Python itself (data model, modules, functions, classes).
_PYTHON_DUNDERS = {
    name
    for thing in (
        object,
        type,
        int,
        list,
        dict,
        type(sys),
        type(_sources),
        Internal,
        property,
        staticmethod,
    )
    for name in dir(thing)
    if name.startswith("__")
} | {
    "__main__",
    "__enter__",
    "__exit__",
    "__aenter__",
    "__aexit__",
    "__iter__",
    "__next__",
    "__aiter__",
    "__anext__",
    "__await__",
    "__call__",
    "__get__",
    "__set__",
    "__slots__",
    "__wrapped__",
    "__mro__",
    "__file__",
    "__path__",
    "__version__",
    "__all__",
    "__func__",
    "__self__",
    "__code__",
    "__defaults__",
    "__kwdefaults__",
    "__globals__",
    "__closure__",
}


ROOM = "bot/cogs/discord_private.py"
"""The one module of ``bot`` that touches discord.py's private parts."""
PUBLIC_MODULES = frozenset({"abc", "app_commands", "ext", "ui", "utils"})
"""discord.py's documented modules (``discord.ext.commands`` and ``tasks`` under ``ext``)."""


def _private(name: str) -> bool:
    dunder = name.startswith("__") and name.endswith("__")
    return name.startswith("_") and not (dunder and name in _PYTHON_DUNDERS)


def _off_own(node: ast.expr) -> bool:
    """Whether ``node`` is ``self``, ``cls``, ``super()`` or an attribute chain off them."""
    while isinstance(node, ast.Attribute):
        node = node.value
    if isinstance(node, ast.Call):
        return isinstance(node.func, ast.Name) and node.func.id == "super"
    return isinstance(node, ast.Name) and node.id in ("self", "cls")


def _defined(tree: ast.Module, stored_on_anything: bool = False) -> Iterator[str]:
    """The names ``tree`` defines: functions, classes, variables, ``__slots__``, and the
    attributes it sets on ``self`` or ``cls`` (on anything, if ``stored_on_anything``)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            yield node.name
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            yield node.id
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            value = node.value
            if stored_on_anything or (isinstance(value, ast.Name) and value.id in ("self", "cls")):
                yield node.attr
        elif isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "__slots__" for t in node.targets
        ):
            for item in ast.walk(node.value):
                if isinstance(item, ast.Constant) and isinstance(item.value, str):
                    yield item.value


@dataclass(frozen=True)
class Use:
    """An attribute the code reads or writes off an object (or imports from a module)."""

    path: str
    line: int
    name: str
    off_own: bool
    """Read off ``self``, ``cls`` or ``super()`` (or a chain of attributes off them)."""


def _uses(path: str, tree: ast.Module) -> Iterator[Use]:
    accessors = ("getattr", "setattr", "hasattr", "delattr")
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute):
            yield Use(path, node.lineno, node.attr, _off_own(node.value))
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in accessors
            and len(node.args) >= 2
            and isinstance(node.args[1], ast.Constant)
            and isinstance(node.args[1].value, str)
        ):
            yield Use(path, node.lineno, node.args[1].value, _off_own(node.args[0]))
        elif (
            isinstance(node, ast.ImportFrom)
            and node.module
            and not node.level
            and node.module.split(".")[0] not in ("bot", "benchmarks", "tests")
        ):
            for alias in node.names:
                yield Use(path, node.lineno, alias.name, False)


@cache
def _trees() -> dict[str, ast.Module]:
    return {path: ast.parse(text, path) for path, text in _sources()}


@cache
def _own() -> frozenset[str]:
    """The names the scanned code defines itself."""
    return frozenset(name for tree in _trees().values() for name in _defined(tree))


@cache
def _discord_private() -> frozenset[str]:
    """Every private name discord.py defines (Python's own dunders aside)."""
    import discord

    names: set[str] = set()
    for path in Path(discord.__file__).parent.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        names.update(_defined(tree, stored_on_anything=True))
    return frozenset(filter(_private, names))


def _private_uses() -> dict[str, set[str]]:
    """The private names the scanned code outside :data:`ROOM` reads off objects (or
    imports from modules) it does not define, with the files: a name is the code's own
    if the code defines it (see :func:`_defined`). A heuristic: it finds names, not
    which library an object comes from."""
    found: dict[str, set[str]] = {}
    for path, tree in _trees().items():
        for use in _uses(path, tree):
            if path != ROOM and _private(use.name) and use.name not in _own():
                found.setdefault(use.name, set()).add(path)
    return found


def _reaching_into_discord(path: str, tree: ast.Module) -> Iterator[str]:
    """Where ``tree`` touches discord.py's private names or undocumented modules."""
    import discord

    def internal(module: str) -> bool:
        parts = module.split(".")
        return parts[0] == "discord" and len(parts) > 1 and parts[1] not in PUBLIC_MODULES

    def listed(name: str) -> bool:  # another library's part of the same name
        return any(path in i.used_in and re.search(i.pattern, "." + name) for i in INTERNALS)

    for use in _uses(path, tree):
        own = use.off_own and use.name in _own()
        if use.name in _discord_private() and not own and not listed(use.name):
            yield f"{path}:{use.line}: {use.name}"
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            modules = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            modules = [node.module]
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            submodule = getattr(discord, node.attr, None) if node.value.id == "discord" else None
            modules = [f"discord.{node.attr}"] if isinstance(submodule, type(sys)) else []
        else:
            modules = []
        yield from (f"{path}:{node.lineno}: {m}" for m in modules if internal(m))


def _listed_uses() -> dict[str, set[str]]:
    """Where each listed part's pattern occurs in the scanned code."""
    found: dict[str, set[str]] = {}
    for path, text in _sources():
        for internal in INTERNALS:
            if any(re.search(internal.pattern, code) for _, code in _code(text)):
                found.setdefault(internal.part, set()).add(path)
    return found


def test_every_private_part_the_code_uses_is_listed() -> None:
    listed = _listed_uses()
    unlisted = []
    for internal in INTERNALS:
        new = listed.get(internal.part, set()) - set(internal.used_in)
        unlisted += [f"{internal.library} {internal.part} in {path}" for path in sorted(new)]
    patterns = [re.compile(i.pattern) for i in INTERNALS]
    for name, paths in sorted(_private_uses().items()):
        if not any(p.search("." + name) for p in patterns):
            unlisted += [f"{name} in {path}" for path in sorted(paths)]
    assert not unlisted, (
        "private parts of libraries used but not listed in INTERNALS "
        "(tests/test_dependencies.py): add them, with a check and an upper bound "
        "in pyproject.toml:\n" + "\n".join(unlisted)
    )


def test_discord_py_is_reached_into_from_one_module_only() -> None:
    """In ``bot``, discord.py's private names and undocumented modules are used in
    :data:`ROOM` alone, which names the versions they were checked on."""
    trees = _trees()
    outside = [
        line
        for path, tree in trees.items()
        if path != ROOM and path.startswith("bot/")
        for line in _reaching_into_discord(path, tree)
    ]
    assert outside == [], (
        f"discord.py's private parts are used outside {ROOM}: move each use there, with "
        "its test in tests/cogs/test_discord_private.py:\n" + "\n".join(outside)
    )
    assert list(_reaching_into_discord(ROOM, trees[ROOM]))  # the scan sees what it must


def test_the_scans_see_a_private_part_and_let_the_code_s_own_be() -> None:
    source = """
import discord.http
from discord.gateway import DiscordWebSocket
from discord.ext import commands


class Door:
    __slots__ = ("_parse",)

    def receive(self, bot, item):
        getattr(bot, "_connection").parsers
        self._parse(item.__discord_ui_compiled_template__)
        return discord.state, discord.utils.MISSING, self._locks._locks, self._connection
"""
    tree = ast.parse(source)
    found = [line.split(": ")[1] for line in _reaching_into_discord("probe.py", tree)]
    assert found == [
        "_connection",
        "__discord_ui_compiled_template__",
        "_connection",
        "discord.http",
        "discord.gateway",
        "discord.state",
    ]
    assert "_parse" in set(_defined(tree)) and "_locks" not in set(_defined(tree))


def test_each_listed_library_has_an_upper_bound() -> None:
    bounded = {canonicalize_name(r.name): r for r in _runtime_requirements()}
    for library in {i.library for i in INTERNALS} - {"Python"}:
        requirement = bounded.get(canonicalize_name(library))
        assert requirement is not None, f"{library} is no dependency in pyproject.toml"
        assert any(s.operator in ("<", "<=", "==", "~=") for s in requirement.specifier), (
            f"{library}: its private parts are used, so it needs an upper bound ({requirement})"
        )
        assert requirement.specifier.contains(metadata.version(library)), (
            f"the installed {library} {metadata.version(library)} is outside {requirement}"
        )


# --- the lock file


def _runtime_requirements() -> list[Requirement]:
    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return [Requirement(r) for r in data["project"]["dependencies"]]


def _applies(requirement: Requirement, extras: set[str]) -> bool:
    marker = requirement.marker
    return marker is None or any(marker.evaluate({"extra": e}) for e in extras | {""})


def runtime_closure() -> dict[str, str]:
    """Every runtime dependency and its dependencies, as installed: name → version."""
    todo = [(r, set(r.extras)) for r in _runtime_requirements()]
    extras_of: dict[str, set[str]] = {}
    while todo:
        requirement, extras = todo.pop()
        name = canonicalize_name(requirement.name)
        if name in extras_of and extras <= extras_of[name]:
            continue
        extras_of[name] = extras_of.get(name, set()) | extras
        dist = metadata.distribution(name)
        for line in dist.requires or []:
            needed = Requirement(line)
            if _applies(needed, extras):
                todo.append((needed, set(needed.extras)))
    return {name: metadata.version(name) for name in sorted(extras_of)}


def lock_text() -> str:
    header = (
        "# Pinned runtime dependencies for deployments (the Dockerfile installs these,",
        "# then the bot with --no-deps). pyproject.toml keeps the ranges that",
        "# `pip install -e .` resolves.",
        "# Regenerate from the virtual environment, after installing what should be pinned:",
        "#   .venv/bin/pip install -e '.[dev]'",
        "#   .venv/bin/python -m tests.test_dependencies > requirements.lock",
        f"# Written with Python {sys.version_info.major}.{sys.version_info.minor} "
        f"on {sys.platform}; tests/test_dependencies.py checks it. Versions without",
        "# hashes: the image is built on several platforms (x86-64, arm64), each with",
        "# wheels of its own.",
    )
    return "\n".join((*header, *(f"{n}=={v}" for n, v in runtime_closure().items()))) + "\n"


def _pins() -> dict[str, Version]:
    pins: dict[str, Version] = {}
    for line in LOCK.read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            name, _, version = line.partition("==")
            assert version, f"requirements.lock: {line!r} is not pinned with =="
            pins[canonicalize_name(name)] = Version(version.split(";")[0].strip())
    return pins


def test_the_lock_file_pins_every_runtime_dependency_within_its_range() -> None:
    pins = _pins()
    for requirement in _runtime_requirements():
        name = canonicalize_name(requirement.name)
        assert name in pins, f"requirements.lock does not pin {requirement.name}"
        assert requirement.specifier.contains(pins[name], prereleases=True), (
            f"requirements.lock pins {name}=={pins[name]}, outside {requirement}"
        )
        for extra in requirement.extras:
            dist = metadata.distribution(name)
            for line in dist.requires or []:
                needed = Requirement(line)
                if needed.marker is not None and needed.marker.evaluate({"extra": extra}):
                    assert canonicalize_name(needed.name) in pins, (
                        f"requirements.lock does not pin {needed.name} ({name}[{extra}])"
                    )


def test_the_lock_file_pins_the_dependencies_of_what_it_pins() -> None:
    """Closed: each pinned package's own requirements are pinned, within their ranges
    (read from the installed metadata of the packages installed at the pinned version)."""
    pins = _pins()
    missing = []
    for name, version in pins.items():
        try:
            dist = metadata.distribution(name)
        except metadata.PackageNotFoundError:
            continue
        if Version(dist.version) != version:
            continue
        for line in dist.requires or []:
            needed = Requirement(line)
            if not _applies(needed, set()):
                continue
            pinned = pins.get(canonicalize_name(needed.name))
            if pinned is None or not needed.specifier.contains(pinned, prereleases=True):
                missing.append(f"{name} {version} needs {needed}; the lock has {pinned}")
    assert not missing, (
        "requirements.lock is not closed; regenerate it: "
        ".venv/bin/python -m tests.test_dependencies > requirements.lock\n" + "\n".join(missing)
    )


def test_the_docker_image_installs_the_lock_file() -> None:
    dockerfile = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    assert "pip install -r /tmp/qwixx-bot/requirements.lock" in dockerfile
    assert "pip install --no-deps /tmp/qwixx-bot" in dockerfile


if __name__ == "__main__":
    sys.stdout.write(lock_text())
