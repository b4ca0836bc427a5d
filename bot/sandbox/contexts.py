"""Where the app is installed and where it is used, by Discord's rules.

An interaction happens in one of three contexts: a guild (0), the DM with the app's bot
(1), or another DM or a group DM (2). The app reaches it through an installation: to
the guild (0; the bot is a member there, and it answers in its DM too) or to the
invoking user's account (1; anywhere that user goes). A command declares both
(``contexts``, ``integration_types``); Discord's client offers it only where one of its
declared installations authorizes it in a declared context.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from .permissions import (
    BOT_DM_APP,
    PRIVATE_CHANNEL_APP,
    RESPONSE_PERMISSIONS,
    Perm,
    allows,
)
from .records import (
    BOT_DM,
    DM_CHANNEL,
    GUILD,
    GUILD_INSTALL,
    PRIVATE_CHANNEL,
    USER_INSTALL,
    ChannelRecord,
    MemberRecord,
    UserRecord,
)
from .world import World

ALL_CONTEXTS = (GUILD, BOT_DM, PRIVATE_CHANNEL)
ALL_INSTALLS = (GUILD_INSTALL, USER_INSTALL)
CONTEXT_NAMES = {
    GUILD: "a server (context 0)",
    BOT_DM: "the DM with the bot (context 1)",
    PRIVATE_CHANNEL: "a DM between users or a group DM (context 2)",
}


def context_of(world: World, channel: ChannelRecord) -> int:
    """The interaction context of ``channel``."""
    if channel.guild_id is not None:
        return GUILD
    if channel.type == DM_CHANNEL and world.bot.id in channel.recipients:
        return BOT_DM
    return PRIVATE_CHANNEL


def membership(world: World, user: UserRecord, channel: ChannelRecord) -> MemberRecord | None:
    """``user``'s membership of the channel's guild (None in a DM or group DM);
    PermissionError where the user is not (another guild, someone else's DM)."""
    if channel.guild_id is None:
        if user.id not in channel.recipients:
            raise PermissionError(f"{user.name} is not in the private channel {channel.id}")
        return None
    member = world.members.get((channel.guild_id, user.id))
    if member is None:
        raise PermissionError(
            f"{user.name} is not a member of {world.guilds[channel.guild_id].name}"
        )
    return member


def owners(
    world: World,
    user_id: int,
    channel: ChannelRecord,
    installs: Collection[int] = ALL_INSTALLS,
) -> dict[str, str]:
    """``authorizing_integration_owners`` of an interaction of ``user_id`` in ``channel``
    through the installation types ``installs``: the guild install ("0": the guild's id
    where the bot is; "0" in the bot's DM, for a user sharing a guild with the bot), the
    user install ("1": the user's id) if the user installed the app; only types the app
    supports."""
    found: dict[str, str] = {}
    supported = set(installs) & world.install_types
    context = context_of(world, channel)
    if GUILD_INSTALL in supported:
        if context == GUILD and world.bot_sees(channel):
            found[str(GUILD_INSTALL)] = str(channel.guild_id)
        elif context == BOT_DM and world.shares_guild(user_id):
            found[str(GUILD_INSTALL)] = "0"
    if USER_INSTALL in supported and user_id in world.user_installs:
        found[str(USER_INSTALL)] = str(user_id)
    return found


def app_permissions(world: World, member: MemberRecord | None, channel: ChannelRecord) -> int:
    """What the app may do in ``channel`` (the interaction's ``app_permissions``): the
    bot's permissions where it is a member; in a server without the bot, the response
    permissions the member has; in DMs, the fixed sets Discord documents."""
    context = context_of(world, channel)
    if context == BOT_DM:
        return int(BOT_DM_APP)
    if context == PRIVATE_CHANNEL:
        return int(PRIVATE_CHANNEL_APP)
    bot = world.members.get((channel.guild_id or 0, world.bot.id))
    if bot is not None:
        return bot.permissions
    return (member.permissions if member else 0) & int(RESPONSE_PERMISSIONS)


def forced_ephemeral(member: MemberRecord | None, found: dict[str, str]) -> bool:
    """Whether responses must be ephemeral: the app is used in a server only through a
    user install, by a member without Use External Apps."""
    if member is None or str(GUILD_INSTALL) in found:
        return False
    return not allows(member.permissions, int(Perm.USE_EXTERNAL_APPS))


def declared(body: dict[str, Any], guild_scoped: bool, supported: set[int]) -> dict[str, Any]:
    """The ``contexts`` and ``integration_types`` a synced command keeps: as declared, else
    Discord's defaults (a guild command: the guild install; a global one: the
    installation types the app supports)."""
    installs = body.get("integration_types")
    if installs is None:
        installs = [GUILD_INSTALL] if guild_scoped else sorted(supported)
    return {"contexts": body.get("contexts"), "integration_types": installs}


def usable_contexts(command: dict[str, Any]) -> list[int]:
    """The contexts a command declares; unset: every context, less the bot's DM when the
    deprecated ``dm_permission`` is false."""
    contexts = command.get("contexts")
    if contexts is not None:
        return list(contexts)
    if command.get("dm_permission") is False:
        return [GUILD, PRIVATE_CHANNEL]
    return list(ALL_CONTEXTS)


def not_offered(
    world: World, command: dict[str, Any], user_id: int, channel: ChannelRecord
) -> str | None:
    """Why Discord's client would not offer ``command`` to ``user_id`` in ``channel``
    (None: it would)."""
    context = context_of(world, channel)
    scope = command.get("guild_id")
    if scope is not None and str(channel.guild_id) != str(scope):
        return f"it is a command of guild {scope} only"
    contexts = usable_contexts(command)
    if context not in contexts:
        return f"it declares contexts {contexts}, and this is {CONTEXT_NAMES[context]}"
    installs = command.get("integration_types") or [GUILD_INSTALL]
    if not owners(world, user_id, channel, installs):
        return (
            f"none of its installation types {installs} reaches {CONTEXT_NAMES[context]}"
            f" (the app's guild install needs the bot there, or in the bot's DM a server"
            f" shared with it; a user install needs the user to have installed the app)"
        )
    return None
