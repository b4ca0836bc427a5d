"""Daily attempts played through the stand-in, for the daily tests: two servers
(:func:`two_servers`), the buttons a member sees chosen at random (:func:`play_daily`)
or move by move (:func:`play_moves`), and a database that holds a known secret
(:func:`know_secret`), so that a test knows a day's seed as the bot does."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from pathlib import Path

from bot.app import QwixxBot
from bot.cogs.buttons import Malformed, decode_move
from bot.rules import Game, Move
from bot.sandbox import GuildSpec, Sandbox, SimMember
from bot.sandbox.autoplay import Choice, choices, seeded_policy
from bot.sandbox.records import ChannelRecord, StoredMessage
from tests.fakes import FakeClock

from .conftest import UNLIMITED, fast_budget

SECRET = "a secret of the tests' own"


def daily_bot(database: Path, clock: FakeClock, tick: float = 0.05) -> QwixxBot:
    """The bot of the daily tests, on ``clock``; its timers (rankings) tick, and its
    channel edits wait, ``tick`` seconds."""
    return QwixxBot(
        database, seeds=lambda: 7, coalesce=tick, budget=fast_budget(), clock=clock, tick=tick
    )


@asynccontextmanager
async def two_servers(bot: QwixxBot) -> AsyncIterator[Sandbox]:
    """Alpha (#general, #daily) and Beta, with Ana and Cem, the bot running; no failure
    a member would see allowed."""
    async with Sandbox(
        **UNLIMITED,
        guilds=[GuildSpec("Alpha", channels=("general", "daily")), GuildSpec("Beta")],
        members=["Ana", "Cem"],
        settle=0.02,
    ) as sandbox:
        await sandbox.run_bot(bot)
        yield sandbox
        assert sandbox.failures == [], sandbox.describe_failures()


def noon(day: str) -> float:
    """12:00 UTC of ``day`` (unix seconds)."""
    return datetime.fromisoformat(f"{day}T12:00").replace(tzinfo=UTC).timestamp()


async def know_secret(bot: QwixxBot) -> None:
    """Give the bot's database :data:`SECRET` before any day's dice are dealt."""
    assert bot.store is not None
    await bot.store.engine.transact(
        lambda tx: tx.execute("INSERT INTO daily_secret (id, secret) VALUES (1, ?)", (SECRET,))
    )


async def confirmed(member: SimMember, message: StoredMessage) -> StoredMessage:
    """``message``, once its costly move is confirmed if the bot asked first."""
    confirm = [c for c in choices(message) if c.custom_id.endswith(":yes")]
    return await confirm[0].take(member, message) if confirm else message


async def play_daily(
    member: SimMember,
    variant: str = "classic",
    seed: int = 1,
    in_channel: ChannelRecord | None = None,
) -> tuple[StoredMessage, list[str]]:
    """Begin the day's attempt (``in_channel``: elsewhere than the member's channel, a DM
    or a group chat) and play it to its end with the buttons, chosen at random; the
    final message and every message content seen before it."""
    policy = seeded_policy(seed)
    message = (await member.slash("qwixx", "daily", variant=variant, in_channel=in_channel)).message
    seen = []
    for _ in range(500):
        offered = moves_offered(message)
        if not offered:  # the result: nothing left to play (its Share card aside)
            return message, seen
        seen.append(message.content)
        message = await confirmed(
            member, await policy(member, offered, message).take(member, message)
        )
    raise AssertionError("the daily game did not end")


async def shared(sb: Sandbox, member: SimMember, result: StoredMessage) -> StoredMessage:
    """The text to share that follows ``result`` in a message of its own (it is sent
    after the result: waited for)."""

    def sent() -> StoredMessage | None:
        return next((m for m in member.ephemeral_messages() if m.id > result.id), None)

    return await sb.wait_for(sent)


def move_of(choice: Choice) -> Move | None:
    """The move a button (or an option of a select) plays; None for any other button."""
    try:
        return decode_move(choice.value or choice.custom_id.split(":", 4)[4])
    except (Malformed, IndexError):
        return None


def moves_offered(message: StoredMessage) -> list[Choice]:
    """The buttons and options of ``message`` that play a move (not **Share card**)."""
    return [c for c in choices(message) if move_of(c) is not None]


async def play_moves(
    member: SimMember, variant: str, game: Game, choose: Callable[[Game], Move]
) -> StoredMessage:
    """Begin the day's attempt and play it to its end with the buttons, each move the one
    ``choose`` picks on ``game``: the rules' copy of the attempt (a new solo game of the
    member on the day's dice), kept in step move by move. The final message."""
    message = (await member.slash("qwixx", "daily", variant=variant)).message
    while not game.finished:
        move = choose(game)
        offered = {move_of(c): c for c in choices(message)}
        assert move in offered, (move, list(offered), message.content)
        message = await confirmed(member, await offered[move].take(member, message))
        game, _ = game.apply(member.id, move)
    assert not moves_offered(message), message.content  # the bot's game is over too
    return message
