"""The command tree's guard at unit level: options discord.py cannot read are refused
by the tree's public check, as an error ``on_error`` answers; readable ones go on to
the check the tree had."""

from __future__ import annotations

from typing import Any

import discord
import pytest
from discord import app_commands

from bot.cogs.discord_private import interaction_of
from bot.cogs.fallback import USER_ERRORS, MalformedCommand, guard_parsing

ANA = 101


def command(value: object) -> dict[str, Any]:
    """``/probe user:<value>`` as the gateway delivers it, Ana resolved as a user."""
    user = {"id": str(ANA), "username": "ana", "discriminator": "0", "avatar": None}
    return {
        "id": "1",
        "application_id": "2",
        "type": 2,
        "token": "token",
        "version": 1,
        "locale": "en-US",
        "channel_id": "3",
        "attachment_size_limit": 10_485_760,
        "app_permissions": "0",
        "authorizing_integration_owners": {"1": str(ANA)},
        "context": 1,
        "user": user,
        "data": {
            "id": "4",
            "name": "probe",
            "type": 1,
            "options": [{"name": "user", "type": 6, "value": value}],
            "resolved": {"users": {str(ANA): user}},
        },
    }


class Tree(app_commands.CommandTree[discord.Client]):
    """A tree whose own check notes the interactions it let through."""

    def __init__(self, client: discord.Client) -> None:
        super().__init__(client)
        self.checked: list[int] = []

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        self.checked.append(interaction.id)
        return True


@pytest.fixture
def tree() -> Tree:
    """A tree with ``/probe``, guarded."""
    tree = Tree(discord.Client(intents=discord.Intents(guilds=True)))

    @tree.command(description="A probe")
    async def probe(interaction: discord.Interaction, user: discord.User) -> None:
        pass

    guard_parsing(tree)
    return tree


@pytest.mark.parametrize("value", ["", "ana", None, ["101"]])
async def test_an_option_discord_py_cannot_read_is_a_user_error(tree: Tree, value: object) -> None:
    interaction = interaction_of(tree.client, command(value))
    with pytest.raises(MalformedCommand) as refused:
        await tree.interaction_check(interaction)
    assert isinstance(refused.value, app_commands.AppCommandError)  # on_error gets it
    assert isinstance(refused.value, USER_ERRORS)  # logged without a traceback
    assert tree.checked == []


async def test_readable_options_go_on_to_the_tree_s_check(tree: Tree) -> None:
    interaction = interaction_of(tree.client, command(str(ANA)))
    assert await tree.interaction_check(interaction)
    assert tree.checked == [1]
    assert interaction.namespace.user.id == ANA
