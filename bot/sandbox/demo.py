"""``qwixx-bot demo``: the real bot plays a whole game against the local stand-in.

Simulated members start a game, join, and choose among the buttons the bot
offers them; the host may seat computer players as a host would, with the
lobby's button. The transcript shows each public message as it is posted, then
the channel as it reads after the game (the newest version of every message);
every image the bot sent is written to the output folder.
"""

from __future__ import annotations

import asyncio
import re
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from bot.app import QwixxBot
from bot.channel.budget import WriteBudget

from .autoplay import play_round, seeded_policy, wait_for_turn
from .driver import BUTTON, STRING_SELECT
from .records import StoredMessage
from .sandbox import Sandbox
from .validation import unavailable

NAMES = ("Ana", "Ben", "Cem", "Dana", "Emel", "Finn")
ADD_COMPUTER = "Add computer player"
LEVEL_MENU = "Change a computer player's level"
AFTER = "The channel after the game"
Print = Callable[[str], None]
MENTION = re.compile(r"<@!?(\d+)>")
DEMO_FILE = re.compile(r"\d{3}-[\w-]+\.png")
"""The name of an image the demo writes (see :class:`ImageSaver`)."""
TIMESTAMP = re.compile(r"<t:(-?\d+)(?::([tTdDfFR]))?>")


def relative(seconds: float) -> str:
    """``in 23 hours``, ``5 minutes ago``: roughly what Discord shows for ``<t:…:R>``."""
    size = abs(seconds)
    unit, length = next(((name, length) for name, length in (
        ("day", 86_400), ("hour", 3_600), ("minute", 60)) if size >= length), ("second", 1))
    count = round(size / length)
    words = f"{count} {unit}{'' if count == 1 else 's'}"
    return f"in {words}" if seconds >= 0 else f"{words} ago"


class Transcript:
    """Prints public messages as people read them: mentions as names, times as times."""

    def __init__(self, sb: Sandbox, names: dict[int, str], out: Print) -> None:
        self.sb, self.names, self.out = sb, names, out
        self.shown: set[int] = set()

    def readable(self, text: str) -> str:
        text = MENTION.sub(lambda m: "@" + self.names.get(int(m[1]), m[1]), text)
        return TIMESTAMP.sub(self._time, text)

    @staticmethod
    def _time(match: re.Match[str]) -> str:
        moment = int(match[1])
        if match[2] == "R":
            return relative(moment - time.time())
        return time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(moment))

    def say(self, line: str) -> None:
        self.out(self.readable(line))

    def show(self, message: StoredMessage) -> None:
        """The message as it stands: its text, then its files, then its buttons and menus."""
        self.out("")
        if message.content:
            self.out(self.readable(message.content))
        for embed in message.embeds:
            parts = [embed.get("title"), embed.get("description"),
                     *(f"{f.get('name')}: {f.get('value')}" for f in embed.get("fields") or [])]
            self.out(self.readable("\n".join(str(p) for p in parts if p)))
        controls = []
        for item in message.interactive():
            if item.get("type") == BUTTON and item.get("label"):
                controls.append(f"[{item['label']}]")
            elif item.get("type") == STRING_SELECT:
                controls.append(f"[{item.get('placeholder') or 'menu'} ▾]")
        files = "  ".join(f"<{a.filename}>" for a in message.attachments)
        for extra in (files, "  ".join(controls)):
            if extra:
                self.out(self.readable(extra))

    def catch_up(self) -> None:
        """Every public message not printed yet, as it was when it appeared."""
        for message in self.sb.messages():
            if message.ephemeral or message.id in self.shown or message.loading:
                continue
            self.shown.add(message.id)
            self.show(message)

    def channel_after(self) -> None:
        """The channel as it reads now: each message's newest version, deleted ones gone."""
        self.out("")
        self.out(f"===== {AFTER} =====")
        for message in self.sb.messages():
            if not message.loading:
                self.show(message)


async def quiet(sb: Sandbox, seconds: float = 0.3, longest: float = 10.0) -> None:
    """Wait until the bot has sent nothing for ``seconds`` (at most ``longest``)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + longest
    while not sb.server.rest.quiet_for(seconds) and loop.time() < deadline:
        await asyncio.sleep(seconds / 3)


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
                   print_line: Print = print, *, computers: int = 0,
                   level: str | None = None) -> int:
    """Play one game; returns the number of images written.

    ``computers`` seats are added by the host in the lobby; ``level`` (easy, normal
    or hard) is then chosen for each of them, as the host would in the lobby's menu.
    """
    names = list(NAMES[:players])
    with tempfile.TemporaryDirectory() as folder:
        # The demo plays at click speed, faster than a channel may be written:
        # no write budget here (the bot keeps it everywhere else).
        async with Sandbox(members=names, settle=0.02, write_limit=False) as sb:
            unchecked = unavailable() if sb.server.validator is None else None
            await sb.run_bot(QwixxBot(Path(folder) / "demo.db", dev_guild=sb.guild.id, coalesce=0.1,
                                      seeds=lambda: seed, budget=WriteBudget(10_000, 1.0)))
            members = [sb.member(n) for n in names]
            host = members[0]
            transcript = Transcript(sb, {m.id: m.name for m in members}, print_line)
            images = ImageSaver(sb, out)

            def log(line: str) -> None:
                images.collect()
                transcript.catch_up()
                transcript.say(line)

            log(f"{host.name}: /qwixx start variant:{variant}")
            lobby = (await host.slash("qwixx", "start", variant=variant)).message
            for member in members[1:]:
                log(f"{member.name} presses Join")
                await member.click(lobby, label="Join")
            for _ in range(computers):
                log(f"{host.name} presses {ADD_COMPUTER}")
                lobby = (await host.click(lobby, label=ADD_COMPUTER)).message
            if computers and level is not None:
                menu = lobby.find_component(placeholder=LEVEL_MENU)
                for option in menu.get("options") or []:
                    if option["value"].endswith(f".{level}"):
                        log(f"{host.name} picks {option['label']} in {LEVEL_MENU!r}")
                        lobby = (await host.select(lobby, [option["value"]],
                                                   placeholder=LEVEL_MENU)).message
            log(f"{host.name} presses Start")
            await host.click(lobby, label="Start")
            await wait_for_turn(sb)
            transcript.catch_up()
            policy = seeded_policy(seed)
            while await play_round(sb, members, policy, log=log):
                transcript.catch_up()
            await quiet(sb)  # the last edits (buttons and clocks gone) land after the scores
            transcript.catch_up()
            images.collect()
            transcript.channel_after()
            problems = sb.describe_failures() if sb.failures else ""
            await sb.stop_bot()
    print_line("")
    print_line(f"{len(images.saved)} images written to {out}/")
    if unchecked:
        print_line(f"(Request bodies were not checked against Discord's API description: "
                   f"{unchecked}.)")
    if problems:
        print_line(f"The stand-in recorded problems:\n{problems}")
    return len(images.saved)
