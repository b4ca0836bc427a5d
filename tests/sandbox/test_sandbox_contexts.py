"""Discord's rules on where the app is installed and used, on their own."""

from typing import Any

import pytest

from bot.sandbox import Perm, contexts
from bot.sandbox.clock import SandboxClock
from bot.sandbox.permissions import MEMBER_DEFAULT
from bot.sandbox.records import BOT_DM, GUILD, PRIVATE_CHANNEL, ChannelRecord
from bot.sandbox.world import World


class Place:
    """A guild with the bot, one without, Ana in both, Dan only in the second."""

    def __init__(self) -> None:
        self.world = World(SandboxClock())
        self.home = self.world.add_guild("Home", ["general"])
        self.away = self.world.add_guild("Away", ["general"], with_bot=False)
        self.ana = self.world.add_member(self.home.id, "Ana")
        self.world.add_member(self.away.id, "Ana", user=self.ana.user)
        self.dan = self.world.add_member(self.away.id, "Dan")

    def channel(self, guild_id: int) -> ChannelRecord:
        return self.world.channels[self.world.guilds[guild_id].channel_ids[0]]

    def dm(self, user_id: int) -> ChannelRecord:
        return self.world.open_dm(user_id, self.world.bot.id)


@pytest.fixture
def place() -> Place:
    return Place()


def test_the_context_is_where_the_channel_is(place: Place) -> None:
    world, ana, dan = place.world, place.ana.user.id, place.dan.user.id

    assert contexts.context_of(world, place.channel(place.away.id)) == GUILD
    assert contexts.context_of(world, place.dm(ana)) == BOT_DM
    assert contexts.context_of(world, world.open_dm(ana, dan)) == PRIVATE_CHANNEL
    assert contexts.context_of(world, world.add_group_dm([ana, dan])) == PRIVATE_CHANNEL


def test_owners_are_the_installations_that_reach_the_place(place: Place) -> None:
    world, ana, dan = place.world, place.ana.user.id, place.dan.user.id
    home, away = place.channel(place.home.id), place.channel(place.away.id)

    assert contexts.owners(world, ana, home) == {"0": str(place.home.id)}
    assert contexts.owners(world, ana, away) == {}
    assert contexts.owners(world, ana, place.dm(ana)) == {"0": "0"}
    assert contexts.owners(world, dan, place.dm(dan)) == {}  # no server shared with the bot
    world.user_installs |= {ana, dan}
    assert contexts.owners(world, ana, away) == {"1": str(ana)}
    assert contexts.owners(world, ana, home) == {"0": str(place.home.id), "1": str(ana)}
    assert contexts.owners(world, dan, place.dm(dan)) == {"1": str(dan)}
    assert contexts.owners(world, ana, home, (0,)) == {"0": str(place.home.id)}
    world.install_types = {0}  # the app no longer supports user installs
    assert contexts.owners(world, ana, away) == {}


def test_app_permissions_depend_on_the_place(place: Place) -> None:
    world, ana = place.world, place.ana.user.id
    bot = world.members[(place.home.id, world.bot.id)]

    assert contexts.app_permissions(world, place.ana, place.channel(place.home.id)) == (
        bot.permissions
    )
    assert contexts.app_permissions(world, None, place.dm(ana)) == 442368
    assert (
        contexts.app_permissions(world, None, world.add_group_dm([ana, place.dan.user.id]))
        == 180224
    )
    away = contexts.app_permissions(world, place.dan, place.channel(place.away.id))
    assert away == int(MEMBER_DEFAULT) & int(
        Perm.ATTACH_FILES | Perm.EMBED_LINKS | Perm.MENTION_EVERYONE | Perm.USE_EXTERNAL_EMOJIS
    )


def test_only_a_user_install_without_use_external_apps_forces_ephemeral(place: Place) -> None:
    assert not contexts.forced_ephemeral(place.dan, {"1": "5"})
    place.dan.permissions &= ~int(Perm.USE_EXTERNAL_APPS)
    assert contexts.forced_ephemeral(place.dan, {"1": "5"})
    assert not contexts.forced_ephemeral(place.dan, {"0": "7", "1": "5"})
    assert not contexts.forced_ephemeral(None, {"1": "5"})


@pytest.mark.parametrize(
    ("command", "usable"),
    [
        ({"contexts": None}, [0, 1, 2]),
        ({"contexts": None, "dm_permission": False}, [0, 2]),
        ({"contexts": [1], "dm_permission": False}, [1]),
    ],
)
def test_unset_contexts_are_every_context_but_dm_permission(
    command: dict[str, Any], usable: list[int]
) -> None:
    assert contexts.usable_contexts(command) == usable


def test_synced_commands_default_to_the_installations_they_can_have() -> None:
    supported = {0, 1}

    assert contexts.declared({}, True, supported) == {"contexts": None, "integration_types": [0]}
    assert contexts.declared({}, False, supported)["integration_types"] == [0, 1]
    declared = contexts.declared({"contexts": [1], "integration_types": [1]}, False, supported)
    assert declared == {"contexts": [1], "integration_types": [1]}


def test_a_command_is_offered_where_it_is_declared_and_installed(place: Place) -> None:
    world, ana = place.world, place.ana.user.id
    home, away = place.channel(place.home.id), place.channel(place.away.id)
    scoped = {"guild_id": str(place.home.id), "contexts": None, "integration_types": [0]}
    servers = {"contexts": [0], "integration_types": [0, 1]}

    assert contexts.not_offered(world, scoped, ana, home) is None
    assert "of guild" in (contexts.not_offered(world, scoped, ana, place.dm(ana)) or "")
    assert contexts.not_offered(world, servers, ana, home) is None
    assert "declares contexts [0]" in (
        contexts.not_offered(world, servers, ana, place.dm(ana)) or ""
    )
    assert "installation types" in (contexts.not_offered(world, servers, ana, away) or "")
    world.user_installs.add(ana)
    assert contexts.not_offered(world, servers, ana, away) is None
