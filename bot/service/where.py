"""Where a click came from: a game's buttons work only where the game is played."""

from __future__ import annotations

from dataclasses import dataclass

from bot.records.games import GameRecord
from bot.service.daily import check_open, is_daily
from bot.service.errors import ServiceError
from bot.service.hidden import in_no_channel


@dataclass(frozen=True, slots=True)
class Where:
    """The server and channel of a click; ``direct``: in the bot's direct messages with
    the member who clicked."""

    guild_id: int | None
    channel_id: int | None
    direct: bool = False

    def check(self, record: GameRecord, user: int, now: float) -> None:
        """Refuse a game id copied into another server or channel. A game in no channel
        (a daily attempt, a practice game) is its player's, wherever they opened it; a
        daily attempt's while its day lasts. A game's direct message is its player's: a
        click there is theirs, as on their sheet."""
        if in_no_channel(record):
            if user not in record.players:
                key = "error.daily_not_yours" if is_daily(record) else "error.practice_not_yours"
                raise ServiceError(key)
            if is_daily(record) and record.status == "running":
                check_open(record, now)
            return
        if self.direct and user in record.players:
            return
        if (record.guild_id, record.channel_id) != (self.guild_id, self.channel_id):
            raise ServiceError("error.other_channel")
