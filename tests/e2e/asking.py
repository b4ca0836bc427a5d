"""Members at a table through the stand-in, as a person plays: each taps what their
sheet shows, and every tap is counted (taps per decision)."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from bot.cogs.buttons import encode_move
from bot.cogs.choice_items import encode_steps
from bot.records.plans import Step
from bot.rules import Game, Move
from bot.sandbox import Sandbox, SimMember
from bot.sandbox.autoplay import CONFIRM, OPEN_SHEET, turn_message
from bot.sandbox.driver import ActionOutcome
from bot.sandbox.records import ChannelRecord, StoredMessage
from bot.service.outcome import Snapshot

AHEAD = ":ahead:"


@dataclass
class Table:
    """A running game and its members; ``taps``: each member's clicks and commands."""

    sb: Sandbox
    members: dict[int, SimMember]
    game_id: int
    channel: ChannelRecord | None = None
    taps: Counter[str] = field(default_factory=Counter)
    opened: Counter[str] = field(default_factory=Counter)
    """Of the taps, those on **Open my sheet** (a direct message carries the buttons)."""

    async def snapshot(self) -> Snapshot:
        return await self.sb.bot.service.keeper.read(self.game_id)  # type: ignore[union-attr]

    async def game(self) -> Game:
        game = (await self.snapshot()).game
        assert game is not None
        return game

    async def tap(self, member: SimMember, message: StoredMessage, **found: Any) -> ActionOutcome:
        """One tap of ``member`` on ``message`` (a "Sure?" asked after it: one more)."""
        self.taps[member.name] += 1
        done = await member.click(message, **found)
        assert done.failed is None, done.failed
        if CONFIRM in done.message.labels and not done.message.attachments:
            self.taps[member.name] += 1
            done = await member.click(done.message, label=CONFIRM)
            assert done.failed is None
        return done

    async def pick(
        self, member: SimMember, message: StoredMessage, values: list[str], custom_id: str
    ) -> ActionOutcome:
        self.taps[member.name] += 1
        done = await member.select(message, values, custom_id=custom_id)
        assert done.failed is None
        return done

    async def turn_message(self, turn: int) -> StoredMessage:
        """The live message of ``turn``, once the channel shows it."""
        wanted = f"**Turn {turn}**"

        def shown() -> StoredMessage | None:
            found = turn_message(self.sb, self.channel)
            return found if found is not None and wanted in found.content else None

        return await self.sb.wait_for(shown)

    async def sheet(self, member: SimMember) -> StoredMessage:
        """``member`` opens their sheet from the live turn message."""
        game = await self.game()
        self.opened[member.name] += 1
        turn = await self.turn_message(game.turn)
        return (await self.tap(member, turn, label=OPEN_SHEET)).message

    async def move(self, member: SimMember, message: StoredMessage, move: Move) -> ActionOutcome:
        """Tap the button of ``move`` (now) on ``message``."""
        game = await self.game()
        custom_id = f"qx:{self.game_id}:{game.turn}:{game.decision().phase}:{encode_move(move)}"
        return await self.tap(member, message, custom_id=custom_id)

    async def ahead(
        self, member: SimMember, message: StoredMessage, turn: int, steps: tuple[Step, ...]
    ) -> ActionOutcome:
        """Tap the button that decides ``steps`` ahead for ``turn``."""
        custom_id = f"qx:{self.game_id}:{turn}:ahead:{encode_steps(steps)}"
        return await self.tap(member, message, custom_id=custom_id)


def ahead_ids(message: StoredMessage) -> list[str]:
    """The custom ids of the choices ahead ``message`` offers."""
    return [
        c["custom_id"]
        for c in message.interactive()
        if c.get("type") == 2 and AHEAD in c.get("custom_id", "")
    ]


def chosen(rng: random.Random, options: list[Move]) -> Move:
    return rng.choice(sorted(options, key=encode_move))
