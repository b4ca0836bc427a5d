"""A throwaway discord.py bot exercising every kind of reply the sandbox supports."""

from __future__ import annotations

import asyncio
import io
import re

import discord
from discord import app_commands
from discord.ext import commands
from PIL import Image


def png_bytes(size: tuple[int, int] = (8, 6)) -> bytes:
    """A small red PNG."""
    buffer = io.BytesIO()
    Image.new("RGB", size, (200, 30, 30)).save(buffer, format="PNG")
    return buffer.getvalue()


def png_file(name: str = "dot.png") -> discord.File:
    """The PNG as a discord.py upload."""
    return discord.File(io.BytesIO(png_bytes()), filename=name)


class Counter(discord.ui.DynamicItem[discord.ui.Button], template=r"demo:count:(?P<n>\d+)"):
    """A restart-proof button whose custom_id carries its state."""

    def __init__(self, n: int) -> None:
        super().__init__(discord.ui.Button(label=f"Count {n}", custom_id=f"demo:count:{n}"))
        self.n = n

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> Counter:
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        view = discord.ui.View(timeout=None).add_item(Counter(self.n + 1))
        await interaction.response.send_message(f"count is {self.n}", view=view, ephemeral=True)


class PickView(discord.ui.View):
    """A select that rewrites its own message."""

    @discord.ui.select(
        custom_id="demo:pick",
        placeholder="Pick a colour",
        options=[discord.SelectOption(label=c, value=c) for c in "rgb"],
    )
    async def pick(self, interaction: discord.Interaction, select: discord.ui.Select) -> None:
        await interaction.response.edit_message(content=f"picked {select.values[0]}", view=None)


def demo_group(bot: DemoBot) -> app_commands.Group:
    """``/demo …`` commands exercising each kind of reply."""
    demo = app_commands.Group(name="demo", description="Sandbox demo commands")

    @demo.command(description="Start something")
    @app_commands.choices(
        variant=[app_commands.Choice(name=v, value=v) for v in ("classic", "longo")]
    )
    async def start(
        interaction: discord.Interaction, variant: app_commands.Choice[str], rounds: int = 3
    ) -> None:
        view = discord.ui.View(timeout=None).add_item(Counter(1))
        await interaction.response.send_message(f"Started {variant.value} x{rounds}", view=view)

    @demo.command(description="An ephemeral reply")
    async def secret(interaction: discord.Interaction) -> None:
        bot.last_interaction = interaction
        await interaction.response.send_message("only you", ephemeral=True)

    @demo.command(description="An ephemeral reply with a file")
    async def card(interaction: discord.Interaction) -> None:
        await interaction.response.send_message(
            "your card", file=png_file("card.png"), ephemeral=True
        )

    @demo.command(description="Deferred reply with an image")
    async def picture(interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True)
        await interaction.followup.send("here", file=png_file())

    @demo.command(description="Reply, then edit the reply")
    async def edit(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("draft")
        await interaction.edit_original_response(content="final", attachments=[png_file("e.png")])

    @demo.command(description="Reply and post with the bot token")
    async def announce(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("announcing", ephemeral=True)
        assert isinstance(interaction.channel, discord.TextChannel)
        await interaction.channel.send("Hello channel", file=png_file("board.png"))
        await interaction.followup.send("done", ephemeral=True)

    @demo.command(description="A select menu")
    async def pick(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("Pick one", view=PickView())

    @demo.command(description="A thread")
    async def thread(interaction: discord.Interaction) -> None:
        await interaction.response.defer()
        assert isinstance(interaction.channel, discord.TextChannel)
        thread = await interaction.channel.create_thread(
            name="game-1", type=discord.ChannelType.public_thread
        )
        await thread.send("in the thread")
        await interaction.followup.send(f"thread {thread.id}")

    @demo.command(description="Answers only when released")
    async def slow(interaction: discord.Interaction) -> None:
        bot.started.set()
        await bot.release.wait()
        try:
            await interaction.response.send_message("too late")
        except discord.HTTPException as error:
            bot.errors.append(error)

    return demo


def admin_group() -> app_commands.Group:
    """``/admin reset``, usable only with Manage Channels, in servers only."""
    admin = app_commands.Group(
        name="admin",
        description="Moderation",
        default_permissions=discord.Permissions(manage_channels=True),
        allowed_contexts=app_commands.AppCommandContext(guild=True),
    )

    @admin.command(description="Reset")
    async def reset(interaction: discord.Interaction) -> None:
        allowed = interaction.permissions.manage_channels
        await interaction.response.send_message(f"reset by mod={allowed}", ephemeral=True)

    return admin


def solo_group(bot: DemoBot) -> app_commands.Group:
    """``/solo …``: declared for every context and both installation types, as a game
    played alone is (a daily challenge, practice)."""
    solo = app_commands.Group(
        name="solo",
        description="Play alone, anywhere",
        allowed_contexts=app_commands.AppCommandContext(
            guild=True, dm_channel=True, private_channel=True
        ),
        allowed_installs=app_commands.AppInstallationType(guild=True, user=True),
    )

    @solo.command(description="A public answer with a button")
    async def play(interaction: discord.Interaction) -> None:
        bot.last_interaction = interaction
        view = discord.ui.View(timeout=None).add_item(Counter(1))
        await interaction.response.send_message(f"solo for {interaction.user.name}", view=view)

    @solo.command(description="An answer and some follow-ups")
    async def many(interaction: discord.Interaction, count: int) -> None:
        bot.last_interaction = interaction
        await interaction.response.send_message("first", ephemeral=True)
        for n in range(count):
            try:
                await interaction.followup.send(f"follow-up {n + 1}", ephemeral=True)
            except discord.HTTPException as error:
                bot.errors.append(error)
                return

    @solo.command(description="An answer, then a post with the bot token")
    async def post(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("posting", ephemeral=True)
        assert interaction.channel is not None and not isinstance(
            interaction.channel, discord.ForumChannel | discord.CategoryChannel
        )
        try:
            await interaction.channel.send("posted with the bot token")
        except discord.HTTPException as error:
            bot.errors.append(error)
            await interaction.followup.send(f"could not post ({error.code})", ephemeral=True)

    @solo.command(description="A private answer, then a direct message with a file")
    async def dm(interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        view = discord.ui.View(timeout=None).add_item(Counter(1))
        try:
            bot.last_dm = await interaction.user.send("your sheet", file=png_file(), view=view)
        except discord.Forbidden as error:
            bot.errors.append(error)
            await interaction.followup.send("your DMs are closed", ephemeral=True)
            return
        await interaction.followup.send("sent you a DM", ephemeral=True)

    return solo


class DemoBot(commands.Bot):
    """The throwaway bot: global commands synced in setup_hook, a dynamic button."""

    def __init__(self) -> None:
        super().__init__(command_prefix="!", intents=discord.Intents.default())
        self.last_interaction: discord.Interaction | None = None
        self.last_dm: discord.Message | None = None
        self.started = asyncio.Event()
        self.release = asyncio.Event()
        self.errors: list[Exception] = []
        self.tree.add_command(demo_group(self))
        self.tree.add_command(admin_group())

    async def setup_hook(self) -> None:
        self.add_dynamic_items(Counter)
        await self.tree.sync()


class AnywhereBot(DemoBot):
    """The demo bot with ``/solo``, which works in servers, DMs and group DMs."""

    def __init__(self) -> None:
        super().__init__()
        self.tree.add_command(solo_group(self))
