"""Keeping a game's channel in sync: the plans of :mod:`bot.channel.plan`, carried out.

Every public message of a running game is derived from the stored game and its
stored events; the store remembers which version the channel shows (``shown_version``)
and what it shows (``shown``, :class:`~bot.channel.plan.Shown`). :meth:`Publisher.sync`
asks the plan what the channel lacks, has the :class:`~bot.channel.writer.Writer` write
it, and is safe to repeat: after a crash between commit and post, a refused post or a
failed edit, the next sync — the timer loop runs one for every lagging game — finishes
the job (posts carry a nonce, so a post repeated after a crash does not appear twice).

It reads the games through a :class:`~bot.channel.source.Source` and keeps four small
parts: :class:`~bot.channel.courier.Courier` (the games' direct messages, written in the
same sync as their channel), :class:`~bot.channel.debounce.Debounce` (edits that only
show decisions being made wait ``settle`` seconds, so a burst of clicks becomes one edit),
:class:`~bot.channel.memory.Memory` (what each channel shows, so an edit that would write
what its message already shows is left out) and :class:`~bot.channel.outage.Outage`
(since when Discord cannot be reached; the catch-up then stops at its first failed write).

After a change made in this process, the sync reads nothing: it takes the change (the
record as written, the game, the events it stored), the events of the live message's
earlier turns as it kept them, and the server's language from the source's cache; a sync
that only edits leaves what the channel shows to be stored with the game's next change
(repeating edits is harmless). It reads the game when it cannot be sure it holds the
newest: the first sync of a process, a channel that fell behind, a change older than one
it was told of, a record whose ``shown`` is not what it last wrote.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Collection
from dataclasses import replace

from bot.channel import story
from bot.channel.budget import unreachable
from bot.channel.courier import Courier
from bot.channel.debounce import Debounce, Told
from bot.channel.dice import TEXT, Faces
from bot.channel.memory import Memory
from bot.channel.outage import Outage
from bot.channel.plan import (
    Channel,
    Edit,
    Post,
    Shown,
    as_shown,
    away,
    by_turn,
    ending,
    plan,
    reminded,
    reminder,
    review_due,
)
from bot.channel.source import Change, Facts, Source
from bot.channel.texts import lobby_closed_card, lobby_closed_content
from bot.channel.writer import DirectWriter, Refused, Writer
from bot.i18n import using
from bot.records.errors import LockLost
from bot.records.games import GameRecord, StoredEvent, in_no_channel
from bot.rules import Game
from bot.shards import ShardPlan

log = logging.getLogger(__name__)

CATCH_UP_BATCH = 1000
"""The most lagging games one pass looks at (each is synced, or the pass stops)."""


class Publisher:
    """Brings channels up to their stored games, read from ``source``, through ``writer``."""

    def __init__(
        self,
        source: Source,
        writer: Writer,
        *,
        settle: float = 30.0,
        faces: Callable[[], Faces] = lambda: TEXT,
        direct: DirectWriter | None = None,
    ) -> None:
        self.source = source
        self.writer = writer
        self.faces = faces
        """The dice's emojis the bot has now (:mod:`bot.channel.dice`)."""
        self.settle = settle
        self.debounce = Debounce(self.sync)
        self.memory = Memory()
        self.outage = Outage(source.clock)
        self.courier = None if direct is None else Courier(source, direct, faces, self.outage)
        """Writes the games' direct messages (None: the bot sends none, and mentions
        everyone)."""
        self.started: float | None = source.clock()
        """When this process started, until its first catch-up has marked the channels
        the process before left behind (then None)."""

    async def language(self, guild_id: int) -> str:
        """The language of what the server's channels show (see bot/cogs/settings.py)."""
        return await self.source.language(guild_id, self.writer.locale(guild_id))

    # --- after a change ---------------------------------------------------
    @staticmethod
    def within_turn(change: Change) -> Game | None:
        """The running game ``change`` changed within the turn its channel shows (None
        for any other change)."""
        record, game, before = change.record, change.game, change.before
        if (
            game is None
            or before is None
            or record.status != "running"
            or not game.turn == before.turn == Shown.of(record).turn
        ):
            return None
        return game

    @classmethod
    def opened(cls, change: Change) -> bool:
        """Whether ``change`` opened a decision within the turn the channel shows: the
        players' open sheets may show it to them before the channel does."""
        game, before = cls.within_turn(change), change.before
        return game is not None and before is not None and game.decision().phase != before.phase

    async def publish(self, change: Change, seen: Collection[int] = ()) -> None:
        """Tell the channel about a change: news that opens a decision at once, the rest
        after ``settle`` seconds (several clicks become one edit). ``seen``: the players
        whose own sheet already shows them their new decision, for whom the channel's
        news can wait too. :class:`Refused` if the channel refuses the bot's writes."""
        record, game = change.record, self.within_turn(change)
        self.told(change)
        if game is not None and (not self.opened(change) or set(story.deciders(game)) <= set(seen)):
            self.debounce.later(record.id, self.settle)
            return
        try:
            await self.sync(record.id, self.debounce.take(record.id) or Told.of(change))
        except Refused as error:
            log.warning(
                "cannot post in channel %s for game %s: %s", record.channel_id, record.id, error
            )
            raise
        except Exception:  # stored all the same: the timer loop catches the channel up
            log.exception("publishing game %s failed; it is caught up later", record.id)

    def told(self, change: Change | Told) -> None:
        """Remember ``change`` as its game's newest change (:meth:`Debounce.told`)."""
        self.debounce.told(change)

    async def catch_up(self, shards: ShardPlan | None = None) -> int:
        """Sync every game whose channel lags the store (with ``shards``: of the guilds
        this process serves), the one that has lagged longest first (its stored
        ``behind_since``, so a restart keeps the order); how many were tried.

        While Discord cannot be reached the pass stops at the first write that finds it
        so (the next tick tries again, from the oldest), so that a pass never waits on
        Discord once per lagging channel.

        The first pass first marks the channels left behind by the process before
        (:meth:`bot.service.keeper.GameKeeper.mark_left_behind`): turns stored but never
        shown were played while the channel could not be updated too."""
        if self.started is not None:
            await self.source.mark_left_behind(self.started, shards)
            self.started = None
        tried = 0
        for game_id in await self.source.lagging(shards, CATCH_UP_BATCH):
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
        self.memory.fell_behind(game_id)
        try:
            await self.source.mark_behind(game_id)
        except Exception as error:
            log.warning("game %s: when its channel fell behind is not stored (%s)", game_id, error)

    # --- the projection -----------------------------------------------------
    async def sync(self, game_id: int, change: Change | Told | None = None) -> None:
        """Bring the channel of ``game_id`` up to the stored version (idempotent), from
        ``change`` when it is the game's newest (else from the game as read). The
        source's channel lock makes it one sync at a time per game, across processes."""
        try:
            await self._sync(game_id, None if change is None else Told.of(change))
        except LockLost:  # written all the same; another process may be showing it now
            raise
        except Exception as error:
            self.forget(game_id)
            self.outage.failed(error)
            await self.lags(game_id)
            raise
        finally:
            await self.store_refusals()

    async def _sync(self, game_id: int, change: Told | None) -> None:
        async with self.source.channel_lock(game_id):
            fresh = self.fresh(change)
            current = fresh or await self.source.read(game_id)
            record, game = current.record, current.game
            if record.status == "lobby" or record.shown_version >= record.version:
                return
            if in_no_channel(record):  # a daily attempt, a practice game: only to mark
                await self.show(record, None, Shown.of(record), later=fresh is not None)
                return
            with using(await self.language(record.guild_id)):
                shown, message_id, edits = Shown.of(record), record.message_id, False
                if game is None:
                    await self.close_lobby(record)
                else:
                    message_id, shown, edits = await self.project(record, game, shown, fresh)
            await self.show(record, message_id, shown, later=fresh is not None and edits)
            self.memory.caught_up(game_id)
            if not record.is_active:
                self.forget(game_id)

    def fresh(self, change: Told | None) -> Told | None:
        """``change`` if the sync may trust it as the game's stored state (see the
        module), else None (the game is read)."""
        if change is None or self.started is not None:
            return None
        record = change.record
        if self.memory.behind(record.id) or record.version < self.debounce.newest(record.id):
            return None
        if not self.memory.agrees(record):
            return None  # shown since the change was made: the record does not say it
        return change

    async def show(
        self, record: GameRecord, message_id: int | None, shown: Shown, later: bool = False
    ) -> None:
        """Store that the channel shows ``record``'s version, in ``message_id``, as
        ``shown`` tells: now, or (``later``) with the game's next change."""
        data = shown.to_json()
        if later:
            self.source.show_later(record, message_id, data)
            self.memory.remember(record.id, (record.version, message_id, data))
            return
        kept = await self.source.show(record, message_id, data)
        self.memory.remember(record.id, (kept.shown_version, kept.message_id, kept.shown))

    def forget(self, game_id: int) -> None:
        """Let go of what is kept of a game that ended, or whose sync failed."""
        self.memory.forget(game_id)
        self.debounce.forget(game_id)

    async def events(
        self, record: GameRecord, first_turn: int, fresh: Told | None
    ) -> list[StoredEvent]:
        """The game's events from ``first_turn`` on: those kept, with the ones ``fresh``
        stored, when they follow on; else as read."""
        kept = None
        if fresh is not None:
            kept = self.memory.events(record.id, first_turn, fresh.since, fresh.stored)
        if kept is not None:
            return kept
        return [e for e in await self.source.events(record.id, first_turn) if e.turn >= first_turn]

    async def facts(self, record: GameRecord, game: Game, shown: Shown) -> Facts | None:
        """What the final message tells, when the plan may post or finish it (a game not
        reviewed yet is reviewed meanwhile, and shown again once it is)."""
        final, review = ending(record, shown), review_due(record, shown)
        if not (final or review):
            return None
        return await self.source.ending(record, game, final=final, review=review, then=self.sync)

    async def project(
        self, record: GameRecord, game: Game, shown: Shown, fresh: Told | None = None
    ) -> tuple[int | None, Shown, bool]:
        """Carry out the plan for the stored ``game``, then its direct messages'; the
        live message's id, what the channel then shows, and whether the plan only
        edited (nothing new was posted anywhere)."""
        told = await self.events(record, shown.since or shown.turn or 0, fresh)
        events = by_turn(told)
        facts = await self.facts(record, game, shown)
        now = self.source.clock()
        steps, after = plan(
            Channel(
                record,
                game,
                shown,
                events,
                away(record),
                facts.wins if facts else None,
                facts.best if facts else None,
                facts.ratings if facts else None,
                facts.accuracies if facts else None,
                self.faces(),
                now,
                self.courier is not None,
            )
        )
        self.memory.keep_events(record, after.since or after.turn or 0, told)
        message_id = record.message_id
        for step in steps:
            if isinstance(step, Edit):
                await self.edit(record, game, step)
            elif isinstance(step, Post):
                sent = await self.writer.post(record, game, step)
                if step.live:
                    message_id = sent
                    self.memory.wrote(sent, (step.content, after.files, step.buttons is not None))
                elif step.call is not None:
                    after.notes.append([sent, list(step.pinged), step.call])
            elif not await self.writer.delete(record, step):
                after.notes.append(list(step.note))
                continue
            self.outage.reached()
        edits = all(isinstance(step, Edit) for step in steps)
        if self.courier is not None:
            live = replace(record, message_id=message_id)
            edits = await self.courier.deliver(live, game, after, events, now) and edits
        return message_id, after, edits

    # --- direct messages --------------------------------------------------------
    async def store_refusals(self) -> None:
        """Store the members whose direct messages Discord just refused, and show again
        the games that changed (they mention them from now on)."""
        if self.courier is not None:
            for change in await self.courier.store_refusals():
                self.told(change)
                self.debounce.later(change.record.id, 0.0)

    async def told_unreached(self, person: int) -> bool:
        """Whether ``person`` is to be told now that Discord refuses their direct
        messages (once: stored as told)."""
        changed = None if self.courier is None else await self.courier.told_unreached(person)
        for change in changed or ():
            self.told(change)
            self.debounce.later(change.record.id, self.settle)
        return changed is not None

    async def edit(self, record: GameRecord, game: Game | None, step: Edit) -> None:
        """Write ``step`` unless its message already shows exactly this."""
        written = (step.content, step.signature, step.buttons is not None)
        if self.memory.shows(step.message_id, written) and step.images is None:
            return
        await self.writer.edit(record, game, step)
        self.memory.wrote(step.message_id, written, final=step.final)  # a finished turn stays

    async def close_lobby(self, record: GameRecord) -> None:
        """A lobby that closed without a game: it says why, and its buttons go."""
        closing = [e for e in await self.source.events(record.id) if e.kind == "lobby_closed"]
        reason = closing[-1].data["reason"] if closing else "cancelled"
        by = closing[-1].player if closing else record.host_id
        content = lobby_closed_content(record, f"lobby.{reason}", by or record.host_id)
        if record.message_id:
            laid_out = as_shown(Shown.of(record), lobby_closed_card(content))
            await self.edit(record, None, Edit(record.message_id, content, card=laid_out))
            self.outage.reached()

    async def remind(self, change: Change) -> None:
        """Post the reminder ``change`` made (its one event), noted in what the channel
        shows (:func:`bot.channel.plan.reminder`)."""
        record = change.record
        with using(await self.language(record.guild_id)):
            post = reminder(record, change.events[0].data)
        if post is None:
            return
        async with self.source.channel_lock(record.id):  # one writer of ``shown``
            sent = await self.writer.post(record, change.game, post)
            self.outage.reached()
            record = (await self.source.read(record.id)).record
            version, message_id, showing = record.shown_version, record.message_id, record.shown
            mine = self.memory.last(record.id)
            if mine is not None and mine[0] > version:  # to be stored with the next change
                version, message_id, showing = mine
            shown = reminded(Shown.from_json(showing), change.game, sent, post)
            # the version shown stays: only the reminder is added to what it shows
            await self.show(replace(record, version=version), message_id, shown)

    # --- waiting ----------------------------------------------------------------
    async def reviewed(self) -> None:
        """Wait for the reviews of the games that just ended, and their channels' edits."""
        await self.source.reviewed()

    async def drain(self) -> None:
        """Run the syncs still waiting, now (on shutdown and in tests)."""
        await self.debounce.drain()
