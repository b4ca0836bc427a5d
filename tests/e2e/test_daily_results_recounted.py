"""Through the stand-in: what the daily challenge tells is recounted from the stored
attempts. Members of two servers finish one day's attempt after others (played
through the service) did; each result's score, par and its verdict, place and share
among everyone so far, place on the server, streak and text to share, and each
server's ranking message, are read as a member sees them and checked against the
games replayed by the rules from each attempt's stored seed and moves, par against
Hard's game on the same dice: never against the code that wrote the texts."""

from __future__ import annotations

import random
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.app import QwixxBot
from bot.players import choose
from bot.rules import Game, Move, dice_version_of, new_game, replay
from bot.sandbox import Sandbox
from tests.fakes import FakeClock

from .daily_play import daily_bot, know_secret, noon, play_daily, shared, two_servers

DAY = "2033-05-18"
VARIANT = "classic"
ORDINAL = r"\*\*(\d+)(?:st|nd|rd|th)\*\*"
ROWS = {"🟥": "red", "🟨": "yellow", "🟩": "green", "🟦": "blue"}


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(noon(DAY))


@pytest.fixture
def bot(database: Path, clock: FakeClock) -> QwixxBot:
    return daily_bot(database, clock)


@pytest.fixture
async def sb(bot: QwixxBot) -> AsyncIterator[Sandbox]:
    async with two_servers(bot) as sandbox:
        yield sandbox


@dataclass(frozen=True)
class Replayed:
    """A finished attempt as the rules replay it from the store."""

    user: int
    guild: int
    finished_at: float
    game: Game

    @property
    def score(self) -> int:
        return self.game.scores()[self.user].total


async def replayed(bot: QwixxBot, user: int) -> Replayed:
    """``user``'s attempt of the day, replayed from its stored seed and moves."""
    assert bot.store is not None
    attempt = await bot.store.daily.attempt(DAY, VARIANT, user)
    assert attempt is not None and attempt.finished_at is not None
    record = await bot.store.games.get(attempt.game_id)
    assert record is not None and record.state is not None
    moves = [(m.player_id, Move.from_json(m.move)) for m in await bot.store.games.moves(record.id)]
    game = replay(
        VARIANT,
        [user],
        record.seed,
        {},
        moves,
        solo=True,
        dice_version=dice_version_of(record.state),
    )
    assert game.finished
    return Replayed(user, attempt.guild_id, attempt.finished_at, game)


def par_of(seed: int, dice_version: int) -> int:
    """Hard alone on the day's dice."""
    game = new_game(VARIANT, [1], seed, {}, solo=True, dice_version=dice_version)
    rng = random.Random(seed)
    while not game.finished:
        game, _ = game.apply(1, choose(game, 1, rng, "hard"))
    return game.scores()[1].total


def number(text: str) -> int:
    return int(text.replace("−", "-"))


def place_among(score: int, scores: list[int]) -> int:
    return 1 + sum(other > score for other in scores)


def check_result(text: str, share: str, mine: Replayed, everyone: list[Replayed], par: int) -> None:
    """Every fact of a result message and its text to share, against the replays."""
    so_far = [r for r in everyone if r.finished_at <= mine.finished_at]
    scores = [r.score for r in so_far]
    found = re.search(r"finished with \*\*(−?\d+)\*\*!", text)
    assert found and number(found[1]) == mine.score, text
    found = re.search(r"on these dice: \*\*(−?\d+)\*\* \(([^)]*)\)", text)
    assert found and number(found[1]) == par, text
    gap = mine.score - par
    unit = "point" if abs(gap) == 1 else "points"
    assert found[2] == (
        "level with par" if gap == 0 else f"{abs(gap)} {unit} {'above' if gap > 0 else 'below'} par"
    ), text
    if len(so_far) == 1:
        assert "🌍 You are the first to finish these dice." in text
    else:
        found = re.search(
            rf"🌍 {ORDINAL} of the (\d+) players who finished these dice so "
            r"far(?:, better than \*\*(\d+)%\*\* of them)?\n",
            text,
        )
        assert found, text
        assert int(found[1]) == place_among(mine.score, scores) and int(found[2]) == len(so_far)
        below = sum(score < mine.score for score in scores)
        if found[3] is not None:  # a share beaten: never more than is true
            assert int(found[3]) == 100 * below // len(so_far) > 0, text
        else:
            assert len(so_far) < 10 or 100 * below // len(so_far) == 0, text
    server = [r.score for r in so_far if r.guild == mine.guild]
    found = re.search(rf"🏠 On this server: {ORDINAL} of (\d+) players?\n", text)
    assert found and (int(found[1]), int(found[2])) == (
        place_among(mine.score, server),
        len(server),
    ), text
    assert "🔥 Streak: **1 day** in a row" in text  # the first day played
    title, *grid = share.splitlines()
    assert title == f"Qwixx daily {DAY}: {str(mine.score).replace('-', '−')} 🔥1"
    sheet = mine.game.sheets[mine.user]
    penalties = mine.game.scores()[mine.user].penalties
    rows = grid[:4]
    for line in rows:
        row = ROWS.get(line[0])
        crossed = sheet.crossed[row] if row else []
        assert line.count(line[0]) == len(crossed) or (line == "⬜" and not crossed), line
        assert ("🔒" in line) == (row in sheet.locks), line
    assert [ROWS[line[0]] for line in rows if line[0] in ROWS] == [
        row for row, numbers in sheet.crossed.items() if numbers
    ]
    assert grid[4:] == (["❌" * penalties] if penalties else [])


def check_ranking(text: str, guild: int, everyone: list[Replayed]) -> None:
    """A server's ranking message, against its members' replayed scores."""
    here = [r for r in everyone if r.guild == guild]
    scores = [r.score for r in here]
    lines = re.findall(r"^(\S+) <@(\d+)> — \*\*(−?\d+)\*\*$", text, re.MULTILINE)
    assert len(lines) == len(here), text
    medals = {"🥇": 1, "🥈": 2, "🥉": 3}
    by_user = {r.user: r.score for r in here}
    shown = []
    for place, user, score in lines:
        assert number(score) == by_user[int(user)], text
        expected = place_among(number(score), scores)
        assert (medals[place] if place in medals else int(place[:-2])) == expected, text
        shown.append(number(score))
    assert shown == sorted(shown, reverse=True)  # best first


async def play_through_the_service(
    bot: QwixxBot, clock: FakeClock, user: int, guild: int, channel: int, level: str
) -> None:
    """An attempt of someone the test does not look at, begun, played and finished."""
    daily = bot.handlers.daily.service
    attempt, outcome = await daily.begin(guild, channel, user, VARIANT)
    game, rng = outcome.game, random.Random(user)
    assert game is not None
    while not game.finished:
        outcome = await bot.service.turns.move(
            attempt.game_id, user, game.turn, game.decision().phase, choose(game, user, rng, level)
        )
        assert outcome.game is not None
        game = outcome.game
    clock.now += 60
    await daily.finish(attempt, game)


async def test_a_days_results_and_rankings_are_what_the_stored_attempts_replay_to(
    sb: Sandbox, bot: QwixxBot, clock: FakeClock
) -> None:
    await know_secret(bot)  # the same day's dice every run: someone beats someone in it
    alpha, beta = sb.guilds
    members = [
        sb.member("Ana", guild=alpha),
        sb.member("Ben", guild=beta),
        sb.member("Cem", guild=alpha),
        sb.member("Dan", guild=alpha),
        sb.member("Eve", guild=beta),
    ]
    where = {alpha.id: sb.channel_named("general"), beta.id: members[1].channel}
    others = [
        (9001 + i, (alpha, beta)[i % 2].id, level)
        for i, level in enumerate(["easy", "normal", "easy", "hard", "normal", "easy", "normal"])
    ]
    # Alpha's first attempt of the day is begun in #daily, and finished after others':
    # its ranking is posted there all the same (where the first member of the day played).
    first = {**where, alpha.id: sb.channel_named("daily")}
    await bot.handlers.daily.service.begin(alpha.id, first[alpha.id].id, others[-1][0], VARIANT)
    for user, guild, level in others:
        await play_through_the_service(bot, clock, user, guild, where[guild].id, level)
    shown: dict[int, tuple[str, str]] = {}
    for seed, member in enumerate(members, 1):
        clock.now += 60
        final, _ = await play_daily(member, VARIANT, seed=seed)
        shown[member.id] = final.content, (await shared(sb, member, final)).content

    everyone = [
        await replayed(bot, user) for user in [u for u, _, _ in others] + [m.id for m in members]
    ]
    day = everyone[0].game
    assert all(
        (r.game.seed, r.game.dice_version) == (day.seed, day.dice_version) for r in everyone
    )  # one day's dice
    par = par_of(day.seed, day.dice_version)
    for member in members:
        final, share = shown[member.id]
        check_result(final, share, next(r for r in everyone if r.user == member.id), everyone, par)
    assert any("better than" in final for final, _ in shown.values())  # from 10 on

    for guild, channel in first.items():
        count = sum(r.guild == guild for r in everyone)
        board = await sb.wait_for_message(
            lambda m, count=count: (
                "this server's ranking" in m.content and m.content.count("<@") == count
            ),
            channel=channel,
        )
        check_ranking(board.content, guild, everyone)
