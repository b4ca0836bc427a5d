"""One keeper of a game's writes: no service but :mod:`bot.service.keeper` reaches the
store's games, so every write of a game keeps what it stored by construction.

Read from the source, no module of ``bot/service`` but the keeper names the store's
games (``store.games``, ``self.store.games``, ``GameRepository``); run, every call of the
games' repository that ``bot`` makes while the lobby, the turns, the deadlines, the
daily challenge and a tournament's table (seated, begun, left) play comes from the
keeper, and it makes each of the repository's writes at least once.
"""

from __future__ import annotations

import ast
import asyncio
import random
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.service.games import GameService
from bot.store import Store
from bot.store.games import GameRepository
from tests.fakes import FakeClock

ROOT = Path(__file__).resolve().parents[2]
SERVICE = ROOT / "bot" / "service"
KEEPER = SERVICE / "keeper.py"
GUILD, CHANNEL, ANA, BEN = 1, 100, 11, 22
WRITES = (
    "create",
    "set_players",
    "start",
    "change",
    "set_timing",
    "abandon",
    "set_message",
    "mark_behind",
    "mark_left_behind",
    "set_shown",
)
"""The repository's writes (each checked to be one of its methods below)."""


def reaches_the_games(tree: ast.AST) -> Iterator[int]:
    """The lines of ``tree`` that name the store's games: the attribute ``games`` of a
    ``store`` (a name or an attribute), the keeper's own (``_games``), or the
    repository's class or module."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute | ast.Name | ast.ImportFrom) and names_the_games(node):
            yield node.lineno


def names_the_games(node: ast.Attribute | ast.Name | ast.ImportFrom) -> bool:
    if isinstance(node, ast.Attribute):
        owner = node.value
        name = owner.id if isinstance(owner, ast.Name) else getattr(owner, "attr", "")
        if node.attr == "_games":  # the keeper's, unless a module's own
            return name != "self"
        return node.attr == "games" and name.lstrip("_") == "store"
    if isinstance(node, ast.Name):
        return node.id == "GameRepository"
    return node.module == "bot.store.games"


def test_the_check_finds_the_ways_to_the_games() -> None:
    found = ast.parse(
        "from bot.store.games import GameRepository\n"
        "store.games.get(1)\n"
        "self.store.games.change(r, c)\n"
        "self._store.games\n"
        "self.keeper._games.start(1)\n"
        "keeper.games\n"
        "store.daily\n"
    )
    assert sorted(reaches_the_games(found)) == [1, 2, 3, 4, 5]


def test_no_service_but_the_keeper_reaches_the_stores_games() -> None:
    modules = sorted(SERVICE.glob("*.py"))
    assert KEEPER in modules and len(modules) > 20
    reaching = [
        f"{path.name}:{line}"
        for path in modules
        if path != KEEPER
        for line in reaches_the_games(ast.parse(path.read_text(encoding="utf-8")))
    ]
    assert reaching == []
    assert list(reaches_the_games(ast.parse(KEEPER.read_text(encoding="utf-8"))))


def test_the_writes_named_are_the_repositorys() -> None:
    assert all(callable(getattr(GameRepository, name, None)) for name in WRITES)


def recording(store: Store, monkeypatch: pytest.MonkeyPatch) -> dict[str, set[str]]:
    """Each method of the store's games called from now on, with the modules of ``bot``
    that called it."""
    callers: dict[str, set[str]] = {}
    games = store.games
    for name in dir(GameRepository):
        method = getattr(games, name)
        if name.startswith("_") or not callable(method):
            continue

        def recorded(
            *args: Any, _name: str = name, _method: Callable[..., Any] = method, **kwargs: Any
        ) -> Any:
            caller = Path(sys._getframe(1).f_code.co_filename).resolve()
            if caller.is_relative_to(ROOT / "bot"):
                callers.setdefault(_name, set()).add(str(caller.relative_to(ROOT)))
            return _method(*args, **kwargs)

        monkeypatch.setattr(games, name, recorded)
    return callers


async def test_every_game_write_goes_through_the_keeper(
    store: Store, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    service, rng = GameService(store, seeds=lambda: 5, clock=clock), random.Random(5)
    callers = recording(store, monkeypatch)
    keeper = service.keeper
    lobby = await service.lobby.open(GUILD, CHANNEL, ANA, "classic")
    await keeper.set_message(lobby.id, 7)
    await service.lobby.join(lobby.id, BEN)
    await service.lobby.leave(lobby.id, BEN)
    await service.lobby.add_computer(lobby.id, ANA)
    started = await service.lobby.start(lobby.id, ANA)
    await keeper.show(started.record, 7, {})
    for _ in range(3):  # the person's moves, the computer answering
        game = (await keeper.read(lobby.id)).game
        assert game is not None
        phase = game.decision().phase
        await service.turns.move(lobby.id, ANA, game.turn, phase, rng.choice(game.legal_moves(ANA)))
    await keeper.mark_behind(lobby.id)
    await keeper.mark_left_behind(clock.now + 1)
    clock.now += 86400 / 2
    assert await service.deadlines.fire(lobby.id) is not None  # a reminder
    clock.now += 86400 / 2
    assert await service.deadlines.fire(lobby.id) is not None  # time ran out
    await service.turns.abandon(CHANNEL, ANA, can_manage=False)
    expiring = await service.lobby.open(GUILD, CHANNEL, BEN, "classic", turn_time=600)
    clock.now += 600
    assert await service.deadlines.due() == [expiring.id]
    assert await service.deadlines.fire(expiring.id) is not None
    await asyncio.gather(*(service.daily.begin(GUILD, CHANNEL, p, "qwinto") for p in (ANA, BEN)))
    table = await service.lobby.open_seated(GUILD, CHANNEL + 1, ANA, "classic", [ANA, BEN], {})
    await service.lobby.begin(table.id, ANA)
    await service.turns.leave_game(CHANNEL + 1, BEN)  # too few left: it ends

    assert {name for name in WRITES if name not in callers} == set()
    assert {
        name: sorted(by) for name, by in callers.items() if by != {"bot/service/keeper.py"}
    } == {}
