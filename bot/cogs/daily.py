"""``/qwixx daily``: a member's attempt at the day's dice, played privately on an
ephemeral sheet wherever they are, each server's live ranking of the day, and the share
card a member posts into the chat they are in.

The attempt's sheet is the usual one, with the usual restart-proof buttons: the
:class:`~bot.cogs.turns.TurnHandlers` hand a daily game's moves here
(:meth:`DailyHandlers.moved`) instead of to a channel. The ranking is one message per
server, day and variant, edited as members finish by the timer loop, through the
channel's write budget (:class:`DailyBoard`); an attempt begun where the bot is not (a
direct message, a group chat, a server without it) counts for no server's ranking, only
in the day's standing of everyone.

Once finished, the result carries **Share card**: the day's card (the crosses, never the
numbers) and the text to share, posted as that click's public answer in the chat the
member is in (:meth:`DailyHandlers.on_share_card`). The result and the share are
Discord cards (:mod:`bot.cogs.cards`), each with its image under its first lines; the
text to share alone stays a plain message, so that copying it copies that text alone.
"""

from __future__ import annotations

import asyncio
import logging

import discord

from bot.channel.budget import WriteBudget
from bot.channel.cards import CARD_TEXT, Card, paragraphs
from bot.channel.story import mention
from bot.cogs import cards
from bot.cogs.answers import Editor, Language, PrivateAnswers, answers_errors
from bot.cogs.buttons import CardButton
from bot.cogs.images import card_file, sheet_file
from bot.cogs.places import private, server_of, with_bot
from bot.cogs.sheets import Sheets
from bot.i18n import using
from bot.i18n.words import calendar_day, emoji, ordinal, percent, plural, signed, t
from bot.records.daily import Attempt
from bot.render.describe import sheet_text
from bot.render.tally import tally
from bot.rules import VARIANTS, Game
from bot.service.daily import DailyService, Result, better_than, turns_at
from bot.service.errors import ServiceError
from bot.service.outcome import Outcome
from bot.shards import ShardPlan

log = logging.getLogger(__name__)
MEDALS = {1: "🥇", 2: "🥈", 3: "🥉"}
BOARD_LINES = 25
"""The ranking message names the best 25 (a message holds 2,000 characters)."""
SHARE_FROM = 10
"""A standing gives the share of players one beat once this many finished: among fewer,
the place says it all ("1st of 3", not "better than 66% of them")."""
NO_PINGS = discord.AllowedMentions.none()
Key = tuple[int, str, str]
"""A ranking: server, day, variant."""


def title(variant: str) -> str:
    return VARIANTS[variant].title


def share_grid(game: Game, player: int) -> list[str]:
    """The sheet's shape without a number: per row a square per cross (or written field)
    in the row's colour and 🔒 for a lock; then ❌ per penalty or failed throw."""
    marks = tally(game, player)
    lines = [(emoji(r.row) * r.crosses or "⬜") + (" 🔒" if r.locked else "") for r in marks.rows]
    return lines + (["❌" * marks.penalties] if marks.penalties else [])


def standing_line(result: Result) -> str:
    """Where the score stands among everyone's of the same dice: its place, and from
    :data:`SHARE_FROM` players on the share it beat (when that is a whole percent)."""
    standing = result.standing
    if standing.players <= 1:
        return t("daily.first")
    place, players = ordinal(standing.place), plural("unit.player", standing.players)
    share = better_than(standing) if standing.players >= SHARE_FROM else 0
    if share:
        return t("daily.rank_share", place=place, players=players, percent=percent(share / 100))
    return t("daily.rank", place=place, players=players)


def result_content(result: Result, again: bool = False) -> str:
    """What a member reads once their attempt is over: score, par, standing, streak (the
    text to share follows in a message of its own: :func:`share_content`)."""
    a = result.attempt
    name = title(a.variant)
    lines = [
        t("daily.again", title=name, score=signed(result.score), next=int(result.next))
        if again
        else t("daily.done", title=name, day=calendar_day(a.day), score=signed(result.score))
    ]
    gap = result.score - result.par
    verdict = (
        t("daily.par_level")
        if gap == 0
        else t(
            "daily.par_above" if gap > 0 else "daily.par_below",
            points=plural("unit.point", abs(gap)),
        )
    )
    lines.append(t("daily.par", par=signed(result.par), verdict=verdict))
    lines.append(standing_line(result))
    if result.ranking:  # played on a server with the bot: its ranking too
        lines.append(
            t(
                "daily.place",
                place=ordinal(result.place),
                players=plural("unit.player", len(result.ranking)),
            )
        )
    lines.append(t("daily.streak", days=plural("unit.day", result.streak)))
    lines += ["", t("daily.share_card"), t("daily.share_next"), ""]
    return "\n".join(lines)


def result_card(result: Result, game: Game, name: str, again: bool = False) -> Card:
    """The result as a card: what :func:`result_content` says, the sheet's image under
    its first lines, then the sheet in words under ``name`` (when the card holds it)."""
    content = result_content(result, again)
    whole = f"{content}\n{sheet_text(game, result.attempt.user_id, name)}"
    return Card(tuple(paragraphs((whole if len(whole) <= CARD_TEXT else content).splitlines())))


def card_view(game_id: int) -> discord.ui.View:
    """Under a finished attempt: **Share card**, the card posted in the chat."""
    view = discord.ui.View(timeout=None)
    view.add_item(CardButton(game_id))
    return view


def shared_content(user: int, result: Result, game: Game) -> str:
    """The share's public message: who shares, then the text to share."""
    return f"{t('share.by', name=mention(user))}\n{share_content(result, game)}"


def shared_card(user: int, result: Result, game: Game) -> Card:
    """The share as a card: :func:`shared_content`, the day's card under it."""
    return Card((shared_content(user, result, game),))


def share_content(result: Result, game: Game) -> str:
    """The text to share, alone in its message so that copying it copies nothing else:
    the day, the score, the streak and the sheet's shape without a number."""
    a = result.attempt
    return "\n".join(
        [
            t(
                "daily.share_title",
                title=title(a.variant),
                day=a.day,
                score=signed(result.score),
                streak=result.streak,
            ),
            *share_grid(game, a.user_id),
        ]
    )


def board_content(variant: str, day: str, ranking: list[tuple[int, int]], turns: float) -> str:
    """A server's ranking of the day, best first; equal scores share a place."""
    lines = [t("daily.board", title=title(variant), day=calendar_day(day))]
    for user, score in ranking[:BOARD_LINES]:
        place = 1 + sum(other > score for _, other in ranking)
        lines.append(
            t(
                "daily.board_line",
                place=MEDALS.get(place, ordinal(place)),
                name=mention(user),
                score=signed(score),
            )
        )
    lines.append(t("daily.board_footer", variant=variant, next=int(turns)))
    return "\n".join(lines)


class DailyBoard:
    """Each server's ranking message of a day and variant. A finish counts it as owed in
    the store, in the finish's own transaction; the timer loop writes the owed ones each
    tick (:meth:`catch_up`), so finishes between two ticks make one write, and one owed
    when the bot stops is written after the restart."""

    def __init__(
        self, client: discord.Client, daily: DailyService, language: Language, budget: WriteBudget
    ) -> None:
        self.client, self.daily, self.language, self.budget = client, daily, language, budget
        self._writing = asyncio.Lock()
        """One ranking written at a time (a tick run by hand beside the loop's)."""

    async def catch_up(self, shards: ShardPlan | None = None) -> int:
        """Write every ranking that owes finishes (of this process's servers). Stops at
        the first that fails, so that a tick while Discord is away costs one try."""
        written = 0
        for guild, day, variant, _ in await self.daily.owed():
            if shards and not shards.owns(guild):
                continue
            try:
                await self.update(guild, day, variant)
            except Exception as error:
                log.warning("the daily ranking of %s is still owed: %s", guild, error)
                break
            written += 1
        return written

    async def update(self, guild_id: int, day: str, variant: str) -> None:
        """Write the ranking as it stands: edit its message, or post it (first, in a new
        channel, or again when someone deleted it); then it owes nothing it read."""
        async with self._writing:
            await self._write(guild_id, day, variant)

    async def _write(self, guild_id: int, day: str, variant: str) -> None:
        post = await self.daily.post(guild_id, day, variant)
        if post is None or post.owed == 0:
            return  # nothing finished since it was last written
        settings = await self.daily.settings(guild_id)
        channel_id = settings.channel_id or post.channel_id
        with using(await self.language(guild_id)):
            content = board_content(
                variant,
                day,
                await self.daily.ranking(guild_id, day, variant),
                turns_at(day, settings),
            )
        channel = self.client.get_partial_messageable(channel_id, guild_id=guild_id)
        message_id = post.message_id if post.channel_id == channel_id else None
        try:
            async with self.budget.slot(channel_id):
                if message_id is not None:
                    try:
                        await channel.get_partial_message(message_id).edit(
                            content=content, allowed_mentions=NO_PINGS
                        )
                    except discord.NotFound:  # deleted by someone: posted again
                        message_id = None
                if message_id is None:
                    message_id = (await channel.send(content, allowed_mentions=NO_PINGS)).id
        except (discord.Forbidden, discord.NotFound) as error:  # trying again cannot help
            log.warning(
                "server %s: the daily ranking cannot be written in channel %s (%s)",
                guild_id,
                channel_id,
                error,
            )
        await self.daily.posted(guild_id, day, variant, channel_id, message_id, post.owed)


class DailyHandlers(PrivateAnswers):
    """The daily challenge's handlers."""

    def __init__(
        self,
        client: discord.Client,
        daily: DailyService,
        sheets: Sheets,
        language: Language,
        budget: WriteBudget,
    ) -> None:
        super().__init__(language)
        self.service = daily
        self.sheets = sheets
        self.board = DailyBoard(client, daily, language, budget)

    @answers_errors
    async def on_daily(self, interaction: discord.Interaction, variant: str) -> None:
        """Today's attempt: begun, resumed where it was left, or (played) its result;
        anywhere (it counts for the server only where the bot is)."""
        await interaction.response.defer(ephemeral=private(interaction), thinking=True)
        attempt, outcome = await self.service.begin(
            server_of(interaction), interaction.channel_id or 0, interaction.user.id, variant
        )
        edit = interaction.edit_original_response
        if outcome.record.status == "running":
            self.service.check_open(outcome.record)
            await self.sheets.show(interaction, outcome, self.header(attempt), editor=edit)
        elif outcome.game is not None and outcome.game.finished:
            await self.show_result(
                interaction, attempt, outcome.game, edit, again=attempt.score is not None
            )
        else:
            raise ServiceError("error.daily_over")

    async def settings_text(
        self, guild_id: int, channel_id: int | None, hour: int | None, timezone: str | None
    ) -> str:
        """The server's daily settings in words, once those given are changed (the caller
        checked Manage Server)."""
        if (channel_id, hour, timezone) == (None, None, None):
            settings = await self.service.settings(guild_id)
        else:
            settings = await self.service.set_settings(guild_id, channel_id, hour, timezone)
        where = (
            t("settings.daily_channel", channel=f"<#{settings.channel_id}>")
            if settings.channel_id
            else t("settings.daily_anywhere")
        )
        return t(
            "settings.daily",
            hour=f"{settings.hour:02d}:00",
            timezone=settings.timezone,
            where=where,
        )

    @staticmethod
    def header(attempt: Attempt, first: bool = True) -> str:
        """What a daily sheet opens with: the whole introduction when it is (re)opened
        by the command, the title alone after a move."""
        return t(
            "daily.header" if first else "daily.title",
            title=title(attempt.variant),
            day=calendar_day(attempt.day),
        )

    async def moved(
        self, interaction: discord.Interaction, outcome: Outcome, said: str, edit: Editor
    ) -> None:
        """After a move on a daily sheet: the next decision, or the attempt's result, in
        place through ``edit``."""
        attempt = await self.service.attempt_of(outcome.record.id)
        game = outcome.game
        if attempt is None or game is None:
            raise ServiceError("error.game_gone")
        if game.finished:
            await self.show_result(interaction, attempt, game, edit)
        else:
            await self.sheets.show(
                interaction, outcome, f"{self.header(attempt, False)}\n{said}", editor=edit
            )

    async def show_result(
        self,
        interaction: discord.Interaction,
        attempt: Attempt,
        game: Game,
        edit: Editor,
        again: bool = False,
    ) -> None:
        """The attempt's result, as a card in place of its sheet (its text and embeds
        emptied, as Discord asks of a message that becomes a card), then the text to
        share in a message of its own."""
        result = await self.service.finish(attempt, game)  # its ranking now owes it
        name = interaction.user.display_name
        sheet = await sheet_file(game, attempt.user_id, name, [], "daily.png")
        card = result_card(result, game, name, again)
        view = cards.layout(card, [sheet], card_view(attempt.game_id))
        await edit(content=None, embeds=[], attachments=[sheet], view=view)
        await interaction.followup.send(share_content(result, game), ephemeral=True)

    @answers_errors
    async def on_share_card(self, interaction: discord.Interaction, game_id: int) -> None:
        """**Share card** under a finished attempt: its card and its text, posted for the
        chat the member is in, as this click's public answer (in the server's language
        where the bot is, else in the member's)."""
        attempt = await self.service.attempt_of(game_id)
        if attempt is None:
            raise ServiceError("error.game_gone")
        if attempt.user_id != interaction.user.id:
            raise ServiceError("error.daily_not_yours")
        game = (await self.service.keeper.read(game_id)).game
        if attempt.score is None or game is None or not game.finished:
            raise ServiceError("error.card_unfinished")
        await interaction.response.defer(thinking=True)  # public: the share itself
        result = await self.service.finish(attempt, game)
        guild = interaction.guild_id
        language = await self.language(guild) if guild and with_bot(interaction) else None
        with using(language or interaction.locale):
            shared = shared_card(attempt.user_id, result, game)
            card = await card_file(game, attempt.user_id)
        await interaction.edit_original_response(
            content=None,
            attachments=[card],
            view=cards.layout(shared, [card], None),
            allowed_mentions=NO_PINGS,
        )
