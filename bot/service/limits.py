"""Limits against abuse: how many lobbies and running games one member may be in at
once on a server, and how many one server may have (``QWIXX_MAX_GAMES_PER_MEMBER``,
``QWIXX_MAX_GAMES_PER_SERVER``).

A lobby counts as much as a running game: both hold a channel, a timer and a place in
the store. A running game counts for those still playing in it (not for a seat that
was given up or went away), and computer seats count for nobody. The checks read the
server's lobbies and running games once (:meth:`~bot.store.Store.games_in_play`) and
say what is refused, as a catalogue key and values (:class:`Refusal`); the service
turns that into its error. Opening a lobby checks the server and its host, joining
checks the member who joins, and starting checks every person seated again: a rematch
seats people without a join, two members may have opened or joined at the same moment,
and the limits may have been lowered since.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from bot.i18n.words import plural
from bot.players import is_computer
from bot.records.games import InPlay


@dataclass(frozen=True)
class Counted:
    """A number of games, written in the reader's language when the sentence is."""

    key: str
    count: int

    def __format__(self, spec: str) -> str:
        return plural(self.key, self.count)


@dataclass(frozen=True)
class Refusal:
    """Why a lobby may not be opened, joined or started: a catalogue message."""

    key: str
    values: dict[str, object] = field(default_factory=dict)


@dataclass(frozen=True)
class Limits:
    """The most lobbies and running games per member (on one server) and per server;
    None: no limit (the service's default; the bot sets both from its settings)."""

    per_member: int | None = None
    per_server: int | None = None

    @property
    def any(self) -> bool:
        """Whether anything is limited (else nothing needs to be read)."""
        return self.per_member is not None or self.per_server is not None

    def to_open(self, games: Sequence[InPlay], host: int) -> Refusal | None:
        """Refused if the server, or ``host``, has as many games as allowed already."""
        return self._server(games, None) or self._member(games, host, None, "error.limit_you")

    def to_join(self, games: Sequence[InPlay], game_id: int, user: int) -> Refusal | None:
        """Refused if ``user`` plays in as many other games as allowed already."""
        return self._member(games, user, game_id, "error.limit_you")

    def to_start(
        self, games: Sequence[InPlay], game_id: int, players: Iterable[int], user: int
    ) -> Refusal | None:
        """Refused if, with lobby ``game_id`` started, the server or a person seated in
        it (``user``, who starts it, or another) would be over the limit."""
        refusal = self._server(games, game_id)
        for player in players:
            if refusal is not None:
                break
            if not is_computer(player):
                key = "error.limit_you" if player == user else "error.limit_player"
                refusal = self._member(games, player, game_id, key)
        return refusal

    def _server(self, games: Sequence[InPlay], game_id: int | None) -> Refusal | None:
        others = sum(game.game_id != game_id for game in games)
        if self.per_server is None or others < self.per_server:
            return None
        return Refusal(
            "error.limit_server",
            {"games": Counted("unit.open_game", others), "limit": self.per_server},
        )

    def _member(
        self, games: Sequence[InPlay], user: int, game_id: int | None, key: str
    ) -> Refusal | None:
        others = sum(user in game.people and game.game_id != game_id for game in games)
        if self.per_member is None or others < self.per_member:
            return None
        return Refusal(
            key,
            {
                "games": Counted("unit.game_in", others),
                "limit": self.per_member,
                "name": f"<@{user}>",
            },
        )
