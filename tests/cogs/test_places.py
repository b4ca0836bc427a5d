"""Where the commands work: ``/qwixx`` is offered everywhere and through both installs,
and the subcommands that need a server with the bot say so themselves."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.cogs.places import server_only
from bot.cogs.qwixx import QwixxCog

ANYWHERE = {"daily", "practice", "stats", "rules", "privacy", "forget-me"}


def qwixx() -> app_commands.Group:
    return QwixxCog(None).__cog_app_commands_group__  # type: ignore[arg-type, return-value]


def leaves(group: app_commands.Group) -> list[app_commands.Command[Any, Any, Any]]:
    found: list[app_commands.Command[Any, Any, Any]] = []
    for child in group.commands:
        if isinstance(child, app_commands.Group):
            found += leaves(child)
        else:
            found.append(child)
    return found


def test_the_group_is_offered_everywhere_through_both_installs() -> None:
    tree = app_commands.CommandTree(discord.Client(intents=discord.Intents.none()))
    declared = qwixx().to_dict(tree)
    assert (declared["contexts"], declared["integration_types"]) == ([0, 1, 2], [0, 1])


def test_what_needs_a_server_says_so_and_the_rest_works_anywhere() -> None:
    commands = leaves(qwixx())
    anywhere = {c.qualified_name.removeprefix("qwixx ") for c in commands if not server_only(c)}
    assert anywhere == ANYWHERE
    tournament = [c for c in commands if c.parent and c.parent.name == "tournament"]
    assert tournament and all(server_only(c) for c in tournament)  # by their group
    assert {"start", "settings", "leaderboard", "history", "mygames"} <= {
        c.name for c in commands if server_only(c)
    }
