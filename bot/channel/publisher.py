"""Keeping a game's channel in sync: the plans of :mod:`bot.channel.plan`, carried out.

Every public message of a running game is derived from the stored game and its
stored events; the store remembers which version the channel shows (``shown_version``)
and what it shows (``shown``, :class:`~bot.channel.plan.Shown`). :meth:`Publisher.sync`
asks the plan what the channel lacks, has the :class:`~bot.channel.writer.Writer` write
it, and is safe to repeat: after a crash between commit and post, a refused post or a
failed edit, the next sync — the timer loop runs one for every lagging game — finishes
the job (posts carry a nonce, so a post repeated after a crash does not appear twice).

Edits that only show decisions being made wait ``settle`` seconds, so a burst of clicks
becomes one edit; an edit that would write what its message already shows is left out.
While Discord cannot be reached, the publisher remembers since when, and the catch-up
stops at its first failed write.

After a change made in this process, the sync reads nothing: it takes the change's
:class:`~bot.service.outcome.Outcome` (the record as written, the game, the events it
stored), the events of the live message's earlier turns as it kept them, and the server's
language from the service's cache; a sync that only edits leaves what the channel shows
to be stored with the game's next change (repeating edits is harmless). It reads the game
when it cannot be sure it holds the newest: the first sync of a process, a channel that
fell behind, a change older than one it was told of, a record whose ``shown`` is not what
it last wrote.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import defaultdict
from collections.abc import Callable, Collection, Sequence
from dataclasses import replace
from typing import Any

from bot.channel import story
from bot.channel.budget import unreachable
from bot.channel.dice import TEXT, Faces
from bot.channel.direct import Closing, Mailbox, Sent, letters, storable, stored
from bot.channel.plan import Channel, Edit, Events, Post, Shown, ending, plan, review_due
from bot.channel.texts import lobby_closed_content, message_link
from bot.channel.writer import DirectWriter, Refused, Unreachable, Writer
from bot.i18n import using
from bot.i18n.words import t
from bot.records.errors import LockLost
from bot.records.games import GameRecord, StoredEvent
from bot.rules import Game
from bot.service.endings import Ending
from bot.service.errors import ServiceError
from bot.service.games import GameService
from bot.service.hidden import in_no_channel
from bot.service.outcome import Outcome
from bot.service.play import Seats
from bot.shards import ShardPlan

log = logging.getLogger(__name__)

CATCH_UP_BATCH = 1000
"""The most lagging games one pass looks at (each is synced, or the pass stops)."""
KEPT = 1024
"""Games whose live message's events are kept; when full, they are read again."""


def by_turn(events: Sequence[StoredEvent]) -> defaultdict[int, list[StoredEvent]]:
    grouped: defaultdict[int, list[StoredEvent]] = defaultdict(list)
    for event in events:
        grouped[event.turn].append(event)
    return grouped


class Publisher:
    """Brings channels up to their stored games, through ``writer``."""

    def __init__(
        self,
        service: GameService,
        writer: Writer,
        *,
        settle: float = 30.0,
        faces: Callable[[], Faces] = lambda: TEXT,
        direct: DirectWriter | None = None,
    ) -> None:
        self.service = service
        self.writer = writer
        self.direct = direct
        """Writes the games' direct messages (None: the bot sends none, and mentions
        everyone)."""
        self.unreached: set[int] = set()
        """Members whose direct messages Discord refuses, not told so yet (the adapter
        tells them once, at their next interaction: :meth:`told_unreached`)."""
        self._refused: set[int] = set()
        """Members whose direct message Discord just refused, to be stored as such."""
        self.faces = faces
        """The dice's emojis the bot has now (:mod:`bot.channel.dice`)."""
        self._reviewing: dict[int, asyncio.Task[None]] = {}
        """Reviews of games that just ended, worked out while the channel goes on."""
        self.settle = settle
        self._pending: dict[int, asyncio.Task[None]] = {}
        self._syncing: set[asyncio.Task[None]] = set()
        """Syncs that woke up and are showing their game now."""
        self._last_edit: dict[int, tuple[str, str, bool]] = {}
        self._latest: dict[int, Outcome] = {}
        """The newest change each game was published with, for its pending sync."""
        self._told: dict[int, int] = {}
        """The newest version published of each game."""
        self._shown: dict[int, tuple[int, int | None, dict[str, Any]]] = {}
        """What this process last stored (or left to store) as each channel's shown."""
        self._events: dict[int, tuple[int, int, list[StoredEvent]]] = {}
        """Each game's events from the first turn its live message tells: (the version
        they are complete up to, that turn, the events)."""
        self._stale: set[int] = set()
        """Games whose channel fell behind: read afresh at their next sync."""
        self.unreachable_since: float | None = None
        """Since when Discord has not answered (None: it did, last time it was asked)."""
        self.started: float | None = service.clock()
        """When this process started, until its first catch-up has marked the channels
        the process before left behind (then None)."""

    async def language(self, guild_id: int) -> str:
        """The language of what the server's channels show (see bot/cogs/settings.py)."""
        return await self.service.settings.language(guild_id, self.writer.locale(guild_id))

    # --- after a change ---------------------------------------------------
    @staticmethod
    def within_turn(outcome: Outcome) -> Game | None:
        """The running game ``outcome`` changed within the turn its channel shows (None
        for any other change)."""
        record, game, before = outcome.record, outcome.game, outcome.before
        if (
            game is None
            or before is None
            or record.status != "running"
            or not game.turn == before.turn == Shown.of(record).turn
        ):
            return None
        return game

    @classmethod
    def opened(cls, outcome: Outcome) -> bool:
        """Whether ``outcome`` opened a decision within the turn the channel shows: the
        players' open sheets may show it to them before the channel does."""
        game, before = cls.within_turn(outcome), outcome.before
        return game is not None and before is not None and game.decision().phase != before.phase

    async def publish(self, outcome: Outcome, seen: Collection[int] = ()) -> None:
        """Tell the channel about a change: news that opens a decision at once, the rest
        after ``settle`` seconds (several clicks become one edit). ``seen``: the players
        whose own sheet already shows them their new decision, for whom the channel's
        news can wait too."""
        record, game = outcome.record, self.within_turn(outcome)
        self.told(outcome)
        if game is not None and (
            not self.opened(outcome) or set(story.deciders(game)) <= set(seen)
        ):
            self.later(record.id, self.settle)
            return
        try:
            await self.sync(record.id, self._latest.pop(record.id, outcome))
        except Refused as error:
            log.warning(
                "cannot post in channel %s for game %s: %s", record.channel_id, record.id, error
            )
            raise ServiceError("error.cannot_post_now") from error
        except Exception:  # stored all the same: the timer loop catches the channel up
            log.exception("publishing game %s failed; it is caught up later", record.id)

    def told(self, outcome: Outcome) -> None:
        """Remember ``outcome`` as its game's newest change, its stored events added to
        those of the changes still waiting to be shown."""
        record = outcome.record
        self._told[record.id] = max(self._told.get(record.id, 0), record.version)
        waiting = self._latest.get(record.id)
        if waiting is not None and waiting.record.version >= record.version:
            return
        if waiting is not None and outcome.since == waiting.record.version:
            outcome = replace(outcome, stored=waiting.stored + outcome.stored, since=waiting.since)
        self._latest[record.id] = outcome

    def later(self, game_id: int, delay: float) -> None:
        """Sync ``game_id`` after ``delay`` seconds, unless a sync is already pending."""
        if game_id not in self._pending:
            self._pending[game_id] = asyncio.create_task(self._sync_later(game_id, delay))

    async def _sync_later(self, game_id: int, delay: float) -> None:
        await asyncio.sleep(delay)
        self._pending.pop(game_id, None)
        task = asyncio.current_task()
        if task is not None:
            self._syncing.add(task)
        try:
            await self.sync(game_id, self._latest.pop(game_id, None))
        except Exception:
            log.exception("publishing game %s failed; it is caught up later", game_id)
        finally:
            self._syncing.discard(task)

    async def catch_up(self, shards: ShardPlan | None = None) -> int:
        """Sync every game whose channel lags the store (with ``shards``: of the guilds
        this process serves), the one that has lagged longest first (its stored
        ``behind_since``, so a restart keeps the order); how many were tried.

        While Discord cannot be reached the pass stops at the first write that finds it
        so (the next tick tries again, from the oldest), so that a pass never waits on
        Discord once per lagging channel.

        The first pass first marks the channels left behind by the process before
        (:meth:`bot.service.keeper.GameKeeper.mark_left_behind`): turns stored but never shown were
        played while the channel could not be updated too."""
        if self.started is not None:
            await self.service.keeper.mark_left_behind(self.started, shards)
            self.started = None
        tried = 0
        for game_id in await self.service.keeper.lagging(shards, limit=CATCH_UP_BATCH):
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
        self._stale.add(game_id)
        try:
            await self.service.keeper.mark_behind(game_id)
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
    async def sync(self, game_id: int, outcome: Outcome | None = None) -> None:
        """Bring the channel of ``game_id`` up to the stored version (idempotent), from
        ``outcome`` when it is the game's newest change (else from the game as read). The
        store's game lock makes it one sync at a time per game, across processes."""
        try:
            await self._sync(game_id, outcome)
        except LockLost:  # written all the same; another process may be showing it now
            raise
        except Exception as error:
            self.forget(game_id)
            await self.behind(game_id, error)
            raise
        finally:
            await self.store_refusals()

    async def _sync(self, game_id: int, outcome: Outcome | None) -> None:
        async with self.service.keeper.channel_lock(game_id):
            fresh = self.fresh(outcome)
            current = fresh or await self.service.keeper.read(game_id)
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
            self._stale.discard(game_id)
            if not record.is_active:
                self.forget(game_id)

    def fresh(self, outcome: Outcome | None) -> Outcome | None:
        """``outcome`` if the sync may trust it as the game's stored state (see the
        module), else None (the game is read)."""
        if outcome is None or self.started is not None:
            return None
        record = outcome.record
        if record.id in self._stale or record.version < self._told.get(record.id, 0):
            return None
        mine = self._shown.get(record.id)
        if mine is not None and mine != (record.shown_version, record.message_id, record.shown):
            return None  # shown since the change was made: the record does not say it
        return outcome

    async def show(
        self, record: GameRecord, message_id: int | None, shown: Shown, later: bool = False
    ) -> None:
        """Store that the channel shows ``record``'s version, in ``message_id``, as
        ``shown`` tells: now, or (``later``) with the game's next change."""
        data = shown.to_json()
        if later:
            self.service.keeper.show_later(record, message_id, data)
            self._shown[record.id] = (record.version, message_id, data)
            return
        stored = await self.service.keeper.show(record, message_id, data)
        self._shown[record.id] = (stored.shown_version, stored.message_id, stored.shown)

    def forget(self, game_id: int) -> None:
        """Let go of what is kept of a game that ended, or whose sync failed."""
        self._shown.pop(game_id, None)
        self._events.pop(game_id, None)
        self._told.pop(game_id, None)

    async def events(
        self, record: GameRecord, first_turn: int, fresh: Outcome | None
    ) -> list[StoredEvent]:
        """The game's events from ``first_turn`` on: those kept, with the ones ``fresh``
        stored, when they follow on; else as read."""
        kept = self._events.get(record.id)
        if (
            fresh is not None
            and kept is not None
            and fresh.since is not None
            and kept[0] == fresh.since
            and kept[1] <= first_turn
        ):
            known = {e.seq for e in kept[2]}
            events = [*kept[2], *(e for e in fresh.stored if e.seq not in known)]
        else:
            events = await self.service.keeper.events(record.id, first_turn)
        return [e for e in events if e.turn >= first_turn]

    def keep_events(self, record: GameRecord, first_turn: int, events: list[StoredEvent]) -> None:
        """The events the next plan of ``record``'s game needs, complete up to its version."""
        if len(self._events) >= KEPT and record.id not in self._events:
            self._events.clear()
        self._events[record.id] = (
            record.version,
            first_turn,
            [e for e in events if e.turn >= first_turn],
        )

    async def project(
        self, record: GameRecord, game: Game, shown: Shown, fresh: Outcome | None = None
    ) -> tuple[int | None, Shown, bool]:
        """Carry out the plan for the stored ``game``, then its direct messages'; the
        live message's id, what the channel then shows, and whether the plan only
        edited (nothing new was posted anywhere)."""
        told = await self.events(record, shown.since or shown.turn or 0, fresh)
        events = by_turn(told)
        final, review = ending(record, shown), review_due(record, shown)
        facts = Ending()
        if final or review:
            facts = await self.service.endings.facts(record, game, final=final, review=review)
        if review and facts.accuracies is None:
            self.review_later(record)
        now = self.service.clock()
        steps, after = plan(
            Channel(
                record,
                game,
                shown,
                events,
                Seats.of(record).away,
                facts.wins,
                facts.best,
                facts.ratings,
                facts.accuracies,
                self.faces(),
                now,
                self.direct is not None,
            )
        )
        self.keep_events(record, after.since or after.turn or 0, told)
        message_id = record.message_id
        for step in steps:
            if isinstance(step, Edit):
                await self.edit(record, game, step)
            elif isinstance(step, Post):
                sent = await self.writer.post(record, game, step)
                if step.live:
                    message_id = sent
                    self._last_edit[sent] = (step.content, after.files, step.buttons is not None)
                elif step.call is not None:
                    after.notes.append([sent, list(step.pinged), step.call])
            elif not await self.writer.delete(record, step):
                after.notes.append(list(step.note))
                continue
            self.reached()
        edits = all(isinstance(step, Edit) for step in steps)
        if self.direct is not None:
            live = replace(record, message_id=message_id)
            edits = await self.write_letters(live, game, after, events, now) and edits
        return message_id, after, edits

    # --- direct messages --------------------------------------------------------
    async def write_letters(
        self, record: GameRecord, game: Game, shown: Shown, events: Events, now: float
    ) -> bool:
        """Bring the game's direct messages up to it (:func:`bot.channel.direct.letters`),
        noting them in ``shown``; whether they only edited. A member whose direct
        messages Discord refuses is sent none any more: their games mention them."""
        assert self.direct is not None
        for person, prefs in Seats.of(record).prefs.items():
            if prefs.dm_blocked and not prefs.dm_blocked_told:
                self.unreached.add(person)
        box = Mailbox(
            record, game, stored(shown.direct), events, now, self.direct.place(record), self.faces()
        )
        mail, sent = letters(box)
        posted = False
        for item in mail:
            if isinstance(item, Closing):
                await self.direct.close(record, item)
            else:
                try:
                    channel_id, message_id = await self.direct.send(record, game, item)
                except Unreachable as refused:
                    log.info("no direct message to %s: %s", item.person, refused)
                    self._refused.add(item.person)
                    continue
                sent[item.person] = Sent(channel_id, message_id, item.turn, item.phase)
                posted = True
            self.reached()
        shown.direct = storable(sent)
        return not posted

    async def store_refusals(self) -> None:
        """Store the members whose direct messages Discord just refused: their games
        change (mention them from now on), and are shown again."""
        while self._refused:
            person = self._refused.pop()
            self.unreached.add(person)
            try:
                changed = await self.service.members.dms_closed(person)
            except Exception as error:  # tried again at their next refused message
                log.warning("member %s: closed direct messages not stored (%s)", person, error)
                continue
            for outcome in changed:
                self.told(outcome)
                self.later(outcome.record.id, 0.0)

    async def told_unreached(self, person: int) -> bool:
        """Whether ``person`` is to be told now that Discord refuses their direct
        messages (once: stored as told)."""
        if person not in self.unreached:
            return False
        self.unreached.discard(person)
        changed = await self.service.members.told_dms_closed(person)
        for outcome in changed or ():
            self.told(outcome)
            self.later(outcome.record.id, self.settle)
        return changed is not None

    async def edit(self, record: GameRecord, game: Game | None, step: Edit) -> None:
        """Write ``step`` unless its message already shows exactly this."""
        key = (step.content, step.signature, step.buttons is not None)
        if self._last_edit.get(step.message_id) == key and step.images is None:
            return
        await self.writer.edit(record, game, step)
        self._last_edit[step.message_id] = key
        if step.final:  # a finished turn is not edited again
            self._last_edit.pop(step.message_id, None)

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
            async with self.service.keeper.channel_lock(record.id):
                pass  # the sync that asked for the review has posted the final message
            await self.service.endings.reviews.keep(record)
        except Exception:
            log.exception("game %d: its review is left to the next pass", record.id)
            return
        try:
            await self.sync(record.id)
        except Exception as error:  # the timer loop's catch-up edits it later
            log.warning("game %d: its accuracies are shown later (%s)", record.id, error)

    async def close_lobby(self, record: GameRecord) -> None:
        """A lobby that closed without a game: it says why, and its buttons go."""
        closing = [
            e for e in await self.service.keeper.events(record.id) if e.kind == "lobby_closed"
        ]
        reason = closing[-1].data["reason"] if closing else "cancelled"
        by = closing[-1].player if closing else record.host_id
        content = lobby_closed_content(record, f"lobby.{reason}", by or record.host_id)
        if record.message_id:
            await self.edit(record, None, Edit(record.message_id, content))
            self.reached()

    async def remind(self, outcome: Outcome) -> None:
        """Mention who still has to decide, with the deadline and a link to the turn (a
        reminder is a call of its own: it reaches those whose direct message told them
        of the decision too, as their direct message is not written again)."""
        record = outcome.record
        data: dict[str, Any] = outcome.events[0].data
        pinged = tuple(data["players"])
        if not pinged:  # nobody to remind
            return
        link = message_link(record) if record.message_id else ""
        with using(await self.language(record.guild_id)):
            text = t(
                "turn.reminder",
                names=story.mentions(data["players"]),
                deadline=int(data["deadline"]),
                link=link,
            )
        async with self.service.keeper.channel_lock(record.id):  # one writer of ``shown``
            sent = await self.writer.post(record, outcome.game, Post(text, None, pinged=pinged))
            self.reached()
            record = (await self.service.keeper.read(record.id)).record
            version, message_id, showing = record.shown_version, record.message_id, record.shown
            mine = self._shown.get(record.id)
            if mine is not None and mine[0] > version:  # to be stored with the next change
                version, message_id, showing = mine
            shown = Shown.from_json(showing)
            if outcome.game is not None and shown.turn == outcome.game.turn:
                shown.pinged += [p for p in pinged if p not in shown.pinged]  # called now
            shown.notes.append(
                [
                    sent,
                    list(data["players"]),
                    outcome.game.decision().phase if outcome.game is not None else "",
                ]
            )
            # the version shown stays: only the reminder is added to what it shows
            await self.show(replace(record, version=version), message_id, shown)

    # --- stopping -------------------------------------------------------------
    def stop_reviews(self) -> None:
        """Give up the reviews under way (on a stop): the next start does them again."""
        for task in list(self._reviewing.values()):
            task.cancel()

    async def reviewed(self) -> None:
        """Wait for the reviews of the games that just ended, and their channels' edits."""
        while self._reviewing:
            await asyncio.gather(*self._reviewing.values(), return_exceptions=True)

    async def drain(self) -> None:
        """Run the syncs still waiting, now, and wait for those already showing their
        game (on shutdown and in tests: once it returns, every channel shows what was
        told before it)."""
        while self._syncing:
            await asyncio.gather(*self._syncing, return_exceptions=True)
        while self._pending:
            game_id, task = next(iter(self._pending.items()))
            task.cancel()  # still asleep: it leaves the queue before it syncs
            with contextlib.suppress(asyncio.CancelledError):
                await task
            self._pending.pop(game_id, None)
            try:
                await self.sync(game_id, self._latest.pop(game_id, None))
            except Exception as error:
                log.warning("game %s: the channel still lags (%s)", game_id, error)
