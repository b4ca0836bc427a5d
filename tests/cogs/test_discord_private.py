"""discord.py's private parts the bot relies on (:mod:`bot.cogs.discord_private`): one
test per part, each checking on the installed discord.py that the part is there and
does what the bot expects of it, and that ``pyproject.toml`` allows exactly the minor
versions they were checked on.

To check another version, install it beside the bot and run this module against it::

    .venv/bin/pip install --no-deps --target /tmp/dpy 'discord.py==2.6.2'
    PYTHONPATH=/tmp/dpy .venv/bin/python -m pytest tests/cogs/test_discord_private.py
"""

from __future__ import annotations

import asyncio
import inspect
import re
import sys
import tomllib
from collections.abc import AsyncIterator
from importlib import metadata
from pathlib import Path
from typing import Any

import discord
import discord.gateway
import discord.http
import pytest
import yarl
from discord.ext import commands
from packaging.requirements import Requirement
from packaging.version import Version

from bot.cogs import discord_private
from bot.cogs.discord_private import (
    TESTED_ON,
    Parser,
    aimed_at,
    front_interactions,
    hasten_ready,
    interaction_of,
    tasks_started,
    template_of,
)
from bot.sandbox import Sandbox

ROOT = Path(__file__).resolve().parents[2]


class Tap(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"probe:tap"):
    """A restart-proof button whose callback notes the task it runs in."""

    def __init__(self) -> None:
        super().__init__(discord.ui.Button(label="Tap", custom_id="probe:tap"))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Tap:
        return cls()

    async def callback(self, interaction: discord.Interaction) -> None:
        assert isinstance(interaction.client, Probe)
        interaction.client.note("tap")
        await interaction.response.send_message("tapped", ephemeral=True)


class Probe(commands.Bot):
    """A bot with one command, one button and a listener, each noting the task it ran in."""

    def __init__(self) -> None:
        super().__init__(command_prefix="!", intents=discord.Intents(guilds=True))
        self.ran: list[tuple[str, asyncio.Task[Any] | None]] = []

        @self.tree.command(description="A probe")
        async def probe(interaction: discord.Interaction) -> None:
            self.note("probe")
            view = discord.ui.View(timeout=None).add_item(Tap())
            await interaction.response.send_message("probed", view=view)

    async def setup_hook(self) -> None:
        self.add_dynamic_items(Tap)
        await self.tree.sync()

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        self.note("listener")

    def note(self, what: str) -> None:
        """Note that ``what`` ran, and the task it ran in."""
        self.ran.append((what, asyncio.current_task()))


@pytest.fixture
async def sb() -> AsyncIterator[Sandbox]:
    async with Sandbox(members=["Ana"]) as sandbox:
        yield sandbox


async def test_front_interactions_sees_each_interaction_before_discord_py_handles_it(
    sb: Sandbox,
) -> None:
    bot = Probe()
    seen: list[tuple[int, list[str]]] = []

    def front(parse: Parser) -> Parser:
        def receive(data: dict[str, Any]) -> None:
            seen.append((data["type"], [what for what, _ in bot.ran]))
            parse(data)

        return receive

    front_interactions(bot, front)
    with pytest.raises(RuntimeError, match="already have a front"):
        front_interactions(bot, front)  # a second front would depend on the order
    await sb.run_bot(bot)
    ana = sb.member("Ana")
    probed = await ana.slash("probe")
    assert probed.message.content == "probed"
    tapped = await ana.click(probed.message, label="Tap")
    assert tapped.message.content == "tapped"
    command, component = 2, 3
    assert seen == [(command, []), (component, ["probe", "listener"])]
    assert sorted(what for what, _ in bot.ran) == ["listener", "listener", "probe", "tap"]


async def test_tasks_started_are_the_whole_handling_of_an_interaction(sb: Sandbox) -> None:
    """discord.py starts the command, the button's callback and the listeners as tasks
    before its parser returns: a stopping bot that waits for these waits for them all."""
    bot = Probe()
    caught: list[asyncio.Future[Any]] = []

    def front(parse: Parser) -> Parser:
        return lambda data: caught.extend(tasks_started(parse, data))

    front_interactions(bot, front)
    await sb.run_bot(bot)
    ana = sb.member("Ana")
    probed = await ana.slash("probe")
    await ana.click(probed.message, label="Tap")
    await asyncio.wait(caught)
    assert len(bot.ran) == 4
    assert all(task in caught for _, task in bot.ran)
    # a task factory set before is kept, and is what makes the tasks
    loop = asyncio.get_running_loop()
    made: list[asyncio.Task[Any]] = []

    def factory(loop: asyncio.AbstractEventLoop, coro: Any, **kwargs: Any) -> Any:
        made.append(asyncio.Task(coro, loop=loop, **kwargs))
        return made[-1]

    loop.set_task_factory(factory)
    try:
        await ana.slash("probe")
    finally:
        loop.set_task_factory(None)
    assert len(bot.ran) == 6 and all(task in caught for _, task in bot.ran)
    assert all(task in made for _, task in bot.ran[4:])


async def test_interaction_of_answers_what_discord_py_never_saw(sb: Sandbox) -> None:
    bot = Probe()
    made: list[discord.Interaction] = []
    answers: set[asyncio.Task[None]] = set()

    async def answer(data: dict[str, Any]) -> None:
        interaction = interaction_of(bot, data)
        made.append(interaction)
        await interaction.response.send_message("held at the door", ephemeral=True)

    def front(parse: Parser) -> Parser:
        def receive(data: dict[str, Any]) -> None:
            task = asyncio.get_running_loop().create_task(answer(data))
            answers.add(task)
            task.add_done_callback(answers.discard)

        return receive

    front_interactions(bot, front)
    await sb.run_bot(bot)
    ana = sb.member("Ana")
    held = await ana.slash("probe")
    assert held.failed is None and held.message.ephemeral
    assert held.message.content == "held at the door"
    assert bot.ran == []  # discord.py never saw it
    (interaction,) = made
    assert interaction.client is bot and interaction.user.id == ana.id
    assert interaction.type is discord.InteractionType.application_command
    assert (interaction.id, interaction.token) == (held.interaction.id, held.interaction.token)


def test_template_of_is_the_pattern_discord_py_matches_clicks_with() -> None:
    pattern = template_of(Tap)
    assert pattern is Tap().template  # the public one, which needs an instance
    assert pattern.fullmatch("probe:tap") and not pattern.fullmatch("probe:tapx")


def test_hasten_ready_sets_what_the_constructor_s_option_sets() -> None:
    made = discord.Client(intents=discord.Intents.none())
    hasten_ready(made, 0.05)
    told = discord.Client(intents=discord.Intents.none(), guild_ready_timeout=0.05)
    assert made._connection.guild_ready_timeout == told._connection.guild_ready_timeout == 0.05


def test_aimed_at_sends_rest_calls_and_the_gateway_there_and_back() -> None:
    rest, gateway = "http://127.0.0.1:9/api/v10", "ws://127.0.0.1:9/gateway"
    before = discord.http.Route("GET", "/gateway").url
    with aimed_at(rest, gateway):
        assert discord.http.Route("GET", "/gateway").url == rest + "/gateway"
        assert yarl.URL(gateway) == discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    assert discord.http.Route("GET", "/gateway").url == before
    assert yarl.URL(gateway) != discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY


def test_each_part_has_its_test() -> None:
    parts = {
        name
        for name, function in inspect.getmembers(discord_private, inspect.isfunction)
        if function.__module__ == discord_private.__name__ and not name.startswith("_")
    }
    assert len(parts) >= 6
    tests = [name for name in vars(sys.modules[__name__]) if name.startswith("test_")]
    assert {p for p in parts if not any(t.startswith(f"test_{p}_") for t in tests)} == set()


def _minor(version: Version) -> tuple[int, int]:
    return version.major, version.minor


def test_pyproject_allows_the_minor_versions_checked_and_no_other() -> None:
    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    (requirement,) = [
        r for r in map(Requirement, data["project"]["dependencies"]) if r.name == "discord.py"
    ]
    checked = sorted(Version(v) for v in TESTED_ON)
    minors = sorted({_minor(v) for v in checked})
    low, high = minors[0], minors[-1]
    assert minors == [(low[0], n) for n in range(low[1], high[1] + 1)], "a minor left out"
    bounds = {(s.operator, Version(s.version)) for s in requirement.specifier}
    assert bounds == {(">=", checked[0]), ("<", Version(f"{high[0]}.{high[1] + 1}"))}, (
        f"pyproject.toml allows discord.py{requirement.specifier}; checked on {TESTED_ON}"
    )
    installed = Version(metadata.version("discord.py"))
    assert requirement.specifier.contains(installed), (
        f"discord.py {installed} is installed; pyproject.toml allows {requirement.specifier}"
    )
