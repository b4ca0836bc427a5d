"""``/qwixx preferences``: a member's choices for every game (standing choices, what a
timeout does, the fallback of a choice made ahead, direct messages, reminders soon and
again, quiet hours, time away), shown and changed — by the command's options, or by the
selects and buttons of its answer. Only the member sees it, in their language; every
refusal says what to do.

A member's defaults belong to them, not to a server: the command answers wherever it is
offered, and the change reaches their running games on every server."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import discord
from discord import app_commands

from bot.cogs.answers import PrivateAnswers, Reply, answers_errors
from bot.cogs.choice_items import PrefsButton, PrefsSelect
from bot.i18n.words import t
from bot.records.prefs import (
    FALLBACKS,
    OTHERS,
    TIMEOUTS,
    Prefs,
    PrefsError,
    parse_clock,
    parse_day,
    parse_zone,
    zones_like,
)
from bot.service.errors import ServiceError
from bot.service.members import Members

OTHERS_CHOICES = [app_commands.Choice(name=t(f"prefs.choice.{o}"), value=o) for o in OTHERS]
TIMEOUT_CHOICES = [app_commands.Choice(name=t(f"prefs.choice.{o}"), value=o) for o in TIMEOUTS]
FALLBACK_CHOICES = [app_commands.Choice(name=t(f"prefs.choice.{o}"), value=o) for o in FALLBACKS]


@dataclass(frozen=True)
class Given:
    """``/qwixx preferences``' options as given (None, False: not given)."""

    others: str | None = None
    timeout: str | None = None
    fallback: str | None = None
    direct_messages: bool | None = None
    remind_soon: bool | None = None
    quiet_from: str | None = None
    quiet_to: str | None = None
    quiet_off: bool = False
    timezone: str | None = None
    away_until: str | None = None
    back: bool = False


def changes_of(given: Given, current: Prefs, now: float) -> dict[str, Any]:
    """The changes ``given`` asks of the member's ``current`` defaults, each read and
    checked; :class:`PrefsError` names the first that cannot be."""
    changes: dict[str, Any] = {
        name: value
        for name in ("others", "timeout", "fallback")
        if (value := getattr(given, name)) is not None
    }
    if given.direct_messages is not None:
        changes["dm"] = given.direct_messages
    if given.remind_soon is not None:
        changes["nudge"] = given.remind_soon
    zone = current.zone
    if given.timezone is not None:
        zone = changes["zone"] = parse_zone(given.timezone)
    quiet = given.quiet_from is not None or given.quiet_to is not None
    if given.quiet_off and quiet:
        raise PrefsError("prefs.quiet_conflict")
    if given.quiet_off:
        changes["quiet"] = None
    elif quiet:
        changes["quiet"] = quiet_hours(given, current)
    if given.back and given.away_until is not None:
        raise PrefsError("prefs.away_conflict")
    if given.back:
        changes["away_until"] = None
    elif given.away_until is not None:
        changes["away_until"] = parse_day(given.away_until, zone, now)
    return changes


def quiet_hours(given: Given, current: Prefs) -> tuple[int, int]:
    """The quiet hours ``given`` sets: an end not given stays as it was."""
    start = parse_clock(given.quiet_from) if given.quiet_from is not None else None
    end = parse_clock(given.quiet_to) if given.quiet_to is not None else None
    if current.quiet is not None:
        start = current.quiet[0] if start is None else start
        end = current.quiet[1] if end is None else end
    if start is None or end is None:
        raise PrefsError("prefs.quiet_both")
    if start == end:
        raise PrefsError("prefs.quiet_empty")
    return start, end


def clock(minutes: int) -> str:
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


def prefs_content(prefs: Prefs, saved: bool = False) -> str:
    """The member's defaults, a line each."""
    quiet = (
        t("prefs.quiet", start=clock(prefs.quiet[0]), end=clock(prefs.quiet[1]), zone=prefs.zone)
        if prefs.quiet is not None
        else t("prefs.quiet_none", zone=prefs.zone)
    )
    away = (
        t("prefs.away", until=int(prefs.away_until))
        if prefs.away_until is not None
        else t("prefs.here")
    )
    lines = [
        t(f"choices.others.{prefs.others}"),
        t(f"choices.timeout.{prefs.timeout}"),
        t(f"prefs.fallback.{prefs.fallback}"),
        t("prefs.dm.on" if prefs.dm else "prefs.dm.off"),
        t("prefs.nudge.on" if prefs.nudge else "prefs.nudge.off"),
        quiet,
        away,
    ]
    head = [t("prefs.saved")] if saved else []
    return "\n".join([*head, t("prefs.title"), *(f"• {line}" for line in lines), t("prefs.hint")])


def prefs_view(prefs: Prefs) -> discord.ui.View:
    """A select for each standing choice; direct messages on or off; back, when away."""
    view = discord.ui.View(timeout=None)
    selects = [
        PrefsSelect("others", [(o, t(f"choices.others.{o}")) for o in OTHERS], prefs.others),
        PrefsSelect("timeout", [(o, t(f"choices.timeout.{o}")) for o in TIMEOUTS], prefs.timeout),
        PrefsSelect("fallback", [(o, t(f"prefs.fallback.{o}")) for o in FALLBACKS], prefs.fallback),
    ]
    for row, item in enumerate(selects):
        item.row = row
        view.add_item(item)
    buttons = [
        PrefsButton("dm-off", t("button.dm_off"))
        if prefs.dm
        else PrefsButton("dm-on", t("button.dm_on")),
        PrefsButton("nudge-off", t("button.nudge_off"))
        if prefs.nudge
        else PrefsButton("nudge-on", t("button.nudge_on")),
    ]
    if prefs.away_until is not None:
        buttons.append(PrefsButton("here", t("button.here")))
    for button in buttons:
        button.row = len(selects)
        view.add_item(button)
    return view


def zone_choices(typed: str) -> list[app_commands.Choice[str]]:
    """The time zones offered as a member types one (at most Discord's 25)."""
    return [app_commands.Choice(name=zone, value=zone) for zone in zones_like(typed, 25)]


class PrefsHandlers(PrivateAnswers):
    """The handlers of ``/qwixx preferences`` and of its answer's components."""

    def __init__(self, members: Members) -> None:
        super().__init__()
        self.members = members

    @answers_errors
    async def on_preferences(self, interaction: discord.Interaction, given: Given) -> None:
        """The member's defaults, once changed as ``given`` (every value checked before
        any is saved)."""
        user = interaction.user.id
        current = await self.members.prefs(user)
        try:
            changes = changes_of(given, current, self.members.clock())
        except PrefsError as refused:
            raise ServiceError(refused.key, **refused.values) from None
        if not changes:
            await interaction.response.send_message(
                prefs_content(current), view=prefs_view(current), ephemeral=True
            )
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        prefs = await self.members.change(user, **changes)
        await interaction.edit_original_response(
            content=prefs_content(prefs, saved=True), view=prefs_view(prefs)
        )

    @answers_errors
    async def on_pref(self, interaction: discord.Interaction, name: str, value: str) -> None:
        """A select or button of the answer: that default changed, the answer updated."""
        changes: dict[str, Any] = (
            {name: value == "on"}
            if name in ("dm", "nudge")
            else {"away_until": None}
            if name == "here"
            else {name: value}
        )
        async with Reply(interaction) as reply:
            prefs = await self.members.change(interaction.user.id, **changes)
            await reply.edit(content=prefs_content(prefs, saved=True), view=prefs_view(prefs))
