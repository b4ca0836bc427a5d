"""Tests never write into rules objects: they build positions with tests.positions.

A game is immutable outside the rules (:mod:`bot.rules.base`): games share containers
and sheets, so a test that writes into one changes positions it did not mean to, and
tests a position the rules may never reach. Tests build the position they need with
:func:`tests.positions.position` / :func:`~tests.positions.reposition` (or
``new_game`` + ``apply`` / ``replay``) instead.

This is a static check over the test files (``ast``). It flags, outside ``bot/``:

- assignments, augmented assignments and ``del`` of an attribute of anything but the
  test's own ``self``/``cls`` (``game.dice = ...``, ``sheet.penalties += 1``,
  ``game.legal_moves = lambda ...``, ``self.game.turn = ...``);
- assignments and ``del`` of an item of a container reached through an attribute
  (``game.sheets[1] = ...``, ``sheet.crossed["red"] = ...``, ``del game.dice["blue"]``),
  or of a name bound to such a container (``sheet = game.sheets[1]``; ``for sheet in
  game.sheets.values()``; ``other = sheet.fields["purple"]``, then ``other[3] = 9``);
- mutating method calls (:data:`MUTATORS`: ``.update``, ``.pop``, ``.append``, ...) on
  the same (``game.dice.pop("blue")``, ``sheet.crossed.update(...)``, ``other.update``),
  but for ``.clear()`` on a chain that starts at a name the file imports from outside
  the rules (``compact.SURFACES.clear()``: a module's cache), or at a name bound only to
  such chains (``for cache in (compact.SURFACES, compact.SPRITES): cache.clear()``);
- ``setattr``/``delattr``/``__setattr__``, ``vars(x)[...] = ``, and
  ``monkeypatch.setattr`` on a local object (not on a name bound only to chains from
  a module outside the rules: ``for cls in (canvas.Canvas, compact.Surface):
  monkeypatch.setattr(cls, "label", ...)`` patches the render's classes).

Not flagged: writes inside ``with pytest.raises(...)`` (the write is expected to fail:
immutability tests), the test's own objects (``self.seen = ...``, local dicts and lists
built by the test), writes into an object of the project's own non-rules types, one
attribute deep, through a name annotated with that type (``shown: Shown``, then
``shown.notes.append(...)`` or ``shown.turn = 3``; :func:`project_type` says which
types: classes imported from ``bot`` outside :mod:`bot.rules`, no game among them; a
game such an object holds, ``channel.game.dice``, is two attributes deep and flagged),
and the tests in :data:`EXEMPT` (the write is their subject).
The check is coarse on purpose: a write into any object reached through an attribute is
flagged, rules object or not; a test that really needs one writes its own data first
(a local dict) and builds the object from it.
"""

from __future__ import annotations

import ast
import importlib
from functools import cache
from pathlib import Path

from bot.rules import Game

ROOT = Path(__file__).resolve().parent.parent

# The folders whose tests handle games and sheets.
CHECKED: tuple[str, ...] = (
    "tests/rules",
    "tests/players",
    "tests/render",
    "tests/cogs",
    "tests/i18n",
)
# Folders whose tests still write into games or sheets; they are converted to
# tests.positions next, and this tuple is emptied as they are.
STILL_TO_CONVERT: tuple[str, ...] = ()

# (file, test function): why the test may write. Only where the write is the subject.
EXEMPT: dict[tuple[str, str], str] = {
    (
        "tests/rules/test_fast_core.py",
        "test_a_caller_may_still_set_attributes_on_a_game",
    ): "the rules' documented instance dict: a caller's attribute stays with that game",
}

MUTATORS = frozenset(
    {
        "update",
        "pop",
        "popitem",
        "add",
        "append",
        "extend",
        "insert",
        "clear",
        "discard",
        "remove",
        "setdefault",
        "sort",
        "reverse",
        "__setitem__",
        "__delitem__",
        "__setattr__",
        "__delattr__",
        "__iadd__",
        "__ior__",
        "difference_update",
        "intersection_update",
        "symmetric_difference_update",
    }
)
OWN = frozenset({"self", "cls"})
# Calls that hand out a container of the object they are called on (reads, not copies).
READS = frozenset({"get", "values", "items", "setdefault"})


def reached(
    node: ast.expr,
    aliases: set[str],
    imported: frozenset[str] = frozenset(),
    typed: frozenset[str] = frozenset(),
) -> bool:
    """Whether ``node`` is (part of) an object reached through an attribute: a chain of
    attributes, items and reads (:data:`READS`) with at least one attribute not of the
    test's own ``self``, or rooted at a name bound to such a chain (``aliases``); not
    one rooted at an ``imported`` name (a module's table or cache, cleared by a test),
    nor one at most one attribute deep into a ``typed`` name (an object of the
    project's own non-rules types: :func:`project_type`)."""
    attributes = 0
    while True:
        if isinstance(node, ast.Attribute):
            attributes += 1
            node = node.value
        elif isinstance(node, ast.Subscript):
            node = node.value
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in READS
        ):
            attributes -= 1  # the method's name is no attribute read
            node = node.func
        elif isinstance(node, ast.Name):
            if node.id in OWN:
                return attributes >= 2
            if node.id in imported or (node.id in typed and attributes <= 1):
                return False
            return attributes >= 1 or node.id in aliases
        else:
            return False


def from_rules(module: str) -> bool:
    return module == "bot.rules" or module.startswith("bot.rules.")


@cache
def project_type(module: str, name: str) -> bool:
    """Whether ``from module import name`` gives a class of the project's own outside
    the rules (a record, a plan step, a test's fake clock), neither a game nor any type
    the rules define."""
    if not module.startswith(("bot.", "tests.")) or from_rules(module):
        return False
    try:
        found = getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError):
        return False
    return (
        isinstance(found, type) and not issubclass(found, Game) and not from_rules(found.__module__)
    )


def names_in(target: ast.expr) -> list[str]:
    return [n.id for n in ast.walk(target) if isinstance(n, ast.Name)]


def bound_by(target: ast.expr) -> list[str]:
    """The names an assignment to ``target`` binds (not those it writes into)."""
    if isinstance(target, ast.Name):
        return [target.id]
    if isinstance(target, (ast.Tuple, ast.List)):
        return [name for t in target.elts for name in bound_by(t)]
    if isinstance(target, ast.Starred):
        return bound_by(target.value)
    return []


def is_raises(item: ast.withitem) -> bool:
    call = item.context_expr
    return (
        isinstance(call, ast.Call)
        and isinstance(call.func, ast.Attribute)
        and call.func.attr == "raises"
    )


class Finder(ast.NodeVisitor):
    """Collects ``(line, source)`` of each write into an object reached through an
    attribute, function by function (aliases are per function, nested ones included)."""

    def __init__(self, source: str, path: str) -> None:
        self.source, self.path = source, path
        self.found: list[tuple[int, str]] = []
        self.aliases: set[str] = set()
        self.locals: set[str] = set()
        # Names bound only to chains from a module outside the rules (``cls`` in ``for
        # cls in (canvas.Canvas, compact.Surface)``), and names annotated with a type of
        # the project's own outside the rules (``shown: Shown``): both per function.
        self.outside: set[str] = set()
        self.typed: set[str] = set()
        self.function = ""
        imports = [
            node
            for node in ast.parse(source).body
            if isinstance(node, (ast.Import, ast.ImportFrom))
        ]
        # Names the file imports from outside the rules: modules and their tables
        # (``import bot.x`` binds ``bot``, from which the rules are reached too).
        self.imported = frozenset(
            (alias.asname or alias.name).split(".")[0]
            for node in imports
            for alias in node.names
            if (
                isinstance(node, ast.ImportFrom)
                and not node.level
                and not from_rules(node.module or "")
                and not (node.module == "bot" and alias.name == "rules")
            )
            or (
                isinstance(node, ast.Import)
                and not from_rules(alias.name)
                and (alias.asname is not None or alias.name.split(".")[0] != "bot")
            )
        )
        self.types = frozenset(
            alias.asname or alias.name
            for node in imports
            if isinstance(node, ast.ImportFrom) and not node.level
            for alias in node.names
            if project_type(node.module or "", alias.name)
        )
        # Names taken from the rules (``from bot.rules.qwinto import GEOMETRY``): their
        # tables are rules objects themselves.
        self.aliases |= {
            alias.asname or alias.name
            for node in imports
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("bot.rules")
            for alias in node.names
        }

    # --- scopes --------------------------------------------------------------
    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        outer = (self.aliases, self.locals, self.outside, self.typed, self.function)
        if not self.function:
            self.function = node.name
        if (self.path, self.function) in EXEMPT:
            self.function = outer[-1]
            return
        self.aliases, self.locals = set(outer[0]), set(outer[1])
        self.outside, self.typed = set(outer[2]), set(outer[3])
        arguments = (*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs)
        self.locals |= {a.arg for a in arguments}
        self.typed |= {a.arg for a in arguments if self.of_project_type(a.annotation)}
        self._bind_aliases(node)
        self.generic_visit(node)
        self.aliases, self.locals, self.outside, self.typed, self.function = outer

    visit_AsyncFunctionDef = visit_FunctionDef  # type: ignore[assignment]

    def of_project_type(self, annotation: ast.expr | None) -> bool:
        return isinstance(annotation, ast.Name) and annotation.id in self.types

    def from_outside(self, node: ast.expr) -> bool:
        """Whether ``node`` is a chain of attributes and items rooted at a module (or a
        name of one) imported from outside the rules, or at a name bound only to such."""
        while isinstance(node, (ast.Attribute, ast.Subscript)):
            node = node.value
        return isinstance(node, ast.Name) and (node.id in self.imported or node.id in self.outside)

    def _bind_aliases(self, function: ast.AST) -> None:
        """Names bound anywhere in ``function`` to a container reached through an
        attribute (repeated: an alias of an alias is one too); names bound only to
        chains from a module outside the rules (:attr:`outside`); names annotated with a
        type of the project's own outside the rules and bound to nothing else
        (:attr:`typed`)."""
        bindings: list[tuple[ast.expr, ast.expr]] = []
        annotated: list[tuple[ast.expr, ast.expr]] = []  # ``shown: Shown = ...``
        for node in ast.walk(function):
            if isinstance(node, ast.Assign):
                bindings += [(t, node.value) for t in node.targets]
            elif isinstance(node, (ast.AnnAssign, ast.NamedExpr)) and node.value is not None:
                bindings.append((node.target, node.value))
                if isinstance(node, ast.AnnAssign) and self.of_project_type(node.annotation):
                    annotated.append(bindings[-1])
            elif isinstance(node, (ast.For, ast.AsyncFor, ast.comprehension)):
                bindings.append((node.target, node.iter))
            elif isinstance(node, (ast.With, ast.AsyncWith)):
                bindings += [
                    (i.optional_vars, i.context_expr)
                    for i in node.items
                    if i.optional_vars is not None
                ]
        for target, value in list(bindings):
            self.locals |= set(names_in(target))
            if (
                isinstance(target, ast.Tuple)
                and isinstance(value, ast.Tuple)
                and len(target.elts) == len(value.elts)
            ):  # a, b = x, y: pair by pair
                bindings.remove((target, value))
                bindings += list(zip(target.elts, value.elts, strict=True))
        # A typed name keeps its type while nothing else is bound to it.
        rebound = {
            name
            for binding in bindings
            if binding not in annotated
            for name in bound_by(binding[0])
        }
        self.typed = (
            self.typed | {name for target, _ in annotated for name in bound_by(target)}
        ) - rebound
        # An outside name is one whose every binding is a chain from outside the rules.
        from_outside: dict[str, list[bool]] = {}
        for target, value in bindings:
            values = value.elts if isinstance(value, (ast.Tuple, ast.List)) else [value]
            each = isinstance(target, ast.Name) and all(self.from_outside(v) for v in values)
            for name in bound_by(target):
                from_outside.setdefault(name, []).append(each)
        self.outside |= {name for name, each in from_outside.items() if all(each)}
        changed = True
        while changed:
            changed = False
            for target, value in bindings:
                values = value.elts if isinstance(value, ast.Tuple) else [value]
                if any(reached(v, self.aliases, typed=frozenset(self.typed)) for v in values):
                    new = set(names_in(target)) - self.aliases
                    if new:
                        self.aliases |= new
                        changed = True
        self.typed -= self.aliases  # ``shown: Shown = game.sheets[1]`` is no record

    # --- writes --------------------------------------------------------------
    def flag(self, node: ast.AST) -> None:
        line = self.source.splitlines()[node.lineno - 1].strip()  # type: ignore[attr-defined]
        self.found.append((node.lineno, line))  # type: ignore[attr-defined]

    def written(self, target: ast.expr) -> bool:
        if isinstance(target, (ast.Tuple, ast.List)):
            return any(self.written(t) for t in target.elts)
        if isinstance(target, ast.Starred):
            return self.written(target.value)
        if isinstance(target, ast.Attribute):
            return not (
                isinstance(target.value, ast.Name)
                and (target.value.id in OWN or target.value.id in self.typed)
            )
        if isinstance(target, ast.Subscript):
            base = target.value
            if (
                isinstance(base, ast.Call)
                and isinstance(base.func, ast.Name)
                and base.func.id == "vars"
            ):
                return True
            return reached(base, self.aliases, typed=frozenset(self.typed))
        return False

    def visit_Assign(self, node: ast.Assign) -> None:
        if any(self.written(t) for t in node.targets):
            self.flag(node)
        self.generic_visit(node)

    def visit_AugAssign(self, node: ast.AugAssign) -> None:
        if self.written(node.target):  # (``total += ...`` on a name rebinds the name)
            self.flag(node)
        self.generic_visit(node)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        if node.value is not None and self.written(node.target):
            self.flag(node)
        self.generic_visit(node)

    def visit_Delete(self, node: ast.Delete) -> None:
        if any(self.written(t) for t in node.targets):
            self.flag(node)
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        func = node.func
        if isinstance(func, ast.Name) and func.id in ("setattr", "delattr"):
            self.flag(node)
        elif isinstance(func, ast.Attribute):
            caches = self.imported | self.outside if func.attr == "clear" else frozenset()
            if (
                func.attr in MUTATORS
                and reached(func.value, self.aliases, frozenset(caches), frozenset(self.typed))
            ) or func.attr in ("__setattr__", "__delattr__"):
                self.flag(node)
            elif (
                func.attr in ("setattr", "delattr")
                and node.args
                and any(
                    name in self.locals and name not in self.outside
                    for name in names_in(node.args[0])
                )
            ):
                self.flag(node)  # monkeypatch.setattr(game, ...)
        self.generic_visit(node)

    def visit_With(self, node: ast.With) -> None:
        if any(is_raises(item) for item in node.items):
            for item in node.items:
                self.visit(item)
            return  # the body's write is expected to fail
        self.generic_visit(node)


def writes_in(source: str, path: str = "<sample>") -> list[tuple[int, str]]:
    """``(line, code)`` of every write into a rules object (or any object reached
    through an attribute) in ``source``."""
    finder = Finder(source, path)
    finder.visit(ast.parse(source))
    return sorted(set(finder.found))


def checked_files() -> list[Path]:
    return [
        path
        for folder in CHECKED
        if folder not in STILL_TO_CONVERT
        for path in sorted((ROOT / folder).rglob("*.py"))
    ]


def test_no_test_writes_into_a_rules_object() -> None:
    offences = []
    for path in checked_files():
        name = path.relative_to(ROOT).as_posix()
        offences += [
            f"{name}:{line}: {code}"
            for line, code in writes_in(path.read_text(encoding="utf-8"), name)
        ]
    assert not offences, (
        "tests write into rules objects; build the position with tests.positions "
        "(position/reposition) instead:\n" + "\n".join(offences)
    )


def test_the_folders_still_to_convert_exist() -> None:
    """So that a renamed folder does not silently leave the check."""
    assert all((ROOT / folder).is_dir() for folder in CHECKED)
    assert set(STILL_TO_CONVERT) <= set(CHECKED)
    assert all((ROOT / path).is_file() for path, _ in EXEMPT)


BAD = """
import bot.render.compact
from bot import rules
from bot.players import Hint
from bot.render import compact
from bot.rules.qwinto import GEOMETRY
from .helpers import classic

def test_bad(game, monkeypatch):
    game.dice = {"white1": 1}
    game.turn += 1
    game.legal_moves = lambda player: []
    game.sheets[1] = None
    game.sheets[1].crossed["red"] = [2, 3]
    game.sheets[1].penalties = 3
    game.dice.pop("blue")
    game.dice.update(red=2)
    game.pawns[1] = 40
    del game.dice["blue"]
    sheet = game.sheets[1]
    sheet.fields["orange"][3] = 9
    sheet.crossed.update(red=[2])
    sheet.locks.append("red")
    other = sheet.fields["purple"]
    other.update({3: 9})
    other[4] = 10
    for each in game.sheets.values():
        each.penalties = 1
    setattr(game, "turn", 3)
    object.__setattr__(game, "turn", 3)
    vars(game)["note"] = 1
    monkeypatch.setattr(game, "legal_moves", lambda p: [])
    self.game.turn = 2
    crossed = game.sheets[1].crossed["red"]
    crossed.extend([4])
    game.sheets.get(1).locks.append("red")
    first, second = game.sheets[1], game.sheets[2]
    second.penalties = 2
    game.chosen = {}
    data = event.data
    data["row"] = "red"
    GEOMETRY["orange"] = None
    compact.SURFACES.update({})
    GEOMETRY.clear()
    rules.qwinto.GEOMETRY.clear()
    bot.render.compact.SURFACES.clear()
    classic.cache.clear()
    for table in (GEOMETRY, compact.SURFACES):
        table.clear()
        monkeypatch.setattr(table, "x", None)
    for cls in (compact.Surface, game.sheets):
        monkeypatch.setattr(cls, "label", None)
    for cache in (compact.SURFACES, compact.SPRITES):
        cache.update({})

def test_bad_records(game, hint: Hint, other: Hint):
    hint.game.dice = {}
    hint.game.sheets[1].penalties = 1
    hint.game.dice.pop("blue")
    hint.game.sheets[1] = None
    record: Hint = game.sheets[1]
    record.penalties = 2
    other = game
    other.turn = 2
"""

GOOD = """
import pytest
from bot.players import Hint
from bot.render import canvas as canvas_module
from bot.render import compact

class Tracker:
    def __init__(self, game):
        self.turn = game.turn
        self.seen = []
        self.dice = dict(game.dice)

    def note(self, move):
        self.seen.append(move)
        self.dice.update(red=1)
        self.dice.pop("red")

def test_good(game, monkeypatch):
    log = []
    log.append(1)
    written = {"orange": {}}
    written["orange"][3] = 9
    closed = list(game.closed)
    closed.append("red")
    moves = set()
    moves.add(1)
    counts = {}
    counts[game.turn] = 1
    dice = dict(game.dice)
    dice.pop("blue")
    total = game.turn
    total += 1
    compact.SURFACES.clear()
    monkeypatch.setattr("bot.players.easy.choose", lambda *a: None)
    with pytest.raises(AttributeError):
        game.decision().phase = "action2"
    game = game.apply(1, None)[0]
    for cls in (canvas_module.Canvas, compact.Surface):
        monkeypatch.setattr(cls, "label", lambda *a: 0)
    for cache in (canvas_module.STATIC_IMAGES, compact.SPRITES):
        cache.clear()

def test_own_records(hint: Hint):
    hint.options.append(None)
    hint.text = "Pass"
    options = hint.options
    options.append(None)
    later: Hint = Hint(None, [], "")
    later.options[0] = None
"""


def test_the_check_finds_every_kind_of_write() -> None:
    found = {line for line, _ in writes_in(BAD)}
    body = BAD.splitlines()
    writes = {
        number
        for number, text in enumerate(body, start=1)
        if text.startswith("    ")
        and not text.strip().startswith(("def ", "for "))
        and not (
            " = game.sheets" in text
            or " = sheet.fields" in text
            or " = event.data" in text
            or text.strip().startswith("crossed = ")
            or text.strip() in ("other = game", "record: Hint = game.sheets[1]")
        )
    }
    assert found == writes, sorted(found ^ writes)


def test_the_check_leaves_a_test_s_own_data_alone() -> None:
    assert writes_in(GOOD) == []


def test_the_check_names_file_and_line() -> None:
    assert writes_in("x = 1\ngame.turn = 2\n", "tests/sample.py") == [(2, "game.turn = 2")]
