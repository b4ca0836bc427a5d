"""The writer of the channel: it carries out the plans of :mod:`bot.channel.plan`.

Every public message of a running game is derived from the stored game and its
stored events; the store remembers which version the channel shows (``shown_version``)
and what it shows (``shown``, :class:`~bot.channel.plan.Shown`). :meth:`Publisher.sync`
asks the plan what the channel lacks, writes it, and is safe to repeat: after a crash
between commit and post, a refused post or a failed edit, the next sync — the timer
loop runs one for every lagging game — finishes the job. Posts carry a nonce that
Discord enforces, so a post repeated after a crash does not appear twice.

Writes respect a per-channel budget (:class:`~bot.channel.budget.WriteBudget`); edits
that only show decisions being made wait ``settle`` seconds, so a burst of clicks
becomes one edit. An edit goes through the token of a recent click on the message
when there is one (:meth:`Publisher.lend`): Discord counts interaction webhooks apart
from the channel's message writes, so a turn costs the channel one post while
players are at the table.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import time
from collections import defaultdict
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import discord

from bot.channel import story
from bot.channel.budget import WriteBudget, unreachable
from bot.channel.plan import (
    Buttons,
    Channel,
    Delete,
    Edit,
    Image,
    Post,
    Shown,
    ending,
    plan,
    review_due,
)
from bot.channel.texts import lobby_closed_content, message_link
from bot.i18n import using
from bot.i18n.words import t
from bot.players import is_computer
from bot.render import render_board, render_dice, render_scoreboard
from bot.render.describe import board_alt, dice_alt, scoreboard_alt
from bot.rules import Game
from bot.service.daily import is_daily
from bot.service.games import GameService, Outcome, ServiceError
from bot.service.memo import load_game
from bot.service.play import Options, Seats
from bot.service.rated import RatingService
from bot.service.review import ReviewKeeper
from bot.service.types import GameRecord, LockLost, StoredEvent
from bot.shards import ShardPlan

log = logging.getLogger(__name__)

CATCH_UP_BATCH = 1000
"""The most lagging games one pass looks at (each is synced, or the pass stops)."""
TOKEN_LIFETIME = 14 * 60  # an interaction token lasts 15 minutes; keep a margin
UNKNOWN_MESSAGE = 10008
Editor = Callable[..., Awaitable[Any]]
"""Edits one message: ``content=``, ``attachments=``, ``view=``."""
SheetRefresh = Callable[[discord.Interaction, Outcome, str, Editor], Awaitable[None]]
"""Shows a player's sheet again, in place (the adapter's), with a line on top."""
TurnView = Callable[[GameRecord, Game], discord.ui.View]
"""The buttons of a game's open turn (the adapter's)."""
EndView = Callable[[GameRecord], discord.ui.View]
"""The buttons under a game's final message (the adapter's)."""


async def png_file(
    render: Callable[..., bytes], *args: Any, name: str, description: str | None = None
) -> discord.File:
    """Render off the event loop: Pillow work must not stall the gateway.
    ``description``: the image in words (Discord's alt text)."""
    data = await asyncio.to_thread(render, *args)
    return discord.File(io.BytesIO(data), filename=name, description=description)


@dataclass
class OpenSheet:
    """A player's ephemeral sheet whose interaction token can still edit it."""

    interaction: discord.Interaction
    edit: Editor
    turn: int
    phase: str
    opened: float


Events = defaultdict[int, list[StoredEvent]]
"""A game's stored events by turn."""


def by_turn(events: Sequence[StoredEvent]) -> Events:
    grouped: Events = defaultdict(list)
    for event in events:
        grouped[event.turn].append(event)
    return grouped


def rewind(fields: dict[str, Any]) -> None:
    """Let the files of an edit be read from the start (again, after a failed attempt)."""
    for file in fields.get("attachments") or []:
        file.reset()


async def server_language(client: discord.Client, service: GameService, guild_id: int) -> str:
    """The server's language for what its channels show (see bot/cogs/language.py)."""
    guild = client.get_guild(guild_id)
    return await service.guild_language(guild_id, guild and guild.preferred_locale)


def ping(users: Iterable[int]) -> discord.AllowedMentions:
    """Mentions that may ping ``users`` (people only), never everyone or a role."""
    return discord.AllowedMentions(
        everyone=False, roles=False, users=[discord.Object(u) for u in users if not is_computer(u)]
    )


class Publisher:
    """Carries out the channel's plans; the adapter gives it its buttons and the way to
    show a sheet again."""

    def __init__(
        self,
        client: discord.Client,
        service: GameService,
        *,
        turn_view: TurnView,
        end_view: EndView,
        refresh_sheet: SheetRefresh,
        settle: float = 30.0,
        budget: WriteBudget | None = None,
    ) -> None:
        self.client = client
        self.service = service
        self.ratings = RatingService(service.store)
        self.reviews = ReviewKeeper(service.store, service.clock)
        self._reviewing: dict[int, asyncio.Task[None]] = {}
        """Reviews of games that just ended, worked out while the channel goes on."""
        self.turn_view, self.end_view, self.refresh_sheet = turn_view, end_view, refresh_sheet
        self.settle = settle
        self.budget = budget or WriteBudget()
        self._pending: dict[int, asyncio.Task[None]] = {}
        self._last_edit: dict[int, tuple[str, str, bool]] = {}
        self._sheets: dict[tuple[int, int], OpenSheet] = {}
        self._tokens: defaultdict[int, list[tuple[float, discord.Interaction]]] = defaultdict(list)
        self._follow_ups: dict[int, tuple[float, discord.WebhookMessage]] = {}
        self.unreachable_since: float | None = None
        """Since when Discord has not answered (None: it did, last time it was asked)."""
        self.started: float | None = service.clock()
        """When this process started, until its first catch-up has marked the channels
        the process before left behind (then None)."""

    def channel(self, record: GameRecord) -> discord.PartialMessageable:
        return self.client.get_partial_messageable(record.channel_id)

    async def names(self, record: GameRecord) -> dict[int, str]:
        return await self.service.names(record.guild_id, record.players)

    # --- after a change ---------------------------------------------------
    async def publish(self, outcome: Outcome) -> None:
        """Tell the channel about a change: news that opens a decision at once, the rest
        after ``settle`` seconds (several clicks become one edit)."""
        record, game, before = outcome.record, outcome.game, outcome.before
        if (
            game is not None
            and before is not None
            and record.status == "running"
            and game.turn == before.turn == Shown.of(record).turn
        ):
            if game.decision().phase == before.phase:
                self.later(record.id, self.settle)
                return
            updated = await self.update_sheets(outcome)
            if set(story.deciders(game)) <= updated:
                self.later(record.id, self.settle)
                return
        try:
            await self.sync(record.id)
        except discord.Forbidden as error:
            log.warning(
                "cannot post in channel %s for game %s: %s", record.channel_id, record.id, error
            )
            raise ServiceError("error.cannot_post_now") from error
        except Exception:  # stored all the same: the timer loop catches the channel up
            log.exception("publishing game %s failed; it is caught up later", record.id)

    def later(self, game_id: int, delay: float) -> None:
        """Sync ``game_id`` after ``delay`` seconds, unless a sync is already pending."""
        if game_id not in self._pending:
            self._pending[game_id] = asyncio.create_task(self._sync_later(game_id, delay))

    async def _sync_later(self, game_id: int, delay: float) -> None:
        await asyncio.sleep(delay)
        self._pending.pop(game_id, None)
        try:
            await self.sync(game_id)
        except Exception:
            log.exception("publishing game %s failed; it is caught up later", game_id)

    async def catch_up(self, shards: ShardPlan | None = None) -> int:
        """Sync every game whose channel lags the store (with ``shards``: of the guilds
        this process serves), the one that has lagged longest first (its stored
        ``behind_since``, so a restart keeps the order); how many were tried.

        While Discord cannot be reached the pass stops at the first write that finds it
        so (the next tick tries again, from the oldest), so that a pass never waits on
        Discord once per lagging channel.

        The first pass first marks the channels left behind by the process before
        (:meth:`GameService.mark_left_behind`): turns stored but never shown were
        played while the channel could not be updated too."""
        if self.started is not None:
            await self.service.mark_left_behind(self.started, shards)
            self.started = None
        tried = 0
        for game_id in await self.service.lagging(shards, limit=CATCH_UP_BATCH):
            tried += 1
            try:
                await self.sync(game_id)
            except Exception as error:
                if unreachable(error):  # said once, when Discord went away
                    log.debug("game %s: Discord still away (%s)", game_id, error)
                    break
                log.warning(
                    "game %s: the channel still lags (%s); trying again later", game_id, error
                )
        return tried

    async def lags(self, game_id: int) -> None:
        """The channel of ``game_id`` could not be updated now: stored as its
        ``behind_since`` unless an earlier time is. Should the store fail too, the
        game is still caught up, only not first."""
        try:
            await self.service.mark_behind(game_id)
        except Exception as error:
            log.warning("game %s: when its channel fell behind is not stored (%s)", game_id, error)

    async def behind(self, game_id: int, error: BaseException) -> None:
        """A sync of ``game_id`` failed: remember since when its channel lags, and
        whether Discord could be reached at all."""
        self.failed(error)
        await self.lags(game_id)

    def failed(self, error: BaseException) -> None:
        """A write failed: if it says Discord is away, remember since when (the timer
        loop then leaves the channels to the catch-up, which stops at its first try)."""
        if unreachable(error) and self.unreachable_since is None:
            self.unreachable_since = self.service.clock()
            log.warning(
                "Discord cannot be reached (%s); channels are caught up once it answers again",
                error,
            )

    def reached(self) -> None:
        """A write went through: Discord is there (again)."""
        if self.unreachable_since is not None:
            log.warning(
                "Discord answers again, after %.0f s; the lagging channels are caught up",
                self.service.clock() - self.unreachable_since,
            )
            self.unreachable_since = None

    # --- the projection -----------------------------------------------------
    async def sync(self, game_id: int) -> None:
        """Bring the channel of ``game_id`` up to the stored version (idempotent). The
        store's game lock makes it one sync at a time per game, across processes."""
        try:
            await self._sync(game_id)
        except LockLost:  # written all the same; another process may be showing it now
            raise
        except Exception as error:
            await self.behind(game_id, error)
            raise

    async def _sync(self, game_id: int) -> None:
        async with self.service.game_lock(game_id):
            record = (await self.service.get(game_id)).record
            if record.status == "lobby" or record.shown_version >= record.version:
                return
            if is_daily(record):  # played in no channel: nothing to show, only to mark
                await self.service.set_shown(
                    record.id, record.version, None, Shown.of(record).to_json()
                )
                return
            with using(await self.language(record.guild_id)):
                shown = Shown.of(record)
                game = load_game(record)
                message_id = record.message_id
                if game is None:
                    await self.close_lobby(record)
                else:
                    message_id, shown = await self.project(record, game, shown)
            await self.service.set_shown(record.id, record.version, message_id, shown.to_json())

    async def language(self, guild_id: int) -> str:
        return await server_language(self.client, self.service, guild_id)

    async def project(
        self, record: GameRecord, game: Game, shown: Shown
    ) -> tuple[int | None, Shown]:
        """Carry out the plan for the stored ``game``; the live message's id and what the
        channel then shows."""
        events = by_turn(await self.service.events(record.id, shown.since or shown.turn or 0))
        wins: dict[int, int] = {}
        best: int | None = None
        ratings: dict[int, tuple[int, int]] = {}
        accuracies: dict[int, float] | None = None
        if ending(record, shown):
            wins, best = await self.end_facts(record, game)
            ratings = await self.rating_facts(record)
        if review_due(record, shown):
            accuracies = await self.service.store.reviewed(record.id)
            if accuracies is None:
                self.review_later(record)
        steps, after = plan(
            Channel(
                record, game, shown, events, Seats.of(record).away, wins, best, ratings, accuracies
            )
        )
        if record.status != "running":
            self.forget(record.id)
        message_id = record.message_id
        for step in steps:
            if isinstance(step, Delete):
                if not await self.delete(record, step.message_id):
                    after.notes.append(list(step.note))
            elif isinstance(step, Edit):
                await self.edit(
                    record,
                    step.message_id,
                    step.content,
                    await self.view(step.buttons, record, game),
                    await self.files(step.images, record, game),
                    step.signature,
                )
                if step.final:  # a finished turn is not edited again
                    self._last_edit.pop(step.message_id, None)
            else:
                sent = await self.post(record, game, step)
                if step.live:
                    message_id = sent
                    self._last_edit[sent] = (step.content, after.files, step.buttons is not None)
                elif step.call is not None:
                    after.notes.append([sent, list(step.pinged), step.call])
        return message_id, after

    async def end_facts(self, record: GameRecord, game: Game) -> tuple[dict[int, int], int | None]:
        """What the final message says beyond the game: each winner's wins on the
        server, and a solo game's personal best before it."""
        winners = [s.player for s in game.ranking() if s.rank == 1]
        wins = {p: await self.service.wins_on_server(record.guild_id, p) for p in winners}
        best = None
        if Options.of(record.options).solo:
            best = await self.service.personal_best(
                record.guild_id, game.players[0], record.variant, record.id
            )
        return wins, best

    async def rating_facts(self, record: GameRecord) -> dict[int, tuple[int, int]]:
        """Each rated person's rating after the game and its change: the game is rated
        now if it was not yet (once, whoever asks). A rating that cannot be worked out
        leaves the final message without it, rather than unposted."""
        try:
            changes = await self.ratings.settle(record)
        except Exception:
            log.exception("game %d: its ratings are left to the next start", record.id)
            return {}
        return {c.player: (c.after.shown, c.delta) for c in changes}

    def review_later(self, record: GameRecord) -> None:
        """Review the game that just ended in the background (once in this process): its
        final message is posted meanwhile, and edited to show the accuracies once they
        are stored. A stop or a failure before then leaves it to the next pass over the
        unreviewed games, at start-up and hourly (:meth:`bot.channel.timers.Timers.start`)."""
        if record.id in self._reviewing:
            return
        task = asyncio.create_task(self._review(record), name=f"qwixx-review-{record.id}")
        self._reviewing[record.id] = task
        task.add_done_callback(lambda _: self._reviewing.pop(record.id, None))

    async def _review(self, record: GameRecord) -> None:
        try:
            async with self.service.game_lock(record.id):
                pass  # the sync that asked for the review has posted the final message
            await self.reviews.keep(record)
        except Exception:
            log.exception("game %d: its review is left to the next pass", record.id)
            return
        try:
            await self.sync(record.id)
        except Exception as error:  # the timer loop's catch-up edits it later
            log.warning("game %d: its accuracies are shown later (%s)", record.id, error)

    async def post(self, record: GameRecord, game: Game, step: Post) -> int:
        """One planned post; a call goes as a public follow-up of a recent click when
        there is one (no channel write). The new message's id."""
        if step.call is not None:
            sent: list[int] = []

            async def follow_up(interaction: discord.Interaction) -> None:
                message = await interaction.followup.send(
                    step.content, allowed_mentions=ping(step.pinged), wait=True
                )
                self._follow_ups[message.id] = (time.monotonic(), message)
                sent.append(message.id)

            if await self.by_token(record.message_id or 0, follow_up):
                return sent[0]
        message = await self.send(
            record,
            step.content,
            files=await self.files(step.images, record, game) or (),
            view=await self.view(step.buttons, record, game),
            pinged=step.pinged,
            nonce=step.nonce,
        )
        return message.id

    def forget(self, game_id: int) -> None:
        """Drop what this process keeps about a game that has ended."""
        for key in [k for k in self._sheets if k[0] == game_id]:
            del self._sheets[key]
        now = time.monotonic()
        for stale in [m for m, (at, _) in self._follow_ups.items() if now - at >= TOKEN_LIFETIME]:
            del self._follow_ups[stale]

    async def delete(self, record: GameRecord, message_id: int) -> bool:
        """Delete one of the bot's messages, a follow-up through its token while that
        lasts (no channel write); True when it is gone (or was already)."""
        sent, follow_up = self._follow_ups.pop(message_id, (0.0, None))
        try:
            if follow_up is not None and time.monotonic() - sent < TOKEN_LIFETIME:
                with contextlib.suppress(discord.HTTPException):
                    await follow_up.delete()
                    return True
            async with self.budget.slot(record.channel_id):
                await self.channel(record).get_partial_message(message_id).delete()
            self.reached()
        except discord.NotFound:
            return True
        except discord.HTTPException as error:
            log.info("message %s of game %s could not be deleted: %s", message_id, record.id, error)
            return False
        return True

    async def close_lobby(self, record: GameRecord) -> None:
        """A lobby that closed without a game: it says why, and its buttons go."""
        closing = [e for e in await self.service.events(record.id) if e.kind == "lobby_closed"]
        reason = closing[-1].data["reason"] if closing else "cancelled"
        by = closing[-1].player if closing else record.host_id
        content = lobby_closed_content(record, f"lobby.{reason}", by or record.host_id)
        if record.message_id:
            await self.edit(record, record.message_id, content, None)

    # --- images and buttons -------------------------------------------------
    async def files(
        self, images: Sequence[Image] | None, record: GameRecord, game: Game
    ) -> list[discord.File] | None:
        """The planned images, drawn off the event loop (None: leave them as they are)."""
        if images is None:
            return None
        files = []
        for image in images:
            if image == "dice":
                files += await self.dice_files(game)
            elif image == "board":
                files.append(await self.board_file(record, game))
            else:
                names = await self.names(record)
                files.append(
                    await png_file(
                        render_scoreboard,
                        game,
                        names,
                        name="scoreboard.png",
                        description=scoreboard_alt(game, names),
                    )
                )
        return files

    async def view(
        self, buttons: Buttons | None, record: GameRecord, game: Game
    ) -> discord.ui.View | None:
        if buttons is None:
            return None
        return self.turn_view(record, game) if buttons == "turn" else self.end_view(record)

    async def dice_files(self, game: Game) -> list[discord.File]:
        """The dice on the table now (none between Qwinto's turns)."""
        dice = game.dice_on_table()
        if not dice:
            return []
        return [await png_file(render_dice, dice, name="dice.png", description=dice_alt(dice))]

    async def board_file(
        self, record: GameRecord, game: Game, highlight: list[Any] | None = None
    ) -> discord.File:
        names = await self.names(record)
        return await png_file(
            render_board,
            game,
            names,
            highlight or [],
            description=board_alt(game, names),
            name="board.png",
        )

    # --- writes within the budget ------------------------------------------
    async def send(
        self,
        record: GameRecord,
        content: str,
        *,
        files: Sequence[discord.File] = (),
        view: discord.ui.View | None = None,
        pinged: Sequence[int] = (),
        nonce: str | None = None,
    ) -> discord.Message:
        extra: dict[str, Any] = {"view": view} if view is not None else {}
        if nonce is not None:
            extra["nonce"] = nonce
        async with self.budget.slot(record.channel_id):
            message = await self.channel(record).send(
                content, files=list(files), allowed_mentions=ping(pinged), **extra
            )
        self.reached()
        return message

    async def edit(
        self,
        record: GameRecord,
        message_id: int,
        content: str,
        view: discord.ui.View | None,
        files: list[discord.File] | None = None,
        signature: str = "",
    ) -> None:
        """Edit a message unless it already shows exactly this; a deleted one is let go."""
        key = (content, signature, view is not None)
        if self._last_edit.get(message_id) == key and files is None:
            return
        fields: dict[str, Any] = {
            "content": content,
            "view": view,
            "allowed_mentions": discord.AllowedMentions.none(),
        }
        if files is not None:
            fields["attachments"] = files
        try:
            if not await self.edit_by_token(message_id, fields):
                message = self.channel(record).get_partial_message(message_id)
                rewind(fields)
                async with self.budget.slot(record.channel_id):
                    await message.edit(**fields)
                self.reached()
        except discord.NotFound:
            log.warning("message %s of game %s is gone; not edited", message_id, record.id)
        self._last_edit[message_id] = key

    def lend(self, message_id: int, interaction: discord.Interaction) -> None:
        """A click on ``message_id`` answered with a deferred update: for 15 minutes its
        token can edit that message without a channel write."""
        now = time.monotonic()
        fresh = [(at, i) for at, i in self._tokens[message_id] if now - at < TOKEN_LIFETIME]
        self._tokens[message_id] = [*fresh[-2:], (now, interaction)]
        for stale in [
            m
            for m, tokens in self._tokens.items()
            if not tokens or now - tokens[-1][0] >= TOKEN_LIFETIME
        ]:
            del self._tokens[stale]

    async def edit_by_token(self, message_id: int, fields: dict[str, Any]) -> bool:
        """Edit through the newest token lent for ``message_id``; False when none works."""

        async def edit(interaction: discord.Interaction) -> None:
            rewind(fields)
            await interaction.edit_original_response(**fields)

        return await self.by_token(message_id, edit)

    async def by_token(
        self, message_id: int, write: Callable[[discord.Interaction], Awaitable[None]]
    ) -> bool:
        """``write`` through the newest working token lent for ``message_id``; False when
        there is none (a deleted message still raises NotFound)."""
        tokens = self._tokens.get(message_id, [])
        while tokens:
            opened, interaction = tokens[-1]
            if time.monotonic() - opened < TOKEN_LIFETIME:
                try:
                    await write(interaction)
                    return True
                except discord.HTTPException as error:
                    if error.code == UNKNOWN_MESSAGE:
                        raise
                    log.info("the token of a click on %s no longer works: %s", message_id, error)
            tokens.pop()
        return False

    async def remind(self, outcome: Outcome) -> None:
        """Mention who still has to decide, with the deadline and a link to the turn."""
        record = outcome.record
        data = outcome.events[0].data
        if not data["players"]:
            return
        link = message_link(record) if record.message_id else ""
        with using(await self.language(record.guild_id)):
            text = t(
                "turn.reminder",
                names=story.mentions(data["players"]),
                deadline=int(data["deadline"]),
                link=link,
            )
        async with self.service.game_lock(record.id):  # one writer of ``shown``
            message = await self.send(record, text, pinged=data["players"])
            record = (await self.service.get(record.id)).record
            shown = Shown.of(record)
            shown.notes.append(
                [
                    message.id,
                    list(data["players"]),
                    outcome.game.decision().phase if outcome.game is not None else "",
                ]
            )
            await self.service.set_shown(
                record.id, record.shown_version, record.message_id, shown.to_json()
            )

    # --- sheets that move on by themselves ------------------------------------
    def sheet_opened(
        self, game_id: int, player: int, interaction: discord.Interaction, edit: Editor, game: Game
    ) -> None:
        """Remember a player's open sheet, so it can offer their next decision itself."""
        self._sheets[(game_id, player)] = OpenSheet(
            interaction, edit, game.turn, game.decision().phase, time.monotonic()
        )

    async def update_sheets(self, outcome: Outcome) -> set[int]:
        """Move the open sheets of players whose new decision opened; who was updated."""
        game, updated = outcome.game, set()
        assert game is not None
        for player in story.deciders(game):
            sheet = self._sheets.get((outcome.record.id, player))
            if (
                sheet is None
                or sheet.turn != game.turn
                or time.monotonic() - sheet.opened > TOKEN_LIFETIME
            ):
                continue
            if sheet.phase == game.decision().phase:
                updated.add(player)
                continue
            try:
                with using(sheet.interaction.locale):  # the sheet's reader's language
                    await self.refresh_sheet(
                        sheet.interaction, outcome, t("sheet.moved_on"), sheet.edit
                    )
                updated.add(player)
            except discord.HTTPException as error:
                log.info(
                    "sheet of %s in game %s could not move on: %s", player, outcome.record.id, error
                )
                self._sheets.pop((outcome.record.id, player), None)
        return updated

    def stop_reviews(self) -> None:
        """Give up the reviews under way (on a stop): the next start does them again."""
        for task in list(self._reviewing.values()):
            task.cancel()

    async def reviewed(self) -> None:
        """Wait for the reviews of the games that just ended, and their channels' edits."""
        while self._reviewing:
            await asyncio.gather(*self._reviewing.values(), return_exceptions=True)

    async def drain(self) -> None:
        """Run the syncs still waiting, now (on shutdown and in tests)."""
        while self._pending:
            game_id, task = next(iter(self._pending.items()))
            task.cancel()  # still asleep: it leaves the table before it syncs
            with contextlib.suppress(asyncio.CancelledError):
                await task
            self._pending.pop(game_id, None)
            try:
                await self.sync(game_id)
            except Exception as error:
                log.warning("game %s: the channel still lags (%s)", game_id, error)
