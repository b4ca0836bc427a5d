"""``qwixx-bot demo``: the real bot plays a whole game against the local stand-in.

Simulated members start a game, join, and choose among the buttons the bot
offers them; the host may seat computer players as a host would, with the
lobby's button, and looks at the table (everyone's sheet) once. The transcript
shows each public message as it is posted (and, in one round, the members' private
sheets as they see them), then the channel as it reads after the
game (the newest version of every message), each message framed as Discord shows
it; every image the bot sent is written to the output folder, and named where the
transcript shows it. The same transcript is drawn as a page beside the images
(``transcript.html``, :mod:`bot.sandbox.page`): what is read once is drawn twice.
"""

from __future__ import annotations

import asyncio
import re
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

from bot.app import QwixxBot
from bot.channel.budget import WriteBudget

from .autoplay import play_round, seeded_policy, turn_message, wait_for_turn
from .driver import BUTTON, COMMAND, STRING_SELECT
from .page import TranscriptPage
from .records import GROUP_DM, StoredMessage
from .sandbox import Sandbox
from .seen import Container, Control, Embed, Part, Picture, Rule, Seen, Text
from .validation import unavailable

ACTION_ROW, CONTAINER, TEXT_DISPLAY, SEPARATOR, GALLERY = 1, 17, 10, 14, 12
"""Layout components' types."""
NAMES = ("Ana", "Ben", "Cem", "Dana", "Emel", "Finn")
ADD_COMPUTER = "Add computer player"
LEVEL_MENU = "Change a computer player's level"
AFTER = "The channel after the game"
DMS_AFTER = "Direct messages after the game"
TABLE_ROUND = 2
"""After this round the host looks at the table (everyone's sheet), once."""
SHEETS_ROUND = 1
"""In this round (counted from 0) each member's private answers are shown: their sheet
as it opens, the question before a costly cross, and the answer to their choice."""
Print = Callable[[str], None]
MENTION = re.compile(r"<@!?(\d+)>")
COMMAND_MENTION = re.compile(r"</([^:>]+):\d+>")
CHANNEL_MENTION = re.compile(r"<#(\d+)>")
SUB_COMMAND, SUB_COMMAND_GROUP = 1, 2
BOT_NAME = "Qwixx Bot"
PAGE = "transcript.html"
DEMO_FILE = re.compile(rf"\d{{3}}-[\w-]+\.png|emoji-\w+\.png|{re.escape(PAGE)}")
"""The name of a file the demo writes: an image (see :class:`ImageSaver`), the page."""
TIMESTAMP = re.compile(r"<t:(-?\d+)(?::([tTdDfFR]))?>")
CUSTOM_EMOJI = re.compile(r"<a?:(\w+):\d+>")
"""A custom emoji (the dice's): the transcript shows it by name, ``:qx_red6_1a2b:``."""


def relative(seconds: float) -> str:
    """``in 23 hours``, ``5 minutes ago``: roughly what Discord shows for ``<t:…:R>``
    (``a few seconds ago`` under 45 seconds, as Discord says it)."""
    size = abs(seconds)
    if size < 45:
        return "in a few seconds" if seconds > 0 else "a few seconds ago"
    unit, length = next(
        (
            (name, length)
            for name, length in (("day", 86_400), ("hour", 3_600), ("minute", 60))
            if size >= length
        ),
        ("second", 1),
    )
    count = round(size / length)
    words = f"{count} {unit}{'' if count == 1 else 's'}"
    return f"in {words}" if seconds >= 0 else f"{words} ago"


class Transcript:
    """Reads messages as people read them in Discord and prints them: each framed, with
    who posted it, its number in the channel (a direct message: whom it was sent to) and
    whether it was edited; mentions as names, commands as the ``/qwixx rules`` a reader
    sees, times as times, custom emojis (the dice) by name, images by the file they were
    saved to. ``page``, if given, draws the same as a page (:mod:`bot.sandbox.page`)."""

    def __init__(
        self,
        sb: Sandbox,
        names: dict[int, str],
        out: Print,
        images: ImageSaver,
        page: Drawing | None = None,
    ) -> None:
        self.sb, self.names, self.out, self.images, self.page = sb, names, out, images, page
        self.numbers: dict[int, int] = {}
        """Each message's number, in the order it was first shown."""
        self.shown: set[int] = set()
        """The messages :meth:`catch_up` printed."""

    def readable(self, text: str) -> str:
        text = MENTION.sub(lambda m: "@" + self.names.get(int(m[1]), m[1]), text)
        text = COMMAND_MENTION.sub(r"/\1", text)
        text = CHANNEL_MENTION.sub(self._channel, text)
        text = CUSTOM_EMOJI.sub(r":\1:", text)
        return TIMESTAMP.sub(self._time, text)

    def _channel(self, match: re.Match[str]) -> str:
        channel = self.sb.server.world.channels.get(int(match[1]))
        return f"#{channel.name if channel else match[1]}"

    @staticmethod
    def _time(match: re.Match[str]) -> str:
        moment = int(match[1])
        if match[2] == "R":
            return relative(moment - time.time())
        return time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(moment))

    def say(self, line: str) -> None:
        """A member's action, outside any message."""
        said = self.readable(line)
        self.out(f"» {said}")
        if self.page is not None:
            self.page.say(said)

    def heading(self, title: str) -> None:
        """A part of the transcript: ``The channel after the game``."""
        self.out("")
        self.out(f"===== {title} =====")
        if self.page is not None:
            self.page.heading(title)

    def read(self, message: StoredMessage) -> Seen:
        """``message`` as it stands: who posted it and where, its parts and its controls."""
        place = self.place(message)
        number = None
        if place is None and not message.ephemeral:
            number = self.numbers.setdefault(message.id, len(self.numbers) + 1)
        interaction = self.sb.server.world.interactions.get(message.interaction_id or 0)
        command = None
        if interaction is not None and interaction.type == COMMAND:
            who = self.names.get(interaction.user_id, "?")
            command = (who, " ".join(command_path(interaction.data)))
        only = self.names.get(message.visible_to or 0, "?") if message.ephemeral else None
        parts: list[Part] = []
        if message.layout:
            parts += self.layout(message, message.components)
        elif message.content:
            parts.append(Text(self.readable(message.content)))
        for embed in message.embeds:
            lines = [
                embed.get("title"),
                embed.get("description"),
                *(f"{f.get('name')}: {f.get('value')}" for f in embed.get("fields") or []),
            ]
            text = self.readable("\n".join(str(p) for p in lines if p))
            parts.append(Embed(embed.get("color"), text))
        if not message.layout:
            parts += [
                Picture(a.filename, self.images.where(a.id), self.alt(a.description), False)
                for a in message.attachments
            ]
        return Seen(
            author=message.author.name,
            place=place,
            number=number,
            edited=bool(message.edited_timestamp),
            command=command,
            only=only,
            parts=tuple(parts),
            rows=control_rows(message.components),
        )

    def layout(self, message: StoredMessage, items: list[dict[str, Any]]) -> list[Part]:
        """Layout components as Discord lays them out: containers as cards, text, rules
        and each gallery's images with their alt text (action rows apart, under them)."""
        files = {f"attachment://{a.filename}": a for a in message.attachments}
        parts: list[Part] = []
        for item in items:
            kind = item.get("type")
            if kind == CONTAINER:
                inside = self.layout(message, item.get("components") or [])
                parts.append(Container(item.get("accent_color"), tuple(inside)))
            elif kind == TEXT_DISPLAY:
                parts.append(Text(self.readable(str(item.get("content") or ""))))
            elif kind == SEPARATOR:
                parts.append(Rule())
            elif kind == GALLERY:
                for entry in item.get("items") or []:
                    url = entry.get("media", {}).get("url", "")
                    where = self.images.where(files[url].id) if url in files else Path(url)
                    alt = self.alt(entry.get("description"))
                    parts.append(Picture(url.removeprefix("attachment://"), where, alt, True))
        return parts

    def alt(self, text: str | None) -> str | None:
        return self.readable(text) if text else None

    def place(self, message: StoredMessage) -> str | None:
        """Where a message outside every guild was sent: ``direct message to Ana`` (the
        bot's DM), ``in the group DM of Ana, Ben``, ``in the DM of Ana and Ben``."""
        world = self.sb.server.world
        channel = world.channels[message.channel_id]
        if not channel.is_private:
            return None
        people = [self.names.get(u, "?") for u in channel.recipients if u != world.bot.id]
        if world.bot.id in channel.recipients:
            return f"direct message to {', '.join(people)}"
        if channel.type == GROUP_DM:
            return f"in the group DM of {', '.join(people)}"
        return f"in the DM of {' and '.join(people)}"

    def show(self, message: StoredMessage) -> None:
        """The message as it stands, framed: its text, embeds, files and controls."""
        seen = self.read(message)
        self.out("")
        self.out(f"┌ {header(seen)}")
        for line in text_lines(seen):
            self.out(f"│ {line}".rstrip())
        if self.page is not None:
            self.page.message(seen)

    def catch_up(self) -> None:
        """Every public message and direct message not printed yet, as it was when it
        appeared."""
        for message in sorted(self.sb.messages() + self.private(), key=lambda m: m.id):
            if message.id not in self.shown and not message.loading:
                self.shown.add(message.id)
                self.show(message)

    def private(self) -> list[StoredMessage]:
        """The live messages of DMs and group DMs that are not one person's only."""
        world = self.sb.server.world
        return [
            m
            for m in world.messages.values()
            if m.audience is not None and m.visible_to is None and not m.deleted
        ]

    def dms_after(self) -> None:
        """The direct messages as they read now (nothing if there were none)."""
        shown = [m for m in self.private() if not m.loading]
        if not shown:
            return
        self.heading(DMS_AFTER)
        for message in shown:
            self.show(message)

    def channel_after(self) -> None:
        """The channel as it reads now: each message's newest version, deleted ones gone."""
        self.heading(AFTER)
        for message in self.sb.messages():
            if not message.loading:
                self.show(message)


class Drawing(Protocol):
    """A second drawing of the transcript (the page): told what the text shows."""

    def say(self, line: str) -> None: ...
    def heading(self, title: str) -> None: ...
    def message(self, seen: Seen) -> None: ...


def header(seen: Seen) -> str:
    """``Qwixx Bot · message 3 · edited · answers Ana's /qwixx start · only Ana sees it``."""
    if seen.place is not None:
        parts = [seen.author, seen.place]
    elif seen.number is None:
        parts = [seen.author]
    else:
        parts = [f"{seen.author} · message {seen.number}"]
    if seen.edited:
        parts.append("edited")
    if seen.command is not None:
        parts.append(f"answers {seen.command[0]}'s /{seen.command[1]}")
    if seen.only is not None:
        parts.append(f"only {seen.only} sees it")
    return " · ".join(parts)


def text_lines(seen: Seen) -> list[str]:
    """A message's lines in the text transcript: each card edged in its accent (named),
    its text, rules, images with their alt text; the buttons below, a row a line."""
    lines: list[str] = []

    def lay(parts: tuple[Part, ...], edge: str) -> None:
        for part in parts:
            if isinstance(part, Container):
                accent = "no accent" if part.accent is None else f"accent #{part.accent:06x}"
                lines.append(f"╭─ card · {accent}")
                lay(part.parts, "┃ ")
                lines.append("╰─")
            elif isinstance(part, Text | Embed):
                lines.extend(f"{edge}{line}" for line in part.text.splitlines())
            elif isinstance(part, Rule):
                lines.append(f"{edge}{'─' * 20}")
            else:
                lines.append(f"{edge}🖼 {part.name} ({part.file})")
                if not part.in_gallery:
                    continue
                first, *rest = (part.alt or "no alt text").splitlines() or [""]
                lines.append(f"{edge}   alt: {first}")
                lines.extend(f"{edge}        {line}" for line in rest)

    lay(seen.parts, "")
    lines += ["  ".join(map(control_text, row)) for row in seen.rows]
    return lines


def command_path(data: dict[str, Any]) -> list[str]:
    """``["qwixx", "start"]`` of a slash command's interaction data, with its options."""
    path, options = [str(data.get("name", "?"))], list(data.get("options") or [])
    while options and options[0].get("type") in (SUB_COMMAND, SUB_COMMAND_GROUP):
        path.append(str(options[0]["name"]))
        options = list(options[0].get("options") or [])
    return path + [f"{o['name']}:{o.get('value')}" for o in options]


def control_rows(components: list[dict[str, Any]]) -> tuple[tuple[Control, ...], ...]:
    """Each action row's buttons and menus, as Discord stacks the rows."""
    rows: list[tuple[Control, ...]] = []
    for item in components:
        if item.get("type") == ACTION_ROW:
            shown = tuple(c for c in map(control, item.get("components") or []) if c)
            if shown:
                rows.append(shown)
        else:
            rows += control_rows(item.get("components") or [])
    return tuple(rows)


def control(item: dict[str, Any]) -> Control | None:
    """A button with a label or a menu (None: anything else)."""
    disabled = bool(item.get("disabled"))
    if item.get("type") == BUTTON and item.get("label"):
        return Control(str(item["label"]), False, int(item.get("style") or 2), disabled)
    if item.get("type") == STRING_SELECT:
        return Control(str(item.get("placeholder") or "menu"), True, 2, disabled)
    return None


def control_text(item: Control) -> str:
    """``[Label]``, ``[Placeholder ▾]``, struck through when disabled."""
    shown = f"[{item.label} ▾]" if item.select else f"[{item.label}]"
    return f"~~{shown}~~" if item.disabled else shown


async def quiet(sb: Sandbox, seconds: float = 0.3, longest: float = 10.0) -> None:
    """Wait until the bot has sent nothing for ``seconds`` (at most ``longest``)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + longest
    while not sb.server.rest.quiet_for(seconds) and loop.time() < deadline:
        await asyncio.sleep(seconds / 3)


class ImageSaver:
    """Writes every attachment the bot uploads, once, in the order they appear, and the
    image of each of its custom emojis (the dice), for the page to draw them."""

    def __init__(self, sb: Sandbox, folder: Path) -> None:
        self.sb, self.folder = sb, folder
        self.saved: dict[int, str] = {}
        self.emojis: dict[str, Path] = {}
        """Each emoji's image, by the emoji's name."""
        folder.mkdir(parents=True, exist_ok=True)

    def collect(self) -> None:
        world = self.sb.server.world
        for message in list(world.messages.values()):
            for attachment in message.attachments:
                if attachment.id not in self.saved:
                    name = f"{len(self.saved) + 1:03d}-{attachment.filename}"
                    self.saved[attachment.id] = name
                    (self.folder / name).write_bytes(attachment.data)
        for emoji in list(world.emojis.values()):
            if emoji.name not in self.emojis:
                self.emojis[emoji.name] = self.folder / f"emoji-{emoji.name}.png"
                self.emojis[emoji.name].write_bytes(emoji.image)

    def where(self, attachment_id: int) -> Path:
        """The file an attachment was saved to (collected first if it is new)."""
        if attachment_id not in self.saved:
            self.collect()
        return self.folder / self.saved[attachment_id]


async def run_demo(
    variant: str,
    players: int,
    out: Path,
    seed: int,
    print_line: Print = print,
    *,
    computers: int = 0,
    level: str | None = None,
) -> int:
    """Play one game; returns the number of images written.

    ``computers`` seats are added by the host in the lobby; ``level`` (easy, normal
    or hard) is then chosen for each of them, as the host would in the lobby's menu.
    One player and no computers is solo practice (``/qwixx start solo:True``).
    """
    names = list(NAMES[:players])
    with tempfile.TemporaryDirectory() as folder:
        # The demo plays at click speed, faster than a channel may be written:
        # no write budget here (the bot keeps it everywhere else).
        async with Sandbox(members=names, settle=0.02, write_limit=False, bot_name=BOT_NAME) as sb:
            unchecked = unavailable() if sb.server.validator is None else None
            bot = QwixxBot(
                Path(folder) / "demo.db",
                dev_guild=sb.guild.id,
                coalesce=0.1,
                seeds=lambda: seed,
                budget=WriteBudget(10_000, 1.0),
            )
            await sb.run_bot(bot)
            emojis = bot.dice_emojis  # uploaded before the game, so its dice show as dice
            await sb.wait_for(lambda: emojis.task is not None and emojis.task.done(), 30)
            members = [sb.member(n) for n in names]
            host = members[0]
            images = ImageSaver(sb, out)
            page = TranscriptPage(f"{BOT_NAME} · {variant} demo", images.emojis)
            transcript = Transcript(sb, {m.id: m.name for m in members}, print_line, images, page)

            def log(line: str) -> None:
                images.collect()
                transcript.catch_up()
                transcript.say(line.strip())

            def private(answer: StoredMessage) -> None:
                images.collect()
                transcript.catch_up()
                transcript.show(answer)

            options: dict[str, Any] = {"variant": variant}
            if (players, computers) == (1, 0):
                options["solo"] = True  # one member alone: solo practice
            shown = " ".join(f"{name}:{value}" for name, value in options.items())
            log(f"{host.name}: /qwixx start {shown}")
            lobby = (await host.slash("qwixx", "start", **options)).message
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
                        lobby = (
                            await host.select(lobby, [option["value"]], placeholder=LEVEL_MENU)
                        ).message
            log(f"{host.name} presses Start")
            await host.click(lobby, label="Start")
            await wait_for_turn(sb)
            transcript.catch_up()
            policy, rounds = seeded_policy(seed), 0
            while await play_round(
                sb, members, policy, log=log, show=private if rounds == SHEETS_ROUND else None
            ):
                transcript.catch_up()
                rounds += 1
                turn = turn_message(sb)
                if rounds == TABLE_ROUND and turn is not None:
                    log(f"{host.name} presses Table")
                    transcript.show((await host.click(turn, label="Table")).message)
            await quiet(sb)  # the last edits (buttons and clocks gone) land after the scores
            transcript.catch_up()
            images.collect()
            transcript.dms_after()
            transcript.channel_after()
            page.write(out / PAGE)
            problems = sb.describe_failures() if sb.failures else ""
            await sb.stop_bot()
    print_line("")
    if unchecked:
        print_line(
            f"(Request bodies were not checked against Discord's API description: {unchecked}.)"
        )
    print_line(f"The transcript as a page: {out / PAGE}")
    print_line(f"{len(images.saved)} images written to {out}/")
    if problems:
        print_line(f"The stand-in recorded problems:\n{problems}")
    return len(images.saved)
