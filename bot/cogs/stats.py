"""``/qwixx leaderboard``, ``/qwixx stats`` and ``/qwixx history`` and the history's
"final sheets" buttons.

Every answer is private: the handler defers ephemerally at once, reads, then edits
the deferred reply; its **Share** button posts the same view publicly (the view's
parameters ride in the button's id). Figures come from the server the command is used
in; ``/qwixx stats`` where the bot is not (a direct message, a group chat, a server
without it) shows the member's own: their games of no server (practice) and their daily
challenge, every day and server together.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Protocol

import discord
from discord import app_commands

from bot.cogs.answers import Language, PrivateAnswers, answers_errors
from bot.cogs.buttons import BOARD_SORTS, FinalButton, share_view
from bot.cogs.images import png_file, scoreboard_file
from bot.cogs.places import with_bot
from bot.cogs.stats_words import (
    alt_text,
    board_table,
    daily_field,
    date,
    history_line,
    practice_line,
    rating_alt_text,
    rating_table,
    stats_field,
    stats_footer,
    title_of,
)
from bot.i18n.words import inline, t
from bot.records.games import NO_SERVER
from bot.render import render_leaderboard
from bot.service.daily import hidden_until
from bot.service.errors import ServiceError
from bot.service.games import GameService
from bot.service.rated import RatingService
from bot.service.stats import PERIODS, PlayerStats, StatsService

log = logging.getLogger(__name__)

PERIOD_CHOICES = [app_commands.Choice(name=t(f"period.{p}"), value=p) for p in PERIODS]
SORT_CHOICES = [app_commands.Choice(name=t(f"sort.{s}"), value=s) for s in BOARD_SORTS]
QUIET = discord.AllowedMentions.none()


class Person(Protocol):
    """Whom stats and history are about: a member, or one named from the store."""

    @property
    def id(self) -> int: ...

    @property
    def display_name(self) -> str: ...


@dataclass(frozen=True)
class Named:
    id: int
    display_name: str


def stats_embed(title: str, stats: PlayerStats) -> discord.Embed:
    """A member's figures: every variant's counted games, their solo practice and their
    other uncounted games (the caller adds the footer)."""
    embed = discord.Embed(title=title, colour=discord.Colour.blurple())
    for part in (stats.overall, *stats.variants) if stats.overall else ():
        name, value = stats_field(
            part, stats.accuracy(part.variant), stats.ratings.get(part.variant or "")
        )
        embed.add_field(name=name, value=value, inline=False)
    if stats.practice:
        embed.add_field(
            name=t("stats.practice"),
            value="\n".join(practice_line(p, stats) for p in stats.practice),
            inline=False,
        )
    if stats.uncounted:
        embed.add_field(
            name=t("stats.uncounted"),
            value="\n".join(practice_line(p, stats, "uncounted") for p in stats.uncounted),
            inline=False,
        )
    return embed


class StatsHandlers(PrivateAnswers):
    """The handlers behind the statistics commands."""

    def __init__(
        self,
        stats: StatsService,
        ratings: RatingService,
        games: GameService,
        language: Language,
    ) -> None:
        super().__init__(language)  # for a view shared with the channel
        self.stats = stats
        self.ratings = ratings
        self.games = games

    async def begin(
        self, interaction: discord.Interaction, *members: Person | None, public: bool = False
    ) -> int:
        """Answer at once (privately unless shared); remember names for images; the
        guild id."""
        guild = interaction.guild_id
        if guild is None:
            raise ServiceError("error.stats_guild_only")
        await interaction.response.defer(ephemeral=not public, thinking=True)
        for member in (interaction.user, *members):
            if member is not None:
                await self.games.names.remember(guild, member.id, member.display_name)
        return guild

    @answers_errors
    async def on_share(self, interaction: discord.Interaction, what: str, args: str) -> None:
        """A **Share** click: the same view again, for the whole channel."""
        if what == "leaderboard":
            variant, period, sort = args.split(".")
            await self.on_leaderboard(
                interaction, None if variant == "all" else variant, period, sort, public=True
            )
            return
        person = await self.person(interaction, int(args))
        handler = self.on_stats if what == "stats" else self.on_history
        await handler(interaction, person, public=True)

    async def person(self, interaction: discord.Interaction, user: int) -> Named | None:
        """The member ``user`` by the name the store knows (None for 0: everyone)."""
        if user == 0 or interaction.guild_id is None:
            return None
        names = await self.games.names.of(interaction.guild_id, [user])
        return Named(user, names[user])

    @staticmethod
    def shared(interaction: discord.Interaction, public: bool, content: str = "") -> str:
        """The content of an answer; a shared one says who shared it."""
        if not public:
            return content
        by = t("share.by", name=f"<@{interaction.user.id}>")
        return f"{by}\n{content}" if content else by

    @answers_errors
    async def on_leaderboard(
        self,
        interaction: discord.Interaction,
        variant: str | None,
        period: str,
        sort: str,
        public: bool = False,
    ) -> None:
        guild = await self.begin(interaction, public=public)
        caller = interaction.user.id
        if sort == "rating":
            await self.rating_board(interaction, guild, variant, period, public)
            return
        board = await self.stats.leaderboard(
            guild, caller, variant=variant, period=period, sort=sort
        )
        scope, when = title_of(variant), t(f"period.{period}")
        if board.empty:
            await interaction.edit_original_response(
                content=t("leaderboard.empty", scope=scope, period=inline(when))
            )
            return
        image = await png_file(
            render_leaderboard,
            board_table(board, caller),
            name="leaderboard.png",
            description=alt_text(board),
        )
        content = "\n".join(
            [
                t(
                    "leaderboard.title",
                    scope=scope,
                    period=inline(when),
                    sort=inline(t(f"sort.{sort}")),
                ),
                t("leaderboard.ties_average"),
            ]
        )
        view = None if public else share_view("leaderboard", f"{variant or 'all'}.{period}.{sort}")
        await interaction.edit_original_response(
            content=self.shared(interaction, public, content),
            attachments=[image],
            view=view,
            allowed_mentions=QUIET,
        )

    async def rating_board(
        self,
        interaction: discord.Interaction,
        guild: int,
        variant: str | None,
        period: str,
        public: bool,
    ) -> None:
        """The leaderboard by skill rating: all time (a rating takes in every game), in
        ``variant`` or else the server's most rated one."""
        caller = interaction.user.id
        board = await self.ratings.leaderboard(guild, caller, variant)
        if board.empty:
            content = (
                t("leaderboard.no_ratings_variant", scope=title_of(variant))
                if variant
                else t("leaderboard.no_ratings")
            )
            await interaction.edit_original_response(content=content)
            return
        image = await png_file(
            render_leaderboard,
            rating_table(board, caller),
            name="leaderboard.png",
            description=rating_alt_text(board),
        )
        lines = [
            t(
                "leaderboard.title",
                scope=title_of(board.variant),
                period=inline(t("period.all")),
                sort=inline(t("sort.rating")),
            )
        ]
        if period != "all":
            lines.append(t("leaderboard.rating_all_time"))
        view = None if public else share_view("leaderboard", f"{variant or 'all'}.{period}.rating")
        await interaction.edit_original_response(
            content=self.shared(interaction, public, "\n".join(lines)),
            attachments=[image],
            view=view,
            allowed_mentions=QUIET,
        )

    @answers_errors
    async def on_stats(
        self, interaction: discord.Interaction, member: Person | None, public: bool = False
    ) -> None:
        if with_bot(interaction):
            guild = await self.begin(interaction, member, public=public)
            who = member or interaction.user
            stats = await self.stats.player(guild, who.id)
            if stats.empty:
                await interaction.edit_original_response(
                    content=t("stats.none", name=f"<@{who.id}>"),
                    allowed_mentions=discord.AllowedMentions.none(),
                )
                return
            embed = stats_embed(t("stats.title", name=who.display_name), stats)
            embed.set_footer(text=stats_footer(stats))
        else:
            who, embed = interaction.user, await self.own_stats(interaction, member, public)
        await interaction.edit_original_response(
            content=self.shared(interaction, public),
            embed=embed,
            view=None if public else share_view("stats", str(who.id)),
            allowed_mentions=QUIET,
        )

    async def own_stats(
        self, interaction: discord.Interaction, member: Person | None, public: bool
    ) -> discord.Embed:
        """``/qwixx stats`` where the bot is not: the member's own figures, never another
        member's (a server's figures belong to that server)."""
        who = interaction.user
        if member is not None and member.id != who.id:
            raise ServiceError("error.stats_own_only")
        await interaction.response.defer(ephemeral=not public, thinking=True)
        stats = await self.stats.player(NO_SERVER, who.id)
        embed = stats_embed(t("stats.own_title", name=who.display_name), stats)
        daily = await self.games.daily.record(who.id)
        if daily.bests:
            name, value = daily_field(daily)
            embed.add_field(name=name, value=value, inline=False)
        if not embed.fields:
            embed.description = t("stats.own_none")
        embed.set_footer(text=stats_footer(stats, "stats.own_footer"))
        return embed

    @answers_errors
    async def on_history(
        self, interaction: discord.Interaction, member: Person | None, public: bool = False
    ) -> None:
        guild = await self.begin(interaction, member, public=public)
        games = await self.stats.history(guild, member.id if member else None)
        if not games:
            key, name = ("history.none_user", f"<@{member.id}>") if member else ("history.none", "")
            await interaction.edit_original_response(
                content=t(key, name=name), allowed_mentions=discord.AllowedMentions.none()
            )
            return
        title = t("history.title_user", name=member.display_name) if member else t("history.title")
        embed = discord.Embed(
            title=title,
            colour=discord.Colour.blurple(),
            description="\n".join(history_line(k, game) for k, game in enumerate(games, start=1)),
        )
        stand_in = any(line.stand_in for game in games for line in game.lines)
        embed.set_footer(
            text=" ".join([t("history.hint"), *([t("history.stand_in_note")] if stand_in else [])])
        )
        view = discord.ui.View(timeout=None)
        for k, game in enumerate(games, start=1):
            view.add_item(FinalButton(game.game_id, t("button.final", number=k)))
        if not public:
            share_view("history", str(member.id if member else 0), view)
        await interaction.edit_original_response(
            content=self.shared(interaction, public), embed=embed, view=view, allowed_mentions=QUIET
        )

    @answers_errors
    async def on_final(self, interaction: discord.Interaction, game_id: int) -> None:
        guild = await self.begin(interaction)
        final = await self.stats.final_game(guild, game_id)
        if final is None:
            raise ServiceError("error.final_gone")
        if (opens := hidden_until(final.record, self.games.clock())) is not None:
            raise ServiceError("daily.sheets_later", when=int(opens))  # the day's dice
        board = await scoreboard_file(final.game, final.names)
        finished = final.record.finished_at or final.record.updated_at
        content = t(
            "final.content",
            title=final.game.title,
            date=date(finished),
            names=", ".join(f"<@{p}>" for p in final.record.players),
        )
        await interaction.edit_original_response(
            content=content, attachments=[board], allowed_mentions=discord.AllowedMentions.none()
        )
