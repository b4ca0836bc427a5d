"""Through the stand-in: the daily challenge's dice are the same for everyone all the
way. Members of two servers play one day's attempt: one locks red by turn 6, another
green later, a third plays at random (in Qwinto each throws other dice); every die
each of them still has shows the same face on every throw, and so does it in par's
game (Hard's, on the same dice).

The moves are driven: the day of each variant is one whose dice let a member lock red
by turn 6 and another lock green later (found with :func:`lock_plan`, the secret fixed
by :func:`~tests.e2e.daily_play.know_secret`), so the locks happen on every run.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import AsyncIterator, Callable, Iterable
from pathlib import Path
from typing import Any

import pytest

from bot.app import QwixxBot
from bot.players import choose
from bot.rules import PASS, Game, Move
from bot.rules.dice import DICE_V4
from bot.sandbox import Sandbox
from bot.service.daily import daily_dice, daily_game, daily_seed
from tests.fakes import FakeClock

from .daily_play import SECRET, daily_bot, know_secret, noon, play_daily, play_moves, two_servers

DAYS = {
    "classic": "2030-07-05",
    "longo": "2030-05-22",
    "onboard": "2030-06-29",
    "qwinto": "2030-01-01",
}
"""Each Qwixx variant's first day from 2030-01-01 on whose dice let a member lock red by
turn 6 and another lock green after that (:func:`lock_plan`, :data:`SECRET`)."""
Throws = dict[tuple[int, int], dict[str, int]]
"""(turn, attempt) -> the faces thrown (attempt 1: Qwinto's re-roll)."""


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(noon(DAYS["classic"]))


@pytest.fixture
def bot(database: Path, clock: FakeClock) -> QwixxBot:
    return daily_bot(database, clock)


@pytest.fixture
async def sb(bot: QwixxBot) -> AsyncIterator[Sandbox]:
    async with two_servers(bot) as sandbox:
        await know_secret(bot)
        yield sandbox


def lock_plan(game: Game, row: str, by_turn: int) -> list[Move] | None:
    """Moves of a solo Qwixx game that lock ``row`` by ``by_turn``: crosses in that row,
    else passes (a depth-first search of the rules' game; None if there are none)."""
    if row in game.closed:
        return []
    if game.finished or game.turn > by_turn:
        return None
    (player,) = game.players
    for move in [
        *(m for m in game.legal_moves(player) if m.kind in ("cross", "lucky") and m.row == row),
        PASS,
    ]:
        rest = lock_plan(game.apply(player, move)[0], row, by_turn)
        if rest is not None:
            return [move, *rest]
    return None


def tight(game: Game) -> Move:
    """A cross that skips the fewest numbers, else a pass (On Board: the pawn stays)."""
    (player,) = game.players
    crosses = [m for m in game.legal_moves(player) if m.kind in ("cross", "lucky")]
    return min(crosses, key=lambda m: len(game.skipped_by(player, m)), default=PASS)


def following(plan: list[Move]) -> Callable[[Game], Move]:
    """The moves of ``plan``, then :func:`tight` ones."""
    left = iter(plan)
    return lambda game: next(left, None) or tight(game)


QWINTO = ("orange", "yellow", "purple")


def qwinto_player(throws: list[tuple[str, ...]], reroll: int) -> Callable[[Game], Move]:
    """Throws ``throws[turn % len]``, re-rolls every ``reroll``-th turn (0: never), then
    writes the sum in the first field it may (else passes)."""

    def play(game: Game) -> Move:
        (player,) = game.players
        phase = game.decision().phase
        if phase == "roll":
            return Move("roll", dice=throws[game.turn % len(throws)])
        if phase == "reroll":
            return Move("reroll" if reroll and game.turn % reroll == 0 else "keep")
        return game.legal_moves(player)[0]

    return play


def day_game(variant: str, player: int) -> Game:
    """A new game of the variant's day for ``player``: the attempt as the bot begins it."""
    day = DAYS[variant]
    return daily_game(variant, player, daily_seed(SECRET, day, variant), day)


def throws(events: Iterable[tuple[int, str, dict[str, Any]]]) -> Throws:
    """The throws among ``(turn, kind, data)`` events: the Qwixx games' turn openings and
    Qwinto's rolls."""
    found: Throws = {}
    for turn, kind, data in events:
        if kind == "turn" and "dice" in data:
            found[data["turn"], 0] = data["dice"]
        elif kind == "rolled":
            found[turn, data["attempt"]] = data["dice"]
    return found


async def stored_throws(bot: QwixxBot, variant: str, player: int) -> Throws:
    """Every throw of the player's finished attempt, from the events the bot stored."""
    assert bot.store is not None
    attempt = await bot.store.daily.attempt(DAYS[variant], variant, player)
    assert attempt is not None and attempt.score is not None
    return throws((e.turn, e.kind, e.data) for e in await bot.store.games.events(attempt.game_id))


def par_throws(variant: str) -> Throws:
    """Every throw of par's game: Hard alone on the day's dice, played by the rules."""
    game = day_game(variant, 1)
    rng = random.Random(game.seed)
    events = [(1, "turn", {"turn": 1, "dice": game.dice_on_table()})]
    while not game.finished:
        turn = game.turn
        game, happened = game.apply(1, choose(game, 1, rng, "hard"))
        events += [(turn, e.kind, e.data) for e in happened]
    return throws(events)


def closed_from(found: Throws, die: str) -> int | None:
    """The first turn thrown without ``die`` (its row closed), if any."""
    return next((turn for (turn, _), dice in sorted(found.items()) if die not in dice), None)


@pytest.mark.parametrize("variant", sorted(DAYS))
async def test_every_die_shows_everyone_the_same_face_whatever_they_closed_par_too(
    sb: Sandbox, bot: QwixxBot, clock: FakeClock, variant: str
) -> None:
    clock.now = noon(DAYS[variant])
    alpha, beta = sb.guilds
    ana, cem = sb.member("Ana", guild=alpha), sb.member("Cem", guild=alpha)
    ben = sb.member("Ben", guild=beta)
    if variant == "qwinto":  # each throws other dice, Ana re-rolls now and then
        await play_moves(
            ana,
            variant,
            day_game(variant, ana.id),
            qwinto_player(
                [("orange", "yellow"), ("purple",), QWINTO, ("yellow", "purple")], reroll=3
            ),
        )
        await play_moves(
            ben,
            variant,
            day_game(variant, ben.id),
            qwinto_player([QWINTO, ("orange", "purple")], reroll=0),
        )
    else:
        red = lock_plan(day_game(variant, ana.id), "red", by_turn=6)
        green = lock_plan(day_game(variant, ben.id), "green", by_turn=16)
        assert red is not None and green is not None, "the day's dice allow both locks"
        await play_moves(ana, variant, day_game(variant, ana.id), following(red))
        await play_moves(ben, variant, day_game(variant, ben.id), following(green))
    await play_daily(cem, variant, seed=3)
    seen = {member.name: await stored_throws(bot, variant, member.id) for member in (ana, ben, cem)}
    seen["par"] = par_throws(variant)
    assert daily_dice(DAYS[variant]) == DICE_V4

    compared = 0
    for one, other in itertools.combinations(seen, 2):
        for key in seen[one].keys() & seen[other].keys():
            mine, theirs = seen[one][key], seen[other][key]
            for die in mine.keys() & theirs.keys():
                assert mine[die] == theirs[die], (one, other, key, die, mine, theirs)
                compared += 1
    assert compared > 100

    # What the comparison covers: the dice in play (or thrown) differed among them.
    if variant == "qwinto":
        assert any(
            len(seen["Ana"][key]) != len(seen["Ben"][key])
            for key in seen["Ana"].keys() & seen["Ben"].keys()
        )
        assert any(attempt for _, attempt in seen["Ana"])  # re-rolls are throws too
        return
    red_gone, green_gone = closed_from(seen["Ana"], "red"), closed_from(seen["Ben"], "green")
    assert red_gone is not None and red_gone <= 7  # locked by turn 6
    assert green_gone is not None and green_gone > red_gone
    assert max(turn for turn, _ in seen["Ana"]) >= red_gone + 2  # turns after the lock
    assert max(turn for turn, _ in seen["Ben"]) >= green_gone + 2
    assert any(
        "red" not in seen["Ana"][key] and "red" in seen["Ben"][key]
        for key in seen["Ana"].keys() & seen["Ben"].keys()
    )
