"""A game's stored record as the views and texts take it, for tests that build no store."""

from __future__ import annotations

from bot.records.games import GameRecord


def game_record(
    players: list[int],
    *,
    status: str = "lobby",
    version: int = 1,
    variant: str = "classic",
    game_id: int = 5,
    host: int | None = None,
    **options: object,
) -> GameRecord:
    """Game ``game_id`` of ``players`` (hosted by ``host``, else the first of them) in
    channel 2 of server 1, its message 3, seed 1, with the ``options`` beside the rules'."""
    return GameRecord(
        id=game_id,
        guild_id=1,
        channel_id=2,
        message_id=3,
        host_id=players[0] if host is None else host,
        variant=variant,
        options={"rules": {}, **options},
        seed=1,
        players=players,
        state=None,
        status=status,
        version=version,
        created_at=0.0,
        updated_at=0.0,
        finished_at=None,
    )
