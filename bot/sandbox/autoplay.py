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

from .driver import SimMember
from .records import ChannelRecord, StoredMessage
from .sandbox import Sandbox

OPEN_SHEET = "Open my sheet"
TURN = re.compile(r"\bTurn (\d+)\b")
GAME_OVER = "final scores"
Policy = Callable[[SimMember, StoredMessage], str]
Log = Callable[[str], None]


def seeded_policy(seed: int) -> Policy:
    """Choose among the offered buttons at random, reproducibly from what is shown."""
    def choose(member: SimMember, sheet: StoredMessage) -> str:
        first_line = sheet.content.splitlines()[0] if sheet.content else ""
        rng = random.Random(f"{seed}:{member.name}:{first_line}:{sorted(sheet.labels)}")
        return rng.choice(sheet.labels)
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


def final_message(sb: Sandbox, channel: ChannelRecord | None = None) -> StoredMessage | None:
    return next((m for m in reversed(sb.messages(channel)) if GAME_OVER in m.content), None)


async def play_round(sb: Sandbox, members: Sequence[SimMember], policy: Policy,
                     channel: ChannelRecord | None = None, log: Log | None = None) -> bool:
    """Let every member decide once on the newest turn message; False once the game is over."""
    for member in members:
        turn = turn_message(sb, channel)
        if turn is None or final_message(sb, channel) is not None:
            return False
        sheet = (await member.click(turn, label=OPEN_SHEET)).message
        if not sheet.labels or "change your choice" in sheet.content:
            continue
        label = policy(member, sheet)
        if log:
            log(f"  {member.name} chooses {label}")
        after = (await member.click(sheet, label=label)).message
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
        await sb.wait_for(shown, timeout=5)
    except (AssertionError, TimeoutError):
        return


async def play_to_end(sb: Sandbox, members: Sequence[SimMember], policy: Policy,
                      channel: ChannelRecord | None = None, rounds: int = 400,
                      log: Log | None = None) -> StoredMessage:
    """Play until the final scoreboard is posted; the final message."""
    for _ in range(rounds):
        if not await play_round(sb, members, policy, channel, log):
            break
    final = final_message(sb, channel)
    if final is None:
        raise AssertionError(f"no final scoreboard after {rounds} rounds")
    return final
