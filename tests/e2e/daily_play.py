"""Daily attempts played through the stand-in, for the daily tests: with the buttons a
member sees, chosen at random (:func:`play_daily`) or move by move (:func:`play_moves`),
on a bot whose database holds a known secret (:func:`know_secret`), so that a test
knows a day's seed as the bot does."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

from bot.app import QwixxBot
from bot.cogs.buttons import Malformed, decode_move
from bot.rules import Game, Move
from bot.sandbox import SimMember
from bot.sandbox.autoplay import Choice, choices, seeded_policy
from bot.sandbox.records import StoredMessage

SECRET = "a secret of the tests' own"


def noon(day: str) -> float:
    """12:00 UTC of ``day`` (unix seconds)."""
    return datetime.fromisoformat(f"{day}T12:00").replace(tzinfo=UTC).timestamp()


async def know_secret(bot: QwixxBot) -> None:
    """Give the bot's database :data:`SECRET` before any day's dice are dealt."""
    assert bot.store is not None
    await bot.store._transact(lambda conn: conn.execute(
        "INSERT INTO daily_secret (id, secret) VALUES (1, ?)", (SECRET,)))


async def confirmed(member: SimMember, message: StoredMessage) -> StoredMessage:
    """``message``, once its costly move is confirmed if the bot asked first."""
    confirm = [c for c in choices(message) if c.custom_id.endswith(":yes")]
    return await confirm[0].take(member, message) if confirm else message


async def play_daily(member: SimMember, variant: str = "classic",
                     seed: int = 1) -> tuple[StoredMessage, list[str]]:
    """Begin the day's attempt and play it to its end with the buttons, chosen at random;
    the final message and every message content seen before it."""
    policy = seeded_policy(seed)
    message = (await member.slash("qwixx", "daily", variant=variant)).message
    seen = []
    for _ in range(500):
        offered = choices(message)
        if not offered:  # the result: nothing left to play
            return message, seen
        seen.append(message.content)
        message = await confirmed(member, await policy(member, offered, message).take(
            member, message))
    raise AssertionError("the daily game did not end")


def move_of(choice: Choice) -> Move | None:
    """The move a button (or an option of a select) plays; None for any other button."""
    try:
        return decode_move(choice.value or choice.custom_id.split(":", 4)[4])
    except (Malformed, IndexError):
        return None


async def play_moves(member: SimMember, variant: str, game: Game,
                     choose: Callable[[Game], Move]) -> StoredMessage:
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
    assert not choices(message), message.content  # the bot's game is over too
    return message
