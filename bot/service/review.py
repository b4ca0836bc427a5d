"""The review of a finished game: each person's decisions rated against ``hard``'s.

The game is rebuilt from its seed and move log; before each decision a person made
(not a computer seat, not a computer standing in for an away player, not a move the
game made for someone whose time ran out) ``hard``'s options are rated with
:func:`bot.players.hint`, and the move chosen is set against hard's choice.

**Accuracy**: 100% minus the expected points lost, over what could have been lost.
A decision's *loss* is how many expected points the chosen move is below the move
``hard`` would have made (never below 0); its *spread* is how far ``hard``'s move is
above the worst option (never below 0). A player's accuracy is ``1 - sum(loss) /
sum(spread)`` over all their decisions; a decision whose options are all worth the same
(a forced move) counts nothing. It works on differences only, so it holds for the
expected margins ``hard`` plays for in Qwixx games of two or more, which may be negative.

The review is computed off the event loop (in a worker thread), never on the click
path; a finished 5-player classic game takes well under a second
(``benchmarks/bench_review.py``).

**Kept accuracies** (:class:`ReviewKeeper`): once a game has ended, its review is
worked out in the background, on one worker thread of its own (never in the event
loop, nor in the store's writer: the move log is read first, the accuracies written
after), and each person's accuracy is stored with the game (schema version 12). The
final scoreboard, posted without waiting for it, is then edited once to show them
(:mod:`bot.channel.plan`); ``/qwixx stats`` averages them. Games that ended before,
or whose review a stop cut short, are reviewed after start-up (and every hour), newest
first, paced so that the worker thread is busy at most half the time
(:meth:`ReviewKeeper.backfill`). A daily challenge is reviewed once its day is over
everywhere, not before.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Final

from bot.players import Hint, Option, hint, is_computer
from bot.records.games import GameRecord, MoveRecord
from bot.records.options import Options
from bot.records.stats import REVIEW_DUE
from bot.rules import Game, Move, dice_version_of, new_game
from bot.service.daily import hidden_until, is_daily
from bot.service.errors import ServiceError
from bot.service.keeper import GameKeeper, stored_moves
from bot.service.stats import StatsService
from bot.store import Store

log = logging.getLogger(__name__)

COSTLIEST = 3  # decisions shown to the asker
SHOWN_LOSS = 0.05  # a loss that rounds to 0.0 points is no mistake worth showing
BACKFILL_BATCH: Final = 20  # finished games read at a time by the backfill


@dataclass(frozen=True)
class ReviewedDecision:
    """One decision of a person, with ``hard``'s view of the position before it."""

    seq: int  # the move's place in the game's move log
    player: int
    move: Move
    hint: Hint
    before: Game  # the position the decision was made in

    @property
    def turn(self) -> int:
        return self.before.turn

    @property
    def chosen(self) -> Option:
        return next(o for o in self.hint.options if o.move == self.move)

    @property
    def loss(self) -> float:
        """Expected points the move is below ``hard``'s choice (0 if it is hard's)."""
        return max(0.0, self.hint.options[0].value - self.chosen.value)

    @property
    def spread(self) -> float:
        """Expected points ``hard``'s choice is above the worst option."""
        return max(0.0, self.hint.options[0].value - min(o.value for o in self.hint.options))


@dataclass(frozen=True)
class Review:
    """A finished game's review: every rated decision of its people."""

    record: GameRecord
    game: Game  # as it ended
    rated: tuple[ReviewedDecision, ...]

    @property
    def people(self) -> list[int]:
        """The game's people in seat order (computer seats are not reviewed)."""
        return [p for p in self.record.players if not is_computer(p)]

    def decisions(self, player: int) -> list[ReviewedDecision]:
        return [r for r in self.rated if r.player == player]

    def accuracy(self, player: int) -> float | None:
        """``player``'s accuracy, 0-1 (see the module); None with nothing to rate."""
        mine = self.decisions(player)
        spread = sum(r.spread for r in mine)
        if spread <= 0:
            return None if not mine else 1.0
        return max(0.0, 1.0 - sum(r.loss for r in mine) / spread)

    def costliest(self, player: int, count: int = COSTLIEST) -> list[ReviewedDecision]:
        """``player``'s decisions that cost the most expected points, costliest first
        (earlier first among equals); only those that cost something."""
        costly = [r for r in self.decisions(player) if r.loss >= SHOWN_LOSS]
        return sorted(costly, key=lambda r: (-r.loss, r.seq))[:count]


def review_game(record: GameRecord, moves: Sequence[MoveRecord], yielding: bool = False) -> Review:
    """Rebuild ``record``'s game from its seed and ``moves`` and rate every decision a
    person made. Pure and CPU-bound: run it in a worker thread. ``yielding``: after
    each decision rated, let the interpreter's lock go to a thread waiting for it (the
    event loop's), rather than hold it for the 5 ms Python grants a thread at a time."""
    game = new_game(
        record.variant,
        record.players,
        record.seed,
        record.options.get("rules", {}),
        solo=Options.of(record.options).solo,
        dice_version=dice_version_of(record.state or {}),
    )
    rated = []
    for stored in moves:
        player, move = stored.player_id, Move.from_json(stored.move)
        if decided_by_person(stored) and player in game.decision().waiting:
            rated.append(ReviewedDecision(stored.seq, player, move, hint(game, player), game))
            if yielding:
                time.sleep(0)
        game, _ = game.apply(player, move)
    return Review(record, game, tuple(rated))


def decided_by_person(stored: MoveRecord) -> bool:
    """The move was a person's own choice: not a computer's, not a stand-in's, not one
    the game made when time ran out or for someone away."""
    return stored.source == "player" and not is_computer(stored.player_id)


class ReviewService:
    """Reviews of finished games, for the server and channel they were played in."""

    def __init__(self, keeper: GameKeeper, stats: StatsService) -> None:
        self.keeper = keeper
        self.stats = stats

    async def review(self, guild_id: int, channel_id: int, game_id: int) -> Review:
        """The review of game ``game_id``; refused for another server's or channel's
        game, for a game that has not ended, and for a daily challenge whose day is not
        over everywhere yet (it is played in no channel: any channel of its server will do)."""
        record = (await self.keeper.read(game_id)).record  # error.game_gone if unknown
        if record.guild_id != guild_id:
            raise ServiceError("review.other_server")
        if (opens := hidden_until(record, self.keeper.clock())) is not None:
            raise ServiceError("review.daily_later", when=int(opens))
        if not is_daily(record) and record.channel_id != channel_id:  # a daily: no channel
            raise ServiceError("review.other_channel", channel=f"<#{record.channel_id}>")
        if record.status == "running":
            raise ServiceError("review.running")
        if record.status == "lobby":
            raise ServiceError("error.not_started")
        if record.status != "finished":
            raise ServiceError("review.abandoned")
        moves = await self.keeper.moves(game_id)
        return await asyncio.to_thread(review_game, record, moves, True)

    async def numbered(self, guild_id: int, channel_id: int, number: int | None) -> int:
        """The id of the game ``/qwixx history`` shows as ``number`` on this server (1
        the newest); without a number, the game running in this channel if there is
        one (its review waits for its end), else the newest finished game here."""
        if number is None:
            with contextlib.suppress(ServiceError):  # none: the newest finished game here
                return (await self.keeper.in_channel(channel_id)).record.id
            number = 1
        games = await self.stats.history(guild_id)
        if not 1 <= number <= len(games):
            raise ServiceError("review.unknown", number=number)
        return games[number - 1].game_id


def accuracies_of(review: Review) -> list[tuple[int, float, int]]:
    """Each person's ``(player, accuracy, decisions rated)``, those with a decision rated."""
    found = []
    for player in review.people:
        accuracy = review.accuracy(player)
        if accuracy is not None:
            found.append((player, accuracy, len(review.decisions(player))))
    return found


def waits_for_review(record: GameRecord) -> bool:
    """Whether the channel of the finished ``record`` is to show its review: its final
    message waits for it, or the channel has still to catch up (see
    :meth:`bot.store.Store.add_review`)."""
    return record.shown_version < record.version or record.shown.get("review") == REVIEW_DUE


_WORKER = ThreadPoolExecutor(max_workers=1, thread_name_prefix="qwixx-review")
"""The reviews' own thread: one review at a time, whatever else runs in threads."""


class ReviewKeeper:
    """Stores each finished game's accuracies once (see the module)."""

    def __init__(self, store: Store, clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.clock = clock

    def open_now(self, record: GameRecord) -> bool:
        """Whether ``record``'s review may be worked out now: a daily challenge's only
        once its day is over everywhere (nothing of it shows before)."""
        return hidden_until(record, self.clock()) is None

    async def keep(self, record: GameRecord) -> dict[int, float] | None:
        """Review the finished ``record`` unless that is done already, and store its
        people's accuracies; them (None: the game has not finished, or is a daily
        challenge whose day is not over everywhere yet). A game whose logs were pruned,
        or that no longer replays, is kept as reviewed without accuracies."""
        if record.status != "finished" or not self.open_now(record):
            return None
        if (known := await self.store.reviews.of(record.id)) is not None:
            return known
        moves = await stored_moves(self.store, record.id)
        lines: list[tuple[int, float, int]] = []
        if moves:
            try:
                review = await asyncio.get_running_loop().run_in_executor(
                    _WORKER, review_game, record, moves, True
                )
                lines = accuracies_of(review)
            except Exception:  # a log the rules no longer replay: no accuracy, once
                log.warning(
                    "game %d cannot be reviewed; it is kept without accuracies",
                    record.id,
                    exc_info=True,
                )
        await self.store.reviews.add(record, lines, Options.of(record.options).hints, self.clock())
        return {player: accuracy for player, accuracy, _ in lines}

    async def backfill(
        self,
        shards: tuple[tuple[int, ...], int] | None = None,
        rest: float = 1.0,
        shown: Callable[[int], Awaitable[None]] | None = None,
    ) -> int:
        """Review every finished game not reviewed yet (with ``shards``: of those shards'
        guilds), newest first; after each, wait ``rest`` times as long as it took, so the
        reviews leave the processor to the games. ``shown``: called with each game whose
        channel is to show the review (its final message waits for it, or is still to
        be posted). How many were reviewed."""
        done, before = 0, None
        while batch := await self.store.reviews.unreviewed(
            BACKFILL_BATCH, before=before, shards=shards
        ):
            for record in batch:
                started = time.monotonic()
                try:
                    if await self.keep(record) is None:
                        continue  # a daily challenge of a day not over: a later pass
                    done += 1
                    if shown is not None and waits_for_review(record):
                        await shown(record.id)
                except Exception:  # the store refused: tried again at the next pass
                    log.warning(
                        "game %d: its review is left to the next pass", record.id, exc_info=True
                    )
                await asyncio.sleep(rest * (time.monotonic() - started))
            before = batch[-1].id
        if done:
            log.info("reviewed %d finished games", done)
        return done
