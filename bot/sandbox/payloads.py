"""JSON payloads shaped like Discord's (the fields discord.py 2.7 reads)."""

from __future__ import annotations

import copy
from typing import Any

from .ids import iso_now
from .permissions import BOT_DEFAULT
from .records import (
    GROUP_DM,
    GUILD_INSTALL,
    USER_INSTALL,
    ChannelRecord,
    GuildRecord,
    MemberRecord,
    RoleRecord,
    StoredAttachment,
    StoredMessage,
    UserRecord,
    every_component,
)
from .world import World

ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024


def user(record: UserRecord) -> dict[str, Any]:
    """A user object."""
    return {
        "id": str(record.id),
        "username": record.name.lower().replace(" ", "_"),
        "global_name": record.name,
        "discriminator": "0",
        "avatar": None,
        "bot": record.bot,
        "public_flags": 0,
        "flags": 0,
        "primary_guild": None,
    }


def member(record: MemberRecord, *, with_permissions: bool = False) -> dict[str, Any]:
    """A guild member object (interaction payloads carry ``permissions``)."""
    payload: dict[str, Any] = {
        "user": user(record.user),
        "roles": [str(r) for r in record.role_ids],
        "joined_at": record.joined_at,
        "nick": None,
        "avatar": None,
        "deaf": False,
        "mute": False,
        "pending": False,
        "flags": 0,
    }
    if with_permissions:
        payload["permissions"] = str(record.permissions)
    return payload


def role(record: RoleRecord) -> dict[str, Any]:
    """A role object."""
    return {
        "id": str(record.id),
        "name": record.name,
        "permissions": str(record.permissions),
        "position": record.position,
        "color": 0,
        "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
        "hoist": False,
        "managed": record.managed,
        "mentionable": False,
        "icon": None,
        "unicode_emoji": None,
        "flags": 0,
    }


def channel(record: ChannelRecord) -> dict[str, Any]:
    """A guild text channel or thread object."""
    if record.guild_id is None:
        raise ValueError(f"channel {record.id} is private: see private_channel()")
    payload: dict[str, Any] = {
        "id": str(record.id),
        "type": record.type,
        "guild_id": str(record.guild_id),
        "name": record.name,
        "position": record.position,
        "permission_overwrites": [],
        "parent_id": str(record.parent_id) if record.parent_id else None,
        "topic": None,
        "nsfw": False,
        "last_message_id": None,
        "rate_limit_per_user": 0,
        "flags": 0,
    }
    if record.is_thread:
        payload.update(_thread_fields(record))
    return payload


def private_channel(world: World, record: ChannelRecord) -> dict[str, Any]:
    """A DM or group DM object as the app sees it: its recipients are everyone in it
    but the bot (``PrivateChannelResponse``, ``PrivateGroupChannelResponse``)."""
    shown = world.public_messages(record.id)
    payload: dict[str, Any] = {
        "id": str(record.id),
        "type": record.type,
        "last_message_id": str(shown[-1].id) if shown else None,
        "flags": 0,
        "recipients": [user(world.users[u]) for u in record.recipients if u != world.bot.id],
    }
    if record.type == GROUP_DM:
        payload.update(name=record.name or None, icon=None, owner_id=str(record.owner_id))
    return payload


def any_channel(world: World, record: ChannelRecord) -> dict[str, Any]:
    """The channel object of a guild channel, thread, DM or group DM."""
    return private_channel(world, record) if record.is_private else channel(record)


def _thread_fields(record: ChannelRecord) -> dict[str, Any]:
    return {
        "owner_id": str(record.owner_id) if record.owner_id else None,
        "member_count": 1,
        "message_count": 0,
        "total_message_sent": 0,
        "thread_metadata": {
            "archived": False,
            "auto_archive_duration": 1440,
            "archive_timestamp": iso_now(),
            "locked": False,
            "invitable": True,
        },
    }


def guild(world: World, record: GuildRecord) -> dict[str, Any]:
    """A complete GUILD_CREATE payload: roles, channels, threads, members."""
    channels = [world.channels[c] for c in record.channel_ids]
    members = world.guild_members(record.id)
    return {
        "id": str(record.id),
        "name": record.name,
        "icon": None,
        "owner_id": str(world.owner.id),
        "unavailable": False,
        "large": False,
        "member_count": len(members),
        "roles": [role(r) for r in record.roles],
        "emojis": [],
        "stickers": [],
        "features": [],
        "channels": [channel(c) for c in channels if not c.is_thread],
        "threads": [channel(c) for c in channels if c.is_thread],
        "members": [member(m) for m in members],
        "presences": [],
        "voice_states": [],
        "stage_instances": [],
        "guild_scheduled_events": [],
        "soundboard_sounds": [],
        "joined_at": iso_now(),
        "preferred_locale": record.locale,
        "verification_level": 0,
        "default_message_notifications": 0,
        "explicit_content_filter": 0,
        "mfa_level": 0,
        "nsfw_level": 0,
        "premium_tier": 0,
        "system_channel_flags": 0,
    }


def attachment(record: StoredAttachment) -> dict[str, Any]:
    """An attachment object; images also report their size in pixels."""
    payload: dict[str, Any] = {
        "id": str(record.id),
        "filename": record.filename,
        "size": len(record.data),
        "url": record.url,
        "proxy_url": record.url,
        "content_type": record.content_type,
    }
    if record.description:
        payload["description"] = record.description
    if record.content_type and record.content_type.startswith("image/"):
        try:
            width, height = record.image().size
        except (OSError, ValueError):
            return payload
        payload.update(width=width, height=height)
    return payload


RESPONSE_DEFAULTS: dict[int, dict[str, Any]] = {
    17: {"accent_color": None, "spoiler": False},  # container
    14: {"spacing": 1, "divider": True},  # separator
    11: {"description": None, "spoiler": False},  # thumbnail
}
"""The fields Discord fills in on a layout component it returns, where a request may
leave them out."""


def resolved(record: StoredMessage) -> list[dict[str, Any]]:
    """The message's components as Discord returns them: a card's fields filled in, its
    ``attachment://`` media as the file they name (its id, address and size)."""
    if not record.layout:
        return record.components
    files = {f"attachment://{a.filename}": attachment(a) for a in record.attachments}
    components = copy.deepcopy(record.components)
    for component in every_component(components):
        for key, value in RESPONSE_DEFAULTS.get(component.get("type", 0), {}).items():
            component.setdefault(key, value)
        items = component.get("items") or []
        for item in items:
            item.setdefault("description", None)
            item.setdefault("spoiler", False)
        for item in [component, *items]:
            media = item.get("media")
            if isinstance(media, dict) and media.get("url") in files:
                media.update(unfurled(files[media["url"]]))
    return components


def unfurled(file: dict[str, Any]) -> dict[str, Any]:
    """An attached file as a card's media names it once Discord has resolved it."""
    fields = ("url", "proxy_url", "width", "height", "content_type")
    return {"id": file["id"], "attachment_id": file["id"]} | {
        key: file[key] for key in fields if key in file
    }


def message(world: World, record: StoredMessage) -> dict[str, Any]:
    """A message object as REST and the gateway return it."""
    payload: dict[str, Any] = {
        "id": str(record.id),
        "channel_id": str(record.channel_id),
        "type": record.type,
        "author": user(record.author),
        "content": "" if record.layout else record.content,
        "timestamp": record.timestamp,
        "edited_timestamp": record.edited_timestamp,
        "tts": False,
        "mention_everyone": False,
        "mentions": [],
        "mention_roles": [],
        "attachments": [attachment(a) for a in record.attachments],
        "embeds": record.embeds,
        "components": resolved(record),
        "pinned": False,
        "flags": record.flags,
    }
    if record.guild_id is not None:
        payload["guild_id"] = str(record.guild_id)
    if record.webhook_id is not None:
        payload["webhook_id"] = str(record.webhook_id)
        payload["application_id"] = str(world.application_id)
    if record.interaction_id is not None:
        payload["interaction_metadata"] = _interaction_metadata(world, record.interaction_id)
    return payload


def _interaction_metadata(world: World, interaction_id: int) -> dict[str, Any]:
    record = world.interactions[interaction_id]
    metadata: dict[str, Any] = {
        "id": str(record.id),
        "type": record.type,
        "user": user(world.users[record.user_id]),
        "authorizing_integration_owners": dict(record.owners),
    }
    if record.type == 2:
        metadata["name"] = record.data.get("name")
    if record.message_id is not None:
        metadata["interacted_message_id"] = str(record.message_id)
    return metadata


def application(world: World) -> dict[str, Any]:
    """GET /oauth2/applications/@me."""
    return {
        "id": str(world.application_id),
        "name": world.bot.name,
        "description": "A local stand-in application",
        "icon": None,
        "type": None,
        "bot_public": True,
        "bot_require_code_grant": False,
        "owner": user(world.owner),
        "team": None,
        "verify_key": "0" * 64,
        "flags": 0,
        "flags_new": "0",
        "bot": user(world.bot),
        "redirect_uris": [],
        "interactions_endpoint_url": None,
        "role_connections_verification_url": None,
        "explicit_content_filter": 0,
        "eligible_oauth2_scopes": [],
        "approximate_guild_count": len(world.bot_guilds()),
        "approximate_user_install_count": len(world.user_installs),
        "approximate_user_authorization_count": len(world.user_installs),
        "integration_types_config": {
            str(kind): _install_config(kind) for kind in sorted(world.install_types)
        },
    }


def _install_config(kind: int) -> dict[str, Any]:
    """The default install link's scopes and bot permissions for one installation type."""
    if kind == GUILD_INSTALL:
        params = {"scopes": ["applications.commands", "bot"], "permissions": str(int(BOT_DEFAULT))}
    elif kind == USER_INSTALL:
        params = {"scopes": ["applications.commands"], "permissions": "0"}
    else:
        raise ValueError(f"unknown installation type {kind}")
    return {"oauth2_install_params": params}
