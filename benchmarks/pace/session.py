"""Games played one after another on one store, on one fake clock, each reproducible
from the run's seed, the variant, the number of people and its index."""

from __future__ import annotations

import math
import random
from pathlib import Path
from types import TracebackType

from bot.service.games import GameService
from bot.store import Store
from tests.fakes import FakeClock

from .behaviours import Behaviour
from .people import DAY, HOUR, Model, Person
from .table import GameLog, Table

FIRST_MEMBER = 1001
EPOCH = 1_767_225_600.0  # 2026-01-01 00:00 UTC


class Session:
    """``async with Session(folder, seed) as session: await session.play(...)``: a
    SQLite store in ``folder`` and the service over it, on a fake clock."""

    def __init__(self, folder: Path, seed: int, model: Model | None = None) -> None:
        self.path = folder / "pace.db"
        self.seed = seed
        self.model = model or Model()
        self.clock = FakeClock(EPOCH)
        self._game_seed = 0
        self._channels = 0
        self._store: Store | None = None
        self._service: GameService | None = None

    @property
    def service(self) -> GameService:
        assert self._service is not None
        return self._service

    async def __aenter__(self) -> Session:
        self._store = await Store.open(self.path, clock=self.clock)
        self._service = GameService(self._store, seeds=lambda: self._game_seed, clock=self.clock)
        return self

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        if self._store is not None:
            await self._store.close()

    def people(self, variant: str, players: int, index: int) -> tuple[int, list[Person], float]:
        """The game's seed, its people (time zones drawn here) and the moment of the day
        its host starts it (in their waking hours), as seconds after a UTC midnight."""
        model, key = self.model, f"{self.seed}:{variant}:{players}:{index}"
        rng = random.Random(key)
        seed = rng.getrandbits(62)
        people = [
            Person(
                FIRST_MEMBER + seat,
                rng.uniform(-model.spread, model.spread) * HOUR,
                model,
                f"{key}:{seat}",
            )
            for seat in range(players)
        ]
        host = people[0]
        woken = host.wakes(host.sleeps(0.0) if host.awake(0.0) else 0.0)
        start = woken + rng.uniform(0.0, model.awake_hours * HOUR - model.look_seconds)
        return seed, people, start

    async def play(self, behaviour: Behaviour, variant: str, players: int, index: int) -> GameLog:
        """The ``index``-th game of ``variant`` with ``players`` people, under
        ``behaviour``: the same game, people and start whatever the behaviour."""
        seed, people, start = self.people(variant, players, index)
        self._game_seed = seed
        self._channels += 1
        day = math.floor(self.clock.now / DAY) + 1  # a day after everything before
        table = Table(
            self.service, self.clock, behaviour, variant, people, self._channels, day * DAY + start
        )
        return await table.play()
