"""Tournaments on Discord: ``/qwixx tournament …``, the sign-up message's buttons, and the
desk that keeps a tournament's channel showing what the store holds.

The desk (:meth:`TournamentHandlers.catch_up`, each tick of the timers) settles every
tournament with something owed (:meth:`bot.service.tournaments.Tournaments.settle`),
opens the tables of a round just seated, each in a public thread of the tournament's
channel (the thread is claimed in the store before its game is made, so a table gets
one thread and one game whatever restarts or other processes do), and brings the
channel's messages in step: the sign-up message edited, one message per round posted,
the standings (text and image) edited in place, the podium posted at the end. Posts
carry nonces and edits are the same when repeated, so a crash costs nothing.

Each message is a card (:mod:`bot.cogs.cards`); a sign-up message or standings posted
before cards keep their text, as their message's flags and the tournament's record say
(``shown["forms"]`` names the messages posted as cards).
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any, ClassVar, Final, Self

import discord

from bot.channel.budget import WriteBudget
from bot.channel.cards import FORM, Card
from bot.channel.tournament_texts import (
    list_line,
    podium_card,
    round_card,
    signup_actions,
    signup_card,
    signup_content,
    standings_card,
    standings_content,
    standings_for,
    standings_table,
    thread_name,
)
from bot.cogs import cards
from bot.cogs.adapter import Adapter, GameHandlers
from bot.cogs.answers import answers_errors, is_card
from bot.cogs.buttons import Parsed, identifier
from bot.cogs.images import png_file
from bot.durations import DurationError, parse_duration
from bot.i18n import using
from bot.i18n.words import t
from bot.render import render_standings
from bot.render.standings_lines import standings_alt
from bot.service.errors import ServiceError
from bot.shards import ShardPlan
from bot.tournament import SettingsRefusal, TournamentSettings, TournamentStanding, parse_points
from bot.tournament.records import TableRecord, Tournament

log = logging.getLogger(__name__)
ACTIONS = ("join", "leave", "checkin", "start")
THREAD_ARCHIVE: Final = 10080  # minutes a table's quiet thread stays open (Discord's longest)
PINGING = discord.AllowedMentions(everyone=False, roles=False, users=True)
"""A round's message and the podium notify the members they mention (a round of 256
mentions more than the 100 users Discord's list of pinged users takes)."""


@dataclass(frozen=True)
class CreateOptions:
    """``/qwixx tournament create``'s options, as typed."""

    name: str
    variant: str = "classic"
    rounds: int = 3
    table_size: int = 4
    smallest_table: int | None = None
    turn_time: str | None = None
    points: str | None = None
    avoid_repeats: bool = True
    computers: bool = False
    sign_up_hours: int | None = None
    check_in: str | None = None


# --- the sign-up message's buttons ------------------------------------------------
class SignUpButton(
    Parsed[discord.ui.Button[Any]],
    template=rf"qx:tour:(?P<tournament>\d+):(?P<action>{'|'.join(ACTIONS)})",
):
    """**Join**, **Leave**, **Check in** and the organiser's **Start** under a
    tournament's sign-up message."""

    STYLES: ClassVar[dict[str, discord.ButtonStyle]] = {
        "join": discord.ButtonStyle.success,
        "leave": discord.ButtonStyle.secondary,
        "checkin": discord.ButtonStyle.primary,
        "start": discord.ButtonStyle.primary,
    }
    LABELS: ClassVar[dict[str, str]] = {
        "join": "button.join",
        "leave": "button.leave",
        "checkin": "button.check_in",
        "start": "button.start",
    }

    def __init__(self, tournament: int, action: str) -> None:
        super().__init__(
            discord.ui.Button(
                label=t(self.LABELS[action]),
                style=self.STYLES[action],
                custom_id=f"qx:tour:{tournament}:{action}",
            )
        )
        self.tournament, self.action = tournament, action

    @classmethod
    def parse(cls, match: re.Match[str], item: discord.ui.Item[Any]) -> Self:
        return cls(identifier(match["tournament"]), match["action"])


def signup_view(tournament: Tournament, now: float) -> discord.ui.View | None:
    actions = signup_actions(tournament, now)
    if not actions:
        return None
    view = discord.ui.View(timeout=None)
    for action in actions:
        view.add_item(SignUpButton(tournament.record.id, action))
    return view


def signup_message(tournament: Tournament, now: float, card: bool) -> dict[str, Any]:
    """The sign-up message's fields as the tournament stands: a card with its buttons,
    or (``card`` False: posted before cards) its text and buttons."""
    view = signup_view(tournament, now)
    if card:
        return {"view": cards.layout(signup_card(tournament, now), [], view)}
    return {"content": signup_content(tournament, now), "view": view}


def carded(tournament: Tournament, kind: str) -> bool:
    """Whether the tournament's ``kind`` message (``signup``, ``standings``) was posted
    as a card (one posted before cards has no form recorded: text)."""
    forms = tournament.record.shown.get("forms") or {}
    return bool(forms.get(kind) == FORM)


# --- the handlers -----------------------------------------------------------------
class TournamentHandlers(GameHandlers):
    """The commands, the buttons and the desk (see the module)."""

    def __init__(self, client: discord.Client, adapter: Adapter, budget: WriteBudget) -> None:
        super().__init__(adapter)
        self.client = client
        self.tournaments = adapter.service.tournaments
        self.budget = budget
        self._settling = asyncio.Lock()  # one tournament's channel at a time
        self._awaiting: dict[int, set[int]] = {}
        """Server -> its tournaments whose channel waits for the server to arrive."""

    def now(self) -> float:
        return self.tournaments.clock()

    # --- commands ------------------------------------------------------------------
    @answers_errors
    async def on_list(self, interaction: discord.Interaction) -> None:
        guild_id = require_guild(interaction)
        records = await self.tournaments.of_guild(guild_id)
        if not records:
            await self.tell(interaction, t("tournament.list.none"))
            return
        lines = [t("tournament.list.title")]
        for record in records:
            tournament = await self.tournaments.read(record.id)
            lines.append("• " + list_line(tournament, self.tournaments.standings(tournament)))
        await interaction.response.send_message(
            "\n".join(lines)[:2000], ephemeral=True, allowed_mentions=discord.AllowedMentions.none()
        )

    @answers_errors
    async def on_create(self, interaction: discord.Interaction, options: CreateOptions) -> None:
        """Checks, then the sign-up message as the command's public answer: a refusal
        stays private."""
        guild_id = require_guild(interaction)
        channel = interaction.channel
        if not isinstance(channel, discord.TextChannel):
            raise ServiceError("tournament.error.here")
        allowed = interaction.app_permissions
        if not (allowed.send_messages and allowed.attach_files and allowed.view_channel):
            raise ServiceError("error.cannot_post")
        if not (allowed.create_public_threads and allowed.send_messages_in_threads):
            raise ServiceError("error.thread_permission")
        await self.require_organiser(interaction, guild_id)
        record = await self.tournaments.create(
            guild_id, channel.id, interaction.user.id, await self.settings(guild_id, options)
        )
        tournament = await self.tournaments.read(record.id)
        await self.adapter.remember(interaction)
        with using(await self.language(guild_id)):
            fields = signup_message(tournament, self.now(), card=True)
        response = await interaction.response.send_message(
            **fields, allowed_mentions=discord.AllowedMentions.none()
        )
        if isinstance(response.resource, discord.InteractionMessage):
            shown: dict[str, object] = {"signup": "signup", "forms": {"signup": FORM}}
            await self.tournaments.show(tournament, shown, message_id=response.resource.id)

    async def settings(self, guild_id: int, options: CreateOptions) -> TournamentSettings:
        """The settings as typed, read: durations and points (refused politely)."""
        turn_time = await self.service.settings.turn_time(guild_id, options.turn_time)
        try:
            points = parse_points(options.points, options.table_size) if options.points else ()
            check_in = parse_duration(options.check_in) if options.check_in else None
        except SettingsRefusal as refusal:
            raise ServiceError(refusal.key, **refusal.values) from None
        except DurationError as error:
            raise ServiceError("error.duration", problem=str(error)) from None
        hours = options.sign_up_hours
        return TournamentSettings(
            options.name.strip(),
            options.variant,
            options.rounds,
            options.table_size,
            options.smallest_table,
            turn_time,
            points,
            options.avoid_repeats,
            options.computers,
            None if hours is None else int(self.now()) + hours * 3600,
            check_in,
        )

    async def require_organiser(self, interaction: discord.Interaction, guild_id: int) -> None:
        """Manage Server, or the role the server named for organisers."""
        if interaction.permissions.manage_guild:
            return
        role = await self.tournaments.organiser_role(guild_id)
        roles = getattr(interaction.user, "roles", [])
        if role is not None and any(r.id == role for r in roles):
            return
        if role is None:
            raise ServiceError("tournament.error.manage")
        raise ServiceError("tournament.error.organiser", role=f"<@&{role}>")

    @answers_errors
    async def on_role(self, interaction: discord.Interaction, role: discord.Role | None) -> None:
        guild_id = require_guild(interaction)
        if not interaction.permissions.manage_guild:
            raise ServiceError("tournament.error.role_manage")
        await self.tournaments.set_organiser_role(guild_id, None if role is None else role.id)
        text = (
            t("tournament.role_cleared")
            if role is None
            else t("tournament.role_set", role=f"<@&{role.id}>")
        )
        await self.tell(interaction, text)

    @answers_errors
    async def on_standings(self, interaction: discord.Interaction, name: str | None) -> None:
        """The standings for whoever asks: the text with their own line, and the image
        with the leaders and, framed, their place."""
        guild_id = require_guild(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        tournament = await self.tournaments.find(guild_id, interaction.channel_id, name)
        viewer = interaction.user.id
        lines = self.tournaments.standings(tournament)
        image = await self.standings_file(tournament, lines, viewer)
        await interaction.followup.send(
            standings_for(tournament, lines, viewer),
            files=[image],
            ephemeral=True,
            allowed_mentions=discord.AllowedMentions.none(),
        )

    @answers_errors
    async def on_withdraw(self, interaction: discord.Interaction, name: str | None) -> None:
        guild_id = require_guild(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        tournament, left = await self.tournaments.withdraw(guild_id, interaction.user.id, name)
        if left is not None:
            await self.adapter.changed(left)
        if tournament.record.status == "signup":
            await self.edit_signup(tournament)
            text = t("tournament.left", name=tournament.record.name)
        else:
            await self.settle(tournament.record.id)
            key = "tournament.withdrew_game" if left is not None else "tournament.withdrew"
            text = t(key, name=tournament.record.name)
        await interaction.followup.send(text, ephemeral=True)

    @answers_errors
    async def on_cancel(self, interaction: discord.Interaction) -> None:
        guild_id = require_guild(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        found = await self.tournaments.find(guild_id, interaction.channel_id)
        if found.record.channel_id != interaction.channel_id or not found.record.is_open:
            raise ServiceError("tournament.error.none_here")
        cancelled = await self.tournaments.cancel(
            found.record.id, interaction.user.id, interaction.permissions.manage_guild
        )
        await self.settle(cancelled.record.id)
        await interaction.followup.send(t("tournament.signup.cancelled"), ephemeral=True)

    # --- the sign-up message's buttons ------------------------------------------------
    @answers_errors
    async def on_signup(
        self, interaction: discord.Interaction, tournament_id: int, action: str
    ) -> None:
        await interaction.response.defer()
        user = interaction.user.id
        current = await self.tournaments.read(tournament_id)
        if (current.record.guild_id, current.record.channel_id) != (
            interaction.guild_id,
            interaction.channel_id,
        ):
            raise ServiceError("error.other_channel")
        if action == "join":
            changed = await self.tournaments.join(tournament_id, user)
            await self.adapter.remember(interaction)
            said = t("tournament.joined", name=changed.record.name, count=len(changed.entrants))
        elif action == "leave":
            changed = await self.tournaments.leave(tournament_id, user)
            said = t("tournament.left", name=changed.record.name)
        elif action == "checkin":
            changed = await self.tournaments.check_in(tournament_id, user)
            said = t("tournament.checked_in", name=changed.record.name)
        else:
            changed = await self.tournaments.start(
                tournament_id, user, interaction.permissions.manage_guild
            )
            said = ""
        card = is_card(interaction.message)
        with using(await self.language(changed.record.guild_id)):
            await interaction.edit_original_response(**signup_message(changed, self.now(), card))
        if said:
            await interaction.followup.send(said, ephemeral=True)
        if action == "start":
            await self.settle(tournament_id)

    async def edit_signup(self, tournament: Tournament) -> None:
        """The sign-up message as the tournament stands (through the bot's token)."""
        message_id = tournament.record.message_id
        channel = self.channel_of(tournament)
        if message_id is None or channel is None:
            return
        with using(await self.language(tournament.record.guild_id)):
            fields = signup_message(tournament, self.now(), carded(tournament, "signup"))
        async with self.budget.slot(channel.id):
            await channel.get_partial_message(message_id).edit(
                **fields, allowed_mentions=discord.AllowedMentions.none()
            )

    # --- the desk ----------------------------------------------------------------------
    async def catch_up(self, shards: ShardPlan | None = None) -> int:
        """Settle every tournament with something owed now; how many."""
        return await self.settle_each(await self.tournaments.due(shards))

    async def settle_each(self, tournament_ids: Iterable[int]) -> int:
        """Settle each tournament, one failing leaving the others be; how many settled."""
        settled = 0
        for tournament_id in tournament_ids:
            try:
                await self.settle(tournament_id)
                settled += 1
            except Exception:
                log.exception(
                    "tournament %s: settling failed; tried again next tick", tournament_id
                )
        return settled

    async def settle(self, tournament_id: int) -> None:
        """What the store owes the tournament, then what its channel owes it (see the
        module); one settling at a time in this process."""
        async with self._settling:
            tournament = await self.tournaments.settle(tournament_id)
            channel = self.channel_of(tournament)
            if channel is None:
                self.out_of_reach(tournament)
                return
            with using(await self.language(tournament.record.guild_id)):
                if tournament.record.status == "running":
                    await self.open_tables(tournament, channel)
                    tournament = await self.tournaments.read(tournament_id)
                await self.show(tournament, channel)
            await self.tournaments.settled(tournament)

    def out_of_reach(self, tournament: Tournament) -> None:
        """No channel for ``tournament``: if its server has not arrived yet (the first
        timer pass of a start runs before the gateway sends the servers, or the server is
        away in an outage), the tournament waits for it (:meth:`guild_arrived`);
        otherwise the channel is gone or hidden, which is worth a warning."""
        record = tournament.record
        if self.arriving(record.guild_id):
            waiting = self._awaiting.setdefault(record.guild_id, set())
            if record.id not in waiting:
                log.info("tournament %s: waiting for its server to arrive", record.id)
            waiting.add(record.id)
            return
        log.warning("tournament %s: its channel %s is out of reach", record.id, record.channel_id)

    def arriving(self, guild_id: int) -> bool:
        """Whether the server's channels are still to come: it is unavailable, or the
        bot is not ready yet and has not heard of it."""
        guild = self.client.get_guild(guild_id)
        return not self.client.is_ready() if guild is None else guild.unavailable

    async def guild_arrived(self, guild_id: int) -> None:
        """The server's channels are here (its GUILD_CREATE, once the bot is ready or
        after an outage): the tournaments that waited for them are settled now rather
        than a timer pass later."""
        await self.settle_each(sorted(self._awaiting.pop(guild_id, ())))

    def channel_of(self, tournament: Tournament) -> discord.TextChannel | None:
        channel = self.client.get_channel(tournament.record.channel_id)
        return channel if isinstance(channel, discord.TextChannel) else None

    async def open_tables(self, tournament: Tournament, channel: discord.TextChannel) -> None:
        """Each table of the round being played without its game yet: its thread, then
        its game, started and shown."""
        for table in tournament.tables_of(tournament.record.rounds):
            if table.game_id is not None:
                continue
            thread_id = table.thread_id or await self.new_thread(tournament, table, channel)
            opened = replace(table, thread_id=thread_id)
            for outcome in await self.tournaments.open_table(tournament, opened):
                await self.adapter.changed(outcome)

    async def new_thread(
        self, tournament: Tournament, table: TableRecord, channel: discord.TextChannel
    ) -> int:
        """A table's public thread, claimed for it in the store (a thread made for it by
        a try that stopped before the claim is taken up again; one made by another
        process that claimed first wins, and this one goes)."""
        name = thread_name(tournament, table.round, table.number)
        since = tournament.record.created_at
        thread = next(
            (
                th
                for th in channel.threads
                if th.name == name
                and th.owner_id == getattr(self.client.user, "id", None)
                and discord.utils.snowflake_time(th.id).timestamp() >= since - 60
            ),
            None,
        )
        if thread is None:
            async with self.budget.slot(channel.id):
                thread = await channel.create_thread(
                    name=name,
                    type=discord.ChannelType.public_thread,
                    auto_archive_duration=THREAD_ARCHIVE,
                )
        claimed = await self.tournaments.claim_thread(tournament, table, thread.id)
        if claimed != thread.id:
            await thread.delete()
        return claimed

    async def show(self, tournament: Tournament, channel: discord.TextChannel) -> None:
        """Bring the tournament's messages in step with the store."""
        record = tournament.record
        shown = dict(record.shown)
        posted: dict[str, int] = {}
        state = signup_state(tournament, self.now())
        if record.message_id is not None and shown.get("signup") != state:
            await self.edit_signup(tournament)
            shown["signup"] = state
        for number in range(1, record.rounds + 1):
            tables = tournament.tables_of(number)
            if number in tournament.round_messages or any(t_.thread_id is None for t_ in tables):
                continue
            dropped = shown.get("dropped", []) if number == 1 else []
            message = await self.post(
                channel,
                round_card(tournament, number, dropped),
                f"qxT{record.id}r{number}",
                pinging=True,
            )
            await self.tournaments.show_round(tournament, number, message.id)
        if record.rounds:
            lines = self.tournaments.standings(tournament)
            key = standings_state(tournament)
            if record.standings_id is None:
                image = await self.standings_file(tournament, lines)
                card = standings_card(tournament, lines)
                message = await self.post(channel, card, f"qxT{record.id}s", files=[image])
                posted["standings_id"] = message.id
                shown["forms"] = {**shown.get("forms", {}), "standings": FORM}
            elif shown.get("standings") != key:
                await self.edit_standings(tournament, lines, record.standings_id, channel)
            shown["standings"] = key
            if record.status == "finished" and record.podium_id is None:
                message = await self.post(
                    channel,
                    podium_card(tournament, lines),
                    f"qxT{record.id}p",
                    pinging=True,
                )
                posted["podium_id"] = message.id
        if shown != record.shown or posted:
            await self.tournaments.show(tournament, shown, **posted)

    async def edit_standings(
        self,
        tournament: Tournament,
        lines: list[TournamentStanding],
        message_id: int,
        channel: discord.TextChannel,
    ) -> None:
        """The standings message as they stand, image and all, in the form it was posted
        in (a card, or the text of one posted before cards)."""
        image = await self.standings_file(tournament, lines)
        fields: dict[str, Any] = {"attachments": [image]}
        if carded(tournament, "standings"):
            fields["view"] = cards.layout(standings_card(tournament, lines), [image], None)
        else:
            fields["content"] = standings_content(tournament, lines)
        async with self.budget.slot(channel.id):
            await channel.get_partial_message(message_id).edit(
                **fields, allowed_mentions=discord.AllowedMentions.none()
            )

    async def post(
        self,
        channel: discord.TextChannel,
        card: Card,
        nonce: str,
        *,
        pinging: bool = False,
        files: list[discord.File] | None = None,
    ) -> discord.Message:
        """A tournament message, as a card (its nonce makes a repeat after a crash
        harmless); ``pinging``: the members it mentions are notified."""
        files = files or []
        async with self.budget.slot(channel.id):
            return await channel.send(
                view=cards.layout(card, files, None),
                nonce=nonce,
                files=files,
                allowed_mentions=PINGING if pinging else discord.AllowedMentions.none(),
            )

    async def standings_file(
        self, tournament: Tournament, lines: list[TournamentStanding], viewer: int | None = None
    ) -> discord.File:
        players = [line.player for line in lines]
        names = await self.service.names.of(tournament.record.guild_id, players)
        table = standings_table(tournament, lines, names, viewer)
        return await png_file(
            render_standings, table, name="standings.png", description=standings_alt(table)
        )


def signup_state(tournament: Tournament, now: float) -> str:
    """What the sign-up message shows, in a word: what changes it besides sign-ups
    (which the clicks edit themselves)."""
    opens = tournament.settings.check_in_opens
    checking = opens is not None and now >= opens
    return f"{tournament.record.status}{':check-in' if checking else ''}"


def standings_state(tournament: Tournament) -> str:
    """What the standings show, in a word: the results, withdrawals and status they
    count."""
    record = tournament.record
    withdrawn = sum(e.withdrawn_after is not None for e in tournament.entrants)
    return f"{record.status}:{record.rounds}:{len(tournament.results)}:{withdrawn}"


def require_guild(interaction: discord.Interaction) -> int:
    if interaction.guild_id is None:
        raise ServiceError("tournament.error.here")
    return interaction.guild_id
