"""Lobbies: opened, joined and left, computers seated, started, cancelled, played again."""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable, Iterable, Mapping
from typing import Any

from bot.players import DEFAULT_LEVEL, LEVELS, computer_seat, is_computer
from bot.records.errors import ChannelBusy
from bot.records.games import GameRecord, InPlay
from bot.records.options import Options
from bot.records.prefs import Prefs
from bot.records.seats import Seats
from bot.rules import VARIANTS, Event, new_game
from bot.service.errors import ServiceError
from bot.service.keeper import GameKeeper
from bot.service.limits import Limits, Refusal
from bot.service.outcome import Outcome, Snapshot
from bot.service.play import Play
from bot.service.timing import DEFAULT_TURN_TIME
from bot.service.where import Where
from bot.service.writes import Abandon, Played, Seat, Start, Tell, Write
from bot.store.privacy import is_anonymous
from bot.text import quote

LobbyChange = Callable[[GameRecord], Awaitable[Write]]
PrefsOf = Callable[[Iterable[int]], Awaitable[dict[int, Prefs]]]
"""The preferences of the people among some players who chose any."""


async def no_prefs(players: Iterable[int]) -> dict[int, Prefs]:
    return {}


def random_seed() -> int:
    return secrets.randbits(62)


class Lobby:
    """Games before their start, and the start."""

    def __init__(
        self,
        keeper: GameKeeper,
        seeds: Callable[[], int] | None = None,
        limits: Limits | None = None,
        prefs: PrefsOf | None = None,
    ) -> None:
        self.keeper = keeper
        self.seeds = seeds or random_seed
        self.limits = limits or Limits()
        """How many lobbies and running games a member and a server may have at once."""
        self.prefs = prefs or no_prefs
        """The people's preferences, which a game takes with it at its start."""

    async def open(
        self,
        guild_id: int,
        channel_id: int,
        host_id: int,
        variant: str,
        board: str | None = None,
        turn_time: int = DEFAULT_TURN_TIME,
        play: Options | None = None,
        *,
        players: list[int] | None = None,
        levels: dict[str, str] | None = None,
    ) -> GameRecord:
        """A lobby; ``play``'s flags (solo, hints, fill_away) hold for its game;
        ``players`` seated at once (computers at ``levels``), as a rematch seats them."""
        play = play or Options()
        if variant not in VARIANTS:
            raise ServiceError("error.unknown_variant", variant=variant)
        if board is not None and variant != "onboard":
            raise ServiceError("error.board_only_onboard")
        rules = {"board": board} if board else {}
        flags = {name: True for name in ("solo", "hints", "fill_away") if getattr(play, name)}
        options = {"rules": rules, **flags, **({"levels": levels} if levels else {})}
        await self._within_limits(guild_id, lambda games: self.limits.to_open(games, host_id))
        expires = self.keeper.clock() + turn_time
        return await self._create(
            guild_id, channel_id, host_id, variant, options, turn_time, expires, players
        )

    async def rematch(
        self, game_id: int, user: int, *, where: Where | None = None
    ) -> tuple[GameRecord, GameRecord]:
        """**Rematch**: a new lobby where ``game_id`` was played, for the same game: the
        same host, people and computers (at their levels), options and turn time. Any
        player of that game may ask for it. The game before, and the new lobby."""
        old = (await self.keeper.read(game_id, where, user)).record
        if user not in old.players and user != old.host_id:
            raise ServiceError("error.rematch_not_player")
        board = old.options.get("rules", {}).get("board")
        # A forgotten person's seat is not taken again; whoever asks hosts in their place.
        host = user if is_anonymous(old.host_id) else old.host_id
        players = [p for p in old.players if not is_anonymous(p)]
        players = players if host in players else [host, *players]
        levels = {
            seat: level
            for seat, level in old.options.get("levels", {}).items()
            if int(seat) in old.players
        }
        try:
            seated = await self.open(
                old.guild_id,
                old.channel_id,
                host,
                old.variant,
                board,
                old.turn_time,
                Options.of(old.options),
                players=players,
                levels=levels,
            )
        except ServiceError as error:  # the host is over the limit, not the one who asks
            if error.key == "error.limit_you" and host != user:
                raise ServiceError("error.limit_host", **error.values) from None
            raise
        return old, seated

    async def join(self, game_id: int, user: int, *, where: Where | None = None) -> GameRecord:
        async def change(record: GameRecord) -> Write:
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
            return Seat([*record.players, user])

        return await self._change(game_id, user, where, change)

    async def leave(self, game_id: int, user: int, *, where: Where | None = None) -> GameRecord:
        async def change(record: GameRecord) -> Write:
            if user == record.host_id:
                raise ServiceError("error.host_leaves")
            if user not in record.players:
                raise ServiceError("error.not_joined")
            return Seat([p for p in record.players if p != user])

        return await self._change(game_id, user, where, change)

    async def cancel(self, game_id: int, user: int, *, where: Where | None = None) -> GameRecord:
        async def change(record: GameRecord) -> Write:
            require_host(record, user)
            return Abandon([(0, "lobby_closed", user, {"reason": "cancelled"})])

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

        async def change(record: GameRecord) -> Write:
            require_host(record, user)
            cls = VARIANTS[record.variant]
            if Options.of(record.options).solo:
                raise ServiceError("error.solo_only")
            if len(record.players) >= cls.max_players:
                raise ServiceError("error.lobby_full", max=cls.max_players)
            seat = computer_seat(sum(is_computer(p) for p in record.players) + 1)
            return seat_level(record, [*record.players, seat], seat, level)

        return await self._change(game_id, user, where, change)

    async def set_level(
        self, game_id: int, user: int, seat: int, level: str, *, where: Where | None = None
    ) -> GameRecord:
        """The host changes the level of a computer seat in the lobby."""

        async def change(record: GameRecord) -> Write:
            require_host(record, user)
            if seat not in record.players or not is_computer(seat):
                raise ServiceError("error.no_such_computer")
            return seat_level(record, record.players, seat, level)

        return await self._change(game_id, user, where, change)

    async def start(self, game_id: int, user: int, *, where: Where | None = None) -> Outcome:
        """The host starts the game; computer seats make their first decisions at once."""

        async def change(record: GameRecord) -> Write:
            require_host(record, user)
            cls = VARIANTS[record.variant]
            if not Options.of(record.options).solo and len(record.players) < cls.min_players:
                raise ServiceError("error.need_players", title=cls.title, min=cls.min_players)
            await self._within_limits(
                record.guild_id,
                lambda games: self.limits.to_start(games, record.id, record.players, user),
            )
            return starting(record, await self.prefs(record.players))

        await self._change(game_id, user, where, change)
        return await self._first_decisions(game_id, user)

    async def begin(self, game_id: int, by: int) -> Outcome:
        """Start a lobby whose seats were taken for it (:meth:`open_seated`): no host's
        check, no limits; ``by`` is told as the one who started it."""

        async def change(record: GameRecord) -> Write:
            return starting(record, await self.prefs(record.players))

        await self._change(game_id, by, None, change)
        return await self._first_decisions(game_id, by)

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
        return await self._create(
            guild_id, channel_id, host_id, variant, options, turn_time, None, players
        )

    async def _create(
        self,
        guild_id: int,
        channel_id: int,
        host_id: int,
        variant: str,
        options: dict[str, Any],
        turn_time: int,
        expires: float | None,
        players: list[int] | None,
    ) -> GameRecord:
        try:
            return await self.keeper.create(
                guild_id,
                channel_id,
                host_id,
                variant,
                options,
                self.seeds(),
                turn_time,
                expires,
                players,
            )
        except ChannelBusy:
            raise ServiceError("error.channel_busy") from None

    async def _first_decisions(self, game_id: int, by: int) -> Outcome:
        """Computer seats make their first decisions right after the start (by ``by``)."""
        started = Event("started", by)

        async def decide(current: Snapshot) -> Write:
            assert current.game is not None
            play = Play(current.game)
            play.events.append(started)
            if not Seats.of(current.record).answered(current.game, self.keeper.clock()):
                return Tell("changed", play.events, play.before)
            return Played(play, Seats.of(current.record))

        return await self.keeper.change(game_id, decide)

    async def _within_limits(
        self, guild_id: int, check: Callable[[list[InPlay]], Refusal | None]
    ) -> None:
        """Refuse what ``check`` refuses, given the server's lobbies and running games
        (read only when something is limited)."""
        if not self.limits.any:
            return
        refusal = check(await self.keeper.in_play(guild_id))
        if refusal is not None:
            raise ServiceError(refusal.key, **refusal.values)

    async def _change(
        self, game_id: int, user: int, where: Where | None, change: LobbyChange
    ) -> GameRecord:
        """``change`` the lobby ``game_id`` (see :meth:`GameKeeper.change`)."""

        async def decide(current: Snapshot) -> Write:
            record = current.record
            if record.status == "running":
                raise ServiceError("error.already_started")
            if record.status != "lobby":
                raise ServiceError("error.game_over")
            return await change(record)

        return (await self.keeper.change(game_id, decide, where, user)).record


def starting(record: GameRecord, prefs: Mapping[int, Prefs] | None = None) -> Start:
    """The lobby ``record``'s game, new, its seats with the people's ``prefs``."""
    game = new_game(
        record.variant,
        record.players,
        record.seed,
        record.options.get("rules", {}),
        solo=Options.of(record.options).solo,
    )
    return Start(game, Seats(prefs=dict(prefs)) if prefs else None)


def seat_level(record: GameRecord, players: list[int], seat: int, level: str) -> Seat:
    """``players`` seated, the computer in ``seat`` playing at ``level``."""
    if level not in LEVELS:
        raise ServiceError("error.unknown_level", level=quote(level))
    levels = {**record.options.get("levels", {}), str(seat): level}
    return Seat(players, {**record.options, "levels": levels})


def require_host(record: GameRecord, user: int) -> None:
    if user != record.host_id:
        raise ServiceError("error.host_only", host=f"<@{record.host_id}>")
