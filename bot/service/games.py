"""Use cases: open a lobby, join, start, make a move, abandon.

This is the only layer that combines the store, the rules and concurrency.
Every refusal is a :class:`ServiceError` whose key names a catalogue message.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections import defaultdict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TypeVar

from bot.messages import t
from bot.rules import PASS, VARIANTS, Decision, Event, Game, Move, game_from_json, new_game
from bot.rules import replay as replay_game
from bot.service.stats import game_results
from bot.store import ChannelBusy, GameRecord, Store, VersionConflict, WrongStatus

log = logging.getLogger(__name__)

ATTEMPTS = 5  # compare-and-set retries before a click is refused as busy
T = TypeVar("T")


class ServiceError(Exception):
    """A refusal to show the user: ``key`` and ``values`` fill a catalogue message."""

    def __init__(self, key: str, **values: object) -> None:
        super().__init__(key)
        self.key = key
        self.values = values

    def text(self) -> str:
        return t(self.key, **self.values)


@dataclass
class Outcome:
    """A game after a change, with what happened and the decision before it."""

    record: GameRecord
    game: Game | None
    events: list[Event] = field(default_factory=list)
    before: Decision | None = None


def load_game(record: GameRecord) -> Game | None:
    return game_from_json(record.state) if record.state else None


class GameService:
    def __init__(self, store: Store, seeds: Callable[[], int] = lambda: secrets.randbits(62)):
        self.store = store
        self.seeds = seeds
        self._locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)

    # --- reading ---------------------------------------------------------
    async def get(self, game_id: int) -> Outcome:
        record = await self.store.get_game(game_id)
        if record is None:
            raise ServiceError("error.game_gone")
        return Outcome(record, load_game(record))

    async def in_channel(self, channel_id: int) -> Outcome:
        record = await self.store.game_in_channel(channel_id)
        if record is None:
            raise ServiceError("error.no_game")
        return Outcome(record, load_game(record))

    async def set_message(self, game_id: int, message_id: int) -> None:
        await self.store.set_message(game_id, message_id)

    async def remember_name(self, guild_id: int, user: int, name: str) -> None:
        await self.store.remember_name(guild_id, user, name)

    async def names(self, guild_id: int, users: list[int]) -> dict[int, str]:
        """Display names for images; a player never seen gets a neutral label."""
        known = await self.store.names(guild_id, users)
        return {u: known.get(u, f"Player {i}") for i, u in enumerate(users, 1)}

    async def replay(self, game_id: int) -> Game:
        """The game rebuilt from its seed and move log (the audit trail)."""
        record = (await self.get(game_id)).record
        moves = [(m.player_id, Move.from_json(m.move)) for m in await self.store.moves(game_id)]
        return replay_game(record.variant, record.players, record.seed,
                           record.options.get("rules", {}), moves)

    # --- the lobby -------------------------------------------------------
    async def open_lobby(self, guild_id: int, channel_id: int, host_id: int, variant: str,
                         board: str | None = None) -> GameRecord:
        if variant not in VARIANTS:
            raise ServiceError("error.unknown_variant", variant=variant)
        if board is not None and variant != "onboard":
            raise ServiceError("error.board_only_onboard")
        rules = {"board": board} if board else {}
        try:
            return await self.store.create_game(guild_id, channel_id, host_id, variant,
                                                {"rules": rules}, self.seeds())
        except ChannelBusy:
            raise ServiceError("error.channel_busy") from None

    async def join(self, game_id: int, user: int) -> GameRecord:
        async def change(record: GameRecord) -> GameRecord:
            if user in record.players:
                raise ServiceError("error.already_joined")
            cls = VARIANTS[record.variant]
            if len(record.players) >= cls.max_players:
                raise ServiceError("error.lobby_full", max=cls.max_players)
            return await self.store.update_lobby(record.id, record.version,
                                                 [*record.players, user])
        return await self._lobby_change(game_id, change)

    async def leave(self, game_id: int, user: int) -> GameRecord:
        async def change(record: GameRecord) -> GameRecord:
            if user == record.host_id:
                raise ServiceError("error.host_leaves")
            if user not in record.players:
                raise ServiceError("error.not_joined")
            players = [p for p in record.players if p != user]
            return await self.store.update_lobby(record.id, record.version, players)
        return await self._lobby_change(game_id, change)

    async def cancel(self, game_id: int, user: int) -> GameRecord:
        async def change(record: GameRecord) -> GameRecord:
            self._require_host(record, user)
            return await self.store.abandon(record.id, record.version)
        return await self._lobby_change(game_id, change)

    async def start(self, game_id: int, user: int) -> Outcome:
        async def change(record: GameRecord) -> GameRecord:
            self._require_host(record, user)
            cls = VARIANTS[record.variant]
            if len(record.players) < cls.min_players:
                raise ServiceError("error.need_players", title=cls.title, min=cls.min_players)
            game = new_game(record.variant, record.players, record.seed,
                            record.options.get("rules", {}))
            return await self.store.start_game(record.id, record.version, game.to_json())
        record = await self._lobby_change(game_id, change)
        game = load_game(record)
        assert game is not None
        return Outcome(record, game, [Event("started", user)])

    @staticmethod
    def _require_host(record: GameRecord, user: int) -> None:
        if user != record.host_id:
            raise ServiceError("error.host_only", host=f"<@{record.host_id}>")

    async def _lobby_change(self, game_id: int,
                            change: Callable[[GameRecord], Awaitable[GameRecord]]) -> GameRecord:
        async def attempt() -> GameRecord:
            record = (await self.get(game_id)).record
            if record.status == "running":
                raise ServiceError("error.already_started")
            if record.status != "lobby":
                raise ServiceError("error.game_over")
            return await change(record)
        return await self._retrying(game_id, attempt)

    # --- playing ---------------------------------------------------------
    async def act(self, game_id: int, user: int, turn: int, phase: str | None,
                  move: Move) -> Outcome:
        """Apply ``move`` for ``user`` if it is still legal on ``turn`` (and ``phase``)."""
        async def attempt() -> Outcome:
            outcome = await self.get(game_id)
            record, game = outcome.record, self._check_turn(outcome, user, turn, phase)
            if move not in game.legal_moves(user):
                raise ServiceError("error.illegal")
            before = game.decision()
            game, events = game.apply(user, move)
            status = "finished" if game.finished else "running"
            # A finished game's results go in with its end, in the same transaction.
            results = game_results(game) if game.finished else None
            record = await self.store.record_move(record.id, record.version, user,
                                                  move.to_json(), game.to_json(), status,
                                                  results=results)
            return Outcome(record, game, events, before)
        return await self._retrying(game_id, attempt)

    async def pass_turn(self, game_id: int, user: int, turn: int) -> Outcome:
        """The public Pass button: pass whatever ``user`` has to decide now."""
        return await self.act(game_id, user, turn, None, PASS)

    @staticmethod
    def check_player(outcome: Outcome, user: int, turn: int) -> Game:
        """The running game, if ``user`` plays in it and ``turn`` is still current."""
        record, game = outcome.record, outcome.game
        if record.status == "lobby" or game is None:
            raise ServiceError("error.not_started")
        if record.status != "running":
            raise ServiceError("error.game_over")
        if user not in record.players:
            raise ServiceError("error.not_player")
        if turn != game.turn:
            raise ServiceError("error.stale_turn", turn=turn, current=game.turn)
        return game

    def _check_turn(self, outcome: Outcome, user: int, turn: int, phase: str | None) -> Game:
        game = self.check_player(outcome, user, turn)
        decision = game.decision()
        if phase is not None and phase != decision.phase:
            raise ServiceError("error.stale_phase")
        if not game.legal_moves(user):
            names = ", ".join(f"<@{p}>" for p in sorted(decision.waiting))
            raise ServiceError("error.not_your_decision", names=names)
        return game

    async def abandon(self, channel_id: int, user: int, can_manage: bool) -> GameRecord:
        async def attempt() -> GameRecord:
            record = (await self.in_channel(channel_id)).record
            if user != record.host_id and not can_manage:
                raise ServiceError("error.abandon_denied")
            return await self.store.abandon(record.id, record.version)
        return await self._retrying(None, attempt)

    async def _retrying(self, game_id: int | None, attempt: Callable[[], Awaitable[T]]) -> T:
        """Run ``attempt`` under the game's lock, again when another writer won the race."""
        lock = self._locks[game_id] if game_id is not None else asyncio.Lock()
        async with lock:
            for _ in range(ATTEMPTS):
                try:
                    return await attempt()
                except (VersionConflict, WrongStatus):
                    log.info("game %s changed concurrently; retrying", game_id)
            raise ServiceError("error.busy")
