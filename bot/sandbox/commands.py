"""Turn ``/name sub option:value`` into the ``data`` of an application command interaction.

Names are resolved against the commands the bot registered, so a wrong command,
subcommand, option or choice fails loudly in the test instead of silently at Discord.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from . import contexts, payloads
from .permissions import allows
from .records import ChannelRecord, MemberRecord, UserRecord
from .world import World

SUBCOMMAND, GROUP = 1, 2
STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER = 3, 4, 5, 6, 7, 8, 9, 10


class NotOffered(LookupError):
    """Discord's client does not offer the command here (its contexts or installation
    types leave this place out), so no member can use it here."""


def registered(world: World, guild_id: int | None) -> list[dict[str, Any]]:
    """Slash commands of a guild (guild commands shadow global ones); without a guild,
    the global ones."""
    found: dict[str, dict[str, Any]] = {}
    scoped = world.commands.get(guild_id, []) if guild_id is not None else []
    for command in scoped + world.commands.get(None, []):
        if command.get("type", 1) == 1:
            found.setdefault(command["name"], command)
    return list(found.values())


def command_data(
    world: World,
    who: MemberRecord | UserRecord,
    path: Sequence[str],
    values: Mapping[str, Any],
    channel: ChannelRecord | None = None,
) -> dict[str, Any]:
    """The interaction ``data`` for ``/path[0] path[1:] **values`` used by ``who`` in
    ``channel`` (by default: the first channel of the guild of ``who``, a membership)."""
    if not path:
        raise ValueError("name the command, e.g. slash('qwixx', 'start')")
    channel = channel or _first_channel(world, who)
    user = who.user if isinstance(who, MemberRecord) else who
    member = contexts.membership(world, user, channel)
    command = _top(world, user, member, path[0], channel)
    node, chain = command, []
    for name in path[1:]:
        node = _child(node, name)
        chain.append(node)
    if any(o.get("type") in (SUBCOMMAND, GROUP) for o in node.get("options") or []):
        names = [o["name"] for o in node["options"]]
        raise LookupError(f"/{' '.join(path)} needs a subcommand: {names}")
    resolved: dict[str, dict[str, Any]] = {}
    options = _values(node, values, resolved)
    if member is not None:
        allowed = payloads.member(member, with_permissions=True)["permissions"]
        for option in resolved.get("channels", {}).values():  # as Discord resolves them:
            option["permissions"] = allowed  # with what the member may do there
    for parent in reversed(chain):
        options = [{"name": parent["name"], "type": parent["type"], "options": options}]
    data: dict[str, Any] = {
        "id": command["id"],
        "name": command["name"],
        "type": 1,
        "options": options,
    }
    if command.get("guild_id"):
        data["guild_id"] = command["guild_id"]
    if resolved:
        data["resolved"] = resolved
    return data


def _first_channel(world: World, who: MemberRecord | UserRecord) -> ChannelRecord:
    if not isinstance(who, MemberRecord):
        raise ValueError(f"say where {who.name} uses the command (a channel)")
    return world.channels[world.guilds[who.guild_id].channel_ids[0]]


def _top(
    world: World,
    user: UserRecord,
    member: MemberRecord | None,
    name: str,
    channel: ChannelRecord,
) -> dict[str, Any]:
    commands = registered(world, channel.guild_id)
    command = next((c for c in commands if c["name"] == name), None)
    if command is None:
        raise LookupError(f"/{name} is not registered; registered: {[c['name'] for c in commands]}")
    why = contexts.not_offered(world, command, user.id, channel)
    if why is not None:
        raise NotOffered(f"Discord does not offer /{name} to {user.name} here: {why}")
    needed = command.get("default_member_permissions")
    if member is None or needed is None or not world.bot_sees(channel):
        return command  # the permissions gate a server's own install, in the server
    if not allows(member.permissions, int(needed)):
        raise PermissionError(f"{user.name} lacks permissions {needed} for /{name}")
    return command


def _child(node: dict[str, Any], name: str) -> dict[str, Any]:
    subs: list[dict[str, Any]] = [
        o for o in node.get("options") or [] if o.get("type") in (SUBCOMMAND, GROUP)
    ]
    found = next((o for o in subs if o["name"] == name), None)
    if found is None:
        raise LookupError(
            f"no subcommand {name!r} under {node['name']!r}; have {[o['name'] for o in subs]}"
        )
    return found


def _values(
    node: dict[str, Any], values: Mapping[str, Any], resolved: dict[str, dict[str, Any]]
) -> list[dict[str, Any]]:
    declared = {o["name"]: o for o in node.get("options") or []}
    unknown = set(values) - set(declared)
    if unknown:
        raise LookupError(
            f"unknown options {sorted(unknown)} for {node['name']!r}; have {sorted(declared)}"
        )
    missing = [n for n, o in declared.items() if o.get("required") and n not in values]
    if missing:
        raise ValueError(f"missing required options {missing} for {node['name']!r}")
    return [
        {
            "name": name,
            "type": declared[name]["type"],
            "value": _convert(declared[name], value, resolved),
        }
        for name, value in values.items()
    ]


def _convert(option: dict[str, Any], value: Any, resolved: dict[str, dict[str, Any]]) -> Any:
    kind = option["type"]
    if kind in (USER, MENTIONABLE) and isinstance(value, MemberRecord):
        return _resolve_member(value, resolved)
    if kind == CHANNEL and isinstance(value, ChannelRecord):
        resolved.setdefault("channels", {})[str(value.id)] = payloads.channel(value)
        return str(value.id)
    if kind in (USER, CHANNEL, ROLE, MENTIONABLE):
        return str(int(value))
    converted = _scalar(kind, value, option["name"])
    choices = option.get("choices")
    if choices and converted not in [c["value"] for c in choices]:
        raise ValueError(
            f"{converted!r} is not a choice of {option['name']!r}: {[c['value'] for c in choices]}"
        )
    return converted


def _scalar(kind: int, value: Any, name: str) -> Any:
    if kind == STRING and isinstance(value, str):
        return value
    if kind == INTEGER and isinstance(value, int) and not isinstance(value, bool):
        return value
    if kind == NUMBER and isinstance(value, int | float) and not isinstance(value, bool):
        return value
    if kind == BOOLEAN and isinstance(value, bool):
        return value
    raise TypeError(f"option {name!r} (type {kind}) cannot take {value!r}")


def _resolve_member(member: MemberRecord, resolved: dict[str, dict[str, Any]]) -> str:
    key = str(member.user.id)
    resolved.setdefault("users", {})[key] = payloads.user(member.user)
    member_payload = payloads.member(member, with_permissions=True)
    member_payload.pop("user")
    resolved.setdefault("members", {})[key] = member_payload
    return key
