"""``/qwixx leaderboard``, ``/qwixx stats`` and ``/qwixx history`` and the history's
"final sheets" buttons.

Every answer is private: the handler defers ephemerally at once, reads, then edits
the deferred reply; its **Share** button posts the same view publicly (the view's
parameters ride in the button's id). Figures always come from the server the command
is used in.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from typing import Any, Protocol, cast

import discord
from discord import app_commands

from bot.channel.publisher import png_file, server_language
from bot.cogs.answers import PrivateAnswers, answers_errors
from bot.cogs.buttons import BadComponent, Malformed, identifier
from bot.i18n.words import decimal, inline, percent, plural, signed, t, whole
from bot.render import render_leaderboard, render_scoreboard
from bot.render.describe import scoreboard_alt
from bot.render.lines import BoardRow, BoardTable
from bot.rules import VARIANTS
from bot.service.daily import hidden_until
from bot.service.games import GameService, ServiceError
from bot.service.rated import RatingBoard, RatingLine, RatingService
from bot.service.ratings import PROVISIONAL, Rating
from bot.service.stats import (
    PERIODS,
    SORTS,
    Accuracy,
    BoardLine,
    Leaderboard,
    PlayerStats,
    Rates,
    StatsService,
    VariantStats,
)
from bot.service.types import HistoryGame, PracticeBest

log = logging.getLogger(__name__)

PERIOD_CHOICES = [app_commands.Choice(name=t(f"period.{p}"), value=p) for p in PERIODS]
BOARD_SORTS = (*SORTS, "rating")  # the totals' sorts, and the skill rating
SORT_CHOICES = [app_commands.Choice(name=t(f"sort.{s}"), value=s) for s in BOARD_SORTS]
RATING_COLUMNS = ("rating", "games")
COLUMNS = ("games", "wins", "rate", "average", "best")  # the leaderboard's value columns
ALT_TEXT = 1024  # Discord's limit for an attachment's description
VIEW_ITEMS = 25  # Discord's limit of components in one message
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


def title_of(variant: str | None) -> str:
    """A variant's title (``None``: every game), even for a variant no longer offered."""
    if variant is None:
        return t("leaderboard.all_games")
    cls = VARIANTS.get(variant)
    return cls.title if cls else variant


def win_rate(line: Rates) -> str:
    """``50%``, ``50 %``, ``%50``: as the reader's language writes it."""
    return percent(line.win_rate)


def average(line: Rates) -> str:
    """``12.5`` or ``12,5``."""
    return decimal(line.average, 1)


def date(timestamp: float) -> str:
    """A date each reader sees in their own format (Discord timestamp markup)."""
    return f"<t:{int(timestamp)}:d>"


def board_values(line: BoardLine) -> tuple[str, ...]:
    """The value columns as the image prints them (with a typographic minus)."""
    values = (str(line.games), str(line.wins), win_rate(line), average(line), str(line.best))
    return tuple(v.replace("-", "−") for v in values)


def listed(board: Leaderboard) -> list[BoardLine]:
    """The top lines in the order shown: by rank; within a shared rank by higher win
    rate, then more games (as ranked), then higher average and best score."""
    return sorted(
        board.lines,
        key=lambda line: (line.rank or 0, -line.win_rate, -line.games, -line.average, -line.best),
    )


def standing(line: BoardLine, sort: str) -> bool:
    """Whether ``line`` has a real standing to show with a medal: wins or a win rate to
    rank by (no medal for nobody's zero wins); any average or best score is one."""
    if line.rank is None:
        return False
    if sort == "wins":
        return line.wins > 0
    if sort == "rate":
        return line.win_rate > 0
    return True


def board_table(board: Leaderboard, caller: int) -> BoardTable:
    """What the leaderboard image shows."""
    rows = [
        BoardRow(
            str(line.rank),
            line.name or t("stats.unknown_player"),
            board_values(line),
            you=line.player_id == caller,
            leader=line.rank == 1 and standing(line, board.sort),
            medal=standing(line, board.sort),
        )
        for line in listed(board)
    ]
    if board.own is not None:
        own = board.own
        rank = str(own.rank) if own.rank is not None else t("leaderboard.unranked")
        rows.append(
            BoardRow(
                rank,
                own.name or t("stats.unknown_player"),
                board_values(own),
                you=True,
                detached=True,
                medal=standing(own, board.sort),
            )
        )
    return BoardTable(
        title=t(
            "leaderboard.image_title",
            scope=title_of(board.variant),
            period=t(f"period.{board.period}"),
        ),
        subtitle=t(
            "leaderboard.subtitle", sort=inline(t(f"sort.{board.sort}")), count=board.ranked
        ),
        rank_header=t("column.rank"),
        name_header=t("column.player"),
        headers=tuple(t(f"column.{c}") for c in COLUMNS),
        rows=tuple(rows),
        footer=footer(board),
        sorted_column=COLUMNS.index(board.sort),
    )


def footer(board: Leaderboard) -> str:
    """The minimum-games rule, always stated; with who it left out on a rate sort."""
    rule = t("leaderboard.rule", min=board.min_games)
    if board.sort in ("rate", "average") and board.unranked:
        rule += " " + t("leaderboard.left_out", count=board.unranked, min=board.min_games)
    return rule


def alt_text(board: Leaderboard) -> str:
    """The leaderboard in words, for screen readers (and tests)."""
    lines = [
        t(
            "leaderboard.alt_title",
            scope=title_of(board.variant),
            period=inline(t(f"period.{board.period}")),
            sort=inline(t(f"sort.{board.sort}")),
        )
    ]
    shown = [*listed(board), *([board.own] if board.own else [])]
    for line in shown:
        rank = str(line.rank) if line.rank is not None else t("leaderboard.unranked")
        lines.append(
            t(
                "leaderboard.alt_line",
                rank=rank,
                name=line.name or t("stats.unknown_player"),
                games=line.games,
                wins=line.wins,
                rate=win_rate(line),
                average=average(line),
                best=line.best,
            )
        )
    lines.append(footer(board))
    text = "\n".join(lines)
    return text if len(text) <= ALT_TEXT else text[: ALT_TEXT - 1] + "…"


def rating_values(line: RatingLine) -> tuple[str, ...]:
    """A rating (``*``: provisional) and the games it rests on."""
    mark = "*" if line.rating.provisional else ""
    return whole(line.rating.shown) + mark, str(line.rating.games)


def rating_table(board: RatingBoard, caller: int) -> BoardTable:
    """What the rating leaderboard's image shows."""
    rows = [
        BoardRow(
            str(line.rank),
            line.name or t("stats.unknown_player"),
            rating_values(line),
            you=line.player_id == caller,
            leader=line.rank == 1,
        )
        for line in board.lines
    ]
    if board.own is not None:
        own = board.own
        rows.append(
            BoardRow(
                str(own.rank),
                own.name or t("stats.unknown_player"),
                rating_values(own),
                you=True,
                detached=True,
            )
        )
    return BoardTable(
        title=t("leaderboard.image_title", scope=title_of(board.variant), period=t("period.all")),
        subtitle=t("leaderboard.subtitle", sort=inline(t("sort.rating")), count=board.ranked),
        rank_header=t("column.rank"),
        name_header=t("column.player"),
        headers=tuple(t(f"column.{c}") for c in RATING_COLUMNS),
        rows=tuple(rows),
        footer=t("leaderboard.rating_rule", min=PROVISIONAL),
        sorted_column=0,
    )


def rating_alt_text(board: RatingBoard) -> str:
    """The rating leaderboard in words."""
    lines = [
        t(
            "leaderboard.alt_title",
            scope=title_of(board.variant),
            period=inline(t("period.all")),
            sort=inline(t("sort.rating")),
        )
    ]
    for line in [*board.lines, *([board.own] if board.own else [])]:
        mark = f" ({t('leaderboard.provisional')})" if line.rating.provisional else ""
        lines.append(
            t(
                "leaderboard.alt_rating_line",
                rank=line.rank,
                name=line.name or t("stats.unknown_player"),
                rating=whole(line.rating.shown),
                mark=mark,
                games=line.rating.games,
            )
        )
    lines.append(t("leaderboard.rating_rule", min=PROVISIONAL))
    text = "\n".join(lines)
    return text if len(text) <= ALT_TEXT else text[: ALT_TEXT - 1] + "…"


def stats_field(
    stats: VariantStats, accuracy: Accuracy | None = None, rating: Rating | None = None
) -> tuple[str, str]:
    """A variant's field (or all games'): the counted games' figures, the last scores,
    the average accuracy and the rating (``*``: provisional) when there are any."""
    name = t("stats.overall") if stats.variant is None else title_of(stats.variant)
    value = t(
        "stats.figures",
        games=stats.games,
        wins=stats.wins,
        rate=win_rate(stats),
        average=average(stats),
        best=stats.best,
    )
    if stats.last:
        value += "\n" + last_scores(stats.last)
    if accuracy is not None:
        value += "\n" + t(
            "stats.accuracy",
            accuracy=percent(accuracy.accuracy),
            games=plural("stats.reviewed_games", accuracy.games),
        )
    if rating is not None:
        value += "\n" + t(
            "stats.rating",
            rating=whole(rating.shown),
            mark="*" if rating.provisional else "",
            games=plural("stats.rated_games", rating.games),
        )
    return name, value


def practice_line(best: PracticeBest, stats: PlayerStats, where: str = "practice") -> str:
    """A variant's uncounted games (``where``: solo practice, or the other uncounted
    games); with the variant's average accuracy if it is shown here (see
    :func:`accuracy_shown`)."""
    line = t(
        "stats.practice_line",
        title=title_of(best.variant),
        best=signed(best.best),
        games=best.games,
        last=signed(best.last),
    )
    accuracy = stats.accuracy(best.variant)
    if accuracy is None or accuracy_shown(stats).get(best.variant) != where:
        return line
    return (
        line
        + " · "
        + t(
            "stats.accuracy",
            accuracy=percent(accuracy.accuracy),
            games=plural("stats.reviewed_games", accuracy.games),
        )
    )


def accuracy_shown(stats: PlayerStats) -> dict[str, str]:
    """Where each variant's average accuracy is shown, once: with its counted games,
    else its solo practice, else its other uncounted games."""
    shown: dict[str, str] = {}
    for where, variants in (
        ("counted", [v.variant for v in stats.variants]),
        ("practice", [p.variant for p in stats.practice]),
        ("uncounted", [p.variant for p in stats.uncounted]),
    ):
        for variant in variants:
            if variant is not None:
                shown.setdefault(variant, where)
    return shown


def stats_footer(stats: PlayerStats) -> str:
    """What the figures count, and how accuracy and rating are read when shown."""
    parts = [t("stats.footer")]
    if stats.practice:
        parts.append(t("stats.practice_footer"))
    if stats.uncounted:
        parts.append(t("stats.uncounted_footer"))
    overall = stats.overall is not None  # its field shows the average over every variant
    if stats.accuracies and (overall or set(stats.accuracies) & set(accuracy_shown(stats))):
        parts.append(t("stats.accuracy_footer"))
    if stats.overall is not None and stats.ratings:
        parts.append(t("stats.rating_footer", min=PROVISIONAL))
    return " ".join(parts)


def last_scores(scores: tuple[int, ...]) -> str:
    """``Last game: −4`` or ``Last 3 games: 12 · −4 · 30`` (newest first), in the
    language's plural form, with a typographic minus."""
    shown = " · ".join(f"−{-s}" if s < 0 else str(s) for s in scores)
    if len(scores) == 1:
        return t("stats.last_game", score=shown)
    return f"{plural('stats.last_games', len(scores))} {shown}"


def history_line(number: int, game: HistoryGame) -> str:
    scores = " · ".join(
        t(
            "history.score",
            name=f"<@{line.player_id}>",
            score=line.score,
            mark=t("history.winner") if line.won else "",
        )
        + (" " + t("history.stand_in") if line.stand_in else "")
        for line in game.lines
    )
    text = t(
        "history.line",
        number=number,
        date=date(game.finished_at),
        title=title_of(game.variant),
        turns=game.turns,
        scores=scores,
    )
    flags = ("daily", "hints") if game.daily else ("practice", "hints")
    marks = [t(f"history.{flag}") for flag in flags if getattr(game, flag)]
    if not game.counted and not marks:
        marks.append(t("history.not_counted"))
    return " ".join([text, *marks])


class FinalButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"qx:(?P<game>\d+):final"
):
    """ "Final sheets" of one finished game, from the history (restart-proof)."""

    def __init__(self, game: int, label: str = "") -> None:
        super().__init__(
            discord.ui.Button(
                label=label or t("button.final_sheets"),
                style=discord.ButtonStyle.secondary,
                custom_id=f"qx:{game}:final",
            )
        )
        self.game = game

    @classmethod
    # A malformed custom_id comes back as a refusal (BadComponent), not as this item.
    async def from_custom_id(  # type: ignore[override]
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> FinalButton | BadComponent:
        try:
            return cls(identifier(match["game"]))
        except Malformed:
            return BadComponent(item)

    async def callback(self, interaction: discord.Interaction) -> None:
        await stats_table(interaction).on_final(interaction, self.game)


class ShareButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"qx:share:(?P<what>leaderboard|stats|history):(?P<args>[a-z0-9.]{1,60})",
):
    """**Share**: the leaderboard, stats or history just shown, posted in the channel.

    ``args``: ``variant.period.sort`` (variant ``all`` for every game) for the
    leaderboard, the member's id for stats and history (0: everyone's history)."""

    def __init__(self, what: str, args: str) -> None:
        super().__init__(
            discord.ui.Button(
                label=t("button.share"),
                style=discord.ButtonStyle.secondary,
                custom_id=f"qx:share:{what}:{args}",
            )
        )
        self.what, self.args = what, args

    @classmethod
    # A malformed custom_id comes back as a refusal (BadComponent), not as this item.
    async def from_custom_id(  # type: ignore[override]
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ShareButton | BadComponent:
        what, args = match["what"], match["args"]
        if not share_args_valid(what, args):
            return BadComponent(item)
        return cls(what, args)

    async def callback(self, interaction: discord.Interaction) -> None:
        await stats_table(interaction).on_share(interaction, self.what, self.args)


def share_args_valid(what: str, args: str) -> bool:
    if what == "leaderboard":
        parts = args.split(".")
        return (
            len(parts) == 3
            and (parts[0] == "all" or parts[0] in VARIANTS)
            and parts[1] in PERIODS
            and parts[2] in BOARD_SORTS
        )
    try:
        identifier(args)
    except Malformed:
        return False
    return True


def share_view(what: str, args: str, view: discord.ui.View | None = None) -> discord.ui.View:
    """``view`` (or a new one) with a **Share** button, if there is room for it."""
    view = view or discord.ui.View(timeout=None)
    if len(view.children) < VIEW_ITEMS:
        view.add_item(ShareButton(what, args))
    return view


STATS_ITEMS = (FinalButton, ShareButton)


class StatsHandlers(Protocol):
    """What the statistics buttons hand a click over to (:class:`StatsTable`)."""

    async def on_final(self, interaction: discord.Interaction, game_id: int) -> None: ...
    async def on_share(self, interaction: discord.Interaction, what: str, args: str) -> None: ...


class HasStats(Protocol):
    """The bot (:class:`~bot.app.QwixxBot`), as the statistics buttons see it."""

    stats_table: StatsHandlers


def stats_table(interaction: discord.Interaction) -> StatsHandlers:
    return cast(HasStats, interaction.client).stats_table


class StatsTable(PrivateAnswers):
    """The handlers behind the statistics commands."""

    def __init__(self, client: discord.Client, stats: StatsService, games: GameService) -> None:
        self.client = client
        self.stats = stats
        self.games = games
        self.ratings = RatingService(stats.store)

    async def language(self, guild_id: int) -> str:
        """The server's language, for a view shared with the channel."""
        return await server_language(self.client, self.games, guild_id)

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
                await self.games.remember_name(guild, member.id, member.display_name)
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
        names = await self.games.names(interaction.guild_id, [user])
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
        guild = await self.begin(interaction, member, public=public)
        who = member or interaction.user
        stats = await self.stats.player(guild, who.id)
        if stats.empty:
            await interaction.edit_original_response(
                content=t("stats.none", name=f"<@{who.id}>"),
                allowed_mentions=discord.AllowedMentions.none(),
            )
            return
        embed = discord.Embed(
            title=t("stats.title", name=who.display_name), colour=discord.Colour.blurple()
        )
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
        embed.set_footer(text=stats_footer(stats))
        await interaction.edit_original_response(
            content=self.shared(interaction, public),
            embed=embed,
            view=None if public else share_view("stats", str(who.id)),
            allowed_mentions=QUIET,
        )

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
        board = await png_file(
            render_scoreboard,
            final.game,
            final.names,
            name="scoreboard.png",
            description=scoreboard_alt(final.game, final.names),
        )
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
