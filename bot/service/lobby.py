"""Lobbies: opened, joined and left, computers seated, started, cancelled, played again."""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable
from typing import Any

from bot.players import DEFAULT_LEVEL, LEVELS, computer_seat, is_computer
from bot.records import ChannelBusy, GameRecord, InPlay
from bot.rules import VARIANTS, Event, new_game
from bot.service.errors import ServiceError
from bot.service.limits import Limits, Refusal
from bot.service.play import Options, Play, Seats, event_rows
from bot.service.state import Games, Outcome, opening
from bot.service.timing import DEFAULT_TURN_TIME, Clock
from bot.service.where import Where
from bot.store.privacy import is_anonymous
from bot.text import quote

LobbyChange = Callable[[GameRecord], Awaitable[GameRecord]]


def random_seed() -> int:
    return secrets.randbits(62)


class Lobby:
    """Games before their start, and the start."""

    def __init__(
        self,
        games: Games,
        seeds: Callable[[], int] | None = None,
        limits: Limits | None = None,
    ) -> None:
        self.games = games
        self.store = games.store
        self.seeds = seeds or random_seed
        self.limits = limits or Limits()
        """How many lobbies and running games a member and a server may have at once."""

    async def open(
        self,
        guild_id: int,
        channel_id: int,
        host_id: int,
        variant: str,
        board: str | None = None,
        turn_time: int = DEFAULT_TURN_TIME,
        play: Options | None = None,
    ) -> GameRecord:
        """A lobby; ``play``'s flags (solo, hints, fill_away) hold for its game."""
        play = play or Options()
        if variant not in VARIANTS:
            raise ServiceError("error.unknown_variant", variant=variant)
        if board is not None and variant != "onboard":
            raise ServiceError("error.board_only_onboard")
        rules = {"board": board} if board else {}
        flags = {name: True for name in ("solo", "hints", "fill_away") if getattr(play, name)}
        await self._within_limits(guild_id, lambda games: self.limits.to_open(games, host_id))
        try:
            record = await self.store.games.create(
                guild_id,
                channel_id,
                host_id,
                variant,
                {"rules": rules, **flags},
                self.seeds(),
                turn_time,
                expires=self.games.clock() + turn_time,
            )
        except ChannelBusy:
            raise ServiceError("error.channel_busy") from None
        self.games.keep(record)
        return record

    async def rematch(
        self, game_id: int, user: int, *, where: Where | None = None
    ) -> tuple[GameRecord, GameRecord]:
        """**Rematch**: a new lobby where ``game_id`` was played, for the same game: the
        same host, people and computers (at their levels), options and turn time. Any
        player of that game may ask for it. The game before, and the new lobby."""
        old = (await self.games.read(game_id)).record
        if where is not None:
            where.check(old, user, self.games.clock())
        if user not in old.players and user != old.host_id:
            raise ServiceError("error.rematch_not_player")
        board = old.options.get("rules", {}).get("board")
        # A forgotten person's seat is not taken again; whoever asks hosts in their place.
        host = user if is_anonymous(old.host_id) else old.host_id
        players = [p for p in old.players if not is_anonymous(p)]
        players = players if host in players else [host, *players]
        try:
            record = await self.open(
                old.guild_id,
                old.channel_id,
                host,
                old.variant,
                board,
                old.turn_time,
                Options.of(old.options),
            )
        except ServiceError as error:  # the host is over the limit, not the one who asks
            if error.key == "error.limit_you" and host != user:
                raise ServiceError("error.limit_host", **error.values) from None
            raise
        levels = {
            seat: level
            for seat, level in old.options.get("levels", {}).items()
            if int(seat) in old.players
        }
        options = {**record.options, "levels": levels} if levels else record.options
        seated = await self.store.games.set_players(record.id, record.version, players, options)
        self.games.keep(seated)
        return old, seated

    async def join(self, game_id: int, user: int, *, where: Where | None = None) -> GameRecord:
        async def change(record: GameRecord) -> GameRecord:
            if user in record.players:
                raise ServiceError("error.already_joined")
            if Options.of(record.options).solo:
                raise ServiceError("error.solo_only")
            cls = VARIANTS[record.variant]
            if len(record.players) >= cls.max_players:
                raise ServiceError("error.lobby_full", max=cls.max_players)
            await self._within_limits(
                record.guild_id, lambda games: self.limits.to_join(games, record.id, user)
            )
            return await self.store.games.set_players(
                record.id, record.version, [*record.players, user]
            )

        return await self._change(game_id, user, where, change)

    async def leave(self, game_id: int, user: int, *, where: Where | None = None) -> GameRecord:
        async def change(record: GameRecord) -> GameRecord:
            if user == record.host_id:
                raise ServiceError("error.host_leaves")
            if user not in record.players:
                raise ServiceError("error.not_joined")
            players = [p for p in record.players if p != user]
            return await self.store.games.set_players(record.id, record.version, players)

        return await self._change(game_id, user, where, change)

    async def cancel(self, game_id: int, user: int, *, where: Where | None = None) -> GameRecord:
        async def change(record: GameRecord) -> GameRecord:
            require_host(record, user)
            return await self.store.games.abandon(
                record.id, record.version, [(0, "lobby_closed", user, {"reason": "cancelled"})]
            )

        return await self._change(game_id, user, where, change)

    async def add_computer(
        self,
        game_id: int,
        user: int,
        level: str = DEFAULT_LEVEL,
        *,
        where: Where | None = None,
    ) -> GameRecord:
        """The host seats a computer player at ``level`` in the lobby."""

        async def change(record: GameRecord) -> GameRecord:
            require_host(record, user)
            cls = VARIANTS[record.variant]
            if Options.of(record.options).solo:
                raise ServiceError("error.solo_only")
            if len(record.players) >= cls.max_players:
                raise ServiceError("error.lobby_full", max=cls.max_players)
            seat = computer_seat(sum(is_computer(p) for p in record.players) + 1)
            return await self._seat_level(record, [*record.players, seat], seat, level)

        return await self._change(game_id, user, where, change)

    async def set_level(
        self, game_id: int, user: int, seat: int, level: str, *, where: Where | None = None
    ) -> GameRecord:
        """The host changes the level of a computer seat in the lobby."""

        async def change(record: GameRecord) -> GameRecord:
            require_host(record, user)
            if seat not in record.players or not is_computer(seat):
                raise ServiceError("error.no_such_computer")
            return await self._seat_level(record, record.players, seat, level)

        return await self._change(game_id, user, where, change)

    async def start(self, game_id: int, user: int, *, where: Where | None = None) -> Outcome:
        """The host starts the game; computer seats make their first decisions at once."""

        async def change(record: GameRecord) -> GameRecord:
            require_host(record, user)
            cls = VARIANTS[record.variant]
            if not Options.of(record.options).solo and len(record.players) < cls.min_players:
                raise ServiceError("error.need_players", title=cls.title, min=cls.min_players)
            await self._within_limits(
                record.guild_id,
                lambda games: self.limits.to_start(games, record.id, record.players, user),
            )
            return await self._started(record)

        record = await self._change(game_id, user, where, change)
        return await self._first_decisions(record, user)

    async def begin(self, game_id: int, by: int) -> Outcome:
        """Start a lobby whose seats were taken for it (:meth:`open_seated`): no host's
        check, no limits; ``by`` is told as the one who started it."""
        record = await self._change(game_id, by, None, self._started)
        return await self._first_decisions(record, by)

    async def open_seated(
        self,
        guild_id: int,
        channel_id: int,
        host_id: int,
        variant: str,
        players: list[int],
        options: dict[str, Any],
        turn_time: int = DEFAULT_TURN_TIME,
    ) -> GameRecord:
        """A lobby whose seats are taken at once and that never expires, for a game that
        others arranged (a tournament's table): nobody joins it, no limits apply."""
        try:
            record = await self.store.games.create(
                guild_id, channel_id, host_id, variant, options, self.seeds(), turn_time
            )
        except ChannelBusy:
            raise ServiceError("error.channel_busy") from None
        seated = await self.store.games.set_players(record.id, record.version, players, options)
        self.games.keep(seated)
        return seated

    async def _started(self, record: GameRecord) -> GameRecord:
        """The lobby ``record`` running its new game (kept with it)."""
        game = new_game(
            record.variant,
            record.players,
            record.seed,
            record.options.get("rules", {}),
            solo=Options.of(record.options).solo,
        )
        clock = Clock.start(self.games.clock(), record.turn_time)
        started = await self.store.games.start(
            record.id, record.version, game.to_json(), clock.timing(), event_rows(1, opening(game))
        )
        self.games.keep(started, game)
        return started

    async def _first_decisions(self, record: GameRecord, by: int) -> Outcome:
        """Computer seats make their first decisions right after the start (by ``by``)."""
        started = Event("started", by)

        async def decide(current: Outcome) -> Outcome:
            assert current.game is not None
            play = Play(current.game)
            play.events.append(started)
            if not any(is_computer(p) for p in current.game.decision().waiting):
                return Outcome(current.record, current.game, play.events, play.before)
            return await self.games.save(current.record, play, Seats.of(current.record))

        return await self.games.change(record.id, decide)

    async def _seat_level(
        self, record: GameRecord, players: list[int], seat: int, level: str
    ) -> GameRecord:
        if level not in LEVELS:
            raise ServiceError("error.unknown_level", level=quote(level))
        levels = {**record.options.get("levels", {}), str(seat): level}
        return await self.store.games.set_players(
            record.id, record.version, players, {**record.options, "levels": levels}
        )

    async def _within_limits(
        self, guild_id: int, check: Callable[[list[InPlay]], Refusal | None]
    ) -> None:
        """Refuse what ``check`` refuses, given the server's lobbies and running games
        (read only when something is limited)."""
        if not self.limits.any:
            return
        refusal = check(await self.store.games.in_play(guild_id))
        if refusal is not None:
            raise ServiceError(refusal.key, **refusal.values)

    async def _change(
        self, game_id: int, user: int, where: Where | None, change: LobbyChange
    ) -> GameRecord:
        """``change`` the lobby ``game_id`` (see :meth:`Games.change`)."""

        async def decide(current: Outcome) -> Outcome:
            record = current.record
            if where is not None:
                where.check(record, user, self.games.clock())
            if record.status == "running":
                raise ServiceError("error.already_started")
            if record.status != "lobby":
                raise ServiceError("error.game_over")
            changed = await change(record)
            if changed.status != "running":  # a start keeps its game itself
                self.games.keep(changed)
            return Outcome(changed, None)

        return (await self.games.change(game_id, decide)).record


def require_host(record: GameRecord, user: int) -> None:
    if user != record.host_id:
        raise ServiceError("error.host_only", host=f"<@{record.host_id}>")
