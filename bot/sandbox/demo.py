"""``qwixx-bot demo``: the real bot plays a whole game against the local stand-in.

Simulated members start a game, join, and choose among the buttons the bot
offers them. The transcript shows what the channel would show; every image the
bot sent is written to the output folder.
"""

from __future__ import annotations

import re
import tempfile
from collections.abc import Callable
from pathlib import Path

from bot.app import QwixxBot
from bot.cogs.budget import WriteBudget

from .autoplay import play_round, seeded_policy, wait_for_turn
from .sandbox import Sandbox

NAMES = ("Ana", "Ben", "Cem", "Dana", "Emel", "Finn")
Print = Callable[[str], None]


class Transcript:
    """Prints each public message once, with mentions shown as names."""

    def __init__(self, sb: Sandbox, names: dict[int, str], out: Print) -> None:
        self.sb, self.names, self.out = sb, names, out
        self.shown: set[int] = set()

    def readable(self, text: str) -> str:
        return re.sub(r"<@(\d+)>", lambda m: "@" + self.names.get(int(m[1]), m[1]), text)

    def say(self, line: str) -> None:
        self.out(self.readable(line))

    def catch_up(self) -> None:
        for message in self.sb.messages():
            if message.ephemeral or message.id in self.shown or message.loading:
                continue
            self.shown.add(message.id)
            self.out("")
            self.out(self.readable(message.content))
            buttons = "  ".join(f"[{label}]" for label in message.labels)
            files = "  ".join(f"<{a.filename}>" for a in message.attachments)
            for extra in (files, buttons):
                if extra:
                    self.out(extra)


class ImageSaver:
    """Writes every attachment the bot uploads, once, in the order they appear."""

    def __init__(self, sb: Sandbox, folder: Path) -> None:
        self.sb, self.folder = sb, folder
        self.saved: set[int] = set()
        folder.mkdir(parents=True, exist_ok=True)

    def collect(self) -> None:
        for message in list(self.sb.server.world.messages.values()):
            for attachment in message.attachments:
                if attachment.id not in self.saved:
                    self.saved.add(attachment.id)
                    name = f"{len(self.saved):03d}-{attachment.filename}"
                    (self.folder / name).write_bytes(attachment.data)


async def run_demo(variant: str, players: int, out: Path, seed: int,
                   print_line: Print = print) -> int:
    """Play one game; returns the number of images written."""
    names = list(NAMES[:players])
    with tempfile.TemporaryDirectory() as folder:
        # The demo plays at click speed, faster than a channel may be written:
        # no write budget here (the bot keeps it everywhere else).
        async with Sandbox(members=names, settle=0.02, write_limit=False) as sb:
            await sb.run_bot(QwixxBot(Path(folder) / "demo.db", dev_guild=sb.guild.id, coalesce=0.1,
                                      seeds=lambda: seed, budget=WriteBudget(10_000, 1.0)))
            members = [sb.member(n) for n in names]
            transcript = Transcript(sb, {m.id: m.name for m in members}, print_line)
            images = ImageSaver(sb, out)

            def log(line: str) -> None:
                images.collect()
                transcript.catch_up()
                transcript.say(line)

            log(f"{names[0]}: /qwixx start variant:{variant}")
            lobby = (await members[0].slash("qwixx", "start", variant=variant)).message
            for member in members[1:]:
                log(f"{member.name} presses Join")
                await member.click(lobby, label="Join")
            log(f"{names[0]} presses Start")
            await members[0].click(lobby, label="Start")
            await wait_for_turn(sb)
            transcript.catch_up()
            policy = seeded_policy(seed)
            while await play_round(sb, members, policy, log=log):
                transcript.catch_up()
            transcript.catch_up()
            images.collect()
            problems = sb.describe_failures() if sb.failures else ""
            await sb.stop_bot()
    print_line("")
    print_line(f"{len(images.saved)} images written to {out}/")
    if problems:
        print_line(f"The stand-in recorded problems:\n{problems}")
    return len(images.saved)
