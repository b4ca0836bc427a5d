"""The daily challenge: each day, one solo game per variant on the same dice for everyone.

**The day's dice.** A day's game is seeded by an HMAC of the day and variant under a
secret of the bot's database (:meth:`~bot.store.daily.DailyQueries.daily_secret`), so
nobody can work the dice out before the day, and every member of every server of this
bot gets the same throws. The seed is never shown. Every game of a day derives its dice
(and Longo's lucky numbers) by that day's derivation, :func:`daily_dice`, never by
whatever is newest when it begins: a release must not deal the members who begin after
it other dice than those before. From :data:`DICE_V4_FROM` on that is version 4, in
which each die's face depends on the throw alone, so the dice are the same for everyone
all the way, whatever rows a member closed and whichever Qwinto dice they threw (the
days before keep version 2, whose faces follow the dice still in play).

**The day.** A day is a date. Each server chooses the local hour at which its day turns,
in its time zone (:class:`~bot.store.daily.DailySettings`; midnight UTC by default), so
a day's dice are out somewhere from 10:00 UTC the day before (UTC+14, at midnight) until
11:00 UTC two days later (UTC−12, turning at 23:00): :func:`over_everywhere`. Until
then an attempt may be played on; from then on it is closed and may be reviewed.

**An attempt** is a solo game of the games table that lives in no channel: its
``channel_id`` is a negative number of its own (:func:`hidden_channel`), so no
channel's game, limit or message ever meets it. One per member, day and variant, across
servers (the attempts' primary key); it counts for the server where it was begun, and
for no server's ranking (:data:`~bot.records.games.NO_SERVER`) when begun where the bot is not:
in a direct message, a group chat, a server that never added it. Wherever it was begun,
it counts in the day's standing of everyone who played these dice.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import random
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from bot.durations import LONGEST
from bot.players import choose
from bot.records.daily import Attempt, DailyBest, DailySettings, DailyStanding, RankingPost
from bot.records.errors import ChannelBusy
from bot.records.games import NO_SERVER, GameRecord
from bot.rules import VARIANTS, Game, new_game
from bot.rules.dice import DICE_V2, DICE_V4
from bot.service.errors import ServiceError
from bot.service.hidden import no_channel
from bot.service.keeper import GameKeeper
from bot.service.outcome import Snapshot
from bot.service.writes import Abandon, Start, Tell, Write
from bot.store import Store

DICE_V4_FROM = "2026-12-01"
"""The first day whose games throw dice version 4 (see the module's docstring)."""
HOUR = 3600
FIRST_OUT = timedelta(hours=-14)
"""A day's dice are out first at its midnight at UTC+14."""
LAST_IN = timedelta(days=1, hours=23 + 12)
"""…and last until 23:00 of the next day at UTC−12."""
TURN_TIME = LONGEST
"""An attempt is played at one's own pace: its decisions never run out within the day."""
SEED_BITS = 62


def daily_seed(secret: str, day: str, variant: str) -> int:
    """The seed of ``day``'s game of ``variant``: nothing but the secret predicts it."""
    digest = hmac.new(secret.encode(), f"daily:{day}:{variant}".encode(), hashlib.sha256)
    return int.from_bytes(digest.digest()[:8], "big") >> (64 - SEED_BITS)


def hidden_channel(day: str, variant: str, user: int) -> int:
    """The attempt's channel id: one per member, day and variant."""
    return no_channel(f"{day}:{variant}:{user}")


def is_daily(record: GameRecord) -> bool:
    """Whether ``record`` is a daily attempt's game."""
    return "daily" in record.options


def zone(name: str) -> ZoneInfo:
    """The time zone called ``name``; ``error.daily_timezone`` for a name it is not."""
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise ServiceError("error.daily_timezone", timezone=name[:40]) from None


def day_of(now: float, settings: DailySettings) -> str:
    """The server's day at ``now``: its local date, turning at ``settings.hour``."""
    local = datetime.fromtimestamp(now, zone(settings.timezone))
    return (local - timedelta(hours=settings.hour)).date().isoformat()


def hidden_until(record: GameRecord, now: float) -> float | None:
    """When a daily game's dice may be shown (its review, its sheets), if not yet at
    ``now``: once its day is over everywhere. None for any other game."""
    if not is_daily(record):
        return None
    opens = over_everywhere(record.options["daily"])
    return opens if now < opens else None


def midnight(day: str) -> datetime:
    return datetime.combine(date.fromisoformat(day), datetime.min.time(), UTC)


def turns_at(day: str, settings: DailySettings) -> float:
    """When the server's ``day`` ends and its next one begins (unix seconds)."""
    local = datetime.combine(
        date.fromisoformat(day) + timedelta(days=1), datetime.min.time(), zone(settings.timezone)
    )
    return (local + timedelta(hours=settings.hour)).timestamp()


def over_everywhere(day: str) -> float:
    """When ``day`` ends for the last server (unix seconds): no more play, reviews open."""
    return (midnight(day) + LAST_IN).timestamp()


def check_open(record: GameRecord, now: float) -> None:
    """A daily attempt is played on only while its day lasts somewhere."""
    if now >= over_everywhere(record.options["daily"]):
        raise ServiceError("error.daily_over")


def out_somewhere(day: str) -> float:
    """When ``day``'s dice are out for the first server."""
    return (midnight(day) + FIRST_OUT).timestamp()


def streak(days: list[str], today: str) -> int:
    """Days in a row, ending today (or yesterday, today not played yet), with an attempt
    finished; ``days`` newest first."""
    expected = date.fromisoformat(today)
    if days and days[0] != today:
        expected -= timedelta(days=1)
    count = 0
    for day in days:
        if date.fromisoformat(day) != expected:
            break
        count += 1
        expected -= timedelta(days=1)
    return count


def better_than(standing: DailyStanding) -> int:
    """The share of everyone who finished the day's dice that scored less, in whole
    percent rounded down (never more than is true)."""
    return 100 * standing.below // max(standing.players, 1)


def daily_dice(day: str) -> int:
    """The dice derivation of every game of ``day``, par's included."""
    return DICE_V4 if day >= DICE_V4_FROM else DICE_V2


def daily_game(variant: str, player: int, seed: int, day: str) -> Game:
    """A new game of ``day``'s dice (``seed``: the day's) for ``player`` alone."""
    return new_game(variant, [player], seed, {}, solo=True, dice_version=daily_dice(day))


def par_score(variant: str, seed: int, day: str) -> int:
    """What ``hard`` scores alone on ``day``'s dice of ``seed`` (deterministic;
    CPU-bound)."""
    game = daily_game(variant, 1, seed, day)
    rng = random.Random(seed)
    while not game.finished:
        game, _ = game.apply(1, choose(game, 1, rng, "hard"))
    return game.scores()[1].total


@dataclass(frozen=True)
class DailyRecord:
    """A member's daily challenge, every day and server together: per variant their
    finished attempts, and the streak of days up to today."""

    bests: list[DailyBest]
    streak: int


@dataclass(frozen=True)
class Result:
    """A finished attempt as its player sees it: the score against everyone's of the same
    dice and the server's, par, and the streak."""

    attempt: Attempt
    score: int
    standing: DailyStanding
    ranking: list[tuple[int, int]]
    """The server's ranking of the day (empty for an attempt of no server)."""
    par: int
    streak: int
    next: float
    """When the server's next day begins."""

    @property
    def place(self) -> int:
        """The member's place in the server's ranking (1 is first)."""
        return 1 + sum(score > self.score for _, score in self.ranking)


async def start(current: Snapshot) -> Write:
    """The attempt's game begins (unless it has already: begun twice at once)."""
    record = current.record
    if record.status != "lobby":
        return Tell()
    return Start(
        daily_game(record.variant, record.players[0], record.seed, record.options["daily"])
    )


async def abandon(current: Snapshot) -> Write:
    """An attempt's game begun twice at once: the second one ends unplayed."""
    return Abandon([])


class DailyService:
    """Attempts, their results, and a server's settings for the daily challenge."""

    def __init__(self, keeper: GameKeeper, store: Store) -> None:
        self.keeper = keeper
        self.store = store
        self._secret: str | None = None

    @property
    def now(self) -> float:
        return self.keeper.clock()

    async def secret(self) -> str:
        if self._secret is None:
            self._secret = await self.store.daily.secret()
        return self._secret

    async def settings(self, guild_id: int) -> DailySettings:
        return await self.store.daily.settings(guild_id)

    @staticmethod
    def check_settings(hour: int | None, timezone: str | None) -> None:
        """Refuse an hour or a time zone that cannot be (before anything is saved)."""
        if hour is not None and not 0 <= hour <= 23:
            raise ServiceError("error.daily_hour", hour=hour)
        if timezone is not None:
            zone(timezone)

    async def set_settings(
        self,
        guild_id: int,
        channel_id: int | None = None,
        hour: int | None = None,
        timezone: str | None = None,
    ) -> DailySettings:
        """Change what is given (None keeps a setting as it is)."""
        self.check_settings(hour, timezone)
        old = await self.settings(guild_id)
        if timezone is not None:
            timezone = zone(timezone).key
        new = DailySettings(
            old.channel_id if channel_id is None else channel_id,
            old.hour if hour is None else hour,
            old.timezone if timezone is None else timezone,
        )
        await self.store.daily.set_settings(guild_id, new)
        return new

    async def today(self, guild_id: int) -> str:
        return day_of(self.now, await self.settings(guild_id))

    async def begin(
        self, guild_id: int, channel_id: int, user: int, variant: str
    ) -> tuple[Attempt, Snapshot]:
        """Today's attempt of ``user`` at ``variant``: begun now, or the one begun before
        (finished or not; the caller tells which)."""
        if variant not in VARIANTS:
            raise ServiceError("error.unknown_variant", variant=variant)
        day = await self.today(guild_id)
        attempt = await self.store.daily.attempt(day, variant, user)
        if attempt is None:
            record = await self._game(guild_id, user, day, variant)
            attempt = await self.store.daily.add_attempt(
                Attempt(day, variant, user, guild_id, channel_id, record.id, None, None)
            )
            if attempt.game_id != record.id:  # begun twice at once: the first one stands
                await self.keeper.change(record.id, abandon)
        found = await self.keeper.read(attempt.game_id)
        if found.record.status == "lobby":
            found = await self.keeper.change(attempt.game_id, start)
        return attempt, found

    async def _game(self, guild_id: int, user: int, day: str, variant: str) -> GameRecord:
        """The attempt's game: new, or the one a start cut short left behind."""
        channel = hidden_channel(day, variant, user)
        try:
            return await self.keeper.create(
                guild_id,
                channel,
                user,
                variant,
                {"rules": {}, "solo": True, "daily": day},
                daily_seed(await self.secret(), day, variant),
                TURN_TIME,
                expires=over_everywhere(day),
            )
        except ChannelBusy:
            try:
                return (await self.keeper.in_channel(channel)).record
            except ServiceError:  # it ended meanwhile: nothing to adopt
                raise ServiceError("error.daily_over") from None

    def check_open(self, record: GameRecord) -> None:
        """An attempt is played on only while its day lasts somewhere."""
        check_open(record, self.now)

    async def finish(self, attempt: Attempt, game: Game) -> Result:
        """The result of an attempt whose game ended (recorded once, whoever asks)."""
        score = game.scores()[attempt.user_id].total
        stored = await self.store.daily.finish_attempt(attempt.game_id, score, self.now)
        attempt = stored or attempt
        score = attempt.score if attempt.score is not None else score
        day, variant, guild = attempt.day, attempt.variant, attempt.guild_id
        return Result(
            attempt,
            score,
            await self.store.daily.standing(day, variant, score),
            [] if guild == NO_SERVER else await self.store.daily.ranking(guild, day, variant),
            await self.par(day, variant),
            streak(await self.store.daily.finished_days(attempt.user_id, day), day),
            turns_at(day, await self.settings(attempt.guild_id)),
        )

    async def record(self, user: int) -> DailyRecord:
        """``user``'s daily challenge so far (their streak counted up to today in UTC,
        the day of no server)."""
        today = day_of(self.now, DailySettings())
        return DailyRecord(
            await self.store.daily.bests(user),
            streak(await self.store.daily.finished_days(user, today), today),
        )

    async def par(self, day: str, variant: str) -> int:
        """What ``hard`` scores on the day's dice: worked out once, off the event loop."""
        known = await self.store.daily.par(day, variant)
        if known is not None:
            return known
        seed = daily_seed(await self.secret(), day, variant)
        score = await asyncio.to_thread(par_score, variant, seed, day)
        await self.store.daily.set_par(day, variant, score)
        return score

    async def ranking(self, guild_id: int, day: str, variant: str) -> list[tuple[int, int]]:
        return await self.store.daily.ranking(guild_id, day, variant)

    async def attempt_of(self, game_id: int) -> Attempt | None:
        return await self.store.daily.attempt_of_game(game_id)

    async def post(self, guild_id: int, day: str, variant: str) -> RankingPost | None:
        """The server's ranking message of the day, once a finish asked for one."""
        return await self.store.daily.post(guild_id, day, variant)

    async def posted(
        self,
        guild_id: int,
        day: str,
        variant: str,
        channel_id: int,
        message_id: int | None,
        shown: int,
    ) -> None:
        """The ranking is written, showing the finishes it owed when read (``shown``);
        ``message_id`` None: it could not be, for good (the next finish tries again)."""
        await self.store.daily.set_post(guild_id, day, variant, channel_id, message_id, shown)

    async def owed(self) -> list[tuple[int, str, str, int]]:
        """Every ranking that owes finishes: ``(guild, day, variant, channel)``."""
        return await self.store.daily.owed_posts()

    async def reviewable(self, record: GameRecord) -> float | None:
        """When a daily game may be reviewed, if not yet (None: now)."""
        return hidden_until(record, self.now)
