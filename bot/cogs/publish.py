"""The channel's side of a game: turn messages, calls, reminders and the end.

Public messages are sent and edited with the bot token (interaction tokens
expire after 15 minutes; games last days). Edits of a turn message are
coalesced: several decisions within ``coalesce`` seconds become one edit.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections import defaultdict
from collections.abc import Callable
from typing import Any

import discord

from bot.cogs import views
from bot.messages import t
from bot.render import render_board, render_dice, render_scoreboard
from bot.rules import Game, Move
from bot.service.games import GameService, Outcome, ServiceError
from bot.store import GameRecord

log = logging.getLogger(__name__)


async def png_file(render: Callable[..., bytes], *args: Any, name: str) -> discord.File:
    """Render off the event loop: Pillow work must not stall the gateway."""
    data = await asyncio.to_thread(render, *args)
    return discord.File(io.BytesIO(data), filename=name)


class Publisher:
    def __init__(self, client: discord.Client, service: GameService,
                 coalesce: float = 1.0) -> None:
        self.client = client
        self.service = service
        self.coalesce = coalesce
        self._locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        self._pending: dict[int, asyncio.Task[None]] = {}

    def channel(self, record: GameRecord) -> discord.PartialMessageable:
        return self.client.get_partial_messageable(record.channel_id)

    async def names(self, record: GameRecord) -> dict[int, str]:
        return await self.service.names(record.guild_id, record.players)

    async def publish(self, outcome: Outcome) -> None:
        """Bring the channel up to date after a change.

        What happened is told once: the events that closed a turn on that turn's
        message, those that opened a phase in the message calling its players, and
        timeouts and departures in the next message posted.
        """
        try:
            await self._publish(outcome)
        except discord.Forbidden as error:
            log.warning("cannot post in channel %s for game %s: %s", outcome.record.channel_id,
                        outcome.record.id, error)
            raise ServiceError("error.cannot_post_now") from error

    async def _publish(self, outcome: Outcome) -> None:
        game, before = outcome.game, outcome.before
        assert game is not None and before is not None
        notices = views.describe(e for e in outcome.events if e.kind in views.NOTICES)
        events = [e for e in outcome.events if e.kind not in views.NOTICES]
        async with self._locks[outcome.record.id]:
            segments = views.turn_segments(events)
            summary = views.describe(segments[0][1])
            automatic = views.played_out(segments, game.finished)
            phase = game.decision().phase
            over = outcome.record.status != "running"
            if over or game.turn != before.turn:
                await self.edit_turn(outcome.record, views.turn_over_content(before.turn, summary))
            if outcome.record.status == "abandoned":
                ending = views.describe(e for e in events if e.kind == "game_over")
                await self.channel(outcome.record).send("\n".join(notices + automatic + ending))
            elif game.finished:
                await self.finish(outcome, notices + automatic)
            elif game.turn != before.turn:
                await self.post_turn(outcome, notices + automatic)
            elif phase != before.phase and phase in game.simultaneous_phases:
                # a decision for everyone: a fresh message, so that everyone is pinged
                await self.edit_turn(outcome.record, views.turn_so_far(game, summary))
                await self.post_turn(outcome, notices)
            else:
                self.refresh_turn(outcome.record.id)
                if before.phase in game.simultaneous_phases and phase != before.phase:
                    # everyone has decided; now the active player alone is called
                    await self.announce_phase(outcome, notices + summary)

    async def post_turn(self, outcome: Outcome, preface: list[str] | None = None) -> None:
        record, game = outcome.record, outcome.game
        assert game is not None
        files = await self.table_images(record, game)
        message = await self.channel(record).send(
            views.turn_content(game, preface or [], record.deadline), files=files,
            view=views.turn_view(record, game),
            allowed_mentions=views.ping(game.decision().waiting))
        await self.service.set_message(record.id, message.id)

    async def table_images(self, record: GameRecord, game: Game,
                           highlight: list[Move] | None = None) -> list[discord.File]:
        """What lies on the table: the dice, and the board with its pawns (On Board)."""
        files = []
        dice: dict[str, int] = getattr(game, "dice", {})
        if dice:
            files.append(await png_file(render_dice, dice, name="dice.png"))
        if hasattr(game, "board"):
            files.append(await png_file(render_board, game, await self.names(record),
                                        highlight or [], name="board.png"))
        return files

    def refresh_turn(self, game_id: int) -> None:
        """Show the latest decisions on the turn message, soon (several become one edit)."""
        if game_id not in self._pending:
            self._pending[game_id] = asyncio.create_task(self._refresh_later(game_id))

    async def _refresh_later(self, game_id: int) -> None:
        await asyncio.sleep(self.coalesce)
        async with self._locks[game_id]:
            self._pending.pop(game_id, None)
            outcome = await self.service.get(game_id)  # re-read: clicks race
            game = outcome.game
            if game is not None and outcome.record.status == "running":
                await self.edit_turn(outcome.record,
                                     views.turn_content(game, (), outcome.record.deadline),
                                     views.turn_view(outcome.record, game))

    async def announce_phase(self, outcome: Outcome, preface: list[str]) -> None:
        game = outcome.game
        assert game is not None
        waiting = game.decision().waiting
        text = "\n".join([*preface, *views.phase_lines(game, game.decision().phase,
                                                         views.mention(game.active)),
                          *views.deadline_lines(outcome.record.deadline)])
        await self.channel(outcome.record).send(text, allowed_mentions=views.ping(waiting))

    async def remind(self, outcome: Outcome) -> None:
        """Mention who still has to decide, with the deadline and a link to the turn."""
        record = outcome.record
        data = outcome.events[0].data
        if not data["players"]:
            return
        link = views.message_link(record) if record.message_id else ""
        text = t("turn.reminder", names=views.mentions(data["players"]),
                 deadline=int(data["deadline"]), link=link)
        await self.channel(record).send(text, allowed_mentions=views.ping(data["players"]))

    async def edit_turn(self, record: GameRecord, content: str,
                        view: discord.ui.View | None = None) -> None:
        if record.message_id is None:
            return
        message = self.channel(record).get_partial_message(record.message_id)
        try:
            await message.edit(content=content, view=view,
                               allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException as error:
            log.warning("could not edit message %s of game %s: %s", record.message_id,
                        record.id, error)

    async def finish(self, outcome: Outcome, preface: list[str]) -> None:
        record, game = outcome.record, outcome.game
        assert game is not None
        board = await png_file(render_scoreboard, game, await self.names(record),
                               name="scoreboard.png")
        winners = [s.player for s in game.ranking() if s.rank == 1]
        wins = {p: await self.service.wins_on_server(record.guild_id, p) for p in winners}
        message = await self.channel(record).send(
            views.end_content(game, preface, wins), file=board,
            allowed_mentions=discord.AllowedMentions.none())
        await self.service.set_message(record.id, message.id)

    async def retire(self, record: GameRecord, content: str) -> None:
        """Take the buttons off a game's public message when it ends early."""
        await self.edit_turn(record, content)

    async def drain(self) -> None:
        """Wait for coalesced edits still pending (on shutdown and in tests)."""
        while self._pending:
            await asyncio.gather(*list(self._pending.values()), return_exceptions=True)
