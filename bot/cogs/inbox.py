"""``/qwixx mygames``, the member's inbox: every game on every server that waits for a
decision of theirs, the newest wait first, each saying what it waits for, since when,
with a link to the game's live message."""

from __future__ import annotations

from bot.cogs.answers import MESSAGE_LIMIT
from bot.i18n.words import calendar_day, t
from bot.records.games import GameRecord
from bot.service.daily import is_daily
from bot.service.outcome import Snapshot


def inbox_content(waiting: list[Snapshot]) -> str:
    """The inbox's text: a line per game, as many as one message holds."""
    lines = [line for found in waiting if (line := inbox_line(found))]
    if not lines:
        return t("mygames.none")
    text = t("mygames.title")
    for shown, line in enumerate(lines):
        more = t("mygames.more", count=len(lines) - shown)
        if len(text) + len(line) + len(more) + 2 > MESSAGE_LIMIT:
            return f"{text}\n{more}"
        text = f"{text}\n{line}"
    return text


def inbox_line(found: Snapshot) -> str:
    """One game waiting: what for, since when, and where (a daily challenge: how to go
    on with it)."""
    record, game = found.record, found.game
    if game is None:
        return ""
    if is_daily(record):
        return t(
            "daily.mygames",
            title=game.title,
            day=calendar_day(record.options["daily"]),
            turn=game.turn,
            variant=record.variant,
        )
    what = t(f"mygames.what.{game.decision().phase}", total=game.dice_total() or "")
    return t(
        "mygames.wait",
        title=game.title,
        channel=f"<#{record.channel_id}>",
        what=what,
        since=int(record.stage_started or record.updated_at),
        turn=game.turn,
        link=live_link(record),
    )


def live_link(record: GameRecord) -> str:
    """The game's live message (its channel while none is posted)."""
    place = f"https://discord.com/channels/{record.guild_id}/{record.channel_id}"
    return place if record.message_id is None else f"{place}/{record.message_id}"
