"""The ``/qwixx`` slash commands: each hands its options to a feature's handlers.

``/qwixx`` is offered everywhere, through the server's install and a member's own; the
subcommands that need a server with the bot say so (:mod:`bot.cogs.places`)."""

from __future__ import annotations

from typing import TypeVar

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.handlers import Handlers
from bot.cogs.places import SERVER, needs_server
from bot.cogs.prefs import (
    FALLBACK_CHOICES,
    OTHERS_CHOICES,
    TIMEOUT_CHOICES,
    Given,
    zone_choices,
)
from bot.cogs.settings import LANGUAGE_CHOICES, SettingsOptions
from bot.cogs.stats import PERIOD_CHOICES, SORT_CHOICES
from bot.cogs.tournaments import CreateOptions
from bot.i18n.words import t
from bot.players import LEVELS
from bot.records.options import Options
from bot.rules import VARIANTS
from bot.rules.boards import BOARDS
from bot.tournament.settings import MAX_NAME, MAX_ROUNDS, TABLE_SIZES

VARIANT_CHOICES = [app_commands.Choice(name=cls.title, value=key) for key, cls in VARIANTS.items()]
BOARD_CHOICES = [app_commands.Choice(name=f"Board {name}", value=name) for name in BOARDS]
PACE_CHOICES = [
    app_commands.Choice(name="Live (a few minutes a decision)", value="live"),
    app_commands.Choice(name="Slow (the server's turn time)", value="slow"),
]
LEVEL_CHOICES = [app_commands.Choice(name=t(f"level.{level}"), value=level) for level in LEVELS]
MOST_COMPUTERS = max(cls.max_players for cls in VARIANTS.values()) - 1
Default = TypeVar("Default", str, None)


def value_of(choice: app_commands.Choice[str] | None, default: Default) -> str | Default:
    """The value of the option the member chose, or ``default`` when they gave none."""
    return choice.value if choice else default


@app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
@app_commands.allowed_installs(guilds=True, users=True)
class QwixxCog(commands.GroupCog, group_name="qwixx", group_description="Play Qwixx games"):
    def __init__(self, handlers: Handlers) -> None:
        self.handlers = handlers
        super().__init__()

    @app_commands.command(description="Open a lobby for a new game in this channel")
    @needs_server
    @app_commands.describe(
        variant="Which game to play",
        board="Qwixx On Board only: which side of the board (default A)",
        turn_time="Time for each decision, 5m to 7d (default: the server's, else 24h)",
        thread="Play in a new thread of this channel",
        solo="Solo practice: play alone, not counted for the leaderboard",
        hints="Sheets get a Hint button; the game does not count for the leaderboard",
        fill_away="A computer plays the seat of a player who is away until they are back",
    )
    @app_commands.choices(variant=VARIANT_CHOICES, board=BOARD_CHOICES)
    async def start(
        self,
        interaction: discord.Interaction,
        variant: app_commands.Choice[str] | None = None,
        board: app_commands.Choice[str] | None = None,
        turn_time: str | None = None,
        thread: bool = False,
        solo: bool = False,
        hints: bool = False,
        fill_away: bool = False,
    ) -> None:
        await self.handlers.lobby.on_start(
            interaction,
            value_of(variant, "classic"),
            value_of(board, None),
            turn_time,
            thread,
            Options(solo=solo, hints=hints, fill_away=fill_away),
        )

    @app_commands.command(description="Leave this channel's lobby, or give up your seat")
    @needs_server
    async def leave(self, interaction: discord.Interaction) -> None:
        await self.handlers.leaving.on_leave(interaction)

    @app_commands.command(description="Every game waiting for you, on every server")
    async def mygames(self, interaction: discord.Interaction) -> None:
        await self.handlers.turns.on_my_games(interaction)

    @app_commands.command(name="preferences", description=t("command.preferences"))
    @app_commands.describe(
        others=t("option.preferences.others"),
        timeout=t("option.preferences.timeout"),
        fallback=t("option.preferences.fallback"),
        direct_messages=t("option.preferences.direct_messages"),
        remind_soon=t("option.preferences.remind_soon"),
        quiet_from=t("option.preferences.quiet_from"),
        quiet_to=t("option.preferences.quiet_to"),
        quiet_off=t("option.preferences.quiet_off"),
        timezone=t("option.preferences.timezone"),
        away_until=t("option.preferences.away_until"),
        back=t("option.preferences.back"),
    )
    @app_commands.choices(others=OTHERS_CHOICES, timeout=TIMEOUT_CHOICES, fallback=FALLBACK_CHOICES)
    async def preferences(
        self,
        interaction: discord.Interaction,
        others: app_commands.Choice[str] | None = None,
        timeout: app_commands.Choice[str] | None = None,
        fallback: app_commands.Choice[str] | None = None,
        direct_messages: bool | None = None,
        remind_soon: bool | None = None,
        quiet_from: app_commands.Range[str, 1, 20] | None = None,
        quiet_to: app_commands.Range[str, 1, 20] | None = None,
        quiet_off: bool = False,
        timezone: app_commands.Range[str, 1, 60] | None = None,
        away_until: app_commands.Range[str, 1, 20] | None = None,
        back: bool = False,
    ) -> None:
        """Without options: the member's choices for every game; else those given change."""
        await self.handlers.prefs.on_preferences(
            interaction,
            Given(
                value_of(others, None),
                value_of(timeout, None),
                value_of(fallback, None),
                direct_messages,
                remind_soon,
                quiet_from,
                quiet_to,
                quiet_off,
                timezone,
                away_until,
                back,
            ),
        )

    @preferences.autocomplete("timezone")
    async def preferences_timezone(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return zone_choices(current)

    @app_commands.command(description="Server settings (changing them needs Manage Server)")
    @needs_server
    @app_commands.describe(
        turn_time="Default time for each decision in new games, 5m to 7d",
        language="The language of this server's public game messages and images",
        daily_channel="Where the daily challenge's ranking is posted each day",
        daily_hour="The local hour (0-23) at which the daily challenge's day turns",
        timezone="The server's time zone for the daily challenge, e.g. Europe/Berlin",
        live_time="Time for each decision in a game played live (/qwixx pace), 5m to 7d",
    )
    @app_commands.choices(language=LANGUAGE_CHOICES)
    async def settings(
        self,
        interaction: discord.Interaction,
        turn_time: str | None = None,
        language: app_commands.Choice[str] | None = None,
        daily_channel: discord.TextChannel | None = None,
        daily_hour: app_commands.Range[int, 0, 23] | None = None,
        timezone: str | None = None,
        live_time: str | None = None,
    ) -> None:
        """Without options: every setting as it stands; else the ones given change."""
        await self.handlers.settings.on_settings(
            interaction,
            SettingsOptions(
                turn_time,
                value_of(language, None),
                daily_channel.id if daily_channel else None,
                daily_hour,
                timezone,
                live_time,
            ),
        )

    @app_commands.command(description="Play this channel's game live or slow")
    @needs_server
    @app_commands.describe(mode="Live: everyone at the table asks; slow: anyone, at once")
    @app_commands.choices(mode=PACE_CHOICES)
    async def pace(self, interaction: discord.Interaction, mode: app_commands.Choice[str]) -> None:
        await self.handlers.settings.on_pace(interaction, mode.value)

    @app_commands.command(description=t("command.daily"))
    @app_commands.describe(variant=t("option.daily.variant"))
    @app_commands.choices(variant=VARIANT_CHOICES)
    async def daily(
        self, interaction: discord.Interaction, variant: app_commands.Choice[str] | None = None
    ) -> None:
        await self.handlers.daily.on_daily(interaction, value_of(variant, "classic"))

    @app_commands.command(description=t("command.practice"))
    @app_commands.describe(
        variant=t("option.practice.variant"),
        computers=t("option.practice.computers"),
        level=t("option.practice.level"),
        hints=t("option.practice.hints"),
    )
    @app_commands.choices(variant=VARIANT_CHOICES, level=LEVEL_CHOICES)
    async def practice(
        self,
        interaction: discord.Interaction,
        variant: app_commands.Choice[str] | None = None,
        computers: app_commands.Range[int, 0, MOST_COMPUTERS] | None = None,
        level: app_commands.Choice[str] | None = None,
        hints: bool | None = None,
    ) -> None:
        await self.handlers.practice.on_practice(
            interaction,
            value_of(variant, None),
            computers,
            value_of(level, None),
            hints,
        )

    @app_commands.command(description="Show your sheet and your options (only you see it)")
    @needs_server
    async def sheet(self, interaction: discord.Interaction) -> None:
        await self.handlers.turns.on_sheet_command(interaction)

    @app_commands.command(description="Whose decision it is, the dice and the scores so far")
    @needs_server
    async def status(self, interaction: discord.Interaction) -> None:
        await self.handlers.overview.on_status(interaction)

    @app_commands.command(
        name="table", description="Everyone's sheet at a glance (only you see it)"
    )
    @needs_server
    async def table_command(self, interaction: discord.Interaction) -> None:
        await self.handlers.overview.on_table_command(interaction)

    @app_commands.command(description="A short summary of the rules")
    @app_commands.describe(variant="Which game (default: Qwixx)")
    @app_commands.choices(variant=VARIANT_CHOICES)
    async def rules(
        self, interaction: discord.Interaction, variant: app_commands.Choice[str] | None = None
    ) -> None:
        key = value_of(variant, "classic")
        await interaction.response.send_message(
            f"{t(f'rules.{key}')}\n{t('rules.common')}", ephemeral=True
        )

    @app_commands.command(description="End this channel's game (host or Manage Channels)")
    @needs_server
    async def abandon(self, interaction: discord.Interaction) -> None:
        await self.handlers.leaving.on_abandon(interaction)

    # --- statistics (bot/cogs/stats.py, review.py) -------------------------
    @app_commands.command(description=t("command.leaderboard"))
    @needs_server
    @app_commands.describe(
        variant=t("option.leaderboard.variant"),
        period=t("option.leaderboard.period"),
        sort=t("option.leaderboard.sort"),
    )
    @app_commands.choices(variant=VARIANT_CHOICES, period=PERIOD_CHOICES, sort=SORT_CHOICES)
    async def leaderboard(
        self,
        interaction: discord.Interaction,
        variant: app_commands.Choice[str] | None = None,
        period: app_commands.Choice[str] | None = None,
        sort: app_commands.Choice[str] | None = None,
    ) -> None:
        await self.handlers.stats.on_leaderboard(
            interaction,
            value_of(variant, None),
            value_of(period, "all"),
            value_of(sort, "wins"),
        )

    @app_commands.command(description=t("command.stats"))
    @app_commands.describe(user=t("option.stats.user"))
    async def stats(
        self, interaction: discord.Interaction, user: discord.Member | discord.User | None = None
    ) -> None:
        await self.handlers.stats.on_stats(interaction, user)

    @app_commands.command(description=t("command.history"))
    @needs_server
    @app_commands.describe(user=t("option.history.user"))
    async def history(
        self, interaction: discord.Interaction, user: discord.Member | None = None
    ) -> None:
        await self.handlers.stats.on_history(interaction, user)

    @app_commands.command(description=t("command.review"))
    @needs_server
    @app_commands.describe(game=t("option.review.game"))
    async def review(
        self, interaction: discord.Interaction, game: app_commands.Range[int, 1, 1000] | None = None
    ) -> None:
        await self.handlers.review.on_review(interaction, game)

    # --- members' data (bot/cogs/privacy.py) ------------------------------
    @app_commands.command(
        description="What this bot keeps about you, and for how long (only you see it)"
    )
    async def privacy(self, interaction: discord.Interaction) -> None:
        await self.handlers.privacy.on_privacy(interaction)

    @app_commands.command(
        name="forget-me",
        description="Delete your names and make your games anonymous on every server (asks first)",
    )
    async def forget_me(self, interaction: discord.Interaction) -> None:
        await self.handlers.privacy.on_forget(interaction)

    # --- tournaments (bot/cogs/tournaments.py) ------------------------------
    tournament = app_commands.Group(
        name="tournament", description=t("command.tournament"), allowed_contexts=SERVER
    )

    @tournament.command(name="list", description=t("command.tournament.list"))
    async def tournament_list(self, interaction: discord.Interaction) -> None:
        await self.handlers.tournaments.on_list(interaction)

    @tournament.command(name="create", description=t("command.tournament.create"))
    @app_commands.describe(
        name=t("option.tournament.name"),
        variant=t("option.tournament.variant"),
        rounds=t("option.tournament.rounds"),
        table_size=t("option.tournament.table_size"),
        smallest_table=t("option.tournament.smallest_table"),
        turn_time=t("option.tournament.turn_time"),
        points=t("option.tournament.points"),
        avoid_repeats=t("option.tournament.avoid_repeats"),
        computers=t("option.tournament.computers"),
        sign_up_hours=t("option.tournament.sign_up_hours"),
        check_in=t("option.tournament.check_in"),
    )
    @app_commands.choices(variant=VARIANT_CHOICES)
    async def tournament_create(
        self,
        interaction: discord.Interaction,
        name: app_commands.Range[str, 1, MAX_NAME],
        variant: app_commands.Choice[str] | None = None,
        rounds: app_commands.Range[int, 1, MAX_ROUNDS] = 3,
        table_size: app_commands.Range[int, TABLE_SIZES.start, TABLE_SIZES.stop - 1] = 4,
        smallest_table: app_commands.Range[int, TABLE_SIZES.start, TABLE_SIZES.stop - 1]
        | None = None,
        turn_time: str | None = None,
        points: str | None = None,
        avoid_repeats: bool = True,
        computers: bool = False,
        sign_up_hours: app_commands.Range[int, 1, 720] | None = None,
        check_in: str | None = None,
    ) -> None:
        await self.handlers.tournaments.on_create(
            interaction,
            CreateOptions(
                name,
                value_of(variant, "classic"),
                rounds,
                table_size,
                smallest_table,
                turn_time,
                points,
                avoid_repeats,
                computers,
                sign_up_hours,
                check_in,
            ),
        )

    @tournament.command(name="standings", description=t("command.tournament.standings"))
    @app_commands.describe(name=t("option.tournament.which"))
    async def tournament_standings(
        self, interaction: discord.Interaction, name: str | None = None
    ) -> None:
        await self.handlers.tournaments.on_standings(interaction, name)

    @tournament.command(name="withdraw", description=t("command.tournament.withdraw"))
    @app_commands.describe(name=t("option.tournament.which"))
    async def tournament_withdraw(
        self, interaction: discord.Interaction, name: str | None = None
    ) -> None:
        await self.handlers.tournaments.on_withdraw(interaction, name)

    @tournament.command(name="cancel", description=t("command.tournament.cancel"))
    async def tournament_cancel(self, interaction: discord.Interaction) -> None:
        await self.handlers.tournaments.on_cancel(interaction)

    @tournament.command(name="role", description=t("command.tournament.role"))
    @app_commands.describe(role=t("option.tournament.role"))
    async def tournament_role(
        self, interaction: discord.Interaction, role: discord.Role | None = None
    ) -> None:
        await self.handlers.tournaments.on_role(interaction, role)
