"""Simulated members who play whole games through the buttons, as people would.

Each member opens their sheet from the newest turn message and presses one of
the offered buttons. The choice depends only on what the member sees (the
turn, phase and labels), so the same seed and the same policy replay the same
game, across a restart of the bot too.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .driver import BUTTON, STRING_SELECT, SimMember
from .records import Call, ChannelRecord, StoredMessage
from .sandbox import Sandbox

OPEN_SHEET = "Open my sheet"
TURN = re.compile(r"\bTurn (\d+)\b")
GAME_OVER = "final scores"
WAIT = 30.0  # seconds the bot may take to show a change, however busy the machine
Policy = Callable[[SimMember, list["Choice"], StoredMessage], "Choice"]
Log = Callable[[str], None]


@dataclass(frozen=True)
class Choice:
    """One thing a member can do on a message: a button, or one option of a select."""

    text: str
    custom_id: str
    value: str | None = None

    async def take(self, member: SimMember, message: StoredMessage) -> StoredMessage:
        if self.value is None:
            return (await member.click(message, custom_id=self.custom_id)).message
        return (await member.select(message, [self.value], custom_id=self.custom_id)).message


CONFIRM = "Yes"
"""The button that applies a move the bot asked about (one skipping many numbers)."""
MOVE = re.compile(r"qx:\d+:\d+:[a-z0-9]+:(?:[a-z0-9.+]+(?::then-[a-z_]+)?|pick-[a-z]+)")
"""The custom ids of a sheet's moves (a button, a select of fields): what these members
play, leaving aside Hint, choices made ahead and the sheet's other pages."""


def moves(message: StoredMessage) -> list[Choice]:
    """The moves ``message`` offers (see :data:`MOVE`)."""
    return [c for c in choices(message) if MOVE.fullmatch(c.custom_id)]


def choices(message: StoredMessage) -> list[Choice]:
    found: list[Choice] = []
    for item in message.interactive():
        if item.get("disabled"):
            continue
        if item.get("type") == BUTTON and item.get("custom_id"):
            found.append(Choice(item.get("label") or "", item["custom_id"]))
        elif item.get("type") == STRING_SELECT:
            found += [
                Choice(f"{item.get('placeholder', '')} {o['label']}", item["custom_id"], o["value"])
                for o in item.get("options") or []
            ]
    return found


def seeded_policy(seed: int) -> Policy:
    """Choose among what is offered at random, reproducibly from what is shown."""

    def choose(member: SimMember, offered: list[Choice], sheet: StoredMessage) -> Choice:
        first_line = sheet.content.splitlines()[0] if sheet.content else ""
        texts = sorted(c.text for c in offered)
        rng = random.Random(f"{seed}:{member.name}:{first_line}:{texts}")
        return rng.choice(offered)

    return choose


def turn_message(sb: Sandbox, channel: ChannelRecord | None = None) -> StoredMessage | None:
    """The newest public message that still offers "Open my sheet"."""
    for message in reversed(sb.messages(channel)):
        if OPEN_SHEET in message.labels:
            return message
    return None


async def wait_for_turn(sb: Sandbox, channel: ChannelRecord | None = None) -> StoredMessage:
    """The turn message, once the bot has posted it (it follows the click's answer)."""
    return await sb.wait_for(lambda: turn_message(sb, channel))


async def next_turn(sb: Sandbox, channel: ChannelRecord | None) -> StoredMessage | None:
    """The turn message to act on, once there is one; None once the game is over.

    Between two turns the old message has lost its buttons before the new one is
    posted: wait for the bot rather than give up.
    """

    def ready() -> bool:
        return final_message(sb, channel) is not None or turn_message(sb, channel) is not None

    await sb.wait_for(ready, timeout=WAIT)
    return None if final_message(sb, channel) is not None else turn_message(sb, channel)


def edits_of(sb: Sandbox, message: StoredMessage) -> list[Call]:
    """Every edit of ``message`` so far: through the channel, or through the token of a
    click on it (``@original`` of a component interaction is the clicked message)."""
    world = sb.server.world
    found = []
    for call in sb.server.calls:
        if call.method != "PATCH" or (call.status or 0) >= 400:
            continue
        if call.route == "/channels/{channel_id}/messages/{message_id}":
            if call.path.rsplit("/", 1)[-1] == str(message.id):
                found.append(call)
        elif call.route.endswith("/messages/@original"):
            record = world.interaction_by_token(call.path.split("/")[3])
            if record is not None and record.original_id == message.id:
                found.append(call)
    return found


def final_message(sb: Sandbox, channel: ChannelRecord | None = None) -> StoredMessage | None:
    return next((m for m in reversed(sb.messages(channel)) if GAME_OVER in m.content), None)


async def play_round(
    sb: Sandbox,
    members: Sequence[SimMember],
    policy: Policy,
    channel: ChannelRecord | None = None,
    log: Log | None = None,
    show: Callable[[StoredMessage], None] | None = None,
) -> bool:
    """Let every member decide once on the newest turn message; False once the game is
    over. ``show``: shown each private answer the members see (their sheets)."""
    for member in members:
        turn = await next_turn(sb, channel)
        if turn is None:
            return False
        sheet = (await member.click(turn, label=OPEN_SHEET)).message
        if show:
            show(sheet)
        offered = moves(sheet)
        if not offered or "change your choice" in sheet.content:
            continue
        choice = policy(member, offered, sheet)
        if log:
            log(f"  {member.name} chooses {choice.text.strip()}")
        after = await choice.take(member, sheet)
        if CONFIRM in after.labels:  # a costly move asks before it is applied
            if show:
                show(after)
            after = (await member.click(after, label=CONFIRM)).message
        if show:
            show(after)
        await caught_up(sb, after.content, channel)
    return final_message(sb, channel) is None


async def caught_up(sb: Sandbox, seen: str, channel: ChannelRecord | None) -> None:
    """Wait until the channel shows the turn a player's reply speaks of (or the end).

    The bot answers the click first and posts public messages just after, as it
    should; a player looking at once could still see the previous turn.
    """
    match = TURN.search(seen)
    wanted = f"**Turn {match[1]}**" if match else None

    def shown() -> bool:
        turn = turn_message(sb, channel)
        if final_message(sb, channel) is not None:
            return True
        return turn is not None and (wanted is None or wanted in turn.content)

    try:
        await sb.wait_for(shown, timeout=WAIT)
    except (AssertionError, TimeoutError):
        return


async def play_to_end(
    sb: Sandbox,
    members: Sequence[SimMember],
    policy: Policy,
    channel: ChannelRecord | None = None,
    rounds: int = 400,
    log: Log | None = None,
) -> StoredMessage:
    """Play until the final scoreboard is posted; the final message."""
    for _ in range(rounds):
        if not await play_round(sb, members, policy, channel, log):
            break
    final = final_message(sb, channel)
    if final is None:
        raise AssertionError(f"no final scoreboard after {rounds} rounds")
    return final
